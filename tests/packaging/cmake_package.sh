#!/usr/bin/env bash
# install.cmake_package: `cmake --install` into a fresh prefix, check that no installed file names
# the source or build tree, then configure, build and run examples/downstream against that prefix
# alone (find_package(moreau 0.2 REQUIRED), CMAKE_PREFIX_PATH = prefix).
#   cmake_package.sh BUILD_DIR SOURCE_DIR FCLIB_FILE WORK_DIR
source "$(dirname "$0")/common.sh" "$1" "$4"
SOURCE=$(cd "$2" && pwd)
FCLIB=$3
PREFIX=$WORK/prefix
install_prefix "$PREFIX"

for f in include/moreau/version.hpp bin/moreau lib/cmake/moreau/moreauConfig.cmake \
         lib/cmake/moreau/moreauConfigVersion.cmake lib/pkgconfig/moreau.pc \
         share/moreau/examples/scenes/bouncing_ball.json; do
  [[ -e "$PREFIX/$f" ]] || fail "$f not installed"
done
ls "$PREFIX"/lib/python3/dist-packages/moreau/_moreau*.so > /dev/null || fail "Python module not installed"
# Nothing installed refers to the build folder or the source tree.
if grep -rlaF -e "$SOURCE" -e "$BUILD" "$PREFIX"; then fail "installed files above name $SOURCE or $BUILD"; fi

launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$PREFIX/share/moreau/examples/downstream" -B "$WORK/downstream" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$PREFIX" "${launcher[@]}" \
      -DMOREAU_FCLIB_FILE="$FCLIB" \
      -DMOREAU_SCENE_FILE="$PREFIX/share/moreau/examples/scenes/bouncing_ball.json" > "$WORK/configure.log" \
  || { cat "$WORK/configure.log"; fail "configure"; }
grep -q "moreau_DIR:PATH=$PREFIX/lib/cmake/moreau" "$WORK/downstream/CMakeCache.txt" \
  || fail "moreau was not found in $PREFIX"
cmake --build "$WORK/downstream" -j2 > "$WORK/build.log" || { cat "$WORK/build.log"; fail "build"; }
(cd "$WORK/downstream" && ctest --output-on-failure) > "$WORK/ctest.log" || { cat "$WORK/ctest.log"; fail "run"; }
# A version outside SameMinorVersion is refused.
mkdir -p "$WORK/too_new"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(p LANGUAGES CXX)\nfind_package(moreau 0.3 QUIET)\nif(moreau_FOUND)\n  message(FATAL_ERROR "0.3 accepted")\nendif()\n' \
  > "$WORK/too_new/CMakeLists.txt"
cmake -S "$WORK/too_new" -B "$WORK/too_new/build" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null || fail "0.3 accepted"
