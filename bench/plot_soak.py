"""Plots the samples of bench_soak (`make soak`): OUT/soak.png, one row per run with the energy
drift, the watched height, the events so far and the resident memory against the run's percent.

Usage: plot_soak.py OUT_DIR (the folder holding soak-<case>.csv and soak-summary.json)."""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(folder):
    summary = json.load(open(os.path.join(folder, "soak-summary.json")))
    cases = [name for name in ("box_stack", "sphere_pile", "pencil") if name in summary]
    fig, axes = plt.subplots(len(cases), 4, figsize=(16, 3.2 * len(cases)), squeeze=False)
    columns = [("energy_drift", "E(t) − E(0) [J]"), ("height", "watched height [m]"),
               ("events", "events so far"), ("rss_mb", "resident memory [MB]")]
    for row, name in enumerate(cases):
        rows = list(csv.DictReader(open(os.path.join(folder, f"soak-{name}.csv"))))
        percent = [float(r["percent"]) for r in rows]
        for col, (key, label) in enumerate(columns):
            ax = axes[row][col]
            ax.plot(percent, [float(r[key]) for r in rows], lw=1.2)
            ax.set_xlabel("% of the run")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        s = summary[name]
        axes[row][0].set_title(f"{name}: {s['steps']} steps to t = {s['t_end']:g} s — "
                               f"{'ok' if s['ok'] else 'FAILED'}", loc="left", fontsize=10)
    fig.tight_layout()
    target = os.path.join(folder, "soak.png")
    tmp = target + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, target)
    print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1])
