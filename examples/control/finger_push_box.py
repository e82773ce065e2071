"""A position-controlled finger pushes a box across a floor (finger.xml), run by
moreau.simulate(model, controller=f).

The controller moves the finger's x target as a ramp (0.1 m/s for 1 s), then holds it; the z
target stays 0. The finger closes the 0.01 m gap to the box and pushes it against Coulomb friction
(mu = 0.4); when the finger stops, friction stops the box within v^2 / (2 mu g) = 1.3 mm. The
script reports how far the box went, whether it stayed flat on the floor, and its final speed.

Run from the repository root (add an output folder to write the run for `moreau view`):

    PYTHONPATH=build/python /usr/bin/python3 examples/control/finger_push_box.py [out_dir]
"""
import sys
from pathlib import Path

import numpy as np

import moreau

MODEL = Path(__file__).with_name("finger.xml")
SPEED = 0.1       # m/s, the x target's ramp
RAMP = 1.0        # s; the finger's travel is SPEED * RAMP
HALF_SIZE = 0.05  # m, the box's half edge (finger.xml)


def target(t, speed=SPEED, ramp=RAMP):
    """The finger's x target at time t: a ramp, then held."""
    return speed * min(t, ramp)


def run(hold=0.5, speed=SPEED, ramp=RAMP, out=None, model=MODEL):
    """Ramps the finger for `ramp` s, holds it for `hold` s; returns a dict with the result
    (moreau.SimulationResult), the time t and box columns x, y, z, angle (rad, its rotation from
    the start), speed (m/s), and figures: travel, displacement (x, y of the box's last record),
    max_height_error, max_angle, on_floor, final_speed."""
    def controller(sim):
        sim.ctrl[:] = [target(sim.t, speed, ramp), 0.0]

    res = moreau.simulate(str(model), controller=controller, out=out, t_end=ramp + hold)
    col = {name: i for i, name in enumerate(res.position_names)}
    vcol = {name: i for i, name in enumerate(res.velocity_names)}
    x, y, z = (res.q[:, col[f"box.{k}"]] for k in "xyz")
    qw = np.abs(res.q[:, col["box.qw"]])
    angle = 2 * np.arccos(np.clip(qw, 0.0, 1.0))
    speed_box = np.linalg.norm(res.v[:, [vcol[f"box.v{k}"] for k in "xyz"]], axis=1)
    height_error = np.abs(z - HALF_SIZE)
    return {"result": res, "t": res.t, "x": x, "y": y, "z": z, "angle": angle, "speed": speed_box,
            "finger_x": res.q[:, col["fx.q"]], "travel": speed * ramp,
            "displacement": (float(x[-1] - x[0]), float(y[-1] - y[0])),
            "max_height_error": float(height_error.max()), "max_angle": float(angle.max()),
            "on_floor": bool(height_error.max() < 1e-3), "final_speed": float(speed_box[-1])}


if __name__ == "__main__":
    r = run(out=sys.argv[1] if len(sys.argv) > 1 else None)
    dx, dy = r["displacement"]
    print(f"finger travel {r['travel']:.4f} m, box moved dx = {dx:.4f} m, dy = {dy:.2e} m")
    print(f"box stayed on the floor: {r['on_floor']} (max |z - {HALF_SIZE}| = "
          f"{r['max_height_error']:.2e} m, max rotation {r['max_angle']:.2e} rad)")
    print(f"box speed at t = {r['t'][-1]:.2f} s: {r['final_speed']:.2e} m/s")
    if r["result"].out:
        print(f"run written to {r['result'].out}")
