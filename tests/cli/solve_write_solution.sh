#!/usr/bin/env bash
# `moreau solve --write-solution OUT.hdf5` writes the problem with /solution/{r,u}. The residual
# is recomputed from OUT.hdf5 by an independent NumPy implementation of the natural map
#   e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖),  û = u + μ‖u_T‖ e_n,  u = W r + q
# and must be ≤ the tolerance; the stored u must equal W r + q; the problem must be unchanged.
# Usage: solve_write_solution.sh MOREAU_BINARY DATA_DIR
set -u
MOREAU=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

SRC="$DATA/fclib/from-siconos-dat/NESpheres_30_1.hdf5"
"$MOREAU" solve "$SRC" --tol 1e-9 --write-solution "$TMP/out.hdf5" >"$TMP/log" 2>&1 \
  || fail "solve failed: $(cat "$TMP/log")"
[ -f "$TMP/out.hdf5" ] || fail "no output file"
[ "$(ls -A "$TMP" | grep -c tmp)" -eq 0 ] || fail "temporary file left behind: $(ls -A "$TMP")"

/usr/bin/python3 - "$SRC" "$TMP/out.hdf5" 1e-9 <<'PY' || fail "residual check"
import sys
import h5py
import numpy as np

def sparse(g):
    m, n, nz = int(g["m"][0]), int(g["n"][0]), int(g["nz"][0])
    p, i, x = g["p"][()], g["i"][()], g["x"][()]
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

def project(x, mu):
    xn, xt = x[0], x[1:]
    t = np.linalg.norm(xt)
    if t <= mu * xn:
        return x
    if mu * t <= -xn:
        return np.zeros(3)
    a = (xn + mu * t) / (1 + mu * mu)
    return np.concatenate(([a], mu * a * xt / t))

src, out, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
with h5py.File(src) as f0, h5py.File(out) as f:
    W = sparse(f["fclib_local/W"])
    q, mu = f["fclib_local/vectors/q"][()], f["fclib_local/vectors/mu"][()]
    assert np.array_equal(W, sparse(f0["fclib_local/W"])), "W changed"
    assert np.array_equal(q, f0["fclib_local/vectors/q"][()]), "q changed"
    r, u_file = f["solution/r"][()], f["solution/u"][()]
u = W @ r + q
assert np.allclose(u, u_file, rtol=0, atol=1e-12 * max(1.0, np.abs(u).max())), "u != W r + q"
err = 0.0
for c in range(len(mu)):
    rc, uc = r[3 * c:3 * c + 3], u[3 * c:3 * c + 3]
    uhat = uc + np.array([mu[c] * np.linalg.norm(uc[1:]), 0, 0])
    err += np.sum((rc - project(rc - uhat, mu[c])) ** 2)
e = np.sqrt(err) / max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))
assert e <= tol, f"residual {e} > {tol}"
assert np.abs(r).max() > 0, "r is all zeros"
PY

# The written file is itself a valid problem for moreau solve.
"$MOREAU" solve "$TMP/out.hdf5" --json >"$TMP/again.json" || fail "re-solving the written file"
echo "solve_write_solution: ok"
