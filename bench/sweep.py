#!/usr/bin/env python3
"""bench/sweep.py (`make bench-sweep`): throughput of moreau's sweeps on Dask (docs/sweeps.md) on
this machine: a 1000-point impact sweep (004's ball over μ) and a 64-point simulation sweep (a box
on a slope for 2 s at dt = 1e-4, over μ), each on a LocalCluster of 1 and of 2 worker processes.
Prints points per second, the 2-worker speed-up, and the overhead per task: the sweep's wall time
per point minus the mean time of one point run alone (the same `moreau … --json` subprocess), on
one worker. The cluster's start-up is excluded (it is made before the clock starts)."""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(spec, workers):
    from moreau import _sweep
    client = _sweep.make_client(workers=workers)
    try:
        client.wait_for_workers(workers)
        start = time.perf_counter()
        rows = _sweep.run_sweep(spec, client=client)
        wall = time.perf_counter() - start
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert all(r["status"] == "ok" for r in rows), [r["error"] for r in rows if r["status"] != "ok"]
    return wall


def alone(spec, k=10):
    """Mean time of one point run directly (no Dask), over k points."""
    from moreau import _sweep
    points = _sweep.sweep_points(spec)[:k]
    start = time.perf_counter()
    for p in points:
        _sweep.run_point(spec.kind, _sweep.point_document(spec, p), spec.outputs)
    return (time.perf_counter() - start) / len(points)


def main():
    from moreau import _sweep
    impact = _sweep.make_spec(json.load(open(os.path.join(ROOT, "examples", "impact", "ball_004.json"))),
                              {"/contacts/0/mu": {"linspace": [0.0, 1.0, 1000]}},
                              {"vx": "/bodies/0/velocity/0", "wy": "/bodies/0/angular_velocity/1"})
    base = json.load(open(os.path.join(ROOT, "examples", "sweeps", "box_on_slope.json")))
    base["integrator"]["dt"] = 1e-4
    base["t_end"] = 2.0
    simulation = _sweep.make_spec(base, {"/contact/default/mu": {"linspace": [0.1, 1.0, 64]}},
                                  {"vx": "/final/v/box.vx"})
    print(f"bench sweep: load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'sweep':<22} {'points':>6} {'1 worker (s)':>13} {'2 workers (s)':>14} {'pts/s (2)':>10} "
          f"{'speed-up':>9} {'one point (ms)':>15} {'overhead/task (ms)':>19}")
    for name, spec in (("impact (004 ball, μ)", impact), ("simulation (box, μ)", simulation)):
        n = len(_sweep.sweep_points(spec))
        one = alone(spec)
        w1 = run(spec, 1)
        w2 = run(spec, 2)
        print(f"{name:<22} {n:>6} {w1:>13.2f} {w2:>14.2f} {n / w2:>10.1f} {w1 / w2:>9.2f} "
              f"{1e3 * one:>15.1f} {1e3 * (w1 / n - one):>19.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
