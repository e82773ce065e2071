#!/usr/bin/env bash
# install.cmake_package: `cmake --install` into a fresh prefix, check that no installed file names
# the source or build tree, check the exported link interface (HDF5, and in a static build the
# libraries moreau::io links privately), then configure, build and run examples/downstream, a
# C++-only project, against that prefix alone (find_package(moreau 0.2 REQUIRED),
# CMAKE_PREFIX_PATH = prefix); a project with C enabled too finds the package as well.
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

# The exported link interface: moreau::io links HDF5 in every build; a static build also carries
# the libraries io links privately (a consumer links them after libmoreau_io.a).
targets="$PREFIX/lib/cmake/moreau/moreauTargets.cmake"
grep -q 'HDF5::HDF5' "$targets" || fail "moreau::io does not link HDF5::HDF5 in $targets"
if [[ -e "$PREFIX/lib/libmoreau_io.a" ]]; then
  for dep in '$<LINK_ONLY:tinyxml2::tinyxml2>' '$<LINK_ONLY:assimp::assimp>' liburdfdom_model; do
    grep -qF "$dep" "$targets" || fail "the static moreau::io does not carry $dep"
  done
fi
[[ -f "$PREFIX/lib/cmake/moreau/modules/FindHDF5.cmake" ]] || fail "modules/FindHDF5.cmake not installed"

build_downstream "$PREFIX" "$FCLIB"
# A project with C enabled too goes through CMake's own FindHDF5 (configured only).
mkdir -p "$WORK/with_c"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(p LANGUAGES C CXX)\nfind_package(moreau 0.2 REQUIRED)\nif(NOT TARGET HDF5::HDF5)\n  message(FATAL_ERROR "no HDF5::HDF5")\nendif()\n' \
  > "$WORK/with_c/CMakeLists.txt"
cmake -S "$WORK/with_c" -B "$WORK/with_c/build" -DCMAKE_PREFIX_PATH="$PREFIX" > "$WORK/with_c.log" 2>&1 \
  || { cat "$WORK/with_c.log"; fail "find_package(moreau) in a project with C"; }
# A version outside SameMinorVersion is refused.
mkdir -p "$WORK/too_new"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(p LANGUAGES CXX)\nfind_package(moreau 0.3 QUIET)\nif(moreau_FOUND)\n  message(FATAL_ERROR "0.3 accepted")\nendif()\n' \
  > "$WORK/too_new/CMakeLists.txt"
cmake -S "$WORK/too_new" -B "$WORK/too_new/build" -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null || fail "0.3 accepted"
