"""bench/gradients.py (`make bench-sim`): the cost of Simulator.step_derivatives against one step
and against central differences giving the same matrices (docs/benchmarks.md §Gradients).

Three models, each measured at a state with contacts:
- a sphere sliding on a floor (nv 6);
- a 6-DOF arm of capsules with position servos whose tip rests on a table (nv 6, nu 6);
- the humanoid of bench/models/humanoid.xml lying on the floor after a 1.5 s fall (nv 27).
Reports, per model, at the default settings (what a user gets): one step (µs), step_derivatives
(µs and in steps), central differences of all eight matrices (2 (3 nv + nu) steps: µs, and how
many times step_derivatives); then, at the same state with the solver at 1e-13 and no
projection, as the differences need (docs/gradients.md §Checks), the largest difference between
the two, relative to the matrix's norm. Best of three. A program, not a test.
"""
import argparse
import os
import sys
import time

import numpy as np

from arm_chain import hinge_chain

HERE = os.path.dirname(os.path.abspath(__file__))
EXACT = {"projection": False, "tolerance": 1e-13, "max_iterations": 100000,
         "activation_margin": 1e-4}

SPHERE = {
    "description": "a 0.1 m sphere of 1 kg sliding on a floor, mu 0.5",
    "dimension": 3,
    "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 0, 1], "offset": 0}],
    "bodies": [{"name": "ball", "mass": 1.0, "position": [0, 0, 0.1], "velocity": [1, 0.3, 0],
                "shapes": [{"type": "sphere", "radius": 0.1}]}],
    "contact": {"default": {"mu": 0.5}},
    "integrator": {"kind": "timestepping", "dt": 1e-3},
    "t_end": 1,
}


def arm_xml():
    """Six capsule links on hinges about y, z, y, …, servos at kp 50, the tip ball on a table."""
    bodies, close = hinge_chain(6, "0 0 0.3", 0.1, ' damping="1"',
                                ' type="capsule" size="0.02" contype="0" conaffinity="0"')
    tip = " " * 16 + '<geom name="tip" type="sphere" pos="0.1 0 0" size="0.03"/>\n'
    servos = "".join(f'    <position joint="j{i}" kp="50"/>\n' for i in range(6))
    return f"""<mujoco model="arm6_table">
  <option timestep="0.001" gravity="0 0 -9.81"/>
  <worldbody>
    <geom name="table" type="plane" pos="0 0 0" size="2 2 0.1"/>
{bodies}{tip}{close}  </worldbody>
  <actuator>
{servos}  </actuator>
</mujoco>
"""


def best_of(n, f):
    return min(f() for _ in range(n))


def per_call(f, repeat):
    def run():
        t0 = time.perf_counter()
        for _ in range(repeat):
            f()
        return (time.perf_counter() - t0) / repeat
    return best_of(3, run)


def central_differences(sim, delta=1e-5):
    """The eight matrices of step_derivatives by central differences of sim.step()."""
    q0, v0 = sim.q, sim.v
    f0, c0 = np.array(sim.qfrc_applied), np.array(sim.ctrl)
    n, nu = sim.nv, sim.nu
    sim.set_state(q0, v0)
    sim.step()
    q_ref = sim.q
    def one(q, v, f, c):
        sim.set_state(q, v)
        sim.qfrc_applied, sim.ctrl = f, c
        sim.step()
        return sim.q, sim.v

    out = {k: [] for k in ("q", "v", "qfrc", "ctrl")}
    for j in range(n):
        e = np.eye(n)[j] * delta
        out["q"].append((one(sim.integrate(q0, e), v0, f0, c0),
                         one(sim.integrate(q0, -e), v0, f0, c0)))
        out["v"].append((one(q0, v0 + e, f0, c0), one(q0, v0 - e, f0, c0)))
        out["qfrc"].append((one(q0, v0, f0 + e, c0), one(q0, v0, f0 - e, c0)))
    for j in range(nu):
        e = np.eye(nu)[j] * delta
        out["ctrl"].append((one(q0, v0, f0, c0 + e), one(q0, v0, f0, c0 - e)))
    sim.set_state(q0, v0)
    sim.qfrc_applied, sim.ctrl = f0, c0
    mats = {}
    for key, pairs in out.items():
        dq = [(sim.difference(q_ref, p[0]) - sim.difference(q_ref, m[0])) / (2 * delta)
              for p, m in pairs]
        dv = [(p[1] - m[1]) / (2 * delta) for p, m in pairs]
        mats[f"dq_d{key}"] = np.array(dq).T.reshape(n, len(pairs))
        mats[f"dv_d{key}"] = np.array(dv).T.reshape(n, len(pairs))
    return mats


def measure(name, sim, exact, out):
    """Times at the default settings (sim), the agreement at exact ones (exact, same model and
    state)."""
    n, nu = sim.nv, sim.nu
    q, v = sim.q, sim.v

    def step():
        sim.set_state(q, v)
        sim.step()
    t_step = per_call(step, 20)
    t_deriv = per_call(sim.step_derivatives, 5)
    d = sim.step_derivatives()
    t_fd = best_of(3, lambda: timed(lambda: central_differences(sim)))
    exact.set_state(q, v)
    exact.ctrl = np.array(sim.ctrl)
    de, fd = exact.step_derivatives(), central_differences(exact)
    err = max(np.linalg.norm(de[k] - fd[k]) / max(np.linalg.norm(fd[k]), 1.0) for k in fd)
    modes = ",".join(sorted({c["mode"] for c in d["contacts"]})) or "none"
    out.write(f"| {name} | {n} | {nu} | {len(d['contacts'])} ({modes}) | {t_step * 1e6:.0f} | "
              f"{t_deriv * 1e6:.0f} ({t_deriv / t_step:.1f}) | {t_fd * 1e6:.0f} | "
              f"{t_fd / t_deriv:.1f} | {err:.1e} |\n")
    out.flush()


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import tempfile

    import moreau
    out = sys.stdout
    out.write(f"load average {os.getloadavg()[0]:.2f}\n\n")
    out.write("| model | nv | nu | contacts | step µs | step_derivatives µs (steps) | "
              "central differences µs | differences ÷ derivatives | largest difference |\n"
              "|---|---|---|---|---|---|---|---|---|\n")
    sphere = moreau.Simulator(SPHERE)
    measure("sphere sliding", sphere, moreau.Simulator(SPHERE, integrator=EXACT), out)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "arm6_table.xml")
        with open(path, "w") as f:
            f.write(arm_xml())
        arm = moreau.Simulator(path)
        arm.ctrl = np.array([0.6, 0, 0, 0, 0, 0])
        arm.step(300)  # the servo presses the tip on the table
        measure("6-DOF arm, tip on a table", arm, moreau.Simulator(path, integrator=EXACT), out)
    model = os.path.join(HERE, "models", "humanoid.xml")
    human = moreau.Simulator(model)
    human.step(300)  # 1.5 s: fallen, lying on the floor
    measure("humanoid on the floor", human, moreau.Simulator(model, integrator=EXACT), out)


if __name__ == "__main__":
    main()
