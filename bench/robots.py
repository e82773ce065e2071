"""bench/robots.py (`make bench-sim`): the two published robots of ../shared/data/robots, loaded and
stepped by moreau and by native MuJoCo 2.2.2 (docs/benchmarks.md §Robots), with default settings
and dt = 1 ms on both sides:
- the Franka Panda, fixed base, released from its start pose to swing under gravity (2 s);
- the Unitree Go2, floating base dropped from z = 0.5 m onto the ground (2 s).

moreau reads each URDF as published (package:// meshes, DAE visuals, its start pose made valid).
MuJoCo 2.2.2 reads URDF through its <mujoco><compiler meshdir=…/> extension, finds meshes by file
name in meshdir, welds the root, adds no floor and reads no DAE: so it gets a copy with the visuals
removed and the collision folder as meshdir, and the Go2 runs in an MJCF wrapper (a free joint on
its base at z = 0.5 and a plane) around MuJoCo's own conversion of that copy. Load time is reading
the file and building the model and data (moreau: the Simulator, its start pose included). Every
figure is the best of three runs. A program, not a test.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROBOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data",
                      "robots", "example-robot-data", "robots")


def mujoco_urdf(urdf, meshdir, out):
    """A copy of `urdf` for MuJoCo 2.2.2: no <visual>, mesh file names only, dt 1 ms."""
    tree = ET.parse(urdf)
    root = tree.getroot()
    for link in root.iter("link"):
        for visual in link.findall("visual"):
            link.remove(visual)
    for mesh in root.iter("mesh"):
        mesh.set("filename", os.path.basename(mesh.get("filename")))
    block = ET.SubElement(root, "mujoco")
    ET.SubElement(block, "compiler", meshdir=meshdir, discardvisual="true", balanceinertia="true")
    ET.SubElement(block, "option", timestep="0.001")
    tree.write(out)


def go2_wrapper(converted, urdf, out, z):
    """MuJoCo's MJCF of the Go2 (its root welded to the world, and so its mass dropped) with the
    world's contents moved into a free body "base" at height z, given the root link's inertial
    from the URDF, and a ground plane."""
    tree = ET.parse(converted)
    world = tree.getroot().find("worldbody")
    base = ET.Element("body", name="base", pos=f"0 0 {z}")
    base.append(ET.Element("freejoint"))
    robot = ET.parse(urdf).getroot()
    children = {c.get("link") for c in robot.iter("child")}
    link = next(x for x in robot.findall("link") if x.get("name") not in children)  # the root
    inertial = link.find("inertial")
    origin = inertial.find("origin")
    i = inertial.find("inertia").attrib
    base.append(ET.Element("inertial", pos=origin.get("xyz", "0 0 0") if origin is not None else
                           "0 0 0", mass=inertial.find("mass").get("value"),
                           fullinertia=" ".join(i[k] for k in ("ixx", "iyy", "izz", "ixy", "ixz",
                                                               "iyz"))))
    for child in list(world):
        world.remove(child)
        base.append(child)
    world.append(ET.Element("geom", type="plane", size="0 0 1"))
    world.append(base)
    option = tree.getroot().find("option")
    if option is None:
        option = ET.SubElement(tree.getroot(), "option")
    option.set("timestep", "0.001")
    tree.write(out)


def run(bench, *args):
    text = subprocess.run([bench, "run", *map(str, args)], check=True, capture_output=True,
                          text=True).stdout
    return json.loads(text.strip().splitlines()[-1])


def best(bench, args, runs=3):
    results = [run(bench, *args) for _ in range(runs)]
    out = dict(results[0])
    for key in ("moreau_load_s", "mujoco_load_s"):
        if key in out:
            out[key] = min(r[key] for r in results)
    for key in ("moreau_steps_per_s", "mujoco_steps_per_s"):
        if key in out:
            out[key] = max(r[key] for r in results)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--steps", type=int, default=2000)
    a = p.parse_args()
    bench = os.path.join(a.build, "bin", "bench_robots")
    panda = os.path.join(ROBOTS, "panda_description")
    go2 = os.path.join(ROBOTS, "go2_description")
    if not os.path.isdir(panda) or not os.path.isdir(go2):
        print(f"robots: skipped ({ROBOTS} not found)")
        return 0
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        panda_mj = os.path.join(tmp, "panda_mujoco.urdf")
        mujoco_urdf(os.path.join(panda, "urdf", "panda.urdf"),
                    os.path.join(panda, "meshes", "collision"), panda_mj)
        go2_mj_urdf = os.path.join(tmp, "go2_mujoco.urdf")
        mujoco_urdf(os.path.join(go2, "urdf", "go2.urdf"), os.path.join(go2, "collisions"),
                    go2_mj_urdf)
        converted = os.path.join(tmp, "go2_converted.xml")
        subprocess.run([bench, "convert", go2_mj_urdf, converted], check=True)
        go2_mj = os.path.join(tmp, "go2_mujoco.xml")
        go2_wrapper(converted, os.path.join(go2, "urdf", "go2.urdf"), go2_mj, 0.5)
        rows = {
            "panda (fixed base, swinging)": best(
                bench, [os.path.join(panda, "urdf", "panda.urdf"), panda_mj, a.steps]),
            "go2 (dropped on the ground)": best(
                bench, [os.path.join(go2, "urdf", "go2.urdf"), go2_mj, a.steps, "floating", 0, 0,
                        0.5]),
        }
    print(f"robots: {a.steps} steps of 1 ms, best of 3; 1-min load average {load:.2f} before")
    print(f"{'robot':32} {'moreau load s':>13} {'MuJoCo load s':>13} {'moreau steps/s':>15} "
          f"{'MuJoCo steps/s':>15} {'ratio':>7} {'moreau failures':>16}")
    for name, r in rows.items():
        ratio = r.get("moreau_steps_per_s", 0) / r["mujoco_steps_per_s"] \
            if r.get("mujoco_steps_per_s") else float("nan")
        print(f"{name:32} {r['moreau_load_s']:13.3f} {r.get('mujoco_load_s', float('nan')):13.3f} "
              f"{r['moreau_steps_per_s']:15.0f} {r.get('mujoco_steps_per_s', float('nan')):15.0f} "
              f"{ratio:7.3f} {r['moreau_solver_failures']:16d}")
        if "mujoco_error" in r:
            print(f"  MuJoCo: {r['mujoco_error']}")
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
