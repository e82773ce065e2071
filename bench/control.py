"""bench/control.py (`make bench-sim`): a 6-DOF arm with position servos stepped from Python one
step at a time, against the same run stepped in C++ (docs/benchmarks.md §Control).

Reports:
- the binding overhead per step, µs: (Python loop of sim.step() − one sim.step(N) call) / N, the
  controller excluded (the controls are held); goal ≤ 2 µs;
- the C++ steps per second of moreau::Simulator::step() against native MuJoCo's mj_step on the
  same file (bench_control; position actuators without kv, which MuJoCo 2.2.2 loads), and the
  joint angles both reach.
Every figure is the best of three runs. A program, not a test.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from arm_chain import hinge_chain

# Six capsule links on hinges about y, z, y, z, y, z, fixed base, a position servo (kp 50 N·m/rad)
# per joint and joint damping 1 N·m·s/rad: the servos carry the arm to the targets and hold it.
ARM = """<mujoco model="arm6_servo">
  <compiler angle="radian"/>
  <option timestep="0.001" gravity="0 0 -9.81"/>
  <default><geom type="capsule" size="0.03" contype="0" conaffinity="0" density="1000"/>
    <joint damping="1"/></default>
  <worldbody>
{bodies}  </worldbody>
  <actuator>
{actuators}  </actuator>
</mujoco>
"""
TARGETS = [0.3, -0.4, 0.5, -0.2, 0.4, -0.3]


def arm_xml():
    bodies, close = hinge_chain(6, "0 0 1", 0.2)
    actuators = "".join(f'    <position name="servo{i}" joint="j{i}" kp="50"/>\n' for i in range(6))
    return ARM.format(bodies=bodies + close, actuators=actuators)


def best_of(n, f):
    return min(f() for _ in range(n))


def python_overhead(path, steps):
    import moreau

    def python_loop():
        sim = moreau.Simulator(path)
        sim.ctrl[:] = TARGETS
        sim.step()
        t = time.perf_counter()
        for _ in range(steps):
            sim.step()
        return time.perf_counter() - t

    def one_call():
        sim = moreau.Simulator(path)
        sim.ctrl[:] = TARGETS
        sim.step()
        t = time.perf_counter()
        sim.step(steps)
        return time.perf_counter() - t

    loop, batch = best_of(3, python_loop), best_of(3, one_call)
    return loop, batch, (loop - batch) / steps * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the build folder (bin/bench_control)")
    ap.add_argument("--steps", type=int, default=20000)
    args = ap.parse_args(argv)
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "arm6_servo.xml")
    with open(path, "w") as f:
        f.write(arm_xml())
    loop, batch, overhead = python_overhead(path, args.steps)
    runs = [json.loads(subprocess.run([os.path.join(args.build, "bin", "bench_control"), path,
                                       str(args.steps)] + [str(x) for x in TARGETS],
                                      check=True, capture_output=True, text=True).stdout)
            for _ in range(3)]
    cpp = max(r["moreau_steps_per_s"] for r in runs)
    print(f"arm6 with 6 position servos, dt 1 ms, {args.steps} steps, load {os.getloadavg()[0]:.2f}")
    print("| measure | value |\n|---|---|")
    print(f"| Python loop of sim.step() | {args.steps / loop:,.0f} steps/s |")
    print(f"| one sim.step({args.steps}) call | {args.steps / batch:,.0f} steps/s |")
    print(f"| binding overhead per step (goal ≤ 2 µs) | {overhead:.2f} µs |")
    print(f"| moreau::Simulator::step() from C++ | {cpp:,.0f} steps/s |")
    q = np.asarray(runs[0]["moreau_final_q"])
    print(f"| moreau's final angles − targets (max) | {np.abs(q - TARGETS).max():.2e} rad |")
    if "mujoco_steps_per_s" in runs[0]:
        mj = max(r["mujoco_steps_per_s"] for r in runs)
        qm = np.asarray(runs[0]["mujoco_final_qpos"])
        print(f"| MuJoCo {runs[0]['mujoco_version']} mj_step from C | {mj:,.0f} steps/s |")
        print(f"| moreau / MuJoCo steps/s | {cpp / mj:.3f} |")
        print(f"| MuJoCo's final angles − targets (max) | {np.abs(qm - TARGETS).max():.2e} rad |")
        print(f"| moreau's − MuJoCo's final angles (max) | {np.abs(q - qm).max():.2e} rad |")
    else:
        print(f"| MuJoCo | skipped: {runs[0].get('mujoco_error')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
