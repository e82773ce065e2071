"""moreau.read_fclib / write_fclib / solve from Python.

The reference reader is h5py (independent of moreau's C++ reader); the residual is recomputed
with a NumPy implementation of the natural map
    e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖),  û = u + μ‖u_T‖ e_n,  u = W r + q.
"""
import os
import pathlib

import h5py
import numpy as np
import pytest

import moreau

if not hasattr(moreau, "FrictionContactProblem"):
    pytest.skip("moreau.FrictionContactProblem is not bound (python/bind_friction_contact.cpp)",
                allow_module_level=True)

DATA = pathlib.Path(os.environ.get("MOREAU_DATA_DIR",
                                   pathlib.Path(__file__).resolve().parents[3] / "shared" / "data"))
FCLIB = DATA / "fclib"
LOCAL_CSC = FCLIB / "from-siconos-dat" / "Rover1039.hdf5"
LOCAL_CSR = FCLIB / "fclib-api-test" / "local_problem_test.hdf5"
GLOBAL = FCLIB / "faf" / "Box_Stacks-i0035-31-0.hdf5"
PERIOBOX = FCLIB / "siconos-testdata" / "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"


def dense_from_h5(group):
    """Dense matrix of an FCLIB sparse group: nz = -1 CSC, -2 CSR, >= 0 triplet (i row, p col)."""
    m, n, nz = int(group["m"][0]), int(group["n"][0]), int(group["nz"][0])
    p, i, x = group["p"][()], group["i"][()], group["x"][()]
    a = np.zeros((m, n))
    if nz == -1:
        for j in range(n):
            for k in range(p[j], p[j + 1]):
                a[i[k], j] += x[k]
    elif nz == -2:
        for r in range(m):
            for k in range(p[r], p[r + 1]):
                a[r, i[k]] += x[k]
    else:
        for k in range(nz):
            a[i[k], p[k]] += x[k]
    return a


def dense(a):
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a)


def project_on_cone(x, mu):
    xn, xt = x[0], x[1:]
    t = np.linalg.norm(xt)
    if t <= mu * xn:
        return x
    if mu * t <= -xn:
        return np.zeros_like(x)
    a = (xn + mu * t) / (1 + mu * mu)
    return np.concatenate(([a], mu * a * xt / t))


def natural_map_residual(W, q, mu, r):
    u = W @ r + q
    err = 0.0
    for c, m in enumerate(mu):
        rc, uc = r[3 * c:3 * c + 3], u[3 * c:3 * c + 3]
        uhat = uc + np.array([m * np.linalg.norm(uc[1:]), 0.0, 0.0])
        err += np.sum((rc - project_on_cone(rc - uhat, m)) ** 2)
    return np.sqrt(err) / max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))


@pytest.mark.parametrize("path", [LOCAL_CSC, LOCAL_CSR], ids=["csc", "csr"])
def test_read_fclib_matches_h5py(path):
    p = moreau.read_fclib(path)
    assert isinstance(p, moreau.FrictionContactProblem)
    with h5py.File(path, "r") as f:
        W = dense_from_h5(f["fclib_local/W"])
        q = f["fclib_local/vectors/q"][()]
        mu = f["fclib_local/vectors/mu"][()]
    np.testing.assert_array_equal(dense(p.W), W)
    np.testing.assert_array_equal(np.asarray(p.q), q)
    np.testing.assert_array_equal(np.asarray(p.mu), mu)
    assert p.dimension == 3


def test_read_fclib_global_and_file_contents():
    g = moreau.read_fclib(str(GLOBAL))
    assert isinstance(g, moreau.GlobalFrictionContactProblem)
    with h5py.File(GLOBAL, "r") as f:
        np.testing.assert_array_equal(dense(g.M), dense_from_h5(f["fclib_global/M"]))
        np.testing.assert_array_equal(dense(g.H), dense_from_h5(f["fclib_global/H"]))
        np.testing.assert_array_equal(np.asarray(g.f), f["fclib_global/vectors/f"][()])
    info = moreau.read_fclib_file(GLOBAL)
    assert info.is_global and info.contacts == 31
    assert info.info.title == "Box_stacks"
    assert len(info.guesses) == 1 and info.solution is not None
    assert np.asarray(info.solution.v).shape == (450,)


def test_solve_local_reaches_tolerance():
    p = moreau.read_fclib(PERIOBOX)
    res = moreau.solve(p, tol=1e-8)
    assert res.converged, (res.solver, res.status, res.residual)
    assert res.residual <= 1e-8
    e = natural_map_residual(dense(p.W), np.asarray(p.q), np.asarray(p.mu), np.asarray(res.r))
    assert e <= 1e-8


def test_solve_global_is_condensed_and_recovers_v():
    g = moreau.read_fclib(GLOBAL)
    res = moreau.solve(g, tol=1e-8)
    assert res.converged, (res.solver, res.status, res.residual)
    r, v = np.asarray(res.r), np.asarray(res.v)
    assert r.shape == (93,) and v.shape == (450,)
    M, H, f = dense(g.M), dense(g.H), np.asarray(g.f)
    lhs, rhs = M @ v, H @ r + f
    assert np.linalg.norm(lhs - rhs) <= 1e-10 * max(np.linalg.norm(lhs), np.linalg.norm(f))
    # The condensed local problem W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w is solved to the tolerance.
    Minv_H = np.linalg.solve(M, H)
    W = H.T @ Minv_H
    q = H.T @ np.linalg.solve(M, f) + np.asarray(g.w)
    assert natural_map_residual(W, q, np.asarray(g.mu), r) <= 1e-8


def test_write_then_read_solution(tmp_path):
    p = moreau.read_fclib(LOCAL_CSC)
    res = moreau.solve(p)
    out = tmp_path / "solved.hdf5"
    moreau.write_fclib(out, p, r=res.r, title="solved by a test")
    back = moreau.read_fclib_file(out)
    np.testing.assert_array_equal(np.asarray(back.solution.r), np.asarray(res.r))
    u = dense(p.W) @ np.asarray(res.r) + np.asarray(p.q)
    np.testing.assert_allclose(np.asarray(back.solution.u), u, rtol=0, atol=1e-12)
    assert back.info.title == "solved by a test"
    assert sorted(os.listdir(tmp_path)) == ["solved.hdf5"]  # no temporary left behind
    q = np.asarray(back.problem.q)
    np.testing.assert_array_equal(q, np.asarray(p.q))


def test_bad_paths_name_the_file(tmp_path):
    missing = tmp_path / "missing.hdf5"
    with pytest.raises((ValueError, OSError), match="missing.hdf5"):
        moreau.read_fclib(missing)
    garbage = tmp_path / "garbage.hdf5"
    garbage.write_text("not hdf5")
    with pytest.raises(ValueError, match="garbage.hdf5"):
        moreau.read_fclib(garbage)
    p = moreau.read_fclib(LOCAL_CSC)
    with pytest.raises(OSError, match="out.hdf5"):
        moreau.write_fclib(tmp_path / "no" / "such" / "out.hdf5", p)
    with pytest.raises(ValueError):
        moreau.solve(p, solver="no_such_solver")


def test_python_helpers():
    res = moreau.solve_fclib(LOCAL_CSC)
    assert res.converged
    results = moreau.compare_solvers(moreau.read_fclib(LOCAL_CSC))
    assert "nsgs" in results
    assert all(r.residual <= 1e-8 for r in results.values() if r.converged)
