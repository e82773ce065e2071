#!/usr/bin/env bash
# `moreau simulate` rejects bad scenes with one clear line on stderr and exit code 2:
# unknown field, negative mass, interpenetrating start, NaN, a number overflowing a double, a
# syntax error (the file, line, column and field named), missing file, bad option.
source "$(dirname "$0")/support/prelude.sh"

# variant NAME PYTHON-EXPR: writes $TMP/NAME.json from bouncing_ball.json modified by the expression
variant() {
  /usr/bin/python3 - "$SCENES/bouncing_ball.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(s, allow_nan=True))
PY
}

# raw NAME OLD NEW: $TMP/NAME.json is bouncing_ball.json with the text OLD replaced by NEW (for
# tokens Python's json cannot write, e.g. 1e999)
raw() {
  /usr/bin/python3 - "$SCENES/bouncing_ball.json" "$TMP/$1.json" "$2" "$3" <<'PY'
import sys
t = open(sys.argv[1]).read()
assert sys.argv[3] in t, sys.argv[3]
open(sys.argv[2], "w").write(t.replace(sys.argv[3], sys.argv[4], 1))
PY
}

expect_bad() {  # NAME WORD...: exit 2 and the message mentions every WORD (fixed strings, any case)
  local out rc name=$1 w
  shift
  out=$("$MOREAU" simulate "$TMP/$name.json" --out "$TMP/out_$name" --no-plot 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2 ($out)"; fail=1; return; fi
  for w in "$@"; do
    if ! grep -qiF -- "$w" <<<"$out"; then echo "FAIL $name: message '$out' does not mention '$w'"; fail=1; fi
  done
  if [ -e "$TMP/out_$name/trajectory.csv" ]; then echo "FAIL $name: wrote outputs"; fail=1; fi
}

variant unknown_field 's["bodies"][0]["colour"] = "red"'
variant negative_mass 's["bodies"][0]["mass"] = -1.0'
variant interpenetrating 's["bodies"][0]["position"][1] = 0.05; s.setdefault("contact", {})["initial_overlap"] = "refuse"'
variant nan_position 's["bodies"][0]["position"][1] = float("nan")'
expect_bad unknown_field colour
expect_bad negative_mass mass
expect_bad interpenetrating ball
# a literal NaN (not JSON): the file, line/column, the field being read and the text before it
expect_bad nan_position nan_position.json "line " "column " "bodies[0].position[1]" "NaN"
# a number too large for a double (nlohmann's out_of_range.406): the file and the field
raw overflow_raw '"mass": 1.0' '"mass": 1e999'
expect_bad overflow_raw overflow_raw.json "bodies[0].mass" "1e999"
# a syntax error (trailing comma): file, line and column
raw trailing_comma '"mass": 1.0,' '"mass": 1.0,,'
expect_bad trailing_comma trailing_comma.json "line " "column "

"$MOREAU" simulate "$TMP/does_not_exist.json" --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: missing file should exit 2"; fail=1; }
"$MOREAU" simulate "$SCENES/bouncing_ball.json" --integrator rk4 --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --integrator rk4 should exit 2"; fail=1; }
"$MOREAU" simulate "$SCENES/bouncing_ball.json" --t-end -1 --out "$TMP/neg" --no-plot >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --t-end -1 should exit 2"; fail=1; }
# NaN means "the scene's t_end" inside; a NaN given on the command line is refused, no output
msg=$("$MOREAU" simulate "$SCENES/bouncing_ball.json" --t-end nan --out "$TMP/nan" --no-plot 2>&1)
[ $? -eq 2 ] || { echo "FAIL: --t-end nan should exit 2"; fail=1; }
grep -q "nan is not a finite number" <<<"$msg" || { echo "FAIL: --t-end nan message: $msg"; fail=1; }
[ ! -e "$TMP/nan" ] || { echo "FAIL: --t-end nan wrote $TMP/nan"; fail=1; }
# a step count no machine could run is refused before anything is written
sed 's/"dt": 0.001/"dt": 1e-300/' "$SCENES/box_on_incline.json" > "$TMP/tiny_dt.json"
grep -q '1e-300' "$TMP/tiny_dt.json" || { echo "FAIL: could not set dt in the test scene"; fail=1; }
msg=$("$MOREAU" simulate "$TMP/tiny_dt.json" --out "$TMP/tiny" --no-plot 2>&1)
[ $? -eq 2 ] || { echo "FAIL: dt = 1e-300 should exit 2: $msg"; fail=1; }
grep -q "exceed the limit" <<<"$msg" || { echo "FAIL: dt = 1e-300 message: $msg"; fail=1; }
[ ! -e "$TMP/tiny" ] || { echo "FAIL: dt = 1e-300 wrote $TMP/tiny"; fail=1; }
# a scene without a moving body is a sentence, not a crash
printf '{"description": "empty", "dimension": 2, "bodies": [], "t_end": 0.1}' > "$TMP/empty.json"
msg=$("$MOREAU" simulate "$TMP/empty.json" --out "$TMP/empty" --no-plot 2>&1)
[ $? -eq 2 ] || { echo "FAIL: a scene without bodies should exit 2: $msg"; fail=1; }
grep -q "none of them dynamic" <<<"$msg" || { echo "FAIL: empty scene message: $msg"; fail=1; }
exit $fail
