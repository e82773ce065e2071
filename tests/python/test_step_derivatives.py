"""Simulator.step_derivatives (docs/gradients.md): a sliding cube's derivatives against central
differences of Simulator.step taken here, and the errors."""
import numpy as np
import pytest

import moreau

CUBE = {
    "description": "a 1 kg cube of 0.2 m on a floor, mu 0.5",
    "dimension": 3,
    "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
    "bodies": [{"name": "box", "mass": 1.0, "position": [0, 0, 0.1],
                "shapes": [{"type": "box", "half_extents": [0.1, 0.1, 0.1]}]}],
    "contact": {"default": {"mu": 0.5}},
    # exact steps for the differences: solver at 1e-13, no projection, an index-set margin
    # (0.1 mm) beyond their step (10 um)
    "integrator": {"kind": "timestepping", "dt": 1e-3, "projection": False,
                   "tolerance": 1e-13, "max_iterations": 100000, "activation_margin": 1e-4},
    "t_end": 1,
}


def differences(sim, delta=1e-5):
    """dv/dv and dv/dqfrc of one step by central differences."""
    q0, v0 = sim.q, sim.v
    n = sim.nv
    dv_dv, dv_df = np.zeros((n, n)), np.zeros((n, n))
    for j in range(n):
        e = np.eye(n)[j] * delta
        out = []
        for dv, df in ((e, 0 * e), (-e, 0 * e), (0 * e, e), (0 * e, -e)):
            sim.set_state(q0, v0 + dv)
            sim.qfrc_applied = df
            sim.step()
            out.append(sim.v)
        dv_dv[:, j] = (out[0] - out[1]) / (2 * delta)
        dv_df[:, j] = (out[2] - out[3]) / (2 * delta)
    sim.set_state(q0, v0)
    sim.qfrc_applied = np.zeros(n)
    return dv_dv, dv_df


def test_a_sliding_cube_agrees_with_central_differences():
    sim = moreau.Simulator(CUBE)
    sim.set_state(sim.q, [1.0, 0.3, 0, 0, 0, 0])
    d = sim.step_derivatives()
    assert [c["mode"] for c in d["contacts"]] == ["slip"] * 4
    assert not any(c["degenerate"] for c in d["contacts"])
    assert d["dv_dq"].shape == (6, 6) and d["dq_dctrl"].shape == (6, 0)
    dv_dv, dv_df = differences(sim)
    assert np.linalg.norm(d["dv_dv"] - dv_dv) < 1e-6 * max(np.linalg.norm(dv_dv), 1)
    assert np.linalg.norm(d["dv_dqfrc"] - dv_df) < 1e-6 * max(np.linalg.norm(dv_df), 1)
    # the state is unchanged and the step is the one step() takes
    sim.step()
    assert np.allclose(sim.v, d["v_next"], atol=1e-9)


def test_event_driven_scenes_and_bad_settings_are_refused():
    sim = moreau.Simulator(dict(CUBE, integrator={"kind": "event"}))
    with pytest.raises(moreau.InputError, match="event-driven"):
        sim.step_derivatives()
    sim = moreau.Simulator(CUBE)
    with pytest.raises(moreau.InputError, match="difference_step = -1"):
        sim.step_derivatives(difference_step=-1)
    sim.qfrc_applied = [float("nan")] * 6
    q, v = sim.q, sim.v
    with pytest.raises(moreau.InputError, match="qfrc_applied"):
        sim.step_derivatives()
    assert np.array_equal(sim.q, q) and np.array_equal(sim.v, v)


def rollout_cost(sim, controls, target, r=1e-3, w=100.0):
    """The cost of rollout_gradient's test by plain steps: sum of r/2 |u|^2 per step, then
    w/2 ((x - target)^2 + v_x^2) at the end."""
    q0, v0 = sim.q, sim.v
    J = 0.0
    for u in controls:
        J += 0.5 * r * u @ u
        sim.qfrc_applied = u
        sim.step()
    J += 0.5 * w * ((sim.q[0] - target) ** 2 + sim.v[0] ** 2)
    sim.set_state(q0, v0)
    sim.qfrc_applied = np.zeros(sim.nv)
    return J


def test_rollout_gradient_agrees_with_differences_of_the_cost():
    sim = moreau.Simulator(CUBE)
    sim.set_state(sim.q, [0.5, 0, 0, 0, 0, 0])
    n, N, target, r, w = sim.nv, 30, 0.05, 1e-3, 100.0
    rng = np.random.default_rng(1)
    controls = np.zeros((N, n))
    controls[:, 0] = 4.0 + rng.uniform(-0.5, 0.5, N)  # below mu m g = 4.9 N: it slides, braking

    def cost(q, v, u, k):
        return 0.5 * r * u @ u, np.zeros(2 * n), r * u

    def final(q, v):
        g = np.zeros(2 * n)
        g[0], g[n] = w * (q[0] - target), w * v[0]
        return 0.5 * w * ((q[0] - target) ** 2 + v[0] ** 2), g

    q0, v0 = sim.q, sim.v
    J, grad, grad_x0 = moreau.rollout_gradient(sim, controls, cost, final, inputs="qfrc")
    assert np.array_equal(sim.q, q0) and np.array_equal(sim.v, v0)
    assert J == pytest.approx(rollout_cost(sim, controls, target, r, w), rel=1e-12)
    delta = 1e-5
    for k in (0, 13, N - 1):
        for j in (0, 1, 5):
            e = np.zeros_like(controls)
            e[k, j] = delta
            fd = (rollout_cost(sim, controls + e, target, r, w)
                  - rollout_cost(sim, controls - e, target, r, w)) / (2 * delta)
            # the differences' own error: solver tolerance 1e-13 / delta = 1e-8
            assert grad[k, j] == pytest.approx(fd, rel=1e-5, abs=1e-7), (k, j)
    # the gradient in the initial velocity, by the same differences
    for j in (0, 2):
        e = np.eye(n)[j] * delta
        sim.set_state(q0, v0 + e)
        plus = rollout_cost(sim, controls, target, r, w)
        sim.set_state(q0, v0 - e)
        minus = rollout_cost(sim, controls, target, r, w)
        sim.set_state(q0, v0)
        assert grad_x0[n + j] == pytest.approx((plus - minus) / (2 * delta), rel=1e-5, abs=1e-7)


def test_rollout_gradient_refuses_bad_controls():
    sim = moreau.Simulator(CUBE)
    zero = lambda q, v, u, k: (0.0, np.zeros(12), np.zeros(6))  # noqa: E731
    with pytest.raises(moreau.InputError, match=r"controls has shape \(1, 2\)"):
        moreau.rollout_gradient(sim, [[1.0, 2.0]], zero, inputs="qfrc")
    with pytest.raises(moreau.InputError, match="inputs = 'torque'"):
        moreau.rollout_gradient(sim, [[1.0]], zero, inputs="torque")
    bad = lambda q, v, u, k: (0.0, np.zeros(3), np.zeros(6))  # noqa: E731
    with pytest.raises(moreau.InputError, match="l_x at step 0 has shape"):
        moreau.rollout_gradient(sim, np.zeros((2, 6)), bad, inputs="qfrc")


def test_parameter_derivatives_of_a_sliding_and_of_a_landing_cube():
    scene = dict(CUBE, contact={"default": {"mu": 0.5, "e": 0.5}})
    sim = moreau.Simulator(scene)
    sim.set_state(sim.q, [1.0, 0.3, 0, 0, 0, 0])
    d = sim.step_derivatives(params=["/contact/default/mu", "/contact/default/e",
                                     "/bodies/0/mass"])
    assert d["dv_dparams"].shape == (6, 3) and d["dq_dparams"].shape == (6, 3)
    # sliding: v+ = v - mu g h t, t = v_t/|v_t|; no impact; the mass cancels
    t = np.array([1.0, 0.3]) / np.hypot(1.0, 0.3)
    h, g = 1e-3, 9.81
    assert np.allclose(d["dv_dparams"][:2, 0], -g * h * t, rtol=1e-6)
    assert np.allclose(d["dv_dparams"][:, 1:], 0, atol=1e-9)
    assert np.allclose(d["dq_dparams"][:2, 0], 0.5 * h * -g * h * t, rtol=1e-6)  # theta = 1/2

    # landing flat at 1 m/s (0.05 mm above the floor): u_n+ = -e u_n-, so dv_z+/de = 1
    q = sim.q
    q[2] = 0.1 + 5e-5
    sim.set_state(q, [0.0, 0, -1.0, 0, 0, 0])
    d = sim.step_derivatives(params=["/contact/default/e"])
    assert d["dv_dparams"][2, 0] == pytest.approx(1.0, rel=1e-9)

    # the same by differences of steps of the scenes themselves
    def vz(e):
        other = moreau.Simulator(dict(scene, contact={"default": {"mu": 0.5, "e": e}}))
        other.set_state(q, [0.0, 0, -1.0, 0, 0, 0])
        other.step()
        return other.v[2]
    assert d["dv_dparams"][2, 0] == pytest.approx((vz(0.5 + 1e-4) - vz(0.5 - 1e-4)) / 2e-4,
                                                  rel=1e-6)


def test_parameters_that_name_nothing_or_no_number_are_refused():
    sim = moreau.Simulator(CUBE)
    with pytest.raises(moreau.InputError, match="'/contact/default/e' names nothing"):
        sim.step_derivatives(params=["/contact/default/e"])
    with pytest.raises(moreau.InputError, match="'/bodies/0/name' = 'box': expected a number"):
        sim.step_derivatives(params=["/bodies/0/name"])
    with pytest.raises(moreau.InputError, match="expected a JSON pointer"):
        sim.step_derivatives(params=["mu"])


def test_integrate_and_difference_are_inverse_on_a_free_body():
    sim = moreau.Simulator(CUBE)
    q = sim.integrate(sim.q, [0.1, 0, 0, 0.3, -0.2, 1.0])
    dq = np.array([0.01, -0.02, 0.03, 0.4, 0.5, -0.6])
    assert np.allclose(sim.difference(q, sim.integrate(q, dq)), dq, atol=1e-12)
    # a quarter turn about z, in world axes: the quaternion (cos 45°, 0, 0, sin 45°)
    turned = sim.integrate(sim.q, [0, 0, 0, 0, 0, np.pi / 2])
    assert np.allclose(turned[3:], [np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], atol=1e-12)
    with pytest.raises(moreau.InputError, match="difference: q0 has 3 entries"):
        sim.difference([0, 0, 0], q)
