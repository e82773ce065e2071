"""The control examples (examples/control): each run briefly and checked against an answer derived
here, independently of the example's own printout (closed-loop eigenvalues, fixed points,
Coulomb friction, a Taylor expansion of the fall)."""
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import moreau

EXAMPLES = Path(__file__).parents[2] / "examples" / "control"
G = 9.81


def load(name):
    spec = importlib.util.spec_from_file_location(f"control_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


arm = load("arm_hold_pose")
finger = load("finger_push_box")
gym = load("gym_loop")

DAMPING = 0.05  # arm6.xml's joint damping, N·m·s/rad
ZERO = np.zeros(6)


def closed_loop(q_goal, kp, kd):
    """The PD + gravity loop linearized at its goal. Gravity is cancelled exactly and Coriolis
    forces are quadratic in v, so e = q - q_goal obeys M(q_goal) e'' + (Kd + D) e' + Kp e = 0:
    x' = A x with x = (e, e'). Returns (sigma, kappa): the slowest decay rate -max Re(lambda) and
    the condition number of A's eigenvectors, so that ||x(t)|| <= kappa e^(-sigma t) ||x(0)||.
    That bound is the linear loop's; the runs start far from the goal (M(q) varies, Coriolis
    forces act, torques saturate at first), so it is checked against them, not assumed."""
    M = moreau.Simulator(str(arm.MODEL)).mass_matrix(q_goal)
    Minv = np.linalg.inv(M)
    A = np.block([[np.zeros((6, 6)), np.eye(6)],
                  [-Minv @ np.diag(kp), -Minv @ np.diag(kd + DAMPING)]])
    lam, V = np.linalg.eig(A)
    return -lam.real.max(), np.linalg.cond(V)


def test_the_gravity_term_alone_holds_the_arm_still():
    # Forward and inverse dynamics are one model: tau = g(q) from rest gives q'' = 0, so the arm
    # stays put for 1 s (1000 steps) wherever it starts.
    for pose in (arm.TARGET, np.array([0.3, -1.2, 0.4, -2.0, 1.1, 2.5])):
        held = arm.hold(pose, seconds=1.0)
        assert held["t"] == pytest.approx(1.0, abs=1e-12)
        assert np.abs(held["q"] - pose).max() <= 1e-9
        assert np.abs(held["v"]).max() <= 1e-9
    # Without the gravity term the same pose is not held: the check above is not vacuous.
    sags = arm.run(0.2, target=arm.TARGET, kp=0.0, kd=0.0, start=arm.TARGET, compensate=False)
    assert np.abs(sags["q"] - arm.TARGET).max() > 1e-2


def test_pd_with_gravity_compensation_converges_at_the_closed_loop_rate():
    sigma, kappa = closed_loop(arm.TARGET, arm.KP, arm.KD)
    one, two = arm.run(1.0), arm.run(2.0)
    assert np.all(one["q0"] == 0.0)  # it starts from the model's stretched-out pose
    e0 = np.linalg.norm(arm.TARGET)
    e1 = np.linalg.norm(one["q"] - arm.TARGET)
    e2 = np.linalg.norm(two["q"] - arm.TARGET)
    # the linear bound, with kappa covering the modes' non-normality
    assert e2 <= kappa * e0 * math.exp(-2 * sigma)
    # between 1 s and 2 s the slowest mode dominates: the error shrinks by e^(-sigma) (the next
    # modes are within 10 % of sigma, hence the tolerance)
    assert math.log(e1 / e2) == pytest.approx(sigma, rel=0.05)
    assert two["error"] < 1e-6 and np.abs(two["v"]).max() < 1e-5


def test_plain_pd_sags_to_its_gravity_fixed_point():
    # Without the gravity term the arm rests where Kp (q* - q) = g(q). Solve that fixed point by
    # iteration (a contraction: Kp dominates dg/dq here) and compare.
    sim = moreau.Simulator(str(arm.MODEL))
    q = arm.TARGET.copy()
    for _ in range(100):
        q = arm.TARGET - sim.inverse_dynamics(q, ZERO, ZERO) / arm.KP
    sag = arm.run(2.0, compensate=False)
    assert np.abs(q - arm.TARGET).max() > 1e-2  # a visible sag …
    assert np.abs(sag["q"] - q).max() < 1e-6    # … which the servo settles at


def test_the_finger_pushes_the_box_by_its_travel_less_the_gap():
    """Derivation, with finger.xml's numbers (m = 0.5 kg box, half size a = 0.05 m, mu = 0.4,
    kp = 2000 N/m, gap g0 = 0.01 m between the finger's surface and the box's back face):

    Lower bound. At the end both are at rest, touching (else the finger would be at its target
    and the box further still). The servo presses with N = kp (target - x_f), which static
    friction on the floor holds: N <= mu (m g + mu N) (the finger's own friction may press the box
    down by at most mu N), so N <= mu m g / (1 - mu^2) and the finger stands at most that / kp
    short of its target: displacement >= travel - g0 - mu m g / ((1 - mu^2) kp) (1.17 mm).
    Upper bound. The box moves only when pushed; once it leaves the finger it slides against
    mu m g, so it coasts at most v^2 / (2 mu g) past the finger's final surface (v its top speed;
    the servo, overdamped for the finger alone, does not overshoot its target).
    No tipping: the push acts at mid height h = a, and mu h = 0.02 m < a (the friction force's
    moment about the leading edge is less than the weight's), so the box stays flat on the floor,
    its centre at z = a; the push is on the box's mid plane y = 0, so it does not turn.
    Stopping: with the finger still, friction stops the box within v / (mu g) = 0.026 s.
    Steady push: at constant speed the floor's sliding friction mu m g balances the finger's push,
    so each step's normal impulse from the finger is mu m g dt, and the floor's sum to m g dt.
    """
    hold = 0.3
    r = finger.run(hold=hold)
    m, a, mu, kp, g0 = 0.5, 0.05, 0.4, 2000.0, 0.01
    travel = finger.SPEED * finger.RAMP
    dx, dy = r["displacement"]
    v = r["speed"].max()
    assert 0.9 * finger.SPEED < v < 1.2 * finger.SPEED  # it was pushed at the finger's speed
    assert travel - g0 - mu * m * G / ((1 - mu**2) * kp) <= dx <= travel - g0 + v**2 / (2 * mu * G)
    assert abs(dy) < 1e-4
    assert np.abs(r["z"] - a).max() <= 1e-3 and r["on_floor"]
    assert r["max_angle"] < 1e-2
    assert r["t"][-1] == pytest.approx(finger.RAMP + hold, abs=1e-9)
    assert r["final_speed"] < 1e-3
    # nothing moves before the finger has closed the gap at its commanded speed
    assert np.abs(r["x"][r["t"] < 0.9 * g0 / finger.SPEED]).max() < 1e-6
    # the steady push, well after the finger met the box and before it stops
    names = r["result"].contact_names
    contacts = r["result"].contacts  # its "mode" is a list: made arrays here
    t, which, r_n, mode = (np.asarray(contacts[k]) for k in ("t", "contact", "r_n", "mode"))
    dt = 1e-3
    k = np.rint(t / dt)
    steady = (k > 400) & (k <= 900)
    pushed = steady & (which == names.index("finger/box:tip-box:0"))
    floor = steady & ~pushed
    assert pushed.sum() == 500 and np.all(mode[floor] == "slip")
    assert r_n[pushed] == pytest.approx(mu * m * G * dt, rel=1e-3)
    steps = np.unique(t[floor])
    per_step = np.bincount(np.searchsorted(steps, t[floor]), weights=r_n[floor])
    assert len(steps) == 500 and per_step == pytest.approx(m * G * dt, rel=1e-3)


def test_the_finger_run_is_written(tmp_path):
    r = finger.run(hold=0.05, ramp=0.1, out=tmp_path / "run")
    assert (tmp_path / "run" / "trajectory.csv").exists()
    back = moreau.load_run(tmp_path / "run")
    assert np.abs(back.q - r["result"].q).max() < 1e-9


def test_reset_with_a_seed_repeats_an_episode():
    env = gym.ArmReachEnv(max_steps=50)
    obs1, _ = env.reset(seed=7)
    env.step(np.full(6, 3.0))
    obs2, _ = env.reset(seed=7)
    assert np.array_equal(obs1, obs2) and obs1.shape == (12,)
    # the offsets are drawn: within +-noise of the model's pose, at rest, and seed-dependent
    assert 0 < np.abs(obs1[:6]).max() <= env.noise and np.all(obs1[6:] == 0)
    assert not np.array_equal(env.reset(seed=8)[0], obs1)
    policy = gym.pd_gravity_policy(env)
    runs = [gym.episode(env, policy, seed=7) for _ in range(2)]
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])


def test_the_pd_gravity_policy_reaches_the_goal():
    # The bound: the linearized loop at the goal (closed_loop) from ||e0|| at rest shrinks the
    # error below kappa e^(-sigma T) ||e0|| after T = 1 s (about 0.01 rad here).
    env = gym.ArmReachEnv(max_steps=1000)
    obs, _ = env.reset(seed=0)
    e0 = np.linalg.norm(obs[:6] - env.goal)
    sigma, kappa = closed_loop(env.goal, gym.KP, gym.KD)
    total, obs, info = gym.episode(env, gym.pd_gravity_policy(env), seed=0)
    T = env.max_steps * env.frame_skip * env.sim.dt
    assert info["t"] == pytest.approx(T, abs=1e-12)
    assert np.linalg.norm(obs[:6] - env.goal) == pytest.approx(info["error"], abs=1e-15)
    assert info["error"] <= kappa * e0 * math.exp(-sigma * T)
    assert total < 0


def test_with_zero_torque_the_arm_falls_and_scores_worse():
    env = gym.ArmReachEnv(max_steps=50)
    env.reset(seed=1)
    q0 = env.sim.q
    # From rest, q(t) = q0 + a0 t^2 / 2 + O(t^3) with a0 = -M(q0)^-1 g(q0): gravity alone
    a0 = -np.linalg.solve(env.sim.mass_matrix(q0), env.sim.inverse_dynamics(q0, ZERO, ZERO))
    zero_return, obs, info = gym.episode(env, lambda obs: np.zeros(6), seed=1)
    fall = obs[:6] - q0
    expected = 0.5 * a0 * info["t"] ** 2
    assert np.linalg.norm(fall - expected) < 0.1 * np.linalg.norm(expected)
    tip = env.sim.body_names.index("link6")
    assert env.sim.body_poses(obs[:6])[0][tip][2] < env.sim.body_poses(q0)[0][tip][2] - 0.005
    pd_return, _, _ = gym.episode(env, gym.pd_gravity_policy(env), seed=1)
    assert zero_return < pd_return


go2 = load("go2_stand_push")


@pytest.mark.skipif(not go2.ROBOT.exists(), reason="shared/data/robots is not next to the clone")
def test_go2_stands_on_pd_joints_and_takes_a_push():
    """The published Go2 on PD-held joints from its SRDF 'standing' state: it does not collapse
    (its base stays above 0.25 m; dropped with no torque it folds down to 0.08 m, test_urdf.py),
    nothing sinks into the ground, and a sideways push of 30 N for 0.1 s moves the base along +y
    while the legs stay within 0.2 rad of their pose."""
    out = go2.run(seconds=0.5, push=30.0, push_at=0.2)
    assert out["status"] == "completed"
    assert out["max_penetration"] < 1e-6
    b = out["base"]
    assert b[:, 2].min() > 0.25
    assert b[-1, 1] - b[199, 1] > 1e-3  # pushed along +y
    assert out["error"] < 0.2
