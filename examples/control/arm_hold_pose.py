"""PD control with gravity compensation on a six-joint arm (arm6.xml), through its torque motors.

The control law is  tau = Kp (q* - q) - Kd v + g(q),  with the gravity term g(q) =
sim.inverse_dynamics(q, 0, 0) taken from the same model the simulator steps. The arm starts
stretched out (q = 0) and is driven to a bent pose q*. With Kp = Kd = 0 and only g(q), the arm
holds any pose it starts in: forward and inverse dynamics are one model, so the arm does not move
(to round-off).

Run from the repository root:

    PYTHONPATH=build/python /usr/bin/python3 examples/control/arm_hold_pose.py
"""
from pathlib import Path

import numpy as np

import moreau

MODEL = Path(__file__).with_name("arm6.xml")
TARGET = np.array([0.6, -0.5, 1.0, 0.8, 0.7, -0.9])  # q*, rad (j1 … j6)
# About 20 rad/s of bandwidth on each joint, near critical damping: Kp = w^2 M_ii, Kd = 2 w M_ii
# with M_ii (armature included) read off sim.mass_matrix().
KP = np.array([200.0, 200.0, 50.0, 5.0, 5.0, 5.0])   # N·m/rad
KD = np.array([20.0, 20.0, 5.0, 0.5, 0.5, 0.5])      # N·m·s/rad


def run(seconds=2.0, target=TARGET, kp=KP, kd=KD, start=None, compensate=True, model=MODEL):
    """Runs the PD + gravity law for `seconds` from `start` (the model's pose when None; plain PD
    when compensate is False) and returns a dict: t, q, v (final state), target, error
    (max |q* - q|, rad), q0 (start)."""
    sim = moreau.Simulator(str(model))
    zero = np.zeros(sim.nv)
    if start is not None:
        sim.set_state(start, zero)
    q0 = sim.q
    target = np.asarray(target, dtype=float)
    for _ in range(round(seconds / sim.dt)):
        q, v = sim.q, sim.v
        tau = kp * (target - q) - kd * v
        sim.ctrl[:] = tau + sim.inverse_dynamics(q, zero, zero) if compensate else tau
        sim.step()
    return {"t": sim.t, "q": sim.q, "v": sim.v, "q0": q0, "target": target,
            "error": float(np.abs(target - sim.q).max())}


def hold(pose=TARGET, seconds=1.0, model=MODEL):
    """Gravity compensation alone (Kp = Kd = 0) from rest at `pose`: the same dict as run(), its
    error being how far the arm moved from `pose`."""
    return run(seconds, target=pose, kp=0.0, kd=0.0, start=pose, model=model)


if __name__ == "__main__":
    reach = run()
    print(f"PD + gravity: q0 = {np.round(reach['q0'], 3)} -> q* = {np.round(reach['target'], 3)}")
    print(f"  after {reach['t']:.3f} s: q = {np.round(reach['q'], 6)}")
    print(f"  max joint error {reach['error']:.3e} rad, "
          f"max speed {np.abs(reach['v']).max():.3e} rad/s")
    sag = run(compensate=False)
    print(f"plain PD (no gravity term): max joint error {sag['error']:.3e} rad")
    still = hold()
    print(f"gravity term only, 1 s at q*: moved {still['error']:.3e} rad")
