#!/usr/bin/env python3
"""bench/siconos_cases.py (run by `make bench-sim` after bench_sim): two of Siconos' reference
cases, ColumnOfBeadsTS (10 beads, LTI, LCP by Lemke) and ImpactingStick (a rod with a nonlinear
gap, 2D friction, the linearized step), run by moreau from examples/siconos and by Siconos' own
Python API (Debian's python3-siconos) in the same process: time per step (best of --repeat runs,
the stepping loop only, both recording q and v at every step), and beside each time the deviation
from the reference trajectory of ../shared/data/siconos-examples (max over the q and v columns of
the ∞-norm, Siconos' rule). The machine's load average is printed with the table.

ImpactingStick's gap and Jacobian are given to Siconos as a C plugin, compiled here with cc (the
way Siconos' own examples give nonlinear relations; a Python subclass of LagrangianScleronomousR
crashes Siconos 4.4 when the contact becomes active)."""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCENES = os.path.join(ROOT, "examples", "siconos")
REFS = os.path.join(os.environ.get("MOREAU_DATA_DIR", os.path.join(ROOT, "..", "shared", "data")),
                    "siconos-examples")


def reference(name):
    return np.loadtxt(os.path.join(REFS, name), skiprows=1)


def moreau_run(moreau, scene):
    res = moreau.simulate(os.path.join(SCENES, scene))
    return res, res.summary["wall_time"] / res.summary["steps"]


# ---------------------------------------------------------------------------------------------
# Siconos' side, written from the case specifications of the data README (§3, §7).

def siconos_column_of_beads(sk, sn):
    n, R, m, g = 10, 0.1, 1.0, 9.81
    nsds = sk.NonSmoothDynamicalSystem(0.0, 2.0)
    beads, keep = [], []
    for i in range(n):
        ds = sk.LagrangianLinearTIDS([1.0 + 0.25 * i, 0.0, 0.0], [0.0, 0.0, 0.0],
                                     np.diag([m, m, 0.6 * m * R * R]))
        fext = np.array([-m * g, 0.0, 0.0])
        ds.setFExtPtr(fext)
        keep.append(fext)
        nsds.insertDynamicalSystem(ds)
        beads.append(ds)
    floor = sk.LagrangianLinearTIR(np.array([[1.0, 0.0, 0.0]]), np.array([-R]))
    inter = sk.Interaction(sk.NewtonImpactNSL(0.9), floor)
    nsds.link(inter, beads[0])
    keep.append(inter)
    for i in range(n - 1):
        rel = sk.LagrangianLinearTIR(np.array([[-1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]), np.array([-2 * R]))
        inter = sk.Interaction(sk.NewtonImpactNSL(0.9), rel)
        nsds.link(inter, beads[i], beads[i + 1])
        keep.append(inter)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 0.0005), sk.MoreauJeanOSI(0.5), sk.LCP())
    rows = [np.concatenate([[ds.q()[0], ds.velocity()[0]] for ds in beads])]
    start = time.perf_counter()
    steps = 0
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append(np.concatenate([[ds.q()[0], ds.velocity()[0]] for ds in beads]))
        s.nextStep()
        steps += 1
    return np.array(rows), (time.perf_counter() - start) / steps


PLUGIN = r"""
#include <math.h>
/* g_N = y - (l/2) cos(theta), l = 1; y[1] (tangent) = 0 */
void h1(unsigned int n, double* q, unsigned int ny, double* y, unsigned int nz, double* z) {
  y[0] = q[1] - 0.5 * cos(q[2]);
  if (ny > 1) y[1] = 0.0;
}
/* rows (0, 1, (l/2) sin theta) and (-1, 0, -(l/2) cos theta), column-major ny x 3 */
void G1(unsigned int n, double* q, unsigned int ny, double* H, unsigned int nz, double* z) {
  H[0] = 0.0; H[ny] = 1.0; H[2 * ny] = 0.5 * sin(q[2]);
  if (ny > 1) { H[1] = -1.0; H[1 + ny] = 0.0; H[1 + 2 * ny] = -0.5 * cos(q[2]); }
}
"""


def siconos_impacting_stick(sk, sn, plugin):
    l, m, g, th = 1.0, 1.0, 10.0, math.pi / 4
    q0 = [0.5 * l * math.sin(th), 0.5 * l * math.cos(th) + 0.01, th]
    v0 = [-0.5, 0.1, 0.1]
    ds = sk.LagrangianDS(q0, v0, np.diag([m, m, m * l * l / 12.0]))
    fext = sk.SiconosVector([0.0, -m * g, 0.0])
    ds.setFExtPtr(fext)
    rel = sk.LagrangianScleronomousR(plugin + ":h1", plugin + ":G1")
    inter = sk.Interaction(sk.NewtonImpactFrictionNSL(1.0, 0.0, 0.01, 2), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, 0.2)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    options = sk.solver_options_create(sn.SICONOS_FRICTION_2D_NSGS)
    options.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
    options.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-4), sk.MoreauJeanOSI(0.5),
                        sk.FrictionContact(2, options))
    s.setNewtonOptions(sk.SICONOS_TS_LINEAR)
    rows = [list(q0) + list(v0)]
    start = time.perf_counter()
    steps = 0
    while s.hasNextEvent():
        s.computeOneStep()
        rows.append(list(ds.q()) + list(ds.velocity()))
        s.nextStep()
        steps += 1
    return np.array(rows), (time.perf_counter() - start) / steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per case, the best time is kept")
    args = ap.parse_args()
    import moreau
    try:
        import siconos.kernel as sk
        import siconos.numerics as sn
    except ImportError:
        sk = sn = None
        print("siconos: skipped, python3-siconos is not installed (MOREAU_WITH_PEERS=1 "
              "scripts/install-deps installs it)")
    tmp = tempfile.mkdtemp(prefix="moreau_bench_siconos_")
    plugin = os.path.join(tmp, "StickPlugin")
    if sk is not None:
        with open(plugin + ".c", "w") as f:
            f.write(PLUGIN)
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", plugin + ".so", plugin + ".c", "-lm"],
                       check=True)

    print(f"bench siconos cases: load average {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.cpu_count()} cores, best of {args.repeat}")
    print(f"{'case':<18} {'steps':>6} {'moreau us/step':>15} {'siconos us/step':>16} {'ratio':>7} "
          f"{'moreau dev':>11} {'siconos dev':>12}")

    # ColumnOfBeadsTS: columns 1..20 of the reference are x_i, ẋ_i
    ref = reference("ColumnOfBeads/ColumnOfBeadsTS.ref")[:, 1:21]
    best_m = best_s = math.inf
    for _ in range(args.repeat):
        res, per_step = moreau_run(moreau, "column_of_beads_ts.json")
        best_m = min(best_m, per_step)
    ours = np.column_stack([res.q[:, 3 * i] if j == 0 else res.v[:, 3 * i]
                            for i in range(10) for j in range(2)])
    dev_m = np.abs(ours - ref).max()
    dev_s = float("nan")
    if sk is not None:
        for _ in range(args.repeat):
            theirs, per_step = siconos_column_of_beads(sk, sn)
            best_s = min(best_s, per_step)
        dev_s = np.abs(theirs - ref).max()
    report("ColumnOfBeadsTS", res.summary["steps"], best_m, best_s, dev_m, dev_s)

    # ImpactingStick: columns 1..6 are q, v
    ref = reference("ImpactingStick/ImpactingStick.ref")[:, 1:7]
    best_m = best_s = math.inf
    for _ in range(args.repeat):
        res, per_step = moreau_run(moreau, "impacting_stick.json")
        best_m = min(best_m, per_step)
    dev_m = np.abs(np.column_stack([res.q, res.v]) - ref).max()
    dev_s = float("nan")
    if sk is not None:
        for _ in range(args.repeat):
            theirs, per_step = siconos_impacting_stick(sk, sn, plugin)
            best_s = min(best_s, per_step)
        dev_s = np.abs(theirs - ref).max()
    report("ImpactingStick", res.summary["steps"], best_m, best_s, dev_m, dev_s)
    return 0


def report(case, steps, moreau_s, siconos_s, dev_m, dev_s):
    ratio = moreau_s / siconos_s if math.isfinite(siconos_s) else float("nan")
    print(f"{case:<18} {steps:>6} {1e6 * moreau_s:>15.2f} {1e6 * siconos_s:>16.2f} {ratio:>7.2f} "
          f"{dev_m:>11.1e} {dev_s:>12.1e}")


if __name__ == "__main__":
    sys.exit(main())
