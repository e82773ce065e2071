#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for the public headers: the house style writes API comments as plain `//`
lines (docs/architecture.md §Conventions); this turns them into Doxygen comments, line for line, so
warnings keep their line numbers and the Unicode math shows as written.

  * the comment block at the top of a header (after #pragma once)  -> `/** ... \\file */`
  * a `//` line of its own                                        -> `///` (documents what follows)
  * `code;  // text` at the end of a member line                   -> `code;  ///< text`
  * `#define NAME(…) body  // text` (or `/* text */ \\`) after a blank line -> `/** text */` on
    that blank line
Comments inside function bodies are left alone (Doxygen ignores them)."""
import re
import sys

OWN_LINE = re.compile(r"^(\s*)//(?!/)\s?(.*)$")
TRAILING = re.compile(r"^(\s*[^/\s\"][^\"]*?[;,{])(\s+)//(?![/<])\s?(.*)$")
# a macro documented on its own line: `#define NAME(args) body  // text`, `... /* text */ \`
DEFINE_TRAILING = re.compile(r"^(#define\s+\w+(?:\([^)]*\))?[^/]*?)(\s+)(//|/\*)(?![/*<])(.*)$")
# an enumerator without a trailing comma: `  last_value  // text`
TRAILING_ENUM = re.compile(r"^(\s*[A-Za-z_][A-Za-z0-9_]*(?:\s*=\s*[^/]+?)?)(\s+)//(?![/<])\s?(.*)$")


def text(comment):
    """Comment text as written: `#name` and `<word>` are prose here, not Doxygen links or HTML."""
    comment = re.sub(r"#(?=\w)", r"\\#", comment)
    return re.sub(r"<(?=[A-Za-z/])", r"\\<", comment)


def filter_lines(lines):
    out = []
    state = "start"  # start -> file_comment -> code
    for line in lines:
        stripped = line.strip()
        if state == "start":
            if stripped.startswith("#pragma") or stripped == "":
                out.append(line)
                continue
            if OWN_LINE.match(line):
                state = "file_comment"
                m = OWN_LINE.match(line)
                out.append(f"/** {text(m.group(2))}\n")
                continue
            state = "code"
        elif state == "file_comment":
            m = OWN_LINE.match(line)
            if m:
                out.append(f" * {text(m.group(2))}\n")
                continue
            out[-1] = out[-1].rstrip("\n") + " \\file */\n"
            state = "code"
        m = OWN_LINE.match(line)
        if m:
            out.append(f"{m.group(1)}/// {text(m.group(2))}\n")
            continue
        m = DEFINE_TRAILING.match(line)
        if m and out and out[-1].strip() == "":
            # `#define X(…) body  // text` or `#define X(…) /* text */ \`: the text goes on the
            # blank line above (Doxygen reads no trailing comment on a continued macro).
            comment = m.group(4).rstrip()
            tail = ""
            if m.group(3) == "/*":
                comment, _, tail = comment.partition("*/")
            out[-1] = f"/** {text(comment.strip())} */\n"
            out.append(m.group(1) + tail.rstrip() + "\n")
            continue
        m = TRAILING.match(line) or TRAILING_ENUM.match(line)
        if m and "://" not in line:
            out.append(f"{m.group(1)}{m.group(2)}///< {text(m.group(3))}\n")
            continue
        out.append(line)
    if state == "file_comment":
        out[-1] = out[-1].rstrip("\n") + " \\file */\n"
    return out


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write("".join(filter_lines(f.readlines())))
