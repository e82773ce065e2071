"""moreau.simulate / moreau.plot on small scenes (gallery systems and JSON text)."""
import json
import math
import os

import numpy as np
import pytest

import moreau


def pencil_scene(integrator="event", t_end=1.2):
    # gallery falling pencil (uniform rod, μ = 0.5): it first sticks, then slips (McGeer & Palmer
    # 1989; unilateral-contact notes)
    return {"description": "gallery falling pencil", "gallery": "falling_pencil", "params": {"mu": 0.5},
            "integrator": {"kind": integrator}, "t_end": t_end}


def test_simulate_returns_arrays_and_events(tmp_path):
    res = moreau.simulate(pencil_scene(), out=tmp_path / "run")
    assert res.q.shape == (len(res.t), len(res.position_names))
    assert res.v.shape == (len(res.t), len(res.velocity_names))
    assert np.all(np.diff(res.t) >= 0.0)
    kinds = [e["kind"] for e in res.events]
    assert "stick_to_slip" in kinds
    # energy never increases beyond the integration tolerance (slip dissipates)
    assert res.summary["energy_max_gain"] <= 1e-6
    for name in ("trajectory.csv", "contacts.csv", "events.csv", "summary.json"):
        assert (tmp_path / "run" / name).exists()
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["integrator"] == "event"
    assert summary["event_counts"]["stick_to_slip"] == kinds.count("stick_to_slip")


def test_overrides_and_plot(tmp_path):
    res = moreau.simulate(json.dumps(pencil_scene(t_end=5.0)), t_end=0.3, integrator="timestepping")
    assert res.summary["integrator"] == "timestepping"
    assert res.t[-1] == pytest.approx(0.3)
    path = moreau.plot(res, str(tmp_path / "p.png"))
    assert os.path.getsize(path) > 1000


def test_non_finite_t_end_is_refused():
    # NaN means "the scene's t_end" inside; given by the caller it is an error, not a default
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            moreau.simulate(pencil_scene(), t_end=bad)


def test_bad_scene_raises_value_error():
    with pytest.raises(ValueError):
        moreau.simulate({"description": "x", "gallery": "falling_pencil", "t_end": 1.0,
                         "no_such_field": 1})
    with pytest.raises(ValueError):
        moreau.simulate({"description": "x", "gallery": "falling_pencil", "t_end": -1.0})
    with pytest.raises(ValueError):
        moreau.simulate(pencil_scene(), integrator="rk4")
