"""The Siconos scheme from Python (issue 11, items 4 and 5): Siconos' ImpactingStick written as
Python callables with Siconos' own contact frame (tangent −x), run with the linearized step, against
the reference trajectory of ../shared/data/siconos-examples; system scenes from moreau.simulate;
Newton's method on a nonlinear system against the trapezoidal rule solved independently."""
import math
import os

import numpy as np
import pytest

import moreau

DATA = os.environ.get("MOREAU_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                      "shared", "data"))
REFS = os.path.join(DATA, "siconos-examples")
SCENES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "siconos")
L, M, G, MU = 1.0, 1.0, 10.0, 0.01


def read_ref(name):
    return np.loadtxt(os.path.join(REFS, name), skiprows=1)


def impacting_stick():
    """README §7: q = (x, y, θ) of the centre; the end (x + ½l sin θ, y − ½l cos θ) on y = 0."""
    def kinematics(q, v):
        s, c = math.sin(q[2]), math.cos(q[2])
        return dict(gap=q[1] - 0.5 * L * c, normal=[0.0, 1.0, 0.5 * L * s],
                    tangent=[-1.0, 0.0, -0.5 * L * c])
    sys = moreau.callback_system(
        "impacting_stick", 2, 3, lambda q: np.diag([M, M, M * L * L / 12.0]),
        lambda q, v, t: np.array([0.0, M * G, 0.0]),
        [dict(kinematics=kinematics, name="end", mu=MU, restitution=1.0)])
    th = math.pi / 4
    sys.initial_q = np.array([0.5 * L * math.sin(th), 0.5 * L * math.cos(th) + 0.01, th])
    sys.initial_v = np.array([-0.5, 0.1, 0.1])
    return sys


SICONOS = {"scheme": "siconos", "dt": 1e-4, "theta": 0.5, "activation_factor": 0.5,
           "activation_margin": 0.0, "solver": "exact"}


def impulses(res, component):
    """Per record, the contact impulse (r_n or the tangential r_t) of the step that ended there."""
    out = np.zeros(len(res.t))
    c = res.contacts
    rows = np.searchsorted(res.t, c["t"])
    values = c["r_n"] if component == 0 else np.asarray(c["r_t"]).reshape(len(c["t"]), -1)[:, 0]
    out[rows] = values
    return out


def test_impacting_stick_from_callables_matches_siconos():
    ref = read_ref("ImpactingStick/ImpactingStick.ref")
    res = moreau.simulate(impacting_stick(), t_end=0.2, integrator=dict(SICONOS, newton="linearized"))
    assert res.summary["status"] == "completed"
    assert len(res.t) == ref.shape[0]
    ours = np.column_stack([res.t, res.q, res.v])
    assert np.abs(ours - ref[:, :7]).max() <= 1e-12
    # Siconos' frame is the callables' frame: P_N and P_T compare directly
    assert np.abs(impulses(res, 0) - ref[:, 12]).max() <= 1e-12
    assert np.abs(impulses(res, 1) - ref[:, 13]).max() <= 1e-12
    assert [round(e["t"], 6) for e in res.events if e["kind"] == "impact"] == [0.0604, 0.1636]


def test_newton_and_linearized_steps_differ_by_the_linearization_only():
    lin = moreau.simulate(impacting_stick(), t_end=0.2, integrator=dict(SICONOS, newton="linearized"))
    newton = moreau.simulate(impacting_stick(), t_end=0.2,
                             integrator=dict(SICONOS, newton="newton", newton_tolerance=1e-12))
    assert newton.summary["status"] == "completed" and newton.summary["solver_failures"] == 0
    # the constraint at q_{k+1} instead of q_k changes each impact step by O(h) in H: small
    assert np.abs(newton.q - lin.q).max() < 1e-3
    assert np.abs(newton.q - lin.q).max() > 0.0


def test_system_scene_runs_from_python():
    res = moreau.simulate(os.path.join(SCENES, "bouncing_ball_ts.json"))
    ref = read_ref("BouncingBall/BouncingBallTS.ref")
    assert res.position_names == ["x", "y", "theta"]
    assert np.abs(res.q[:, 0] - ref[:, 1]).max() <= 1e-12
    assert np.abs(res.v[:, 0] - ref[:, 2]).max() <= 1e-12


# A pendulum M θ̈ + (g/l) sin θ = 0 (F on the left side) under the θ-method with θ = ½:
# v₁ = v₀ − h[½F(q₁) + ½F(q₀)], q₁ = q₀ + h(½v₁ + ½v₀) — the trapezoidal rule, whose step is
# solved here by bisection on q₁, independently of moreau's Newton loop.
def test_newton_loop_solves_the_implicit_theta_method():
    g_l, h, n = 9.81, 0.05, 40
    sys = moreau.callback_system("pendulum", 2, 1, lambda q: np.array([[1.0]]),
                                 lambda q, v, t: np.array([g_l * math.sin(q[0])]))
    sys.initial_q = np.array([2.5])
    sys.initial_v = np.array([0.0])
    res = moreau.simulate(sys, t_end=n * h, integrator={"scheme": "siconos", "dt": h,
                                                        "newton_tolerance": 1e-13})
    q, v = 2.5, 0.0
    for k in range(n):
        def residual(q1):  # q₁ − q₀ − h/2 (v₀ + v₁(q₁))
            v1 = v - h * 0.5 * g_l * (math.sin(q1) + math.sin(q))
            return q1 - q - 0.5 * h * (v + v1)
        lo, hi = q - 1.0, q + 1.0
        assert residual(lo) < 0 < residual(hi)
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if residual(mid) < 0 else (lo, mid)
        q1 = 0.5 * (lo + hi)
        v = v - h * 0.5 * g_l * (math.sin(q1) + math.sin(q))
        q = q1
        assert abs(res.q[k + 1, 0] - q) < 1e-11, k
        assert abs(res.v[k + 1, 0] - v) < 1e-10, k


def test_bad_scheme_settings_are_named():
    with pytest.raises(ValueError, match="scheme"):
        moreau.simulate(impacting_stick(), t_end=0.01, integrator={"scheme": "sikonos"})
    with pytest.raises(ValueError, match="newton"):
        moreau.simulate(impacting_stick(), t_end=0.01, integrator={"scheme": "siconos", "newton": "full"})
