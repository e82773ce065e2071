#!/usr/bin/env bash
# SIGINT during `moreau solve --compare` (issue 15 §3): the solve under way finishes, no further
# solver runs, the solves done are reported (JSON), a line on stderr says how many, and the exit
# code is 130. The whole comparison takes about 3 s on this problem (run once for its number of
# solvers); the signal comes 0.5 s into the second run.
source "$(dirname "$0")/support/prelude.sh"
DATA=$2
FILE="$DATA/fclib/generated-siconos44/CubesStack-6x6x6-i1000-795-s10.hdf5"
[ -f "$FILE" ] || { echo "SKIP: $FILE missing"; exit 0; }
# the number of solvers of the full comparison, run once without a signal
all=$("$MOREAU" solve "$FILE" --compare --max-iter 200 --json |
  /usr/bin/python3 -c "import json, sys; print(len(json.load(sys.stdin)['results']))")
"$MOREAU" solve "$FILE" --compare --max-iter 200 --json >"$TMP/out.json" 2>"$TMP/stderr" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { echo "FAIL: exit $rc ($(cat "$TMP/stderr"))"; fail=1; }
/usr/bin/python3 - "$TMP/out.json" "$TMP/stderr" "$all" <<'PY' || fail=1
import json, re, sys
results = json.load(open(sys.argv[1]))["results"]
m = re.search(r"interrupted after (\d+) solve", open(sys.argv[2]).read())
if not m or int(m.group(1)) != len(results):
    sys.exit(f"FAIL: stderr {open(sys.argv[2]).read()!r} vs {len(results)} results")
if not 1 <= len(results) < int(sys.argv[3]):
    sys.exit(f"FAIL: {len(results)} solves reported, the full comparison has more")
PY
exit $fail
