#!/usr/bin/env bash
# Budgets are counted in work, not seconds (issue 12 §4, docs/reliability.md): the 216-sphere pile
# run for 0.3 s on an idle machine and again with two busy loops beside it (both cores loaded)
# writes byte-identical trajectory, contact and event files and the same summary but for its wall
# time. The run has steps that end in the solver fallback, the path a wall-clock bound would make
# load-dependent. The same holds with --threads 2 (coloured NSGS, parallel narrow phase): idle and
# loaded 2-thread runs give the same bytes.
source "$(dirname "$0")/support/prelude.sh"

run() {
  "$MOREAU" simulate "$SCENES/sphere_pile.json" --t-end 0.3 --out "$TMP/$1" --no-plot \
    --threads "$2" > "$TMP/$1.log" 2>&1 || { echo "run $1 failed"; cat "$TMP/$1.log"; fail=1; }
}
run idle 1
run idle2 2
busy=()
for _ in 1 2; do
  (while :; do :; done) &
  busy+=($!)
done
run loaded 1
run loaded2 2
kill "${busy[@]}" 2> /dev/null
wait 2> /dev/null

for f in trajectory.csv contacts.csv events.csv; do
  cmp -s "$TMP/idle/$f" "$TMP/loaded/$f" || { echo "$f differs between idle and loaded runs"; fail=1; }
  cmp -s "$TMP/idle2/$f" "$TMP/loaded2/$f" ||
    { echo "$f differs between idle and loaded 2-thread runs"; fail=1; }
done
grep -v '"wall_time"' "$TMP/idle/summary.json" > "$TMP/idle.summary"
grep -v '"wall_time"' "$TMP/loaded/summary.json" > "$TMP/loaded.summary"
cmp -s "$TMP/idle.summary" "$TMP/loaded.summary" || {
  echo "summary differs:"
  diff "$TMP/idle.summary" "$TMP/loaded.summary" | head
  fail=1
}
/usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['solver_failures'] >= 1, 'no step reached the fallback: ' + str(s['solver_failures'])
assert s['steps'] == 300, s['steps']
" "$TMP/idle/summary.json" || fail=1
exit $fail
