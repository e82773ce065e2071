"""Trajectory optimisation through friction: the horizontal force profile that slides a 1 kg box
on a rough floor (mu = 0.3) to x = 0.2 m in 1 s and stops it there, found by gradient descent on
the rollout's cost with gradients from moreau.rollout_gradient (docs/gradients.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/gradients/slide_box_to_target.py

The cost: r/2 sum f_k^2 h + w/2 ((x_N - x*)^2 + (v_N / 1 s)^2). The box starts at rest, so a force
below mu m g = 2.94 N leaves it stuck (no gradient); the descent starts from 4 N, which slides it
0.5 m too far, and backtracks its step (Armijo) so that the cost decreases at every iteration."""
import numpy as np

import moreau

TARGET = 0.2   # m
STEPS = 50     # of 20 ms: 1 s
R = 1e-3       # weight of the force, per N^2 s
W = 1e4        # weight of the final miss, per m^2

SCENE = {
    "description": "a 0.2 m cube of 1 kg on a floor with mu 0.3, pushed along x",
    "dimension": 3,
    "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
    "bodies": [{"name": "box", "mass": 1.0, "position": [0, 0, 0.1],
                "shapes": [{"type": "box", "half_extents": [0.1, 0.1, 0.1]}]}],
    "contact": {"default": {"mu": 0.3}},
    "integrator": {"kind": "timestepping", "dt": 0.02},
    "t_end": 1,
}


def optimise(iterations=60, verbose=True):
    """The force profile (STEPS values, N) after gradient descent, and the final (x, v)."""
    sim = moreau.Simulator(SCENE)
    n, h = sim.nv, sim.dt

    def cost(q, v, u, k):
        return 0.5 * R * h * u @ u, np.zeros(2 * n), R * h * u

    def final(q, v):
        g = np.zeros(2 * n)
        g[0], g[n] = W * (q[0] - TARGET), W * v[0]
        return 0.5 * W * ((q[0] - TARGET) ** 2 + v[0] ** 2), g

    def rollout(f):
        controls = np.zeros((STEPS, n))
        controls[:, 0] = f
        J, grad, _ = moreau.rollout_gradient(sim, controls, cost, final, inputs="qfrc")
        return J, grad[:, 0]

    f = np.full(STEPS, 4.0)
    J, g = rollout(f)
    step = 1e-3
    for it in range(iterations):
        while True:  # Armijo backtracking on the step
            trial = f - step * g
            J_trial, g_trial = rollout(trial)
            if J_trial <= J - 1e-4 * step * g @ g or step < 1e-12:
                break
            step *= 0.5
        f, J, g = trial, J_trial, g_trial
        step *= 2.0
        if verbose and it % 10 == 0:
            print(f"iteration {it}: cost {J:.6g}, |gradient| {np.linalg.norm(g):.3g}")
    # the final state of the optimised profile
    for k in range(STEPS):
        sim.qfrc_applied = np.eye(n)[0] * f[k]
        sim.step()
    return f, sim.q[0], sim.v[0]


if __name__ == "__main__":
    f, x, v = optimise()
    print(f"force profile (N): {np.array2string(f, precision=2, max_line_width=100)}")
    print(f"final x = {x:.6f} m (target {TARGET}), v = {v:.2e} m/s")
