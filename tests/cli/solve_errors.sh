#!/usr/bin/env bash
# `moreau solve` on bad input: missing file, garbage file, truncated copy of a real file, an
# HDF5 file of another kind, an unknown solver. Each must exit with code 2 and print one error
# line that names the file (or the solver). Usage: solve_errors.sh MOREAU_BINARY DATA_DIR
set -u
MOREAU=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect_bad_input DESCRIPTION NEEDLE ARGS...: exit code 2, one stderr line containing NEEDLE.
expect_bad_input() {
  local what=$1 needle=$2
  shift 2
  "$MOREAU" solve "$@" >"$TMP/out" 2>"$TMP/err"
  local code=$?
  [ "$code" -eq 2 ] || fail "$what: exit code $code, expected 2 (stderr: $(cat "$TMP/err"))"
  [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$what: expected one error line, got: $(cat "$TMP/err")"
  grep -qF -- "$needle" "$TMP/err" || fail "$what: error does not mention '$needle': $(cat "$TMP/err")"
  [ ! -s "$TMP/out" ] || fail "$what: printed on stdout: $(cat "$TMP/out")"
}

expect_bad_input "missing file" "$TMP/nope.hdf5" "$TMP/nope.hdf5"

printf 'this is not an HDF5 file\n' >"$TMP/garbage.hdf5"
expect_bad_input "garbage file" "$TMP/garbage.hdf5" "$TMP/garbage.hdf5"

SRC="$DATA/fclib/fclib-api-test/local_problem_test.hdf5"
[ -f "$SRC" ] || fail "data file $SRC missing"
head -c 30000 "$SRC" >"$TMP/truncated.hdf5"
expect_bad_input "truncated file" "$TMP/truncated.hdf5" "$TMP/truncated.hdf5"

expect_bad_input "rolling friction" "not supported" "$DATA/fclib/siconos-testdata/Chute-ndof-768-nc-4-3.hdf5"
expect_bad_input "unknown solver" "no_such_solver" "$SRC" --solver no_such_solver
expect_bad_input "negative tolerance" "--tol" "$SRC" --tol -1
expect_bad_input "no file" "FCLIB file"
echo "solve_errors: ok"
