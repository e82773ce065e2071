"""LCP/MLCP bindings: analytic problems whose solutions are derived in the comments."""
import os

import numpy as np
import pytest

import moreau

DATA = os.environ.get("MOREAU_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                      "shared", "data"))


def spd_problem():
    # M = [[2,1],[1,2]], q = (-5,-6): both w = 0 -> 2 z1 + z2 = 5, z1 + 2 z2 = 6 -> z = (4/3, 7/3).
    return moreau.Lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -6.0]))


@pytest.mark.parametrize("solver", ["lemke", "pgs", "fischer_burmeister", "newton"])
def test_every_lcp_solver_finds_the_analytic_solution(solver):
    r = moreau.solve_lcp(spd_problem(), solver=solver, tol=1e-12)
    assert r.status == moreau.Status.converged
    assert r.converged
    assert isinstance(r, moreau.SolverReport)
    np.testing.assert_allclose(r.z, [4 / 3, 7 / 3], atol=1e-10)
    np.testing.assert_allclose(r.w, [0.0, 0.0], atol=1e-10)
    assert r.residual <= 1e-12
    assert moreau.lcp_residual(spd_problem(), r.z) <= 1e-12


def test_enumeration_three_solutions():
    # M = [[1,2],[2,1]], q = (-1,-1): alpha = {1}: z = (1,0), w2 = 1; alpha = {2}: (0,1);
    # alpha = {1,2}: z1 + 2 z2 = 1 = 2 z1 + z2 -> (1/3, 1/3).
    lcp = moreau.Lcp(np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([-1.0, -1.0]))
    sols = sorted(tuple(np.round(z, 12)) for z in moreau.enumerate_lcp(lcp))
    assert sols == sorted([(0.0, 1.0), (1.0, 0.0), (round(1 / 3, 12), round(1 / 3, 12))])


def test_ray_termination_and_infeasible():
    # M = [[1,-1],[-1,1]] PSD, q = (-1,-1): w1 + w2 = -2 for all z, infeasible -> Lemke ray.
    lcp = moreau.Lcp(np.array([[1.0, -1.0], [-1.0, 1.0]]), np.array([-1.0, -1.0]))
    r = moreau.solve_lcp(lcp)
    assert r.status == moreau.Status.ray_termination
    assert not r.converged
    assert moreau.enumerate_lcp(lcp) == []


def test_pgs_warm_start_and_history():
    r = moreau.solve_lcp(spd_problem(), solver="pgs", guess=np.array([4 / 3, 7 / 3]))
    assert r.iterations == 0 and r.converged
    cold = moreau.solve_lcp(spd_problem(), solver="pgs", tol=1e-12)
    assert len(cold.residual_history) == cold.iterations
    assert cold.residual_history[-1] <= 1e-12


def test_mlcp_direct_and_pgs():
    # u + v - 1 = 0, w = v - 1/2: v = 0 gives w < 0, so w = 0 -> v = 1/2 and u = 1/2.
    p = moreau.Mlcp(A=np.eye(1), B=np.eye(1), C=np.eye(1), D=np.zeros((1, 1)),
                    a=np.array([-1.0]), b=np.array([-0.5]))
    for solver in ["direct", "pgs", "newton"]:
        r = moreau.solve_mlcp(p, solver=solver, tol=1e-12)
        assert r.converged, (solver, r.message)
        np.testing.assert_allclose(r.u, [0.5], atol=1e-10)
        np.testing.assert_allclose(r.v, [0.5], atol=1e-10)
        assert moreau.mlcp_residual(p, r.u, r.v) <= 1e-12


def test_bad_input_is_value_error():
    with pytest.raises(ValueError):
        moreau.Lcp(np.eye(2), np.ones(3))
    with pytest.raises(ValueError):
        moreau.Lcp(np.eye(2), np.array([np.nan, 1.0]))
    with pytest.raises(ValueError):
        moreau.solve_lcp(spd_problem(), solver="simplex")
    with pytest.raises(ValueError):
        moreau.solve_lcp(spd_problem(), solver="pgs", guess=np.ones(3))
    with pytest.raises(ValueError):
        moreau.Mlcp(np.eye(1), np.eye(1), np.ones((1, 2)), np.zeros((1, 1)), np.ones(1), np.ones(1))
    with pytest.raises(ValueError):
        moreau.enumerate_lcp(moreau.Lcp(np.eye(21), np.ones(21)))
    with pytest.raises(ValueError):
        moreau.read_siconos_lcp("/nonexistent/moreau.dat")


def test_siconos_readers():
    lcp_file = os.path.join(DATA, "siconos-numerics", "lcp", "lcp_CPS_2.dat")
    mlcp_file = os.path.join(DATA, "siconos-numerics", "mlcp", "m2n1_mlcp.dat")
    if not (os.path.exists(lcp_file) and os.path.exists(mlcp_file)):
        pytest.skip("Siconos data not available")
    # CPS Example 4.4.7: M = [[0,-1,2],[2,0,-2],[-1,1,0]], q = (-3,6,-1); z = (0,1,3) solves it:
    # w = (-1 + 6 - 3, -6 + 6, 1 - 1) = (2, 0, 0).
    lcp = moreau.read_siconos_lcp(lcp_file)
    np.testing.assert_array_equal(lcp.M, [[0, -1, 2], [2, 0, -2], [-1, 1, 0]])
    r = moreau.solve_lcp(lcp)
    np.testing.assert_allclose(r.z, [0, 1, 3], atol=1e-12)
    # m2n1: u + 2 v1 - 1 = 0, w = (v1 + 1.3333 v2 + 1, v2 - 3) -> v = (0, 3), u = 1.
    p = moreau.read_siconos_mlcp(mlcp_file)
    r = moreau.solve_mlcp(p)
    np.testing.assert_allclose(r.u, [1.0], atol=1e-12)
    np.testing.assert_allclose(r.v, [0.0, 3.0], atol=1e-12)
