"""URDF import (docs/urdf.md): a two-link arm released above a table (put in the world of its
converted scene) swings down, stops on the table and keeps its elbow within its limits; a floating base with a ground plane falls onto it;
what moreau ignores is reported and what it cannot read is refused with the file and link.
"""
import math
import warnings
import os
import subprocess

import numpy as np
import pytest

import moreau

HERE = os.path.dirname(__file__)
ARM = os.path.join(HERE, "..", "..", "examples", "urdf", "two_link_arm.urdf")
CLI = os.environ.get("MOREAU_CLI", os.path.join(HERE, "..", "..", "build", "bin", "moreau"))
TABLE_TOP = 0.6  # m: the table's box spans z 0.55 … 0.6, x 0.3 … 1.2


def block(res, body, start):
    i = res.position_names.index(f"{body}.{start}")
    return res.q[:, i:i + (3 if start == "x" else 4)]


def rotate(q, v):
    w, u = q[0], np.asarray(q[1:])
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def lowest_points(res, k):
    """(x, z) of the lowest points of both links at record k, from their geometry: the upper arm's
    box (0.44 × 0.06 × 0.06 about its centre of mass) and the forearm's cylinder (0.3 long, radius
    0.025, along its x, about its centre of mass)."""
    out = []
    p, q = block(res, "upper_arm", "x")[k], block(res, "upper_arm", "qw")[k]
    for sx in (-0.22, 0.22):
        for sy in (-0.03, 0.03):
            for sz in (-0.03, 0.03):
                x = p + rotate(q, np.array([sx, sy, sz]))
                out.append((x[0], x[2]))
    p, q = block(res, "forearm", "x")[k], block(res, "forearm", "qw")[k]
    axis = rotate(q, np.array([1.0, 0, 0]))
    for sx in (-0.15, 0.15):
        x = p + sx * axis
        # the lowest point of an end disk of radius r about the axis a: r √(1 − a_z²) below
        out.append((x[0], x[2] - 0.025 * math.sqrt(max(0.0, 1 - axis[2] ** 2))))
    return out


def arm_over_table():
    """The converted arm with a table in the world: a box spanning z 0.55 … 0.6, x 0.3 … 1.2."""
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        scene = moreau.convert(ARM)
    scene["bodies"][0]["shapes"].append({"type": "box", "name": "table",
                                         "half_extents": [0.45, 0.3, 0.025],
                                         "position": [0.75, 0.0, 0.575]})
    return scene, notes


def test_arm_swings_onto_the_table_and_stops():
    scene, notes = arm_over_table()
    res = moreau.simulate(scene, t_end=2.0)
    # <dynamics damping> is honoured now: no note about it
    assert not any("damping" in str(n.message) for n in notes)
    assert res.summary["status"] == "completed"
    # it fell: the upper arm turned about y from horizontal
    x_axis = [rotate(q, np.array([1.0, 0, 0])) for q in block(res, "upper_arm", "qw")]
    drop = [math.atan2(-a[2], a[0]) for a in x_axis]
    assert max(drop) > 0.3
    # nothing above the table goes through its top
    for k in range(len(res.t)):
        for x, z in lowest_points(res, k):
            if 0.3 <= x <= 1.2:
                assert z >= TABLE_TOP - 2e-3, (res.t[k], x, z)
    # the elbow stays within ±1.2 rad
    for qu, qf in zip(block(res, "upper_arm", "qw"), block(res, "forearm", "qw")):
        rel = rotate(np.array([qu[0], -qu[1], -qu[2], -qu[3]]), rotate(qf, np.array([1.0, 0, 0])))
        assert abs(math.atan2(-rel[2], rel[0])) <= 1.2 + 1e-4
    # and it came to rest
    assert np.abs(res.v[-1]).max() < 1e-3


def test_floating_base_falls_onto_the_ground():
    with pytest.warns(moreau.ModelWarning):
        res = moreau.simulate(ARM, t_end=1.0, floating_base=True, ground=True)
    assert res.summary["status"] == "completed"
    assert "base_link.x" in res.position_names
    assert res.summary["max_penetration"] < 2e-3
    assert res.summary["energy_max_gain"] < 2e-4 * res.summary["energy_initial"]
    # the base moved (the arm's fall tips it), and stayed above the ground
    base = block(res, "base_link", "x")
    assert np.abs(base[-1] - base[0]).max() > 1e-3
    assert base[:, 2].min() > 0


def test_errors_name_the_file_and_link(tmp_path):
    urdf = tmp_path / "r.urdf"
    urdf.write_text('<robot name="r"><link name="a"><inertial><mass value="1"/>'
                    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                    '<collision><geometry><mesh filename="package://r/meshes/a.stl"/></geometry>'
                    '</collision></link></robot>')
    run = subprocess.run([CLI, "simulate", str(urdf), "--floating-base"], capture_output=True, text=True)
    assert run.returncode == 2
    assert f"{urdf}: link 'a'" in run.stderr and "package://" in run.stderr
    urdf.write_text("<robot name='r'><link name='a'/><link name='a'/></robot>")
    run = subprocess.run([CLI, "convert", str(urdf), "-o", str(tmp_path / "r.json")],
                         capture_output=True, text=True)
    assert run.returncode == 2 and str(urdf) in run.stderr
    assert not (tmp_path / "r.json").exists()


def test_mimic_couples_two_fingers(tmp_path):
    """Two fingers on vertical slides, the right one mimicking the left with multiplier −1: one
    dof, which gravity drives with (m_l − m_r) g over m_l + m_r, so the left finger falls as
    −½ (g/3) t² with masses 2 and 1 kg, and the right one rises as much."""
    urdf = tmp_path / "gripper.urdf"
    inertial = ('<inertial><mass value="{}"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
                'iyz="0" izz="0.01"/></inertial>')
    limit = '<limit lower="-10" upper="10" effort="1" velocity="1"/>'
    urdf.write_text(
        '<robot name="g"><link name="palm"/>'
        f'<link name="left">{inertial.format(2)}</link>'
        f'<link name="right">{inertial.format(1)}</link>'
        '<joint name="l" type="prismatic"><parent link="palm"/><child link="left"/>'
        f'<origin xyz="0 0.05 0"/><axis xyz="0 0 1"/>{limit}</joint>'
        '<joint name="r" type="prismatic"><parent link="palm"/><child link="right"/>'
        f'<origin xyz="0 -0.05 0"/><axis xyz="0 0 1"/>{limit}<mimic joint="l" multiplier="-1"/>'
        '</joint>'
        '</robot>')
    with pytest.warns(moreau.ModelWarning):  # effort and velocity limits are not simulated
        res = moreau.simulate(str(urdf), t_end=0.5)
    assert res.summary["status"] == "completed"
    ql = res.q[:, res.position_names.index("l.q")]
    qr = res.q[:, res.position_names.index("r.q")]
    t = np.asarray(res.t)
    np.testing.assert_allclose(ql, -0.5 * 9.81 / 3 * t ** 2, atol=1e-6)
    np.testing.assert_allclose(qr, -ql, atol=1e-9)


def test_package_uris_resolve_through_package_dirs(tmp_path):
    """A URDF outside its package finds package://my_robot/… through package_dirs (a folder of
    packages); without it the error names the URI and the folders searched."""
    box = "solid b\n" + "".join(
        f"facet normal 0 0 0\n outer loop\n  vertex {a}\n  vertex {b}\n  vertex {c}\n endloop\nendfacet\n"
        for a, b, c in [("0 0 0", "0 0.1 0", "0.1 0 0"), ("0 0 0", "0.1 0 0", "0 0 0.1"),
                        ("0 0 0", "0 0 0.1", "0 0.1 0"), ("0.1 0 0", "0 0.1 0", "0 0 0.1")]) + "endsolid b\n"
    (tmp_path / "src" / "my_robot" / "meshes").mkdir(parents=True)
    (tmp_path / "src" / "my_robot" / "package.xml").write_text("<package><name>my_robot</name></package>")
    (tmp_path / "src" / "my_robot" / "meshes" / "tet.stl").write_text(box)
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(
        '<robot name="r"><link name="base"/><link name="arm"><inertial><mass value="1"/>'
        '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
        '<collision><origin xyz="0 0 -0.5"/><geometry>'
        '<mesh filename="package://my_robot/meshes/tet.stl"/></geometry></collision></link>'
        '<joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>'
        '<axis xyz="0 1 0"/></joint></robot>')
    sim = moreau.Simulator(str(urdf), package_dirs=[tmp_path / "src"])
    assert sim.coordinate_names == ["hinge.q"]
    with pytest.raises(moreau.InputError, match=r"package://my_robot/meshes/tet.stl.*no package 'my_robot'"):
        moreau.Simulator(str(urdf))
    with pytest.raises(moreau.InputError, match="argument 'package_dirs'"):
        moreau.Simulator(str(urdf), package_dirs=[tmp_path / "missing"])


ROBOTS = os.path.join(HERE, "..", "..", "..", "shared", "data", "robots", "example-robot-data",
                      "robots")
PANDA = os.path.join(ROBOTS, "panda_description", "urdf", "panda.urdf")


@pytest.mark.skipif(not os.path.exists(PANDA), reason="shared/data/robots is not next to the clone")
def test_published_panda_loads_and_swings_with_its_fingers_mimicked():
    """The Franka Panda as published: package:// meshes found above the file, joint 4 (range
    [-3.0718, -0.0698], its zero outside) started at -0.0698 with a warning, then released to
    swing under gravity; the second finger keeps the first's position (mimic, multiplier 1), and
    the energy does not grow."""
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        sim = moreau.Simulator(PANDA)
    assert any("joint 'panda_joint4': its zero pose lies outside its range" in str(n.message)
               for n in notes)
    j4 = sim.coordinate_names.index("panda_joint4.q")
    assert sim.q[j4] == pytest.approx(-0.0698, abs=1e-12)
    f1 = sim.coordinate_names.index("panda_finger_joint1.q")
    f2 = sim.coordinate_names.index("panda_finger_joint2.q")
    j2 = sim.coordinate_names.index("panda_joint2.q")
    sim.start_recording()
    sim.step(200)
    res = sim.stop_recording()
    assert res.summary["status"] == "completed"
    # every step exact: the fingers resting on their lower limits (two frictionless rows made
    # singular by the mimic row) once ended most steps above the tolerance (a cone projection
    # that let r_n < 0 through when mu = 0)
    assert res.summary["solver_failures"] == 0, res.summary["message"]
    q = np.asarray(res.q)
    i1 = res.position_names.index("panda_finger_joint1.q")
    i2 = res.position_names.index("panda_finger_joint2.q")
    np.testing.assert_allclose(q[:, i2], q[:, i1], atol=1e-8)
    assert abs(sim.q[j2]) > 1e-3  # gravity swung the shoulder
    assert sim.q[f1] == pytest.approx(sim.q[f2], abs=1e-8)
    # (joint 4 starts on its limit: the limit's inelastic contact and projection leave a drift of
    # 7e-4 J out of 104 J; the energy then falls with the joints' damping)
    assert res.energy.max() <= res.energy[0] + 2e-5 * abs(res.energy[0])
    assert res.energy[-1] < res.energy[0]


def test_self_collision_and_initial_overlap_arguments():
    """self_collision lets the arm's links collide (the converted scene says so); a bad value and
    a model that is not a URDF are refused, as is an unknown initial_overlap mode."""
    assert moreau.convert(ARM)["contact"].get("self_collision") is False
    assert "self_collision" not in moreau.convert(ARM, self_collision=True)["contact"]
    assert moreau.convert(ARM, initial_overlap="ignore")["contact"]["initial_overlap"] == "ignore"
    with pytest.raises(moreau.InputError, match="argument 'self_collision' = 1"):
        moreau.Simulator(ARM, self_collision=1)
    with pytest.raises(moreau.InputError, match="argument 'initial_overlap' = 'undo'"):
        moreau.Simulator(ARM, initial_overlap="undo")
    with pytest.raises(moreau.InputError, match="argument 'balance_inertia' = 'yes'"):
        moreau.Simulator(ARM, balance_inertia="yes")
    assert moreau.Simulator(ARM, balance_inertia=True).coordinate_names == ["shoulder.q", "elbow.q"]
    scene = os.path.join(HERE, "..", "..", "examples", "scenes", "bouncing_ball.json")
    with pytest.raises(moreau.InputError, match="not a .urdf file"):
        moreau.Simulator(scene, self_collision=True)


GO2 = os.path.join(ROBOTS, "go2_description")


@pytest.mark.skipif(not os.path.exists(GO2), reason="shared/data/robots is not next to the clone")
def test_published_go2_is_placed_by_its_srdf_and_lands_at_rest():
    """The Unitree Go2 as published, floating over the ground: its SRDF state "standing" places
    the base link at z = 0.335 (root_joint x y z qx qy qz qw) and the legs; with no motor torque
    it lands, folds onto its calves' limits and comes to rest without sinking into the ground."""
    urdf = os.path.join(GO2, "urdf", "go2.urdf")
    srdf = os.path.join(GO2, "srdf", "go2.srdf")
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        lifted = moreau.Simulator(urdf, floating_base=True, ground=True, base_pose=(0, 0, 1))
        sim = moreau.Simulator(urdf, floating_base=True, ground=True, srdf=srdf,
                               keyframe="standing")
    names = sim.coordinate_names
    c = [lifted.q[names.index(f"base.{a}")] - (1.0 if a == "z" else 0.0) for a in "xyz"]
    # its feet start 0.08 to 0.11 mm into the ground: the start pose's projection bends the legs
    # by 6e-4 rad to lift them out, and says so
    assert any("'FL_calf' and 'world' by 8.15e-05 m" in str(n.message) for n in notes)
    assert [sim.q[names.index(f"base.{a}")] for a in "xyz"] == pytest.approx(
        [c[0], c[1], 0.335 + c[2]], abs=1e-5)
    assert sim.q[names.index("FL_calf_joint.q")] == pytest.approx(-1.44, abs=1e-3)
    sim.start_recording()
    sim.step(400)
    res = sim.stop_recording()
    assert res.summary["status"] == "completed"
    # every step at tolerance: lying on its belly (19-48 contacts on 18 velocities) once sent the
    # default solver's dense rule to ADMM, which stalled at 1e-5 (nsgs_admm now goes to Newton)
    assert res.summary["solver_failures"] == 0, res.summary["message"]
    assert res.summary["max_penetration"] < 1e-6
    z = res.q[:, res.position_names.index("base.z")]
    assert z[-1] < z[0] - 0.1  # it fell
    assert np.abs(res.v[-50:]).max() < 1e-3  # and came to rest
