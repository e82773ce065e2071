#!/usr/bin/env bash
# `moreau simulate` on a system scene (generalized coordinates, examples/siconos): the outputs name
# the coordinates, the first impact of the ball dropped from 1 m (Siconos' BouncingBallTS, h = 5 ms,
# θ = ½) comes at the step whose start satisfies g + ½h u ≤ 0, and a faulty system is refused
# with one line naming the file and the field, exit 2, nothing written.
source "$(dirname "$0")/support/prelude.sh"
SICONOS=$(cd "$(dirname "$0")/../../examples/siconos" && pwd)

"$MOREAU" simulate "$SICONOS/bouncing_ball_ts.json" --out "$TMP/bb" --no-plot > "$TMP/log" 2>&1 ||
  { echo "run failed"; cat "$TMP/log"; fail=1; }
head -1 "$TMP/bb/trajectory.csv" | grep -q '^t,x,y,theta,x_dot,y_dot,theta_dot,' ||
  { echo "trajectory header: $(head -1 "$TMP/bb/trajectory.csv")"; fail=1; }
/usr/bin/python3 - "$TMP/bb" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/trajectory.csv")))
assert len(rows) == 2001, len(rows)  # t = k·h, k = 0..2000
h, g = 0.005, 9.81
# free fall under the θ = ½ step: x_k = 1 − g h² k²/2, v_k = −g h k (exact for a constant force);
# the contact enters step k when x_k + ½h v_k ≤ 0: the first such k, solved here
k = next(k for k in range(1000) if 1 - g * h * h * k * k / 2 + 0.5 * h * (-g * h * k) <= 0)
assert abs(float(rows[k]["x"]) - (1 - g * h * h * k * k / 2)) < 1e-12
# that step has an impulse and Newton's law holds with equality: v_{k+1} + e v_k = 0 (e = 0.9)
contacts = [r for r in csv.DictReader(open(sys.argv[1] + "/contacts.csv")) if float(r["r_n"]) > 0]
assert abs(float(contacts[0]["t"]) - (k + 1) * h) < 1e-12, (contacts[0]["t"], k)
vk, v1 = float(rows[k]["x_dot"]), float(rows[k + 1]["x_dot"])
assert abs(v1 + 0.9 * vk) < 1e-12, (v1, vk)
PY

cat > "$TMP/bad.json" <<'JSON'
{"description": "bad", "system": {"coordinates": ["x"], "mass": [[-1]], "q0": [1]}, "t_end": 1}
JSON
"$MOREAU" simulate "$TMP/bad.json" --out "$TMP/badout" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc -eq 2 ] || { echo "bad system: exit $rc"; fail=1; }
grep -q "bad.json: system.mass: not positive definite" "$TMP/err" || { echo "message:"; cat "$TMP/err"; fail=1; }
[ "$(wc -l < "$TMP/err")" -eq 1 ] || { echo "not one line"; fail=1; }
[ ! -e "$TMP/badout" ] || { echo "output written for a refused scene"; fail=1; }
exit $fail
