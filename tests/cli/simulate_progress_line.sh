#!/usr/bin/env bash
# The progress line of `moreau simulate` (issue 15 §4), drawn when stderr is a terminal: run under
# `script` (a pseudo-terminal), a run whose contact solver is held to one NSGS sweep at a
# tolerance no sweep reaches shows its solver failures and the worst residual on the line, and the
# count it ends with is the summary's solver_failures. A clean run shows no failure; --quiet shows
# no line at all.
source "$(dirname "$0")/support/prelude.sh"

sed -e 's/"integrator": {/"integrator": {"solver": "nsgs", "max_iterations": 1, "tolerance": 1e-14, /' \
  "$SCENES/box_stack.json" > "$TMP/failing.json"
grep -q '"max_iterations": 1' "$TMP/failing.json" || { echo "FAIL: box_stack.json has no integrator object to edit"; exit 1; }

script -qefc "$MOREAU simulate $TMP/failing.json --t-end 0.05 --out $TMP/failing --no-plot" \
  /dev/null > "$TMP/tty.txt" 2>&1
/usr/bin/python3 - "$TMP/tty.txt" "$TMP/failing/summary.json" <<'PY' || fail=1
import json, re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
summary = json.load(open(sys.argv[2]))
lines = re.findall(r"\[[# ]{40}\]\s+(\d+)%\s+(\d+) steps(?:, (\d+) solver failures? \(worst residual ([0-9.e+-]+)\))?", text)
if not lines:
    sys.exit(f"FAIL: no progress line in {text[:300]!r}")
counts = [int(c) for _, _, c, _ in lines if c]
if not counts:
    sys.exit(f"FAIL: the progress line never showed a solver failure: {lines[-3:]}")
if counts != sorted(counts):
    sys.exit(f"FAIL: the failure count went down: {counts}")
if counts[-1] != summary["solver_failures"] or summary["solver_failures"] < 40:
    sys.exit(f"FAIL: line ends at {counts[-1]} failures, summary says {summary['solver_failures']}")
worst = float(lines[-1][3])
if abs(worst - summary["solver_worst_residual"]) > 0.051 * summary["solver_worst_residual"]:
    sys.exit(f"FAIL: line shows worst residual {worst}, summary {summary['solver_worst_residual']}")
print(f"progress line: {len(lines)} updates, ends at {counts[-1]} failures (worst {worst})")
PY

script -qefc "$MOREAU simulate $SCENES/box_stack.json --t-end 0.05 --out $TMP/clean --no-plot" \
  /dev/null > "$TMP/clean.txt" 2>&1
if ! grep -q "steps" "$TMP/clean.txt" || grep -q "solver failure" "$TMP/clean.txt"; then
  echo "FAIL: a clean run's progress line: $(tr '\r' '\n' < "$TMP/clean.txt" | tail -3)"; fail=1
fi

script -qefc "$MOREAU -q simulate $SCENES/box_stack.json --t-end 0.05 --out $TMP/quiet --no-plot" \
  /dev/null > "$TMP/quiet.txt" 2>&1
if grep -q "steps" "$TMP/quiet.txt"; then
  echo "FAIL: --quiet still drew a progress line"; fail=1
fi
exit $fail
