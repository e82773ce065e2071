#!/usr/bin/env bash
# `moreau simulate` rejects bad scenes with one clear line on stderr and exit code 2:
# unknown field, negative mass, interpenetrating start, NaN, missing file, bad option.
set -u
MOREAU=$1
SCENES=$(cd "$(dirname "$0")/../../examples/scenes" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# variant NAME PYTHON-EXPR: writes $TMP/NAME.json from bouncing_ball.json modified by the expression
variant() {
  /usr/bin/python3 - "$SCENES/bouncing_ball.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(s, allow_nan=True))
PY
}

expect_bad() {  # NAME WORD: exit 2 and the message mentions WORD (case-insensitive)
  local out rc
  out=$("$MOREAU" simulate "$TMP/$1.json" --out "$TMP/out_$1" --no-plot 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL $1: exit $rc, expected 2 ($out)"; fail=1; return; fi
  if ! grep -qi -- "$2" <<<"$out"; then echo "FAIL $1: message '$out' does not mention '$2'"; fail=1; fi
  if [ -e "$TMP/out_$1/trajectory.csv" ]; then echo "FAIL $1: wrote outputs"; fail=1; fi
}

variant unknown_field 's["bodies"][0]["colour"] = "red"'
variant negative_mass 's["bodies"][0]["mass"] = -1.0'
variant interpenetrating 's["bodies"][0]["position"][1] = 0.05'
variant nan_position 's["bodies"][0]["position"][1] = float("nan")'
expect_bad unknown_field colour
expect_bad negative_mass mass
expect_bad interpenetrating ball
expect_bad nan_position error

"$MOREAU" simulate "$TMP/does_not_exist.json" --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: missing file should exit 2"; fail=1; }
"$MOREAU" simulate "$SCENES/bouncing_ball.json" --integrator rk4 --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --integrator rk4 should exit 2"; fail=1; }
"$MOREAU" simulate "$SCENES/bouncing_ball.json" --t-end -1 --out "$TMP/neg" --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --t-end -1 should exit 2"; fail=1; }
exit $fail
