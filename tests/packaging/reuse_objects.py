#!/usr/bin/env python3
"""Compiler launcher of install.cmake_package_shared (CMAKE_CXX_COMPILER_LAUNCHER of its shared
build): when the static build that runs the tests compiled the same source with the same command,
copy its object instead of compiling again; otherwise run the compiler.

  reuse_objects.py STATIC_BUILD THIS_BUILD [--keep-exports] COMPILER ARGS...

Both builds compile position-independent code (CMAKE_POSITION_INDEPENDENT_CODE), so a layer's
compile command in the shared build differs from the static build's only by
-Dmoreau_<layer>_EXPORTS, which no source reads (cmake_package_shared.sh checks; with
--keep-exports the define counts), by the dependency-file options and by the build folder's path.
The command is compared with the static build's compile_commands.json entry for the same object,
the build folders' generated include folders must hold the same files, and the static object must
be newer than its source. Each decision is appended to THIS_BUILD/reuse_objects.log.
"""
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path


def normalized(args, build_root, keep_exports):
    out = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-MT", "-MF"):
            skip = True
        elif arg == "-MD":
            pass
        elif not keep_exports and re.fullmatch(r"-Dmoreau_\w+_EXPORTS", arg):
            pass
        else:
            out.append(arg.replace(build_root, "<build>"))
    return out


def option_value(args, option):
    return args[args.index(option) + 1] if option in args else None


def same_files(this_dir, static_dir):
    """Every file under this_dir is byte-identical under static_dir."""
    for path in Path(this_dir).rglob("*"):
        if path.is_file():
            other = Path(static_dir) / path.relative_to(this_dir)
            if not other.is_file() or other.read_bytes() != path.read_bytes():
                return False
    return True


def reuse(static_root, this_root, keep_exports, command):
    """Copy the static build's object and dependency file; return why not when it cannot."""
    output = option_value(command, "-o")
    source = option_value(command, "-c")
    if output is None or source is None:
        return "not a compile command"
    rel_dir = os.path.relpath(os.getcwd(), this_root)
    static_dir = os.path.realpath(os.path.join(static_root, rel_dir))
    try:
        entries = json.loads(Path(static_root, "compile_commands.json").read_text())
    except (OSError, ValueError):
        return "no compile_commands.json in the static build"
    entry = next((e for e in entries if os.path.realpath(e["directory"]) == static_dir
                  and option_value(shlex.split(e["command"]), "-o") == output), None)
    if entry is None:
        return "not compiled by the static build"
    if (normalized(shlex.split(entry["command"]), static_root, keep_exports)
            != normalized(command, this_root, keep_exports)):
        return "another command"
    for arg in command:
        if arg.startswith("-I" + this_root) and not same_files(
                arg[2:], static_root + arg[2 + len(this_root):]):
            return "generated headers differ"
    static_object = Path(static_dir, output)
    if not static_object.is_file() or static_object.stat().st_mtime < Path(source).stat().st_mtime:
        return "the static object is missing or older than its source"
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(static_object, output)
    depfile = option_value(command, "-MF")
    if depfile is not None:
        static_depfile = Path(static_dir, depfile)
        if static_depfile.is_file():
            shutil.copyfile(static_depfile, depfile)
        else:
            Path(depfile).write_text(f"{output}: {source}\n")
    return None


def main():
    static_root = os.path.realpath(sys.argv[1])
    this_root = os.path.realpath(sys.argv[2])
    rest = sys.argv[3:]
    keep_exports = bool(rest) and rest[0] == "--keep-exports"
    command = rest[1:] if keep_exports else rest
    why_not = reuse(static_root, this_root, keep_exports, command)
    with open(os.path.join(this_root, "reuse_objects.log"), "a") as log:
        target = option_value(command, "-o")
        log.write(f"reused {target}\n" if why_not is None else f"compiled {target}: {why_not}\n")
    if why_not is not None:
        os.execvp(command[0], command)


if __name__ == "__main__":
    main()
