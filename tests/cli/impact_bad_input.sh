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
"$bin" impact "$tmp/missing.json" > /dev/null 2>&1; [ $? -eq 2 ] || { echo "missing file: expected exit 2"; exit 1; }
# the rules of the one JSON reader (io/json/json_reader.hpp), the file named first
expect_error 1e999 0.5 -5 "[0,0,1]" "spec.json: number out of range at line 1"
expect_error '1, "mass": 2' 0.5 -5 "[0,0,1]" 'spec.json: the key "mass" is given twice'
expect_error null 0.5 -5 "[0,0,1]" "spec.json: bodies\[0\].mass = null: must be a number"
expect_error '1, "colour": 1' 0.5 -5 "[0,0,1]" "spec.json: bodies\[0\].colour: unknown field"
write 1 0.5 3 "[0,0,1]"
"$bin" impact "$tmp/spec.json" --json | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "no_impact", r["status"]
assert r["bodies"][0]["velocity"] == [-1, 0, 3]
' || { echo "separating contact: expected status no_impact"; exit 1; }
exit 0
