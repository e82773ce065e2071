#!/usr/bin/env python3
"""Keeps the layer order of docs/architecture.md (issue 10, item 6).

    common ← linalg ← problems ← solvers ← model ← contact ← analysis ← impact ← sim ← io ← apps, python

Four rules, each failure printed as one line naming the file, the line and the offending include:
  1. A header or source of layer L (include/moreau/L/**, src/L/**, sub-folders included) includes
     only "moreau/K/..." with K at or before L in the order (no back-edge). A relative include
     ("x.hpp", "../K/x.hpp") is resolved against the including file's folder and counts as an
     include of the layer it lands in.
  2. The CMake target of each layer (the `moreau_layer(L ...)` lines of CMakeLists.txt) links
     exactly the moreau layers that L's files include, no more and no fewer.
  3. apps/ and python/ include public headers only: "moreau/..." or their own folder's files,
     never src/ (private headers) or each other's files ("../apps/...").
  4. io's rooms keep their own order (docs/architecture.md):
       os ← json ← problems, reports, mesh ← run ← scene ← import
     a file of io/R (include/moreau/io/R/**, src/io/R/**) includes only io rooms at or before R;
     the forwarding headers left at include/moreau/io/*.hpp include exactly one room header each
     (load_scene.hpp beside scene.hpp) and nothing else, and no .cpp sits in src/io itself.

Usage: check_layers.py SOURCE_DIR. Exit status 0 = the tree keeps the order, 1 = it does not.
"""
import pathlib
import re
import sys

IO_ROOMS = ["os", "json", "problems", "reports", "mesh", "run", "scene", "import"]
# rooms of one rank are siblings: neither may include the other
IO_RANK = {"os": 0, "json": 1, "problems": 2, "reports": 2, "mesh": 2, "run": 3, "scene": 4, "import": 5}
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


def resolve(root, path, target):
    """The "moreau/K/..." form of an include: as written, or for a relative include that lands in
    include/moreau/** or src/**, the path it lands on; None for anything else (third-party)."""
    if target.startswith("moreau/"):
        return target
    landed = (path.parent / target).resolve()
    for base in (root / "include" / "moreau", root / "src"):
        try:
            rel = landed.relative_to(base)
        except ValueError:
            continue
        if landed.is_file() and len(rel.parts) >= 2:
            return "moreau/" + "/".join(rel.parts)
    return None


def check_order(root):
    """Rule 1; returns (failures, {layer: set of moreau layers it includes})."""
    failures, used = [], {}
    for layer in ORDER:
        used[layer] = set()
        for path in layer_files(root, layer):
            for number, written in includes(path):
                target = resolve(root, path, written)
                if target is None:
                    continue
                parts = target.split("/")
                if len(parts) < 3 or parts[0] != "moreau":
                    continue
                other = parts[1]
                if other not in RANK:
                    failures.append(f"{path.relative_to(root)}:{number}: includes \"{written}\" of the unknown layer '{other}'")
                    continue
                if other != layer:
                    used[layer].add(other)
                if RANK[other] > RANK[layer]:
                    failures.append(
                        f"{path.relative_to(root)}:{number}: layer '{layer}' includes \"{written}\" of the later layer "
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


def io_room(root, path):
    """The io room of a file (None outside io's rooms) and whether it sits in io's top folder."""
    for base in (root / "include" / "moreau" / "io", root / "src" / "io"):
        try:
            rel = path.relative_to(base)
        except ValueError:
            continue
        return (rel.parts[0] if len(rel.parts) > 1 else None), len(rel.parts) == 1
    return None, False


def check_io_rooms(root):
    """Rule 4: io's rooms, the forwarding headers, no loose sources."""
    failures = []
    for path in layer_files(root, "io"):
        where = path.relative_to(root)
        room, top = io_room(root, path)
        if top:
            if path.suffix == ".cpp" or "src" in where.parts[:1]:
                failures.append(f"{where}: a file in io's top folder; io's files live in its rooms ({', '.join(IO_ROOMS)})")
                continue
            targets = [t for _, t in includes(path)]
            rooms = [t for t in targets if t.startswith("moreau/io/") and t.count("/") == 3]
            if len(rooms) != len(targets) or not 1 <= len(rooms) <= 2:
                failures.append(f"{where}: a forwarding header includes {targets}; it must include its room's header and nothing else")
            continue
        if room not in IO_RANK:
            failures.append(f"{where}: io room '{room}' is not one of {IO_ROOMS} (tests/architecture/check_layers.py)")
            continue
        for number, written in includes(path):
            target = resolve(root, path, written)
            if target is None or not target.startswith("moreau/io/"):
                continue
            parts = target.split("/")
            if len(parts) == 3:
                failures.append(f"{where}:{number}: includes the forwarding header \"{written}\"; include moreau/io/ROOM/... instead")
                continue
            other = parts[2]
            if other not in IO_RANK:
                failures.append(f"{where}:{number}: includes \"{written}\" of the unknown io room '{other}'")
            elif other != room and IO_RANK[other] >= IO_RANK[room]:
                failures.append(
                    f"{where}:{number}: io room '{room}' includes \"{written}\" of the room '{other}', which is not "
                    f"before it (order: os <- json <- problems, reports, mesh <- run <- scene <- import)")
    return failures


def main(argv):
    if len(argv) != 2:
        print("usage: check_layers.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    failures, used = check_order(root)
    failures += check_cmake(root, used)
    failures += check_front_ends(root)
    failures += check_io_rooms(root)
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
