"""HDF5 run output (docs/run-format.md): `output.format = "hdf5"`, `moreau.simulate(format=...)`,
`moreau simulate --format hdf5` and `moreau.load_run`.

The same deterministic run written as CSV and as run.h5 reads back as the same arrays (two
writers, two readers: CSV text through Python's csv module, HDF5 through h5py), the layout is the
documented one, and the bouncing ball's first impact in the file is at √(2·0.9/g), the drop of its
centre from 1 m to the radius 0.1 m.
"""
import json
import math
import os
import subprocess

import numpy as np
import pytest

import moreau

h5py = pytest.importorskip("h5py")

from example_scenes import scene  # noqa: E402


def test_csv_and_hdf5_hold_the_same_run(tmp_path):
    s = scene("rocking_block.json", t_end=0.5)
    moreau.simulate(s, out=tmp_path / "csv")
    ran = moreau.simulate(s, out=tmp_path / "h5", format="hdf5")
    assert sorted(os.listdir(tmp_path / "h5")) == ["run.h5"]
    a, b = moreau.load_run(tmp_path / "csv"), moreau.load_run(tmp_path / "h5" / "run.h5")
    for key in ("t", "q", "v", "kinetic", "potential"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
        assert np.array_equal(getattr(ran, key), getattr(b, key)), key
    assert a.position_names == b.position_names and a.velocity_names == b.velocity_names
    assert a.contact_names == b.contact_names
    for key in ("t", "contact", "gap", "r_n", "r_t"):
        assert np.array_equal(np.asarray(a.contacts[key]), np.asarray(b.contacts[key])), key
    assert list(a.contacts["mode"]) == list(b.contacts["mode"])
    assert a.events == b.events and len(b.events) > 0
    drop = lambda d: {k: v for k, v in d.items() if k not in ("wall_time", "plot")}  # noqa: E731
    assert drop(a.summary) == drop(b.summary)


def test_the_file_has_the_documented_layout_and_the_first_impact(tmp_path):
    moreau.simulate(scene("bouncing_ball.json", t_end=0.6), out=tmp_path, format="hdf5")
    with h5py.File(tmp_path / "run.h5", "r") as f:
        assert f.attrs["moreau_run_version"] == 1
        n = f["t"].shape[0]
        assert f["q"].shape == (n, 3) and f["v"].shape == (n, 3)  # planar ball: x, y, θ
        assert f["kinetic_energy"].shape == f["potential_energy"].shape == (n,)
        assert list(f["contacts/mode"].attrs["names"]) == ["separate", "stick", "slip"]
        assert f["contacts/r_t"].shape == (f["contacts/t"].shape[0], 1)
        kinds = [k.decode() for k in f["events/kind"][()]]
        impacts = f["events/t"][()][np.array(kinds) == "impact"]
        summary = json.loads(f["summary"][()])
    assert impacts[0] == pytest.approx(math.sqrt(2 * 0.9 / 9.81), abs=1e-6)
    assert summary["event_counts"]["impact"] == len(impacts)


def test_the_command_line_writes_hdf5_and_refuses_other_formats(tmp_path):
    cli = os.environ.get("MOREAU_CLI")
    if not cli:
        pytest.skip("MOREAU_CLI not set")
    path = tmp_path / "ball.json"
    path.write_text(json.dumps(scene("bouncing_ball.json", t_end=0.6)))
    out = tmp_path / "out"
    done = subprocess.run([cli, "simulate", str(path), "-o", str(out), "--format", "hdf5", "--no-plot"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "run.h5" in done.stdout and os.listdir(out) == ["run.h5"]
    assert len(moreau.load_run(out).events) > 0
    bad = subprocess.run([cli, "simulate", str(path), "--format", "xml"], capture_output=True, text=True)
    assert bad.returncode == 2 and '--format = "xml": must be "csv" or "hdf5"' in bad.stderr
    path.write_text(json.dumps(scene("bouncing_ball.json", output={"format": "parquet"})))
    bad = subprocess.run([cli, "simulate", str(path)], capture_output=True, text=True)
    assert bad.returncode == 2 and 'output.format = "parquet"' in bad.stderr and "ball.json" in bad.stderr


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="format"):
        moreau.simulate(scene("bouncing_ball.json", t_end=0.1), out=tmp_path, format="xml")
    with pytest.raises(ValueError, match="neither run.h5 nor trajectory.csv"):
        moreau.load_run(tmp_path)
    (tmp_path / "x.h5").write_bytes(b"not hdf5")
    with pytest.raises(ValueError, match="not an HDF5 file"):
        moreau.load_run(tmp_path / "x.h5")


def test_large_worlds_store_names_fixed_length_and_numbers_compressed(tmp_path):
    # 700 spheres: 4900 position names, above the 4096 of docs/run-format.md
    bodies = [{"name": f"s{i}", "mass": 1.0, "position": [0.3 * (i % 30), 0.3 * (i // 30), 1.0],
               "shapes": [{"type": "sphere", "radius": 0.1}]} for i in range(700)]
    s = {"description": "700 falling spheres", "dimension": 3, "bodies": bodies,
         "integrator": {"kind": "timestepping", "dt": 1e-3}, "t_end": 0.003,
         "output": {"plot": False}}
    moreau.simulate(s, out=tmp_path / "csv")
    moreau.simulate(s, out=tmp_path / "h5", format="hdf5")
    a, b = moreau.load_run(tmp_path / "csv"), moreau.load_run(tmp_path / "h5")
    assert b.position_names == a.position_names and len(b.position_names) == 4900
    assert b.velocity_names == a.velocity_names
    assert np.array_equal(a.q, b.q) and np.array_equal(a.v, b.v)
    with h5py.File(tmp_path / "h5" / "run.h5") as f:
        assert f["position_names"].dtype.kind == "S"  # fixed-length, NUL-padded
        assert f["q"].compression == "gzip" and f["v"].compression == "gzip"
        # free fall from rest: z = 1 − g t²/2 at the recorded times, to the θ-scheme's O(h) offset
        z = f["q"][:, 2]
        assert np.allclose(z, 1 - 0.5 * 9.81 * f["t"][()] ** 2, atol=2e-5)


def test_a_limited_event_log_counts_every_event_in_both_formats(tmp_path):
    # integrator.max_logged_events: the first events are logged, all are counted; the reference
    # counts are those of the unlimited run's own list
    s = scene("bouncing_ball.json", t_end=3.0)
    full = moreau.simulate(s)
    counts = {}
    for e in full.events:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
    assert counts.get("impact", 0) >= 3
    s["integrator"]["max_logged_events"] = 2
    for fmt in ("csv", "hdf5"):
        ran = moreau.simulate(s, out=tmp_path / fmt, format=fmt)
        loaded = moreau.load_run(tmp_path / fmt)
        for r in (ran, loaded):
            assert [(e["t"], e["kind"]) for e in r.events] == [(e["t"], e["kind"]) for e in full.events[:2]]
            assert r.summary["events_logged"] == 2
            assert r.event_counts == r.summary["event_counts"]
            for kind, n in r.event_counts.items():
                assert n == counts.get(kind, 0), (fmt, kind)
        assert any(f"the first 2 of the run's {len(full.events)} events" in w for w in ran.summary["warnings"])
