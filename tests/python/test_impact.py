"""moreau.impact / moreau.plot_impact (issue 4): same content as `moreau impact --json`."""
import json
import math
import os
import pathlib

import pytest

import moreau

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "impact"


def ball_spec(**changes):
    spec = json.loads((EXAMPLES / "ball_004.json").read_text())
    spec.update(changes)
    return spec


def test_ball_published_figures():
    r = moreau.impact(ball_spec(step=0.05))
    assert r["status"] == "resolved"
    v = r["bodies"][0]["velocity"]
    w = r["bodies"][0]["angular_velocity"]
    assert v[0] == pytest.approx(0.570982, abs=2e-5)  # Jia 2010 §3.1, B1
    assert w[1] == pytest.approx(-1.92746, abs=5e-5)  # Jia 2010 §3.1, B2
    events = r["contacts"][0]["events"]
    # Slip→stick at (3 − 5μη0²)/(1.4 − μη0²) with μ = 0.4, η0² = (2 − ν)/(2 − 2ν), ν = 0.3.
    eta2 = (2 - 0.3) / (2 - 0.6)
    assert events[1]["kind"] == "slip_to_stick"
    assert events[1]["normal_impulse"] == pytest.approx((3 - 5 * 0.4 * eta2) / (1.4 - 0.4 * eta2), abs=1e-9)
    assert r["kinetic_energy"]["before"] == pytest.approx(13.8)


def test_path_dict_and_string_agree(tmp_path):
    spec = ball_spec(step=0.1, variant="model")
    p = tmp_path / "spec.json"
    p.write_text(json.dumps(spec))
    a = moreau.impact(spec)
    b = moreau.impact(str(p))
    c = moreau.impact(json.dumps(spec))
    assert a["bodies"] == b["bodies"] == c["bodies"]
    assert a["variant"] == "model"


def test_same_content_as_cli(tmp_path):
    cli = os.environ.get("MOREAU_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("MOREAU_CLI not set")
    import subprocess
    out = subprocess.run([cli, "impact", str(EXAMPLES / "ball_004.json"), "--json"],
                         check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["bodies"] == moreau.impact(EXAMPLES / "ball_004.json")["bodies"]


def test_bad_input_raises_value_error():
    spec = ball_spec()
    spec["bodies"][0]["mass"] = -1.0
    with pytest.raises(ValueError, match="mass"):
        moreau.impact(spec)
    spec = ball_spec()
    spec["contacts"][0]["e"] = 2.0
    with pytest.raises(ValueError, match="e must lie in"):
        moreau.impact(spec)
    spec = ball_spec()
    spec["bodies"][0]["velocity"] = [0, 0, 1]
    assert moreau.impact(spec)["status"] == "no_impact"


def test_overflowing_spec_raises_value_error_naming_the_field(tmp_path):
    # 1e308 m/s onto the ground: ½ m v² = 5e615 J overflows to +∞, which JSON cannot hold; the
    # result is refused with the SPEC and the field (it was written as null, then failed as
    # "type must be number, but is null").
    spec = {"law": "newton",
            "bodies": [{"name": "ball", "mass": 1, "inertia": [[0.4, 0, 0], [0, 0.4, 0], [0, 0, 0.4]],
                        "velocity": [0, 0, -1e308]}],
            "contacts": [{"bodies": ["ball", "ground"], "point": [0, 0, -1], "normal": [0, 0, 1]}]}
    tail = (": the impact law's result kinetic_energy.before = inf is not a finite number: the arithmetic "
            "overflowed (the SPEC's largest number is bodies[0].velocity[2] = -1e+308)")
    with pytest.raises(ValueError) as e:
        moreau.impact(spec)
    assert str(e.value) == "impact SPEC" + tail
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(ValueError) as e:
        moreau.impact(path)
    assert str(e.value) == str(path) + tail


def test_plot_impact_writes_png(tmp_path):
    r = moreau.impact(ball_spec(step=0.05))
    path = tmp_path / "ball.png"
    fig = moreau.plot_impact(r, path=path)
    assert path.stat().st_size > 1000
    assert len(fig.axes) == 2
    with pytest.raises(ValueError):
        moreau.plot_impact(r, contact=3)


def test_consistency_helpers():
    # Remark 6 of Brogliato 2014 (signs corrected, docs/math/impact.md): a = 0.5, E = diag(1, 0)
    # gains energy, a = −0.5 does not.
    rep = moreau.frictionless_consistency([[1, 0.5], [0.5, 1]], [[1, 0], [0, 0]])
    p2 = [c for c in rep["criteria"] if c["name"] == "P2"][0]
    assert not p2["holds"] and rep["max_energy_gain"] > 0
    assert moreau.frictionless_energy_change([[1, 0.5], [0.5, 1]], [[1, 0], [0, 0]], [-1, -0.5]) == pytest.approx(1 / 6)
    assert moreau.single_contact_frictional_closed_form([0.2], -2, 0.3, 0.5, 0.4)[0] == pytest.approx(-0.08)
    assert moreau.copositivity([[0, 1], [1, 0]])["copositive"]
