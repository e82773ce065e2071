"""moreau.simulate on any LagrangianSystem (issue 10, item 7): a CallbackSystem of Python
callables and a gallery system, with both integrators, settings named as in a scene."""
import math

import numpy as np
import pytest

import moreau

G = 9.81


def bouncing_ball(h0=1.0, e=0.5, m=2.0):
    """A point mass above the floor y = 0: M = m, F = m g (left side), gap h = y."""
    sys = moreau.callback_system(
        "ball", 2, 1, lambda q: np.array([[m]]), lambda q, v, t: np.array([m * G]),
        [dict(kinematics=lambda q, v: dict(gap=q[0], normal=[1.0], tangent=[0.0]), name="floor",
              restitution=e)])
    sys.initial_q = np.array([h0])
    sys.initial_v = np.array([0.0])
    return sys


# Free fall from h0: the first impact at t1 = √(2h0/g) with u⁻ = −√(2 g h0); Newton's law sends
# the ball back at e√(2 g h0), so it next lands at t2 = t1 + 2e√(2h0/g).
def test_callback_system_event_driven_impacts_at_the_analytic_times():
    h0, e = 1.0, 0.5
    res = moreau.simulate(bouncing_ball(h0, e), t_end=1.0, integrator={"kind": "event", "rtol": 1e-10})
    impacts = [ev["t"] for ev in res.events if ev["kind"] == "impact"]
    t1 = math.sqrt(2 * h0 / G)
    assert impacts[0] == pytest.approx(t1, abs=1e-6)
    assert impacts[1] == pytest.approx(t1 + 2 * e * t1, abs=1e-6)
    assert res.summary["integrator"] == "event"
    assert res.summary["status"] == "completed"
    assert res.q[0, 0] == pytest.approx(h0)
    assert res.t[-1] == pytest.approx(1.0)


def test_callback_system_time_stepping_agrees_within_a_step(tmp_path):
    h0, e, dt = 1.0, 0.5, 1e-3
    res = moreau.simulate(bouncing_ball(h0, e), t_end=0.6, integrator={"dt": dt}, out=tmp_path / "run")
    impacts = [ev["t"] for ev in res.events if ev["kind"] == "impact"]
    assert impacts[0] == pytest.approx(math.sqrt(2 * h0 / G), abs=2 * dt)
    assert res.summary["integrator"] == "timestepping"
    assert np.min(res.q[:, 0]) > -1e-6  # no penetration beyond the projection tolerance
    assert (tmp_path / "run" / "trajectory.csv").exists()
    # the rebound velocity just after the first impact is e·√(2 g h0) to first order in dt
    k = int(np.searchsorted(res.t, impacts[0])) + 1
    assert res.v[k, 0] == pytest.approx(e * math.sqrt(2 * G * h0), rel=0.02)


def test_gallery_system_and_bad_settings():
    pencil = moreau.gallery("falling_pencil")
    res = moreau.simulate(pencil, t_end=0.05, integrator="event")
    assert res.summary["status"] == "completed"
    assert res.q.shape[1] == len(pencil.initial_q)
    with pytest.raises(ValueError, match="integrator.dt"):
        moreau.simulate(pencil, t_end=0.05, integrator={"dt": -1})
    with pytest.raises(ValueError, match="unknown field"):
        moreau.simulate(pencil, t_end=0.05, integrator={"step": 1e-3})
    with pytest.raises(ValueError, match="t_end"):
        moreau.simulate(pencil)


def test_a_force_turning_nan_stops_the_run_as_diverged(tmp_path):
    # F = m g until t = 0.2 s, then NaN (before the impact at 0.45 s): status diverged, the time
    # and the coordinate named, the outputs finite up to the last finite step (issue 15 §4).
    m = 2.0
    sys = moreau.callback_system(
        "failing", 2, 1, lambda q: np.array([[m]]),
        lambda q, v, t: np.array([m * G if t < 0.2 else math.nan]),
        [dict(kinematics=lambda q, v: dict(gap=q[0], normal=[1.0], tangent=[0.0]), name="floor")])
    sys.set_names(["y"])
    sys.initial_q = np.array([1.0])
    sys.initial_v = np.array([0.0])
    for kind in ("timestepping", "event"):
        res = moreau.simulate(sys, t_end=1.0, integrator={"kind": kind}, out=tmp_path / kind)
        assert res.summary["status"] == "diverged", res.summary["message"]
        assert "F[0] = nan (coordinate 'y_dot')" in res.summary["message"]
        assert 0.15 < res.t[-1] <= 0.2 + 1e-12
        assert np.all(np.isfinite(res.q)) and np.all(np.isfinite(res.v))
