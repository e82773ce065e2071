#!/bin/bash
# `moreau impact` on the ball of Jia 2010 §3.1 (published reading): JSON output parsed by python3
# and compared with the paper's figures B1/B2 (docs/math/impact.md); the text report runs too.
set -u
bin="$1"
here="$(cd "$(dirname "$0")" && pwd)"
spec="$here/../../examples/impact/ball_004.json"
out="$("$bin" impact "$spec" --json)" || { echo "moreau impact failed"; exit 1; }
echo "$out" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "resolved", r["status"]
v = r["bodies"][0]["velocity"]; w = r["bodies"][0]["angular_velocity"]
assert abs(v[0] - 0.570982) < 2e-5 and abs(v[2] - 2.5) < 1e-9, v
assert abs(w[1] + 1.92746) < 5e-5, w
kinds = [e["kind"] for e in r["contacts"][0]["events"]]
assert kinds == ["start_slip", "slip_to_stick", "end_of_compression", "stick_to_slip", "end_of_restitution"], kinds
assert abs(r["contacts"][0]["events"][1]["normal_impulse"] - 0.625) < 1e-9
assert r["kinetic_energy"]["after"] < r["kinetic_energy"]["before"]
' || { echo "unexpected JSON result"; exit 1; }
"$bin" impact "$spec" | grep -q "slip_to_stick" || { echo "text report lacks the events"; exit 1; }
exit 0
