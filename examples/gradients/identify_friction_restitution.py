"""Identification through an impact: a cube is tossed so that it lands sliding and bounces, its
positions are recorded at every step with mu and e hidden, and Gauss–Newton with the step
derivatives of moreau recovers both from values 30 % off (docs/gradients.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/gradients/identify_friction_restitution.py

The model's sensitivities are propagated along the run, S_{k+1} = A_k S_k + P_k with
A_k = dx_{k+1}/dx_k and P_k = dx_{k+1}/dp from sim.step_derivatives(params=...), and the
Gauss–Newton step solves min |J dp + r| over the recorded centre positions."""
import numpy as np

import moreau

TRUE = {"mu": 0.3, "e": 0.5}
STEPS = 160     # of 1 ms: the landing at about 0.1 s, then 60 ms of flight after the bounce
POINTERS = ["/contact/default/mu", "/contact/default/e"]


def scene(mu, e):
    """A 0.2 m cube of 1 kg, 51 mm above a floor, moving at 1.5 m/s along x."""
    return {
        "description": "a tossed cube that lands sliding and bounces",
        "dimension": 3,
        "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
        "bodies": [{"name": "box", "mass": 1.0, "position": [0, 0, 0.151],
                    "velocity": [1.5, 0, 0],
                    "shapes": [{"type": "box", "half_extents": [0.1, 0.1, 0.1]}]}],
        "contact": {"default": {"mu": mu, "e": e}},
        # no post-step projection: the derivatives leave it out (docs/gradients.md), and at the
        # landing it would move the cube out of the 0.25 mm the step sinks it
        "integrator": {"kind": "timestepping", "dt": 1e-3, "projection": False},
        "t_end": 1,
    }


def record(mu, e, sensitivities=False):
    """The centre positions of the run (STEPS x 3) and, when asked, their derivatives with respect
    to (mu, e) (STEPS x 3 x 2)."""
    sim = moreau.Simulator(scene(mu, e))
    n = sim.nv
    S = np.zeros((2 * n, 2))  # d(tangent q, v)/d(mu, e); the start does not depend on them
    positions, jac = [], []
    for _ in range(STEPS):
        if sensitivities:
            d = sim.step_derivatives(params=POINTERS)
            A = np.block([[d["dq_dq"], d["dq_dv"]], [d["dv_dq"], d["dv_dv"]]])
            S = A @ S + np.vstack([d["dq_dparams"], d["dv_dparams"]])
        sim.step()
        positions.append(sim.q[:3].copy())
        jac.append(S[:3].copy())
    return np.array(positions), np.array(jac)


def identify(observed, start, iterations=15, verbose=True):
    """(mu, e) by Gauss–Newton from start, and the iterations taken."""
    p = np.array(start, dtype=float)
    for it in range(1, iterations + 1):
        pos, jac = record(*p, sensitivities=True)
        r = (pos - observed).reshape(-1)
        J = jac.reshape(-1, 2)
        dp = np.linalg.lstsq(J, -r, rcond=None)[0]
        p += dp
        if verbose:
            print(f"iteration {it}: mu = {p[0]:.10f}, e = {p[1]:.10f}, |r| = {np.linalg.norm(r):.3e}")
        if np.all(np.abs(dp) <= 1e-9 * np.abs(p)):
            return p, it
    return p, iterations


if __name__ == "__main__":
    observed, _ = record(TRUE["mu"], TRUE["e"])
    p, iterations = identify(observed, (1.3 * TRUE["mu"], 1.3 * TRUE["e"]))
    print(f"identified mu = {p[0]:.8f} (true {TRUE['mu']}), e = {p[1]:.8f} (true {TRUE['e']}) "
          f"in {iterations} iterations")
