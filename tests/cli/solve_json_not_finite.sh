#!/usr/bin/env bash
# `moreau solve --json` on a problem whose numbers overflow (issue 32): the JSON document has no
# NaN or infinity, so a result that is not finite is refused with the file and the field (exit 2,
# one line on stderr, nothing on stdout) instead of being printed as null; the documented nulls
# stay (a solver whose status is numerical_failure). `--tol inf` is refused as bad input.
# The problem is written by the Python module of the build (skipped when it cannot be imported).
source "$(dirname "$0")/support/prelude.sh"
PY=/usr/bin/python3
export PYTHONPATH="$(dirname "$MOREAU")/../python"
"$PY" -c 'import moreau' 2>/dev/null || { echo "SKIP: the moreau Python module is not built"; exit 0; }
big="$TMP/big.hdf5"
# W = I, q = (−1e308, 1e308, 1e308), μ = 0.5: ‖q‖ = √3·1e308 overflows
"$PY" - "$big" <<'PYTHON' || { echo "FAIL: writing $big"; exit 1; }
import sys
import numpy as np
import moreau
problem = moreau.FrictionContactProblem(np.eye(3), np.array([-1e308, 1e308, 1e308]), np.array([0.5]))
moreau.write_fclib(sys.argv[1], problem)
PYTHON

"$MOREAU" solve "$big" --json >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || { echo "FAIL --json: exit $rc, expected 2 ($(cat "$TMP/err"))"; fail=1; }
[ ! -s "$TMP/out" ] || { echo "FAIL --json printed: $(cat "$TMP/out")"; fail=1; }
[ "$(wc -l <"$TMP/err")" -eq 1 ] || { echo "FAIL --json: not one line: $(cat "$TMP/err")"; fail=1; }
grep -qx "moreau: error: $big: the solve result residual = \(nan\|inf\) is not a finite number: the arithmetic overflowed (the problem's largest entry is q\[0\] = -1e+308)" "$TMP/err" ||
  { echo "FAIL --json: $(cat "$TMP/err")"; fail=1; }
grep -q "type must be number\|json.exception" "$TMP/err" && { echo "FAIL: nlohmann's text"; fail=1; }

# a solver that reports numerical_failure: its residual is the documented null, exit 1
"$MOREAU" solve "$big" --json --solver nsgs >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL --solver nsgs: exit $rc, expected 1 ($(cat "$TMP/err"))"; fail=1; }
"$PY" - "$TMP/out" <<'PYTHON' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
if j["status"] != "numerical_failure" or j["residual"] is not None:
    print("FAIL --solver nsgs:", j)
    sys.exit(1)
PYTHON

# the text output says what it found, exit 1 as before
"$MOREAU" solve "$big" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL text: exit $rc, expected 1 ($(cat "$TMP/err"))"; fail=1; }

"$MOREAU" solve "$big" --tol inf >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || { echo "FAIL --tol inf: exit $rc, expected 2"; fail=1; }
grep -q -- "--tol must be a finite number > 0, got inf" "$TMP/err" || { echo "FAIL --tol inf: $(cat "$TMP/err")"; fail=1; }
exit $fail
