#!/usr/bin/env python3
"""Plots of the example sweeps (examples/sweeps/README.md): reads the tables that `moreau sweep`
wrote into a folder and draws one PNG per study next to them.

    moreau sweep examples/sweeps/ball_004_mu.json -o out/sweeps/ball_004_mu.csv   (… each study)
    /usr/bin/python3 examples/sweeps/plot_sweeps.py out/sweeps
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def table(folder, name):
    path = os.path.join(folder, name + ".csv")
    if not os.path.exists(path):
        return None
    rows = [r for r in csv.DictReader(open(path, encoding="utf-8")) if r["status"] == "ok"]
    return rows


def column(rows, key):
    out = []
    for r in rows:
        try:
            out.append(float(r[key]))
        except ValueError:
            out.append(math.nan)
    return out


def ball(folder, name, key, label, marks):
    rows = table(folder, name)
    if not rows:
        return
    x = column(rows, key)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(x, column(rows, "vx"), label="V_x (m/s)")
    ax.plot(x, column(rows, "wy"), label="ω_y (rad/s)")
    ax.axhline(0.0, color="k", lw=0.5)
    for m, text in marks:
        ax.axvline(m, color="grey", ls="--", lw=0.8)
        ax.text(m, ax.get_ylim()[1], text, rotation=90, va="top", ha="right", fontsize=8)
    ax.set_xlabel(label)
    ax.set_title("Jia 2010's ball after the impact")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, name + ".png"), dpi=110)


def painleve(folder):
    rows = table(folder, "painleve_mu_c")
    if not rows:
        return
    th = column(rows, "/params/theta")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(th, column(rows, "mu_c"), label="μ_c(θ), moreau analyze")
    ax.axhline(4.0 / 3.0, color="grey", ls="--", lw=0.8, label="4/3 at tan θ = 2")
    ax.axvline(math.atan(2.0), color="grey", ls=":", lw=0.8)
    ax.set_ylim(0, 6)
    ax.set_xlabel("θ from the floor (rad)")
    ax.set_ylabel("critical friction μ_c")
    ax.set_title("Painlevé rod: sliding is inconsistent above μ_c")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "painleve_mu_c.png"), dpi=110)


def incline(folder):
    rows = table(folder, "incline_map")
    if not rows:
        return
    mu = column(rows, "/contact/default/mu")
    a = column(rows, "/static_shapes/0/angle /bodies/0/angle")
    speed = [math.hypot(u, w) for u, w in zip(column(rows, "vx"), column(rows, "vy"))]
    fig, ax = plt.subplots(figsize=(6, 5))
    slides = [s > 1e-3 for s in speed]
    ax.scatter([m for m, s in zip(mu, slides) if s], [x for x, s in zip(a, slides) if s], c="tab:red",
               label="slides", marker="s")
    ax.scatter([m for m, s in zip(mu, slides) if not s], [x for x, s in zip(a, slides) if not s],
               c="tab:green", label="sticks", marker="s")
    m = [0.1 + 0.9 * i / 100 for i in range(101)]
    ax.plot(m, [math.atan(v) for v in m], "k--", label="tan α = μ")
    ax.set_xlabel("μ")
    ax.set_ylabel("slope α (rad)")
    ax.set_title("Box on an incline after 0.5 s")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "incline_map.png"), dpi=110)


def pencil(folder):
    rows = table(folder, "pencil_monte_carlo")
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.scatter(column(rows, "/params/theta"), column(rows, "t_slip"), s=8)
    ax.set_xlabel("initial tilt θ₀ (rad)")
    ax.set_ylabel("first stick → slip (s)")
    ax.set_title("Falling pencil, μ = 0.5: Monte Carlo over the initial tilt")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "pencil_monte_carlo.png"), dpi=110)


def main(folder):
    ball(folder, "ball_004_mu", "/contacts/0/mu", "μ", [(0.13, "ω_y = 0 (B13/B14)"), (0.16, "V_x = 0 (B15)")])
    ball(folder, "ball_004_poisson", "/contacts/0/poisson_ratio", "Poisson's ratio ν", [])
    painleve(folder)
    incline(folder)
    pencil(folder)
    print("plots in", folder)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/sweeps")
