#!/usr/bin/env python3
"""Keeps the layer order of docs/architecture.md (issue 10, item 6).

    common ← linalg ← problems ← solvers ← model ← contact ← analysis ← impact ← sim ← io ← apps, python

Three rules, each failure printed as one line naming the file, the line and the offending include:
  1. A header or source of layer L (include/moreau/L/**, src/L/**) includes only
     "moreau/K/..." with K at or before L in the order (no back-edge).
  2. The CMake target of each layer (the `moreau_layer(L ...)` lines of CMakeLists.txt) links
     exactly the moreau layers that L's files include, no more and no fewer.
  3. apps/ and python/ include public headers only: "moreau/..." or their own folder's files,
     never src/ (private headers) or each other's files ("../apps/...").

Usage: check_layers.py SOURCE_DIR. Exit status 0 = the tree keeps the order, 1 = it does not.
"""
import pathlib
import re
import sys

ORDER = ["common", "linalg", "problems", "solvers", "model", "contact", "analysis", "impact", "sim", "io"]
RANK = {layer: k for k, layer in enumerate(ORDER)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LAYER_CALL = re.compile(r"^\s*moreau_layer\((\w+)((?:\s+[\w:]+)*)\s*\)", re.M)


def includes(path):
    """(line number, included path) of each quoted #include of a file."""
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        m = INCLUDE.match(line)
        if m:
            yield number, m.group(1)


def layer_files(root, layer):
    for base in (root / "include" / "moreau" / layer, root / "src" / layer):
        if base.is_dir():
            yield from sorted(p for p in base.rglob("*") if p.suffix in (".hpp", ".cpp", ".h"))


def check_order(root):
    """Rule 1; returns (failures, {layer: set of moreau layers it includes})."""
    failures, used = [], {}
    for layer in ORDER:
        used[layer] = set()
        for path in layer_files(root, layer):
            for number, target in includes(path):
                parts = target.split("/")
                if len(parts) < 3 or parts[0] != "moreau":
                    continue
                other = parts[1]
                if other not in RANK:
                    failures.append(f"{path.relative_to(root)}:{number}: includes \"{target}\" of the unknown layer '{other}'")
                    continue
                if other != layer:
                    used[layer].add(other)
                if RANK[other] > RANK[layer]:
                    failures.append(
                        f"{path.relative_to(root)}:{number}: layer '{layer}' includes \"{target}\" of the later layer "
                        f"'{other}' (order: {' <- '.join(ORDER)})")
    return failures, used


def check_cmake(root, used):
    """Rule 2: each moreau_layer(L deps...) links exactly the layers L includes."""
    text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
    declared = {}
    for m in LAYER_CALL.finditer(text):
        deps = {d.split("::")[1] for d in m.group(2).split() if d.startswith("moreau::")}
        declared.setdefault(m.group(1), set()).update(deps)
    failures = []
    for layer in ORDER:
        if layer not in declared:
            failures.append(f"CMakeLists.txt: no moreau_layer({layer} ...) line")
            continue
        extra, missing = declared[layer] - used[layer], used[layer] - declared[layer]
        if extra:
            failures.append(f"CMakeLists.txt: moreau_layer({layer}) links {sorted(extra)}, which its files do not include")
        if missing:
            failures.append(f"CMakeLists.txt: moreau_layer({layer}) does not link {sorted(missing)}, which its files include")
    return failures


def check_front_ends(root):
    """Rule 3: apps/ and python/ see public headers only."""
    failures = []
    for folder in ("apps", "python"):
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(p for p in base.rglob("*") if p.suffix in (".hpp", ".cpp", ".h")):
            for number, target in includes(path):
                if target.startswith("moreau/"):
                    continue
                if ".." in target.split("/") or target.startswith("src/"):
                    failures.append(f"{path.relative_to(root)}:{number}: includes \"{target}\", which is not a public header")
                elif not (path.parent / target).is_file():
                    failures.append(f"{path.relative_to(root)}:{number}: includes \"{target}\", not found beside it")
    return failures


def main(argv):
    if len(argv) != 2:
        print("usage: check_layers.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    failures, used = check_order(root)
    failures += check_cmake(root, used)
    failures += check_front_ends(root)
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
