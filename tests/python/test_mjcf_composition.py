"""MJCF composition (MuJoCo 3: include, frame, replicate; docs/mjcf.md): twenty dominoes written
with a replicate fall in order, and the expanded model converts to a scene that runs the same.
"""
import math
import os
import subprocess

import numpy as np

import moreau

HERE = os.path.dirname(__file__)
DOMINOES = os.path.join(HERE, "..", "..", "examples", "mjcf", "dominoes.xml")
CLI = os.environ.get("MOREAU_CLI", os.path.join(HERE, "..", "..", "build", "bin", "moreau"))


def fall_times(res, names, degrees=30.0):
    """The first time each body's z axis tilts beyond `degrees` from the vertical (None: never)."""
    out = []
    for name in names:
        i = res.position_names.index(f"{name}.qw")
        w, x, y, z = res.q[:, i:i + 4].T
        tilt = np.degrees(np.arccos(np.clip(1 - 2 * (x * x + y * y), -1, 1)))
        out.append(res.t[np.argmax(tilt > degrees)] if tilt.max() > degrees else None)
    return out


def test_replicated_dominoes_fall_in_order():
    res = moreau.simulate(DOMINOES, t_end=1.9)
    names = [f"domino{i:02d}" for i in range(20)]  # MuJoCo's suffixes: the index on 2 digits
    times = fall_times(res, ["starter"] + names)
    assert all(t is not None for t in times), times
    assert all(b > a for a, b in zip(times, times[1:])), times
    # the wave runs at a steady pace once started: no domino waits twice as long as the median
    gaps = np.diff(times[2:])
    assert gaps.max() < 2 * np.median(gaps)
    assert res.summary["max_penetration"] < 1e-3


def test_expanded_model_converts_and_runs_the_same(tmp_path):
    out = tmp_path / "dominoes.json"
    run = subprocess.run([CLI, "convert", DOMINOES, "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    scene = moreau.convert(DOMINOES)
    bodies = [b["name"] for b in scene["bodies"]]
    assert bodies[:3] == ["world", "starter", "domino00"] and bodies[-1] == "domino19"
    # the frame lifted the row by 0.1 m, the replicate spaced it by 0.1 m
    assert np.allclose(scene["bodies"][12]["position"], [1.0, 0, 0.1], atol=1e-12)  # domino10
    direct = moreau.simulate(DOMINOES, t_end=0.3)
    converted = moreau.simulate(str(out), t_end=0.3)
    assert np.abs(direct.q - converted.q).max() < 1e-9
