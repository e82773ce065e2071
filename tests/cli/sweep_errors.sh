#!/usr/bin/env bash
# `moreau sweep` bad input: one line naming the file and the field, exit 2, no table written; and
# a tiny sweep (two impact points, one worker) that writes its CSV and HDF5 tables.
source "$(dirname "$0")/support/prelude.sh"
IMPACT=$(cd "$(dirname "$0")/../../examples/impact" && pwd)/ball_004.json
expect_error() {  # expect_error "<needle>" sweep-json
  echo "$2" > "$TMP/s.json"
  "$MOREAU" sweep "$TMP/s.json" -o "$TMP/t.csv" > "$TMP/out" 2> "$TMP/err"
  local rc=$?
  [ $rc -eq 2 ] || { echo "expected exit 2 for $2, got $rc"; cat "$TMP/err"; fail=1; }
  grep -q -- "$1" "$TMP/err" || { echo "message for $2 lacks '$1':"; cat "$TMP/err"; fail=1; }
  grep -q -- "s.json" "$TMP/err" || { echo "message does not name the file:"; cat "$TMP/err"; fail=1; }
  [ "$(grep -c . "$TMP/err")" -eq 1 ] || { echo "not one line:"; cat "$TMP/err"; fail=1; }
  [ ! -e "$TMP/t.csv" ] || { echo "a table was written for a refused sweep"; fail=1; }
}
expect_error "parameters" "{\"base\": \"$IMPACT\", \"outputs\": {\"v\": \"/status\"}}"
expect_error "/contacts/5/mu" "{\"base\": \"$IMPACT\", \"parameters\": {\"/contacts/5/mu\": [1]}, \"outputs\": {\"v\": \"/status\"}}"
expect_error "linspace" "{\"base\": \"$IMPACT\", \"parameters\": {\"/contacts/0/mu\": {\"linspace\": [0, 1]}}, \"outputs\": {\"v\": \"/status\"}}"
expect_error "combine" "{\"base\": \"$IMPACT\", \"parameters\": {\"/contacts/0/mu\": [1]}, \"outputs\": {\"v\": \"/status\"}, \"combine\": \"cross\"}"
expect_error "not valid JSON" "{\"base\": "

echo "{\"base\": \"$IMPACT\", \"parameters\": {\"/contacts/0/mu\": [0.2, 0.4]}, \"outputs\": {\"vx\": \"/bodies/0/velocity/0\", \"law_status\": \"status\"}}" > "$TMP/ok.json"
"$MOREAU" sweep "$TMP/ok.json" --workers 1 -o "$TMP/ok.csv" > "$TMP/out" 2> "$TMP/err" || { echo "sweep failed"; cat "$TMP/err"; fail=1; }
[ "$(head -1 "$TMP/ok.csv")" = "/contacts/0/mu,vx,law_status,status,error" ] || { echo "header: $(head -1 "$TMP/ok.csv")"; fail=1; }
[ "$(grep -c ',ok,$' "$TMP/ok.csv")" -eq 2 ] || { echo "rows:"; cat "$TMP/ok.csv"; fail=1; }
[ -s "$TMP/ok.h5" ] || { echo "no HDF5 table"; fail=1; }
exit $fail
