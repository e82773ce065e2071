"""MJCF import (docs/mjcf.md): the models bench_sim hands to MuJoCo run in moreau as the native
scenes do, three gallery-style models (a capsule ragdoll, a hinged door, ball-joint pendulums)
run with bounded energy and their joint limits held, `moreau convert` round-trips, and the
command line reports ignored attributes and refuses what it cannot read.
"""
import math
import os
import subprocess

import numpy as np
import pytest

import moreau

HERE = os.path.dirname(__file__)
MODELS = os.path.join(HERE, "..", "..", "examples", "mjcf")
CLI = os.environ.get("MOREAU_CLI", os.path.join(HERE, "..", "..", "build", "bin", "moreau"))


def model(name):
    return os.path.join(MODELS, name)


def quaternions(res, body):
    """(k, 4) unit quaternions (w, x, y, z) of a body's column block."""
    i = res.position_names.index(f"{body}.qw")
    return res.q[:, i:i + 4]


def positions(res, body):
    i = res.position_names.index(f"{body}.x")
    return res.q[:, i:i + 3]


def rotate(q, v):
    """Rotates v by the unit quaternion q = (w, x, y, z)."""
    w, u = q[0], np.asarray(q[1:])
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


@pytest.mark.parametrize("name", ["box_stack", "sphere_pile"])
def test_bench_models_run_as_the_native_scenes(tmp_path, name):
    bench = os.path.join(os.path.dirname(CLI), "bench_sim")
    if not os.path.exists(bench):
        pytest.skip("bench_sim not built")
    subprocess.run([bench, f"--write-models={tmp_path}"], check=True)
    with pytest.warns(moreau.ModelWarning, match="<size"):
        imported = moreau.simulate(str(tmp_path / f"{name}.xml"), t_end=1.0)
    native = moreau.simulate(str(tmp_path / f"{name}.json"), t_end=1.0)
    assert imported.summary["status"] == "completed"
    assert imported.q.shape == native.q.shape
    assert np.array_equal(imported.t, native.t)
    # the same bodies in the same order, at the same places over the first second
    assert imported.position_names == native.position_names
    gap = np.abs(imported.q - native.q).max()
    assert gap < (1e-9 if name == "box_stack" else 1e-3), gap
    assert imported.summary["max_penetration"] < 1e-3


def test_ragdoll_lands_with_bounded_energy():
    with pytest.warns(moreau.ModelWarning) as notes:
        res = moreau.simulate(model("ragdoll.xml"), t_end=2.0)
    text = "\n".join(str(n.message) for n in notes)
    for ignored in ("<geom solref>", "<light>"):
        assert ignored in text
    assert "<joint damping>" not in text  # joint damping is honoured
    assert res.summary["status"] == "completed"
    # it fell from 1.3 m and lies on the floor: the torso's centre between its radius and 1.3 m
    z = positions(res, "torso")[:, 2]
    assert z[-1] < 0.6 and z.min() > 0.09
    # rigid, inelastic contacts only take energy away
    assert res.energy[-1] < res.energy[0] - 1.0
    assert res.summary["energy_max_gain"] < 1e-3 * abs(res.energy[0] - res.energy[-1])
    assert res.summary["max_penetration"] < 2e-3
    # the knees stay in their range [−100°, 0] (angle of the shin about y relative to the thigh)
    for side in ("l", "r"):
        for qt, qs in zip(quaternions(res, f"thigh_{side}"), quaternions(res, f"shin_{side}")):
            rel = rotate(np.array([qt[0], -qt[1], -qt[2], -qt[3]]), rotate(qs, np.array([1.0, 0, 0])))
            knee = math.atan2(-rel[2], rel[0])
            assert -math.radians(100) - 1e-3 <= knee <= 1e-3


def test_benchmark_humanoid_falls_with_every_step_at_tolerance():
    """bench/models/humanoid.xml (capsules, 2-3 hinges per body, springs, knees starting on their
    limits) falls on the floor at dt 5 ms for 3 s. Its feet and limits give 10-14 contacts whose W
    has rank <= 27 on 30-42 rows; with the rule fitted on FCLIB ("hybrid") 179 of its 600 steps
    once ended above the tolerance, then 1 after the mu = 0 cone fix. Every step converges now
    (choose_velocity_level_solver), and inelastic contacts only take energy away."""
    bench = os.path.join(HERE, "..", "..", "bench", "models", "humanoid.xml")
    res = moreau.simulate(bench, t_end=3.0)
    s = res.summary
    assert s["status"] == "completed" and s["steps"] == 600
    assert s["solver_failures"] == 0, s["message"]
    assert res.energy[-1] < res.energy[0] - 100.0  # it fell and came to lie on the floor
    assert s["max_penetration"] < 2e-3


def test_door_swings_to_its_hinge_limit():
    with pytest.warns(moreau.ModelWarning, match="integrator"):
        res = moreau.simulate(model("door.xml"), t_end=4.0)
    # rotation φ about −z takes the door's y axis to (sin φ, cos φ, 0)
    y_axis = np.array([rotate(q, np.array([0, 1.0, 0])) for q in quaternions(res, "door")])
    phi = np.arctan2(y_axis[:, 0], y_axis[:, 1])
    # a pendulum about the vertical hinge, g_x pulling it to φ = 90°: released at 0 it would swing
    # to 180°; the range stops it at 100° (inelastic), from where it swings between 80° and 100°
    limit = math.radians(100)
    assert phi.max() <= limit + 1e-4
    hit = np.argmax(phi >= limit - 1e-3)
    assert hit > 0
    after = phi[hit + 10:]
    assert after.max() <= limit + 1e-4
    assert abs(after.min() - math.radians(80)) < math.radians(0.5)
    # before it gets there it turns under the torque of g_x = 1 m/s² on its centre 0.42 m out:
    # I φ̈ = m g_x r cos φ with I = m ((0.8² + 0.04²)/12 + r²), so at small t φ ≈ ½ φ̈ t²
    m, r = 20.0, 0.42
    inertia = m * ((0.8 ** 2 + 0.04 ** 2) / 12 + r ** 2)
    early = res.t < 0.2
    assert np.allclose(phi[early], 0.5 * m * 1.0 * r / inertia * res.t[early] ** 2, atol=2e-4)
    # the crate keeps still (μ = 0.6 > tan of the slope 1/9.81)
    crate = positions(res, "crate")
    assert np.abs(crate - crate[0]).max() < 1e-4


def test_ball_pendulums_keep_energy_and_their_cone():
    res = moreau.simulate(model("ball_pendulum.xml"), t_end=2.0)
    assert res.summary["status"] == "completed"
    # the free pendulum (its energy alone: kinetic of body 0 from v, potential m g z)
    g = 9.81
    z = positions(res, "free_swing")[:, 2]
    v = res.v[:, 0:6]
    inertia_axis = 1.0 * (1.0 ** 2 / 12 + 0.03 ** 2 / 4)  # rod about its centre (thin capsule)
    energy = 0.5 * np.sum(v[:, :3] ** 2, axis=1) + 0.5 * inertia_axis * np.sum(v[:, 3:] ** 2, axis=1) + g * z
    assert np.ptp(energy) < 0.03 * (1 - math.cos(math.radians(40))) * g * 0.5 + 1e-3 * g
    # the limited one turns at most 25° from its starting pose, and reaches it
    q = quaternions(res, "in_cone")
    turn = 2 * np.arccos(np.clip(np.abs(q @ q[0]), -1, 1))
    assert turn.max() <= math.radians(25) + 1e-4
    assert turn.max() >= math.radians(25) - 1e-3


def test_convert_round_trip_gives_the_same_run(tmp_path):
    out = tmp_path / "door.json"
    run = subprocess.run([CLI, "convert", model("door.xml"), "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "warning" in run.stderr and "<option integrator> ignored" in run.stderr
    with pytest.warns(moreau.ModelWarning):
        direct = moreau.simulate(model("door.xml"), t_end=1.0)
    converted = moreau.simulate(str(out), t_end=1.0)
    assert np.abs(direct.q - converted.q).max() < 1e-9
    with pytest.warns(moreau.ModelWarning):
        scene = moreau.convert(model("door.xml"))
    assert [b["name"] for b in scene["bodies"]] == ["world", "door", "crate"]
    assert scene["joints"][0]["limits"] == pytest.approx([0.0, math.radians(100)])


def test_command_line_runs_and_refuses(tmp_path):
    run = subprocess.run([CLI, "simulate", model("door.xml"), "--t-end", "0.05", "--no-plot",
                          "-o", str(tmp_path / "door")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "door" / "trajectory.csv").exists()
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n  <worldbody>\n    <body><freejoint/><geom size="0.1" '
                   'fluffiness="2"/></body>\n  </worldbody>\n</mujoco>\n')
    run = subprocess.run([CLI, "simulate", str(bad)], capture_output=True, text=True)
    assert run.returncode == 2
    assert f'{bad}:3: <geom fluffiness="2">' in run.stderr
    bad.write_text("<mujoco>\n<deformable/>\n</mujoco>\n")
    run = subprocess.run([CLI, "convert", str(bad), "-o", str(tmp_path / "x.json")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and f"{bad}:2: <deformable>" in run.stderr
    assert not (tmp_path / "x.json").exists()
