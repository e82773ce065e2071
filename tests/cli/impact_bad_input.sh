#!/bin/bash
# `moreau impact` refuses bad input with exit code 2 and a sentence naming the field and value.
set -u
bin="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
write() {
  cat > "$tmp/spec.json" <<JSON
{"law": "compliant", "bodies": [{"name": "ball", "mass": $1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]],
  "velocity": [-1, 0, $3], "angular_velocity": [0, 2, 0]}],
 "contacts": [{"bodies": ["ball", "ground"], "point": [0,0,-1], "normal": $4, "mu": 0.4, "e": $2,
  "poisson_ratio": 0.3}]}
JSON
}
expect_error() {  # mass e vz normal word
  write "$1" "$2" "$3" "$4"
  msg="$("$bin" impact "$tmp/spec.json" --json 2>&1 >/dev/null)"; rc=$?
  [ $rc -eq 2 ] || { echo "expected exit 2 for $5, got $rc"; exit 1; }
  echo "$msg" | grep -q "$5" || { echo "message lacks '$5': $msg"; exit 1; }
}
expect_error -1 0.5 -5 "[0,0,1]" "mass"
expect_error 1 1.5 -5 "[0,0,1]" "1.5"
expect_error 1 0.5 -5 "[0,0,0]" "zero length"
msg="$("$bin" impact "$tmp/missing.json" 2>&1 >/dev/null)"; rc=$?
[ $rc -eq 2 ] || { echo "missing file: expected exit 2, got $rc"; exit 1; }
[ "$msg" = "moreau: error: $tmp/missing.json: no such file" ] || { echo "missing file: $msg"; exit 1; }
# the rules of the one JSON reader (io/json/json_reader.hpp), the file named first
expect_error 1e999 0.5 -5 "[0,0,1]" "spec.json: number out of range at line 1"
expect_error '1, "mass": 2' 0.5 -5 "[0,0,1]" 'spec.json: the key "mass" is given twice'
expect_error null 0.5 -5 "[0,0,1]" "spec.json: bodies\[0\].mass = null: must be a number"
expect_error '1, "colour": 1' 0.5 -5 "[0,0,1]" "spec.json: bodies\[0\].colour: unknown field"
# a SPEC whose velocities overflow the result (issue 32): the file and the field, never nlohmann's
# "type must be number, but is null" from reading back a null. Newton's law, e = 0, ½·1·(1e308)² J
# overflows: kinetic_energy.before = inf, every number before it in key order is finite.
cat > "$tmp/spec.json" <<JSON
{"law": "newton", "bodies": [{"name": "ball", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]],
  "velocity": [0, 0, -1e308]}],
 "contacts": [{"bodies": ["ball", "ground"], "point": [0,0,-1], "normal": [0,0,1]}]}
JSON
want="moreau: error: $tmp/spec.json: the impact law's result kinetic_energy.before = inf is not a finite number: the arithmetic overflowed (the SPEC's largest number is bodies[0].velocity[2] = -1e+308)"
for flag in "" --json; do
  out="$("$bin" impact "$tmp/spec.json" $flag 2>"$tmp/err")"; rc=$?
  [ $rc -eq 2 ] || { echo "overflow $flag: expected exit 2, got $rc"; exit 1; }
  [ "$(cat "$tmp/err")" = "$want" ] || { echo "overflow $flag: $(cat "$tmp/err")"; exit 1; }
  [ -z "$out" ] || { echo "overflow $flag printed: $out"; exit 1; }
done
# two balls meeting at ±1e308 m/s: the approach speed 2e308 overflows, the impulse is +∞ and the
# angular velocities 0·∞ = NaN (the contact point is on the line of centres): the law's own status
# and message come with the field
cat > "$tmp/spec.json" <<JSON
{"law": "newton", "bodies": [
  {"name": "a", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]], "com": [-1,0,0], "velocity": [1e308, 0, 0]},
  {"name": "b", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]], "com": [1,0,0], "velocity": [-1e308, 0, 0]}],
 "contacts": [{"bodies": ["b", "a"], "point": [0,0,0], "normal": [1,0,0]}]}
JSON
want="moreau: error: $tmp/spec.json: the impact law's result bodies[0].angular_velocity[0] = nan is not a finite number: the law ended numerical_failure: the post-impact velocity is not finite (the SPEC's largest number is bodies[0].velocity[0] = 1e+308)"
msg="$("$bin" impact "$tmp/spec.json" 2>&1 >/dev/null)"; rc=$?
[ $rc -eq 2 ] || { echo "two-ball overflow: expected exit 2, got $rc ($msg)"; exit 1; }
[ "$msg" = "$want" ] || { echo "two-ball overflow: $msg"; exit 1; }
write 1 0.5 3 "[0,0,1]"
"$bin" impact "$tmp/spec.json" --json | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "no_impact", r["status"]
assert r["bodies"][0]["velocity"] == [-1, 0, 3]
' || { echo "separating contact: expected status no_impact"; exit 1; }
exit 0
