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
