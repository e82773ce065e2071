"""make bench-scale: sphere piles of N = n³ spheres with moreau and MuJoCo 2.2.2 (issue 12 §6).

For each N it writes the pile twice under build/scale/ (a moreau scene, pile-N.json, and MJCF for
MuJoCo, pile-N.xml, from the same numbers), runs each engine once in its own process
(build/bin/bench_scale, so that the peak resident memory is that run's: os.wait4), and prints
steps/s, ms per step per contact, peak RSS, the deepest penetration and the set-up time. It fits
the log–log slopes of time per step and of peak memory against N, draws them in
build/scale/scale.png and writes build/scale/scale.json. MuJoCo's buffers are sized from N:
nconmax = 3N + 100 contacts (about what a settled pile has) and njmax = 3·nconmax rows, but at most
njmax = 6000: MuJoCo 2.2.2 allocates dense njmax × njmax arrays in one arena whose size must stay
below 2 GB (njmax = 9300 already fails in mj_makeData on this machine). Beyond that it runs with the
largest buffers it can allocate, and its buffer warnings (contacts dropped) are reported.

    /usr/bin/python3 bench/scale.py [--build build] [--sides 6 10 15 20 30] [--t-end 0.2]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

RADIUS, MASS, MU, DT = 0.05, 0.1, 0.5, 1e-3
MUJOCO_MAX_ROWS = 6000  # the largest njmax MuJoCo 2.2.2 allocates here (see above)


def pile_centres(side):
    """The loose lattice of the example pile: pitch 2r + 1 cm, odd layers shifted 2 mm in x."""
    pitch = 2 * RADIUS + 0.01
    return [(-0.5 * (side - 1) * pitch + i * pitch + 0.002 * (k % 2),
             -0.5 * (side - 1) * pitch + j * pitch, RADIUS + 0.01 + k * pitch)
            for k in range(side) for i in range(side) for j in range(side)]


def half_width(side):
    return 0.5 * side * (2 * RADIUS + 0.01) + 0.01


def walls(side):
    h = half_width(side)
    return [("floor", (0, 0, 1), 0.0), ("wall_px", (-1, 0, 0), -h), ("wall_nx", (1, 0, 0), -h),
            ("wall_py", (0, -1, 0), -h), ("wall_ny", (0, 1, 0), -h)]


def moreau_scene(side, t_end):
    centres = pile_centres(side)
    return {
        "description": f"{len(centres)} spheres (r = {RADIUS} m, {MASS} kg) dropped into a box "
                       f"(bench/scale.py)",
        "dimension": 3, "gravity": [0, 0, -9.81],
        "static_shapes": [{"type": "plane", "name": n, "normal": list(v), "offset": d}
                          for n, v, d in walls(side)],
        "bodies": [{"name": f"s{i}", "mass": MASS, "position": list(c),
                    "shapes": [{"type": "sphere", "radius": RADIUS}]}
                   for i, c in enumerate(centres)],
        "contact": {"default": {"mu": MU, "e": 0.0}},
        "integrator": {"kind": "timestepping", "dt": DT},
        "t_end": t_end, "output": {"every": 1000, "plot": False}}


def mujoco_model(side):
    centres = pile_centres(side)
    n = len(centres)
    njmax = min(3 * (3 * n + 100), MUJOCO_MAX_ROWS)
    nconmax = njmax // 3
    lines = [f'<mujoco model="pile{n}">',
             f'  <option timestep="{DT}" gravity="0 0 -9.81" cone="elliptic"/>',
             f'  <size nconmax="{nconmax}" njmax="{njmax}"/>', '  <worldbody>']
    for name, normal, offset in walls(side):
        # moreau's half-space n·x ≤ d is MuJoCo's plane through d·n with z axis n
        pos = " ".join(f"{offset * c:g}" for c in normal)
        axis = " ".join(f"{c:g}" for c in normal)
        lines.append(f'    <geom name="{name}" type="plane" pos="{pos}" zaxis="{axis}" '
                     f'size="0 0 1" friction="{MU} 0.005 0.0001"/>')
    for i, (x, y, z) in enumerate(centres):
        lines.append(f'    <body pos="{x:.6g} {y:.6g} {z:.6g}"><freejoint/><geom type="sphere" '
                     f'size="{RADIUS}" mass="{MASS}" friction="{MU} 0.005 0.0001"/></body>')
    lines += ['  </worldbody>', '</mujoco>']
    return "\n".join(lines) + "\n"


def run(binary, engine, path, t_end):
    """One run in its own process: the JSON line it prints and its peak RSS (MB). Engine
    "moreau2" is moreau with 2 threads."""
    start = time.monotonic()
    argv = [binary, "moreau", path, str(t_end), "2"] if engine == "moreau2" else \
        [binary, engine, path, str(t_end)]
    # one pipe for both streams, read to its end before wait4: a chatty run cannot fill a second
    # pipe and block
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = proc.stdout.read().strip().splitlines()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    row = None
    for line in reversed(lines):
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        if isinstance(parsed, dict):
            row = parsed
            break
    if row is None:
        row = {"engine": engine,
               "error": f"exit {proc.returncode}: {(lines or ['no output'])[-1]}"}
    row["peak_rss_mb"] = usage.ru_maxrss / 1024.0
    row["wall_s"] = time.monotonic() - start
    return row


def slope(xs, ys):
    """Least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sxx if sxx > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--sides", type=int, nargs="+", default=[6, 10, 15, 20, 30])
    ap.add_argument("--t-end", type=float, default=0.2, help="simulated time per run, s")
    ap.add_argument("--engines", nargs="+", default=["moreau", "moreau2", "mujoco"])
    args = ap.parse_args()
    binary = os.path.join(args.build, "bin", "bench_scale")
    out_dir = os.path.join(args.build, "scale")
    os.makedirs(out_dir, exist_ok=True)
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    print("| N | engine | steps/s | ms/step/contact | mean contacts | peak RSS (MB) | "
          "deepest penetration (m) | set-up (s) | note |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for side in args.sides:
        n = side ** 3
        scene = os.path.join(out_dir, f"pile-{n}.json")
        model = os.path.join(out_dir, f"pile-{n}.xml")
        with open(scene, "w") as f:
            json.dump(moreau_scene(side, args.t_end), f)
        with open(model, "w") as f:
            f.write(mujoco_model(side))
        for engine in args.engines:
            row = run(binary, engine, model if engine == "mujoco" else scene, args.t_end)
            row["n"] = n
            row["key"] = engine
            rows.append(row)
            if "error" in row:
                print(f"| {n} | {engine} | – | – | – | {row['peak_rss_mb']:.0f} | – | – | "
                      f"{row['error'][:80]} |", flush=True)
                continue
            note = []
            if row.get("solver_failures"):
                note.append(f"{row['solver_failures']} steps above solver tolerance")
            if row.get("warnings"):
                note.append(f"{row['warnings']} buffer warnings")
            print(f"| {n} | {row['engine']} | {row['steps_per_s']:.1f} | "
                  f"{row['ms_per_step_per_contact']:.4f} | {row['mean_contacts']:.0f} | "
                  f"{row['peak_rss_mb']:.0f} | {row['penetration']:.2e} | {row['setup_s']:.2f} | "
                  f"{'; '.join(note)} |", flush=True)
    fits = {}
    for engine in args.engines:
        ok = [r for r in rows if r["key"] == engine and "error" not in r]
        if len(ok) >= 2:
            ns = [r["n"] for r in ok]
            fits[engine] = {
                "time_per_step_slope": slope(ns, [1.0 / r["steps_per_s"] for r in ok]),
                "memory_slope": slope(ns, [r["peak_rss_mb"] for r in ok]),
                "n": ns}
            print(f"{engine}: log-log slope of time per step {fits[engine]['time_per_step_slope']:.2f}"
                  f", of peak memory {fits[engine]['memory_slope']:.2f} (N = {ns})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    with open(os.path.join(out_dir, "scale.json"), "w") as f:
        json.dump({"rows": rows, "fits": fits, "t_end": args.t_end}, f, indent=1)
    plot(rows, args.engines, os.path.join(out_dir, "scale.png"))
    print(f"wrote {out_dir}/scale.json and scale.png")


def plot(rows, engines, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for engine in engines:
        ok = [r for r in rows if r["key"] == engine and "error" not in r]
        if not ok:
            continue
        ns = [r["n"] for r in ok]
        t = [1e3 / r["steps_per_s"] for r in ok]
        m = [r["peak_rss_mb"] for r in ok]
        lab = ok[0]["engine"]
        a.loglog(ns, t, "o-", label=f"{lab} (slope {slope(ns, t):.2f})" if len(ns) > 1 else lab)
        b.loglog(ns, m, "o-", label=f"{lab} (slope {slope(ns, m):.2f})" if len(ns) > 1 else lab)
    a.set(xlabel="spheres N", ylabel="ms per step", title="time per step")
    b.set(xlabel="spheres N", ylabel="peak RSS (MB)", title="peak memory")
    for ax in (a, b):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path + ".tmp.png", dpi=110)
    os.replace(path + ".tmp.png", path)


if __name__ == "__main__":
    sys.exit(main())
