# Sourced by the command-line tests (tests/cli/*.sh, called as `bash SCRIPT MOREAU DATA_DIR`):
# MOREAU is the program, SCENES the example scenes, TMP a scratch folder removed on exit, and
# fail the exit status the script ends with (0 = pass).
set -u
MOREAU=$1
SCENES=$(cd "$(dirname "${BASH_SOURCE[1]}")/../../examples/scenes" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
