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
# Configure, build and run examples/downstream, a C++-only project (no C compiler enabled), as
# installed in PREFIX/share/moreau, against PREFIX alone: in $WORK/downstream.
#   build_downstream PREFIX FCLIB_FILE
build_downstream() {
  local prefix=$1 fclib=$2 launcher=()
  if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S "$prefix/share/moreau/examples/downstream" -B "$WORK/downstream" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" -DMOREAU_FCLIB_FILE="$fclib" \
        -DMOREAU_SCENE_FILE="$prefix/share/moreau/examples/scenes/bouncing_ball.json" \
        > "$WORK/downstream.configure.log" 2>&1 \
    || { cat "$WORK/downstream.configure.log"; fail "configure examples/downstream"; }
  grep -q "moreau_DIR:PATH=$prefix/lib/cmake/moreau" "$WORK/downstream/CMakeCache.txt" \
    || fail "moreau was not found in $prefix"
  if grep -q '^CMAKE_C_COMPILER:' "$WORK/downstream/CMakeCache.txt"; then
    fail "examples/downstream enabled C: it must show that a C++-only project can use moreau"
  fi
  cmake --build "$WORK/downstream" -j2 > "$WORK/downstream.build.log" 2>&1 \
    || { cat "$WORK/downstream.build.log"; fail "build examples/downstream"; }
  (cd "$WORK/downstream" && ctest --output-on-failure) > "$WORK/downstream.ctest.log" 2>&1 \
    || { cat "$WORK/downstream.ctest.log"; fail "run examples/downstream"; }
}
