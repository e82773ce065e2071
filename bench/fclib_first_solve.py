"""The first solve in a fresh process, moreau against Siconos (issue 35; docs/benchmarks.md
§FCLIB, "as a user runs it"): what `moreau solve FILE` reports, the file read excluded, against
Siconos' fc3d_driver timed the same way by `bench_fclib --siconos-worker` (bench/fclib.cpp).

Usage: fclib_first_solve.py [--build DIR] [--data DIR] [--tol T] [--runs N] [--cap S]
                            [--filter REGEX] [--json OUT]

Problems: every 3D local FCLIB file under the data folder (a global file is measured through its
condensed copy in condensed-from-global/, as bench_fclib does; rolling-friction files skipped).
Per problem, moreau's default solver (`moreau solve FILE --json`, auto) and each Siconos fc3d
solver (NSGS, NSN_AC, NSN_FB, ADMM, VI_EG, PROX) run N times (default 3), each run a new process;
a run's time is the median of its N. A solve counts when moreau's residual of its r is at most
the tolerance (one residual for both). Siconos' figure is its best solver that solves the
problem. Prints a table and the medians of moreau ÷ Siconos over the problems both solve, over
all and over the issue's hard set. A run that passes the cap (default 20 s, wall clock) counts as
unsolved."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

import h5py

SICONOS = ["NSGS", "NSN_AC", "NSN_FB", "ADMM", "VI_EG", "PROX"]
HARD = ["Capsules-i101-404", "Capsules-i122-1617", "KaplasTower-i1061-4", "Box_Stacks-i0122-82-5",
        "Spheres-i099-356-679", "OneObject-i1028-138", "NESpheres_30_1"]
HERE = os.path.dirname(os.path.abspath(__file__))


def problems(data, pattern):
    out = []
    for root, _, files in os.walk(data):
        for f in sorted(files):
            if not f.endswith(".hdf5"):
                continue
            path = os.path.join(root, f)
            name = os.path.relpath(path, data)
            if not re.search(pattern, name):
                continue
            with h5py.File(path, "r") as h:
                if "fclib_global" in h:
                    condensed = os.path.join(data, "condensed-from-global", f[:-5] + "-local.hdf5")
                    if os.path.exists(condensed):
                        continue  # measured as its condensed copy
                    dim = int(h["fclib_global/spacedim"][()][0])
                elif "fclib_local" in h:
                    dim = int(h["fclib_local/spacedim"][()][0])
                else:
                    continue  # rolling friction
            if dim == 3:
                out.append((name, path))
    return sorted(out)


def run_json(cmd, cap):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    text = p.stdout.strip()
    if not text:
        return None
    try:
        return json.loads(text[text.index("{"):])
    except ValueError:
        return None


def measure(cmd, runs, cap, tol):
    """Median seconds of `runs` fresh processes, or None when a run fails or does not solve."""
    times = []
    for _ in range(runs):
        j = run_json(cmd, cap)
        residual = j.get("residual") if j is not None else None
        if residual is None or float(residual) > tol:
            return None
        if float(j["seconds"]) > cap:
            return None
        times.append(float(j["seconds"]))
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--data", default=os.path.join(HERE, "..", "..", "shared", "data", "fclib"))
    p.add_argument("--tol", type=float, default=1e-8)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--cap", type=float, default=20.0)
    p.add_argument("--filter", default=".*")
    p.add_argument("--json", default=None)
    a = p.parse_args()
    moreau = os.path.join(a.build, "bin", "moreau")
    worker = os.path.join(a.build, "bin", "bench_fclib")
    rows = []
    load = os.getloadavg()[0]
    print(f"first solve in a fresh process, tol {a.tol:g}, median of {a.runs} runs; "
          f"1-min load {load:.2f} before")
    print(f"{'problem':62} {'moreau s':>10} {'Siconos s':>10} {'best':>7} {'ratio':>7}")
    for name, path in problems(a.data, a.filter):
        m = measure([moreau, "solve", path, "--json", "--tol", str(a.tol)], a.runs, a.cap, a.tol)
        best, best_name = None, "-"
        for s in SICONOS:
            # one run first: only a solver that solves is repeated
            first = measure([worker, "--siconos-worker", s, path, "--tol", str(a.tol)], 1, a.cap,
                            a.tol)
            if first is None:
                continue
            t = measure([worker, "--siconos-worker", s, path, "--tol", str(a.tol)], a.runs,
                        a.cap, a.tol) if a.runs > 1 else first
            if t is not None and (best is None or t < best):
                best, best_name = t, s
        ratio = m / best if (m is not None and best is not None) else None
        rows.append({"problem": name, "moreau_s": m, "siconos_s": best, "siconos_solver": best_name,
                     "ratio": ratio})
        fmt = lambda x: f"{x:10.3e}" if x is not None else f"{'-':>10}"  # noqa: E731
        print(f"{name:62} {fmt(m)} {fmt(best)} {best_name:>7} "
              f"{(f'{ratio:7.3f}' if ratio is not None else '      -')}", flush=True)
    both = [r["ratio"] for r in rows if r["ratio"] is not None]
    hard = [r["ratio"] for r in rows if r["ratio"] is not None and
            any(h in r["problem"] for h in HARD)]
    summary = {"problems": len(rows), "both_solve": len(both),
               "median_ratio": statistics.median(both) if both else None,
               "hard_median_ratio": statistics.median(hard) if hard else None,
               "hard_count": len(hard),
               "moreau_only": sum(r["moreau_s"] is not None and r["siconos_s"] is None
                                  for r in rows),
               "siconos_only": sum(r["moreau_s"] is None and r["siconos_s"] is not None
                                   for r in rows)}
    print(json.dumps(summary))
    if a.json:
        tmp = a.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"rows": rows, "summary": summary}, f, indent=1)
        os.replace(tmp, a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
