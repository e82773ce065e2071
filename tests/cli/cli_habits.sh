#!/usr/bin/env bash
# The habits of the command line (issue 15 §6): --quiet prints nothing on standard output and
# still writes the outputs; --verbose lists every event (as many lines as events.csv has rows);
# both together are refused as bad input (exit 2); --help of the program and of every command
# shows examples; --version prints the version.
source "$(dirname "$0")/support/prelude.sh"
ball="$SCENES/bouncing_ball.json"

"$MOREAU" simulate "$ball" --out "$TMP/quiet" --no-plot --quiet >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL --quiet: exit $rc"; fail=1; }
[ ! -s "$TMP/stdout" ] || { echo "FAIL --quiet printed: $(cat "$TMP/stdout")"; fail=1; }
[ -s "$TMP/quiet/summary.json" ] || { echo "FAIL --quiet: no summary.json"; fail=1; }

"$MOREAU" -v simulate "$ball" --out "$TMP/verbose" --no-plot >"$TMP/stdout" 2>&1
events=$(($(wc -l <"$TMP/verbose/events.csv") - 1))
listed=$(grep -c '^event t = ' "$TMP/stdout")
[ "$events" -ge 1 ] && [ "$listed" -eq "$events" ] ||
  { echo "FAIL --verbose: $listed event lines for $events events"; fail=1; }
grep -q '^event t = 0.42835.* s: impact at ' "$TMP/stdout" ||
  { echo "FAIL --verbose: first impact (t = sqrt(2*0.9/9.81) = 0.428353 s) not listed"; fail=1; }

"$MOREAU" -q -v simulate "$ball" --out "$TMP/both" >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "FAIL --quiet --verbose: exit $rc, expected 2"; fail=1; }

for cmd in "" simulate solve analyze impact; do
  "$MOREAU" $cmd --help | grep -q '^Examples:' || { echo "FAIL: no examples in '$cmd --help'"; fail=1; }
done
"$MOREAU" --version | grep -Eq '^moreau [0-9]+\.[0-9]+\.[0-9]+$' || { echo "FAIL --version"; fail=1; }
exit $fail
