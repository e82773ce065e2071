#!/usr/bin/env python3
"""bench/sweep.py (`make bench-sweep`): throughput of moreau's sweeps on Dask (docs/sweeps.md) on
this machine: a 1000-point impact sweep (Jia's ball over μ) and a 64-point simulation sweep (a box
on a slope for 2 s at dt = 1e-4, over μ), each on a LocalCluster of 1 and of 2 worker processes.
Prints points per second, the 2-worker speed-up, its ceiling on this machine (core_ceiling: two
processes pinned to the two cores run the points alone and then at once; on the development
machine the vCPUs differ by up to 1.5× and slow each other by ~20% on moreau's work), and the
overhead per task: the sweep's wall time per point on one worker minus the mean time of one point
run alone in this process. The cluster's start-up (with the import of moreau and one point on
each worker) is excluded: it happens before the clock starts. The development machine's vCPUs
change speed from run to run, so run it a few times and quote the spread."""
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
        # start-up, excluded: the module loaded and one point run on every worker
        client.run(_sweep.run_point, spec.kind, _sweep.point_document(spec, _sweep.sweep_points(spec)[0]),
                   spec.outputs)
        start = time.perf_counter()
        rows = _sweep.run_sweep(spec, client=client)
        wall = time.perf_counter() - start
    finally:
        _sweep._close(client)
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


def probe(kind_name, core, k):
    """`sweep.py --probe KIND CORE K`: this process pinned to CORE runs K points of the named
    sweep in-process and prints the mean time per point (ms)."""
    os.sched_setaffinity(0, {core})
    spec = specs()[kind_name]
    from moreau import _sweep
    points = _sweep.sweep_points(spec)[:k]
    _sweep.run_point(spec.kind, _sweep.point_document(spec, points[0]), spec.outputs)
    start = time.perf_counter()
    for p in points:
        _sweep.run_point(spec.kind, _sweep.point_document(spec, p), spec.outputs)
    print(1e3 * (time.perf_counter() - start) / len(points))


def core_ceiling(kind_name, k):
    """The best 2-worker speed-up this machine allows for this sweep, measured: per-point times
    with one process pinned to each core, first alone (one core at a time), then both at once.
    Ceiling = (Σ concurrent rates) / (best alone rate): it is below 2 when the cores differ in
    speed or slow each other down (shared cache, memory, a busy hypervisor). Returns the ceiling
    and the alone and concurrent times (ms)."""
    cores = sorted(os.sched_getaffinity(0))[:2]
    cmd = lambda c: [sys.executable, os.path.abspath(__file__), "--probe", kind_name, str(c), str(k)]
    alone = [float(subprocess.run(cmd(c), capture_output=True, text=True, check=True).stdout) for c in cores]
    procs = [subprocess.Popen(cmd(c), stdout=subprocess.PIPE, text=True) for c in cores]
    together = [float(p.communicate()[0]) for p in procs]
    return sum(1.0 / t for t in together) / max(1.0 / t for t in alone), alone, together


def specs():
    from moreau import _sweep
    impact = _sweep.make_spec(json.load(open(os.path.join(ROOT, "examples", "impact", "ball_004.json"))),
                              {"/contacts/0/mu": {"linspace": [0.0, 1.0, 1000]}},
                              {"vx": "/bodies/0/velocity/0", "wy": "/bodies/0/angular_velocity/1"})
    base = json.load(open(os.path.join(ROOT, "examples", "sweeps", "box_on_slope.json")))
    base["integrator"]["dt"] = 1e-4
    base["t_end"] = 2.0
    simulation = _sweep.make_spec(base, {"/contact/default/mu": {"linspace": [0.1, 1.0, 64]}},
                                  {"vx": "/final/v/box.vx"})
    return {"impact": impact, "simulation": simulation}


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--probe":
        probe(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return 0
    from moreau import _sweep
    print(f"bench sweep: load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'sweep':<22} {'points':>6} {'1 worker (s)':>13} {'2 workers (s)':>14} {'pts/s (2)':>10} "
          f"{'speed-up':>9} {'ceiling':>8} {'one point (ms)':>15} {'overhead/task (ms)':>19}  "
          f"cores alone / together (ms)")
    for kind_name, name, k in (("impact", "impact (Jia's ball, μ)", 200),
                               ("simulation", "simulation (box, μ)", 20)):
        spec = specs()[kind_name]
        n = len(_sweep.sweep_points(spec))
        one = alone(spec)
        ceiling, solo, both = core_ceiling(kind_name, k)
        w1 = run(spec, 1)
        w2 = run(spec, 2)
        cores = " / ".join("/".join(f"{t:.1f}" for t in ts) for ts in (solo, both))
        print(f"{name:<22} {n:>6} {w1:>13.2f} {w2:>14.2f} {n / w2:>10.1f} {w1 / w2:>9.2f} "
              f"{ceiling:>8.2f} {1e3 * one:>15.1f} {1e3 * (w1 / n - one):>19.1f}  {cores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
