"""Python bindings of the frictional contact problems and solvers (bind_friction_contact.cpp).

The expected values are derived in the comments or checked with an independent numpy
implementation of the natural-map residual
    e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖),  û = u + μ‖u_T‖ e_n,  u = W r + q.
"""
import numpy as np
import pytest

import moreau

if not hasattr(moreau, "FrictionContactProblem"):
    pytest.skip("moreau.FrictionContactProblem is not bound", allow_module_level=True)


def project_on_cone(x, mu):
    xn, xt = x[0], x[1:]
    t = np.linalg.norm(xt)
    if t <= mu * xn:
        return x.copy()
    if mu * t <= -xn:
        return np.zeros_like(x)
    a = (xn + mu * t) / (1 + mu * mu)
    return np.concatenate([[a], mu * a * xt / t])


def residual(W, q, mu, r, d=3):
    u = W @ r + q
    err = 0.0
    for i, m in enumerate(mu):
        ri, ui = r[d * i:d * i + d], u[d * i:d * i + d]
        uh = ui.copy()
        uh[0] += m * np.linalg.norm(ui[1:])
        err += np.sum((ri - project_on_cone(ri - uh, m)) ** 2)
    return np.sqrt(err) / max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))


def random_problem(nc=4, ndof=15, seed=0):
    rng = np.random.default_rng(seed)
    M = np.diag(rng.uniform(1, 3, ndof))
    H = rng.normal(size=(ndof, 3 * nc))
    f = rng.normal(size=ndof)
    w = np.zeros(3 * nc)
    w[::3] = -1.0
    mu = rng.uniform(0.1, 0.8, nc)
    return M, H, f, w, mu


def test_one_contact_slide_analytic():
    # W = I, q = (−1, 2, 0), μ = 0.5: u_n = 0 ⇒ r_n = 1; r_T = −μ r_n along u_T = (1.5, 0).
    p = moreau.FrictionContactProblem(np.eye(3), np.array([-1.0, 2.0, 0.0]), np.array([0.5]))
    res = moreau.solve_friction_contact(p, solver="nsgs", tol=1e-12)
    assert res.converged
    np.testing.assert_allclose(res.r, [1.0, -0.5, 0.0], atol=1e-12)
    np.testing.assert_allclose(res.u, [0.0, 1.5, 0.0], atol=1e-12)
    assert isinstance(res, moreau.SolverReport)


def test_all_solvers_agree_on_random_problem():
    M, H, f, w, mu = random_problem()
    g = moreau.GlobalFrictionContactProblem(M, H, f, w, mu)
    p = moreau.condense(g)
    Minv = np.linalg.inv(M)
    np.testing.assert_allclose(p.W, H.T @ Minv @ H, atol=1e-10)
    np.testing.assert_allclose(p.q, H.T @ Minv @ f + w, atol=1e-10)
    ref = moreau.solve_friction_contact(p, solver="nsgs", tol=1e-11)
    assert ref.converged
    assert residual(p.W, p.q, mu, ref.r) < 1e-10
    assert abs(moreau.friction_contact_residual(p, ref.r) - residual(p.W, p.q, mu, ref.r)) < 1e-12
    for name in moreau.friction_contact_solver_names(3):
        if name == "lemke_pyramid":
            continue
        res = moreau.solve_friction_contact(p, solver=name, tol=1e-11)
        assert res.converged, (name, res.message)
        np.testing.assert_allclose(res.r, ref.r, atol=1e-6)
    gres = moreau.solve_global_friction_contact(g, solver="admm", tol=1e-10)
    assert gres.converged
    np.testing.assert_allclose(gres.r, ref.r, atol=1e-5)
    np.testing.assert_allclose(M @ gres.v, H @ gres.r + f, atol=1e-6)


def test_warm_start_and_time_fields():
    M, H, f, w, mu = random_problem(seed=3)
    p = moreau.condense(moreau.GlobalFrictionContactProblem(M, H, f, w, mu))
    ref = moreau.solve_friction_contact(p, tol=1e-10)
    res = moreau.solve_friction_contact(p, solver="nsgs", tol=1e-10, guess=ref.r)
    assert res.converged and res.iterations <= 1
    assert res.seconds >= 0.0
    assert len(ref.residual_history) >= 1


def test_two_dimensional_problem():
    # 2D, W = I, q = (−1, 2), μ = 0.5 ⇒ r = (1, −0.5).
    p = moreau.FrictionContactProblem(np.eye(2), np.array([-1.0, 2.0]), np.array([0.5]),
                                      dimension=2)
    for name in moreau.friction_contact_solver_names(2):
        res = moreau.solve_friction_contact(p, solver=name, tol=1e-10)
        np.testing.assert_allclose(res.r, [1.0, -0.5], atol=1e-8, err_msg=name)


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError):
        moreau.FrictionContactProblem(np.eye(3), np.zeros(3), np.array([-0.1]))
    with pytest.raises(ValueError):
        moreau.FrictionContactProblem(np.eye(3), np.zeros(4), np.array([0.1]))
    p = moreau.FrictionContactProblem(np.eye(3), np.array([-1.0, 0, 0]), np.array([0.3]))
    with pytest.raises(ValueError):
        moreau.solve_friction_contact(p, solver="nope")
    with pytest.raises(ValueError):
        moreau.solve_friction_contact(p, guess=np.zeros(2))
    with pytest.raises(ValueError):
        moreau.condense(moreau.GlobalFrictionContactProblem(
            np.zeros((3, 3)), np.eye(3), np.zeros(3), np.zeros(3), np.array([0.3])))


def test_the_default_solver_explains_its_choice():
    # Two contacts whose normals are coupled by b on W's off-diagonal: the coupling read by the
    # default is b / (a + 2) (one off-diagonal entry against the diagonal block diag(a, 1, 1)),
    # and every block row holds 2 nonzero blocks.
    def chain(a, b):
        W = np.diag([a, 1, 1, a, 1, 1]).astype(float)
        W[0, 3] = W[3, 0] = b
        return moreau.FrictionContactProblem(W, -np.ones(6), np.array([0.3, 0.5]))

    weak = moreau.explain_solver_choice(chain(2.0, 1.0))
    assert weak["coupling"] == pytest.approx(0.25)
    assert weak["blocks_per_row"] == 2.0 and weak["contacts"] == 2 and weak["mu_max"] == 0.5
    assert weak["solver"] == "hybrid" == moreau.choose_friction_contact_solver(chain(2.0, 1.0))
    strong = moreau.explain_solver_choice(chain(2.0, 20.0))  # 20/4 = 5 ≥ 4.4
    assert strong["coupling"] == pytest.approx(5.0)
    assert strong["solver"] == "newton" and "Newton" in strong["reason"]
