"""The Unitree Go2 as published (shared/data/robots), standing on PD-controlled joints, then pushed.

The robot starts from its SRDF state "standing" (base link at z = 0.335 m, legs bent), floating
over the ground. Each of its 12 joints is driven through its URDF torque motor (capped at the
file's effort limit) by

    tau = Kp (q* - q) - Kd v,   q* the standing pose,

and at t = `push_at` the base is pushed sideways by `push` newtons for 0.1 s (sim.xfrc_applied,
world axes, at the base's centre of mass). It stays on its feet and returns towards its pose.

Run from the repository root (the robots are in ../shared/data/robots):

    PYTHONPATH=build/python /usr/bin/python3 examples/control/go2_stand_push.py
"""
from pathlib import Path
import warnings

import numpy as np

import moreau

ROBOT = (Path(__file__).resolve().parents[3] / "shared" / "data" / "robots" / "example-robot-data"
         / "robots" / "go2_description")
KP, KD = 60.0, 2.0  # N·m/rad, N·m·s/rad, every joint


def run(seconds=1.0, push=30.0, push_at=0.5, robot=ROBOT):
    """Stands the Go2 for `seconds` with a sideways push of `push` N for 0.1 s from `push_at`.
    Returns a dict: t, base (the base's centre-of-mass path, one row (x, y, z) per step), q0,
    target, q (final), error (max |q* - q| over the legs at the end, rad), status."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the file's velocity limits, gazebo tags, its start pose
        sim = moreau.Simulator(str(robot / "urdf" / "go2.urdf"), floating_base=True, ground=True,
                               srdf=str(robot / "srdf" / "go2.srdf"), keyframe="standing")
    joints = [sim.coordinate_names.index(f"{a}.q") for a in sim.actuator_names]
    speeds = [sim.velocity_names.index(f"{a}.v") for a in sim.actuator_names]
    base = sim.body_names.index("base")
    target = sim.q[joints].copy()
    q0 = sim.q
    z = [sim.coordinate_names.index(f"base.{c}") for c in "xyz"]
    path = []
    sim.start_recording()
    for _ in range(round(seconds / sim.dt)):
        sim.ctrl[:] = KP * (target - sim.q[joints]) - KD * sim.v[speeds]
        sim.xfrc_applied[:] = 0.0
        if push_at <= sim.t < push_at + 0.1:
            sim.xfrc_applied[base, 1] = push
        sim.step()
        path.append(sim.q[z])
    res = sim.stop_recording()
    return {"t": sim.t, "base": np.array(path), "q0": q0, "target": target, "q": sim.q,
            "error": float(np.abs(target - sim.q[joints]).max()), "status": res.summary["status"],
            "max_penetration": res.summary["max_penetration"]}


if __name__ == "__main__":
    out = run()
    b = out["base"]
    print(f"Go2 standing, pushed: {out['t']:.2f} s, status {out['status']}")
    print(f"  base height {b[0, 2]:.4f} m -> lowest {b[:, 2].min():.4f} m -> {b[-1, 2]:.4f} m")
    print(f"  sideways drift {b[-1, 1] - b[0, 1]:+.4f} m; largest joint error {out['error']:.3e} rad")
