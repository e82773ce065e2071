#!/usr/bin/env bash
# `moreau simulate` writes the five outputs: a bouncing ball (e = 0.8, centre dropped from 1 m,
# r = 0.1) hits the floor at t = √(2·0.9/9.81) = 0.4284 s; both integrators must report that impact.
source "$(dirname "$0")/support/prelude.sh"
for integ in event timestepping; do
  out="$TMP/$integ"
  if ! "$MOREAU" simulate "$SCENES/bouncing_ball.json" --out "$out" --t-end 0.6 --integrator "$integ" \
      >"$TMP/stdout" 2>"$TMP/stderr"; then
    echo "FAIL $integ: exit $? ($(cat "$TMP/stderr"))"; fail=1; continue
  fi
  for f in trajectory.csv contacts.csv events.csv summary.json; do
    [ -s "$out/$f" ] || { echo "FAIL $integ: $f missing"; fail=1; }
  done
  ls "$out"/*.tmp >/dev/null 2>&1 && { echo "FAIL $integ: temporary files left"; fail=1; }
  head -1 "$out/trajectory.csv" | grep -q '^t,' || { echo "FAIL $integ: trajectory header"; fail=1; }
  /usr/bin/python3 - "$out" "$integ" <<'PY' || fail=1
import csv, json, math, sys
out, integ = sys.argv[1], sys.argv[2]
ev = [r for r in csv.DictReader(open(out + "/events.csv")) if r["kind"] == "impact"]
t_hit = math.sqrt(2 * 0.9 / 9.81)
tol = 1e-8 if integ == "event" else 2e-3
if not ev or abs(float(ev[0]["t"]) - t_hit) > tol:
    sys.exit(f"FAIL {integ}: first impact {ev[:1]} not at {t_hit}")
s = json.load(open(out + "/summary.json"))
if s["integrator"] != integ or s["event_counts"]["impact"] < 1 or s["energy_max_gain"] > 1e-6:
    sys.exit(f"FAIL {integ}: summary {s}")
PY
  grep -q "wrote" "$TMP/stdout" || { echo "FAIL $integ: no 'wrote' line"; fail=1; }
done
# plot.png when matplotlib is there (otherwise the program must say it skipped it)
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  [ -s "$TMP/event/plot.png" ] || { echo "FAIL: plot.png missing"; fail=1; }
fi
exit $fail
