#!/usr/bin/env bash
# `moreau simulate --integrator event`: closings after impacts are never missed and impact
# accumulations end (docs/simulation.md §Event-driven, "Closing roots" and "Zeno rule").
#  * bouncing_ball.json (e = 0.8, centre from 1 m, r = 0.1) to t = 5 s: the impacts accumulate at
#    t* = t₁ + 2v₁e/(g(1−e)) = 3.855 s (t₁ = √(1.8/g), v₁ = √(1.8 g)); at t = 5 s the ball rests
#    on the floor: y = 0.1, v_y = 0, energy m g r = 0.981 J; no penetration, no energy gain.
#  * rocking_block.json: no penetration beyond 1e-6 m, no energy gain beyond 1e-6 J, ends flat
#    (y = 0.2 m, θ = 0).
#  * box_stack.json has 20 closed contacts at t = 0, more than the event-driven mode choice
#    handles: exit 0 with status "unsupported" and a message in summary.json (a capability
#    limit, not bad input).
set -u
MOREAU=$1
here="$(cd "$(dirname "$0")/../.." && pwd)"
scenes="$here/examples/scenes"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

run() {  # SCENE OUT T_END
  "$MOREAU" simulate "$scenes/$1.json" --integrator event --t-end "$3" --out "$TMP/$2" --no-plot \
    >"$TMP/$2.stdout" 2>"$TMP/$2.stderr"
  local rc=$?
  [ "$rc" -eq 0 ] || { echo "FAIL $1: exit $rc ($(cat "$TMP/$2.stderr"))"; fail=1; return 1; }
}

if run bouncing_ball ball 5; then
  /usr/bin/python3 - "$TMP/ball" <<'PY' || fail=1
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed", s
assert s["max_penetration"] < 1e-6, s["max_penetration"]
assert s["energy_max_gain"] < 1e-8, s["energy_max_gain"]
rows = list(csv.DictReader(open(d + "/trajectory.csv")))
last = rows[-1]
assert abs(float(last["t"]) - 5.0) < 1e-12, last["t"]
assert abs(float(last["ball.y"]) - 0.1) < 1e-6, last["ball.y"]
assert abs(float(last["ball.vy"])) < 1e-6, last["ball.vy"]
assert min(float(r["ball.y"]) for r in rows) > 0.1 - 1e-6
PY
fi

if run rocking_block block 3; then
  /usr/bin/python3 - "$TMP/block" <<'PY' || fail=1
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed", s
assert s["max_penetration"] < 1e-6, s["max_penetration"]
assert s["energy_max_gain"] < 1e-6, s["energy_max_gain"]
last = list(csv.DictReader(open(d + "/trajectory.csv")))[-1]
assert abs(float(last["block.y"]) - 0.2) < 1e-6 and abs(float(last["block.theta"])) < 1e-6, last
PY
fi

if run box_stack stack 0.01; then
  /usr/bin/python3 - "$TMP/stack" <<'PY' || fail=1
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["status"] == "unsupported", s["status"]
assert "8" in s.get("message", "") and "time-stepping" in s.get("message", ""), s.get("message")
PY
  grep -q "status unsupported" "$TMP/stack.stdout" || { echo "FAIL stack: stdout lacks the status"; fail=1; }
fi
[ "$fail" -eq 0 ] && echo "simulate_event_zeno: ok"
exit $fail
