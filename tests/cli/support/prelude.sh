# Sourced by the command-line tests (tests/cli/*.sh, called as `bash SCRIPT MOREAU DATA_DIR`):
# MOREAU is the program, SCENES the example scenes, TMP a scratch folder removed on exit, and
# fail the exit status the script ends with (0 = pass).
set -u
MOREAU=$1
SCENES=$(cd "$(dirname "${BASH_SOURCE[1]}")/../../examples/scenes" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# expect_exact LABEL EXPECTED ARGS...: `moreau ARGS` exits 2 with stderr exactly EXPECTED (one line)
# and nothing on stdout; a mismatch is printed and sets fail
expect_exact() {
  local label=$1 expected=$2
  shift 2
  "$MOREAU" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ $rc -eq 2 ] || { echo "FAIL $label: exit $rc, expected 2 ($(cat "$TMP/err"))"; fail=1; }
  [ "$(cat "$TMP/err")" = "$expected" ] ||
    { echo "FAIL $label: stderr is '$(cat "$TMP/err")', expected '$expected'"; fail=1; }
  [ ! -s "$TMP/out" ] || { echo "FAIL $label: printed on stdout: $(cat "$TMP/out")"; fail=1; }
}
