# Shared by the packaging tests: a fresh work folder and `cmake --install` of the current build.
#   source common.sh BUILD_DIR WORK_DIR  →  $BUILD, $WORK, install_prefix PREFIX
set -euo pipefail
BUILD=$(cd "$1" && pwd)
WORK=$2
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
install_prefix() {  # install the build into $1, quietly (the log is kept next to it)
  cmake --install "$BUILD" --prefix "$1" > "$1.install.log"
}
fail() { echo "FAIL: $*" >&2; exit 1; }
