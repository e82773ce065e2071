#!/usr/bin/env bash
# `moreau simulate` and the contact material's impact law ("law"): an unknown name (refused by the
# scene reader, naming the field) and a frictionless law on a frictional contact exit 2 with a
# message naming the law and the value; "poisson" on the frictionless ball runs and its impacts say "law = poisson". The scene
# (a disk r = 0.1 m, 1 kg, centre at 0.5 m over a floor, e = 0.8) is written to a temp dir.
set -u
MOREAU=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

scene() {  # NAME LAW MU
  cat >"$TMP/$1.json" <<JSON
{
  "description": "disk dropped on a floor, impact law $2",
  "dimension": 2,
  "gravity": [0, -9.81],
  "static_shapes": [{"type": "plane", "name": "floor", "normal": [0, 1], "offset": 0}],
  "bodies": [{"name": "ball", "mass": 1.0, "position": [0.0, 0.5],
              "shapes": [{"type": "disk", "radius": 0.1}]}],
  "contact": {"default": {"mu": $3, "e": 0.8, "law": "$2"}},
  "integrator": {"kind": "event"},
  "t_end": 1.0
}
JSON
}

expect_bad() {  # NAME INTEGRATOR WORD...: exit 2, every WORD in the message, no outputs
  local name=$1 integ=$2 out rc
  shift 2
  out=$("$MOREAU" simulate "$TMP/$name.json" --out "$TMP/out_$name" --integrator "$integ" --no-plot 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2 ($out)"; fail=1; return; fi
  for w in "$@"; do
    grep -qi -- "$w" <<<"$out" || { echo "FAIL $name: message '$out' does not mention '$w'"; fail=1; }
  done
  [ -e "$TMP/out_$name/trajectory.csv" ] && { echo "FAIL $name: wrote outputs"; fail=1; }
}

scene bogus bogus 0.0
expect_bad bogus event "bogus" "contact.default.law" "newton"
scene rough_poisson poisson 0.5
expect_bad rough_poisson event "poisson" "mu = 0.5" "ball"

scene poisson poisson 0.0
if ! "$MOREAU" simulate "$TMP/poisson.json" --out "$TMP/out_poisson" --no-plot >"$TMP/stdout" 2>"$TMP/stderr"; then
  echo "FAIL poisson: exit $? ($(cat "$TMP/stderr"))"; fail=1
else
  /usr/bin/python3 - "$TMP/out_poisson" <<'PY' || fail=1
import csv, sys
ev = [r for r in csv.DictReader(open(sys.argv[1] + "/events.csv")) if r["kind"] == "impact"]
if not ev or not all("law = poisson" in r["detail"] for r in ev):
    sys.exit(f"FAIL poisson: impacts {ev[:2]} do not name the law")
PY
fi
exit $fail
