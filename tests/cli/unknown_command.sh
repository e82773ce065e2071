#!/usr/bin/env bash
# A mistyped command names the nearest command (issue 32) instead of CLI11's "A subcommand is
# required": one line on stderr, exit code 2, nothing on stdout; when no command is near, the
# list alone. The commands are listed in the order `moreau --help` shows them.
source "$(dirname "$0")/support/prelude.sh"
commands="solve, analyze, impact, simulate, sweep, convert, view"

# one letter missing, with the command's arguments after it
expect_exact simulat \
  "moreau: error: 'simulat' is not a command; did you mean 'simulate'? (commands: $commands)" \
  simulat "$SCENES/bouncing_ball.json" --no-plot
# two letters swapped (one edit of the optimal string alignment), after a global flag
expect_exact imapct \
  "moreau: error: 'imapct' is not a command; did you mean 'impact'? (commands: $commands)" \
  --quiet imapct spec.json
# one letter wrong
expect_exact analyse \
  "moreau: error: 'analyse' is not a command; did you mean 'analyze'? (commands: $commands)" \
  analyse --gallery painleve_rod
# the start of exactly one command
expect_exact sim \
  "moreau: error: 'sim' is not a command; did you mean 'simulate'? (commands: $commands)" sim
# nothing near: the list alone
expect_exact xyzzy "moreau: error: 'xyzzy' is not a command (commands: $commands)" xyzzy
# "s" starts solve, simulate and sweep: no single guess
expect_exact s "moreau: error: 's' is not a command (commands: $commands)" s

# the commands themselves still run
"$MOREAU" solve --list-solvers >/dev/null 2>"$TMP/err" || { echo "FAIL: solve --list-solvers: $(cat "$TMP/err")"; fail=1; }
"$MOREAU" -q analyze --list >/dev/null 2>"$TMP/err" || { echo "FAIL: -q analyze --list: $(cat "$TMP/err")"; fail=1; }
exit $fail
