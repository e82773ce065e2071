#!/usr/bin/env bash
# `moreau solve --compare` runs every 3D solver listed by `moreau solve --list-solvers` and
# prints one table row per solver; --list-solvers exits 0.
# Usage: solve_compare.sh MOREAU_BINARY DATA_DIR
set -u
MOREAU=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$MOREAU" solve --list-solvers >"$TMP/list" || fail "--list-solvers exit code $?"
# The 3D section: names between "3D local solvers:" and the next heading, without "auto".
names=$(awk '/^3D local solvers:/{on=1; next} /^[^ ]/{on=0} on && $1 != "auto" {print $1}' "$TMP/list")
[ -n "$names" ] || fail "no 3D solver listed: $(cat "$TMP/list")"

"$MOREAU" solve "$DATA/fclib/from-siconos-dat/Rover4144.hdf5" --compare >"$TMP/table"
code=$?
[ $code -eq 0 ] || fail "--compare exit code $code: $(cat "$TMP/table")"
for n in $names; do
  grep -qE "^$n[[:space:]]" "$TMP/table" || fail "solver $n missing from the table: $(cat "$TMP/table")"
done
grep -q "fastest" "$TMP/table" || fail "no fastest converged solver marked: $(cat "$TMP/table")"
echo "solve_compare: ok"
