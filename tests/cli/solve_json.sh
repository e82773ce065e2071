#!/usr/bin/env bash
# `moreau solve --json` prints ONE JSON object (parsed here by Python's json module) with the
# documented keys; the reported residual is ≤ the tolerance and the exit code is 0. A global
# problem is solved too (condensed), and a one-iteration budget gives exit code 1.
# Usage: solve_json.sh MOREAU_BINARY DATA_DIR
set -u
MOREAU=$1
DATA=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

check_json() {  # FILE FORM TOL
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY' || exit 1
import json, sys
path, form, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
with open(path) as f:
    j = json.load(f)
for key in ("file", "form", "contacts", "dimension", "solver", "status", "iterations",
            "residual", "seconds", "tolerance"):
    assert key in j, f"missing key {key}: {j}"
assert j["form"] == form, j
assert j["status"] == "converged", j
assert j["residual"] <= tol, j
assert j["tolerance"] == tol, j
assert j["dimension"] == 3 and j["contacts"] > 0, j
PY
}

"$MOREAU" solve "$DATA/fclib/from-siconos-dat/Rover1039.hdf5" --json --tol 1e-9 >"$TMP/local.json"
code=$?
[ $code -eq 0 ] || fail "local --json: exit code $code: $(cat "$TMP/local.json")"
check_json "$TMP/local.json" local 1e-9 || fail "local JSON check"

"$MOREAU" solve "$DATA/fclib/faf/Box_Stacks-i0035-31-0.hdf5" --json >"$TMP/global.json"
code=$?
[ $code -eq 0 ] || fail "global --json: exit code $code: $(cat "$TMP/global.json")"
check_json "$TMP/global.json" global 1e-8 || fail "global JSON check"

# Without --solver the default says what it chose and why: the chosen solver is the one that ran,
# and the features are those of Rover1039 (4 contacts: μ = 0.7 read from the file).
/usr/bin/python3 - "$TMP/local.json" <<'PY' || fail "solver_choice of the default"
import json, sys
j = json.load(open(sys.argv[1]))
c = j["solver_choice"]
assert c["solver"] == j["solver"], j
assert c["contacts"] == j["contacts"] == 4, c
assert abs(c["mu_max"] - 0.7) < 1e-12, c
assert c["blocks_per_row"] >= 1 and c["coupling"] >= 0, c
assert c["solver"] in c["reason"] and "contacts" in c["reason"], c
PY
"$MOREAU" solve "$DATA/fclib/from-siconos-dat/Rover1039.hdf5" --solver nsgs --json >"$TMP/named.json"
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert "solver_choice" not in j, j' "$TMP/named.json" \
  || fail "a named solver should not report a choice"

# Not converged within one iteration: exit code 1, still valid JSON with a non-converged status.
"$MOREAU" solve "$DATA/fclib/fclib-api-test/local_problem_test.hdf5" --json --max-iter 1 >"$TMP/one.json"
code=$?
[ $code -eq 1 ] || fail "--max-iter 1: exit code $code, expected 1"
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["status"] != "converged", j' "$TMP/one.json" \
  || fail "--max-iter 1: status should not be converged"
echo "solve_json: ok"
