#!/usr/bin/env bash
# install.cmake_package_shared: the shared build of the same source (-DBUILD_SHARED_LIBS=ON, the
# libraries and the program only) in a fresh folder, `cmake --install` into a fresh prefix, check
# that no installed file names a build folder or the source tree (the install RPATHs), run the
# installed program, then configure, build and run examples/downstream, a C++-only project,
# against that prefix alone. The test's static build is the one that compiled everything already:
# reuse_objects.py copies its objects where the compile command is the same (see there), so the
# shared build mostly links.
#   cmake_package_shared.sh BUILD_DIR SOURCE_DIR FCLIB_FILE WORK_DIR PYTHON
source "$(dirname "$0")/common.sh" "$1" "$4"
SOURCE=$(cd "$2" && pwd)
FCLIB=$3
PYTHON=$5
SHARED=$WORK/build
PREFIX=$WORK/prefix

# The settings that shape the compile commands, as in the static build's cache (-DNAME:TYPE=VALUE:
# with its type, so that a PATH stays as written).
same_as_static=()
for name in CMAKE_BUILD_TYPE CMAKE_CXX_COMPILER CMAKE_CXX_FLAGS MOREAU_SANITIZE MOREAU_DATA_DIR; do
  setting=$(sed -n "s/^\($name:[A-Z]*=.*\)/-D\1/p" "$BUILD/CMakeCache.txt")
  if [[ -n "$setting" ]]; then same_as_static+=("$setting"); fi
done
launcher=("$PYTHON" "$SOURCE/tests/packaging/reuse_objects.py" "$BUILD" "$SHARED")
# The layers' -Dmoreau_<layer>_EXPORTS may be left out of the comparison while no file reads it.
if grep -rq '_EXPORTS' "$SOURCE/include" "$SOURCE/src" "$SOURCE/apps"; then
  launcher+=(--keep-exports)
fi
launcher_list=$(IFS=';'; echo "${launcher[*]}")
cmake -S "$SOURCE" -B "$SHARED" -DBUILD_SHARED_LIBS=ON -DMOREAU_BUILD_TESTS=OFF \
      -DMOREAU_BUILD_PYTHON=OFF -DMOREAU_BUILD_BENCH=OFF \
      "${same_as_static[@]}" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher_list" \
      > "$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log"; fail "configure the shared build"; }
start=$SECONDS
cmake --build "$SHARED" --target moreau_cli -j2 > "$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; fail "build the shared libraries and the program"; }
echo "shared build: $((SECONDS - start)) s, $(grep -c '^reused' "$SHARED/reuse_objects.log") objects" \
     "reused, $(grep -c '^compiled' "$SHARED/reuse_objects.log") compiled (reuse_objects.log)"
# The page template of `moreau view` is installed when its target exists; it does not depend on
# the kind of library, so the static build's copy stands in for running npm here.
if [[ -f "$BUILD/viewer/viewer.html" ]]; then
  mkdir -p "$SHARED/viewer" && cp "$BUILD/viewer/viewer.html" "$SHARED/viewer/"
fi
cmake --install "$SHARED" --prefix "$PREFIX" > "$PREFIX.install.log"

ls "$PREFIX"/lib/libmoreau_io.so > /dev/null || fail "no shared libmoreau_io.so installed"
if ls "$PREFIX"/lib/libmoreau_*.a 2> /dev/null; then fail "static libraries in the shared install"; fi
if grep -rlaF -e "$SOURCE" -e "$BUILD" -e "$SHARED" "$PREFIX"; then
  fail "installed files above name $SOURCE, $BUILD or $SHARED"
fi
grep -q 'HDF5::HDF5' "$PREFIX/lib/cmake/moreau/moreauTargets.cmake" \
  || fail "moreau::io does not link HDF5::HDF5"
[[ $("$PREFIX/bin/moreau" --version) == moreau* ]] || fail "the installed program does not run"

build_downstream "$PREFIX" "$FCLIB"
