"""moreau.view (python/moreau/_view.py → `moreau view`): the page of a run, from both output
formats. The run embedded in the page is read back here and compared with the run itself: as many
frames as records, the bodies of the scene, every contact record with a point found by contact
detection. The page in a real browser is ctest viewer.browser (viewer/test/)."""
import json
import os
import re

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
