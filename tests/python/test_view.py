"""moreau.view (python/moreau/_view.py → `moreau view`): the page of a run, from both output
formats. The run embedded in the page is read back here and compared with the run itself: as many
frames as records, the bodies of the scene, every contact record with a point found by contact
detection. The page in a real browser is ctest viewer.browser (viewer/test/)."""
import base64
import json
import os
import re

import numpy as np
import pytest

import moreau

from example_scenes import scene


def embedded_run(page):
    with open(page, encoding="utf-8") as f:
        html = f.read()
    m = re.search(r'<script type="application/json" id="moreau-run">(.*?)</script>', html, re.S)
    assert m, "the page holds its run"
    return json.loads(m.group(1))


@pytest.fixture(autouse=True)
def needs_cli():
    if not os.environ.get("MOREAU_CLI"):
        pytest.skip("MOREAU_CLI not set")


@pytest.mark.parametrize("fmt", ["csv", "hdf5"])
def test_the_page_holds_the_run(tmp_path, fmt):
    # a box sliding and stopping on the incline: one body, contacts at every step
    ran = moreau.simulate(scene("box_on_incline.json", t_end=0.3), out=tmp_path / "run", format=fmt)
    page = moreau.view(tmp_path / "run")
    assert page == os.path.join(tmp_path / "run", "view.html")
    doc = embedded_run(page)
    assert doc["format"] == "moreau-view" and doc["dimension"] == 2  # the planar incline
    assert doc["frames"] == len(ran.t) == doc["recorded"]
    assert doc["t"] == pytest.approx(list(ran.t), abs=0)
    dynamic = [b for b in doc["bodies"] if not b["static"]]
    assert [b["name"] for b in dynamic] == [n[: -len(".x")] for n in ran.position_names if n.endswith(".x")]
    c = doc["contacts"]
    assert c["offsets"][-1] == len(ran.contacts["t"]) > 0
    assert c["located"] == len(ran.contacts["t"])  # every record found again by detection
    assert len(doc["events"]) == len(ran.events)


def test_frames_are_thinned_and_the_page_goes_where_asked(tmp_path):
    ran = moreau.simulate(scene("bouncing_ball.json", t_end=1.0), out=tmp_path / "ball")
    page = moreau.view(tmp_path / "ball", html=tmp_path / "ball.html", max_frames=10)
    assert page == os.fspath(tmp_path / "ball.html")
    doc = embedded_run(page)
    assert doc["recorded"] == len(ran.t) > 10
    assert doc["frames"] <= 10 and doc["t"][-1] == ran.t[-1] and doc["t"][0] == ran.t[0]
    assert not [f for f in os.listdir(tmp_path) if ".tmp" in f]


def test_bad_folders_are_named(tmp_path):
    with pytest.raises(ValueError, match="no such folder"):
        moreau.view(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no trajectory.csv and no run.h5"):
        moreau.view(tmp_path / "empty")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.h5").write_text("not hdf5")
    with pytest.raises(ValueError, match=r"run\.h5: not an HDF5 file"):
        moreau.view(tmp_path / "bad")
    with pytest.raises(ValueError, match="max_frames"):
        moreau.view(tmp_path / "bad", max_frames=-1)


def test_a_run_h5_with_three_tangential_components_is_refused(tmp_path):
    # a contact record holds at most d − 1 = 2 tangential components (sim/simulation.hpp): a file
    # whose /contacts/r_t has a third column is named, not read past its record
    h5py = pytest.importorskip("h5py")
    moreau.simulate(scene("box_on_incline.json", t_end=0.05), out=tmp_path / "run", format="hdf5")
    with h5py.File(tmp_path / "run" / "run.h5", "r+") as f:
        rows = f["contacts/r_t"].shape[0]
        assert rows > 0
        del f["contacts/r_t"]
        f["contacts/r_t"] = np.zeros((rows, 3))
    with pytest.raises(ValueError, match=r"/contacts/r_t has 3 columns"):
        moreau.view(tmp_path / "run")


TETRA_STL = """solid t
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 0.1 0
vertex 0.1 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 0.1 0 0
vertex 0 0 0.1
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 0.1
vertex 0 0.1 0
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 0.1 0 0
vertex 0 0.1 0
vertex 0 0 0.1
endloop
endfacet
endsolid t
"""

# An arm on a hinge at (0, 0, 1) with its centre of mass at (0.3, 0, 0) of its link, a
# tetrahedron drawn at the link's (0.3, 0, 0.05), and a forearm on an elbow at (0.6, 0, 0) whose
# upper limit 0.3 rad it reaches as the arm falls.
ARM_URDF = """<robot name="arm">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0.3 0 0"/><mass value="1"/>
      <inertia ixx="0.001" iyy="0.03" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.3 0 0.05"/><geometry><mesh filename="tetra.stl"/></geometry>
      <material name="blue"><color rgba="0 0 1 1"/></material></visual></link>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint>
  <link name="forearm"><inertial><origin xyz="0.2 0 0"/><mass value="0.5"/>
      <inertia ixx="0.001" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="elbow" type="revolute"><parent link="arm"/><child link="forearm"/>
    <origin xyz="0.6 0 0"/><axis xyz="0 1 0"/><limit lower="-0.3" upper="0.3" effort="1" velocity="1"/></joint>
</robot>
"""


def rotate(q, v):
    """The vector v turned by the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    u = (x, y, z)
    t = [2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]), 2 * (u[0] * v[1] - u[1] * v[0])]
    return [v[i] + w * t[i] + (u[(i + 1) % 3] * t[(i + 2) % 3] - u[(i + 2) % 3] * t[(i + 1) % 3]) for i in range(3)]


def test_a_robot_page_holds_its_visual_meshes_and_joints(tmp_path):
    (tmp_path / "tetra.stl").write_text(TETRA_STL)
    (tmp_path / "arm.urdf").write_text(ARM_URDF)
    moreau.simulate(str(tmp_path / "arm.urdf"), out=tmp_path / "run", t_end=0.6)
    doc = embedded_run(moreau.view(tmp_path / "run"))
    # the mesh as the file has it: 4 triangles on the 4 corners (STL gives each facet its own)
    assert len(doc["meshes"]) == 1
    mesh = doc["meshes"][0]
    vertices = np.frombuffer(base64.b64decode(mesh["vertices"]["float32"]), dtype="<f4").reshape(-1, 3)
    corners = {(0, 0, 0), (0.1, 0, 0), (0, 0.1, 0), (0, 0, 0.1)}
    assert {tuple(round(float(x), 6) for x in v) for v in vertices} == corners
    assert mesh["triangles"]["rows"] == 4 and mesh["file"] == "tetra.stl"
    arm = next(b for b in doc["bodies"] if b["name"] == "arm")
    (visual,) = arm["visuals"]
    assert visual["kind"] == "mesh" and visual["rgba"] == [0, 0, 1, 1]
    assert visual["position"] == pytest.approx([0.0, 0.0, 0.05], abs=1e-12)  # from the centre of mass
    # the joints: the shoulder at the arm's (−0.3, 0, 0), the elbow at the forearm's (−0.2, 0, 0)
    joints = {j["name"]: j for j in doc["joints"]}
    assert set(joints) == {"shoulder", "elbow"}
    assert joints["shoulder"]["anchor"] == pytest.approx([-0.3, 0, 0], abs=1e-12)
    assert joints["elbow"]["anchor"] == pytest.approx([-0.2, 0, 0], abs=1e-12)
    assert joints["elbow"]["axis"] == pytest.approx([0, 1, 0], abs=1e-12)
    # the elbow's limit is drawn at the elbow: the forearm's centre turned onto its anchor
    c = doc["contacts"]
    assert c["located"] == c["offsets"][-1] > 0
    names = doc["contact_names"]
    points = np.frombuffer(base64.b64decode(c["point"]["float32"]), dtype="<f4").reshape(-1, 3)
    q = np.frombuffer(base64.b64decode(doc["q"]["float32"]), dtype="<f4").reshape(doc["frames"], -1)
    fore = next(b for b in doc["bodies"] if b["name"] == "forearm")
    checked = 0
    for k in range(doc["frames"]):
        for i in range(c["offsets"][k], c["offsets"][k + 1]):
            if names[c["contact"][i]].startswith("elbow/"):
                x = q[k, fore["q_offset"]:fore["q_offset"] + 7].astype(float)
                anchor = np.array(x[:3]) + rotate(x[3:], [-0.2, 0, 0])
                assert np.linalg.norm(points[i] - anchor) < 1e-5
                checked += 1
    assert checked > 0
