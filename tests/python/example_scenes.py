"""The example scenes (examples/scenes) as dicts for the tests, changed at will, without plot.png.
Imported by the test modules (pytest puts this folder on sys.path)."""
import json
import os

SCENES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenes")


def scene(name, **changes):
    """examples/scenes/NAME as a dict, with `changes` applied and output.plot false."""
    with open(os.path.join(SCENES, name)) as f:
        s = json.load(f)
    s.update(changes)
    s.setdefault("output", {})["plot"] = False
    return s
