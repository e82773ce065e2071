"""Runs bench_columns (columns of cubes, moreau against MuJoCo 2.2.2; docs/benchmarks.md
§Columns) and draws its figures against the column's height: solver iterations per step and
milliseconds per step, moreau beside MuJoCo (issue 35's plot).

Usage: plot_columns.py [--build DIR] [--seconds S] [--out FILE.png] [--json FILE]
  --json FILE   draw from the JSON line a bench_columns run printed (its last line) instead of
                running it; otherwise the run's table is printed and its JSON line written
                beside the plot (FILE.json for FILE.png).
Iterations: moreau's Gauss-Seidel sweeps plus Newton iterations of the step's contact solve;
MuJoCo's mjData::solver_iter (Newton iterations). Time per step: 1 / steps per second of wall
time, both in the same process."""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def run_bench(build, seconds):
    bench = os.path.join(build, "bin", "bench_columns")
    proc = subprocess.run([bench, str(seconds)], check=True, capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    print("\n".join(lines[:-1]))
    return json.loads(lines[-1])


def draw(rows, seconds, out):
    cubes = [r["cubes"] for r in rows]
    fig, (ax_it, ax_ms) = plt.subplots(1, 2, figsize=(10, 4))
    for engine, style in (("moreau", "o-"), ("mujoco", "s--")):
        label = "moreau (exact cone)" if engine == "moreau" else "MuJoCo 2.2.2 (soft contacts)"
        have = [r for r in rows if f"{engine}_steps_per_s" in r]
        if not have:
            continue
        x = [r["cubes"] for r in have]
        ax_ms.plot(x, [1e3 / r[f"{engine}_steps_per_s"] for r in have], style, label=label)
        its = [r.get(f"{engine}_iterations_per_step") for r in have]
        if all(v is not None for v in its):
            ax_it.plot(x, its, style, label=label)
    for ax in (ax_it, ax_ms):
        ax.set_xscale("log")
        ax.set_xticks(cubes)
        ax.set_xticklabels([str(c) for c in cubes])
        ax.set_xlabel("cubes in the column")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8)
    ax_it.set_ylabel("solver iterations per step (mean)")
    ax_it.set_yscale("log")
    ax_ms.set_ylabel("wall time per step [ms]")
    ax_ms.set_yscale("log")
    fig.suptitle(f"Columns of cubes, {seconds:g} s at dt = 1 ms (bench_columns)", fontsize=10)
    fig.tight_layout()
    tmp = out + ".tmp.png"
    fig.savefig(tmp, dpi=100)
    os.replace(tmp, out)
    print(f"wrote {out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--out", default=None)
    p.add_argument("--json", default=None)
    a = p.parse_args()
    if a.json:
        with open(a.json) as f:
            rows = json.loads(f.read().strip().splitlines()[-1])
    else:
        rows = run_bench(a.build, a.seconds)
    out = a.out or os.path.join(a.build, "columns.png")
    if not a.json:  # the figures beside the plot, for --json later
        with open(os.path.splitext(out)[0] + ".json", "w") as f:
            f.write(json.dumps(rows) + "\n")
    draw(rows, a.seconds, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
