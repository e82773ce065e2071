#!/usr/bin/env bash
# install.deb: `cpack -G DEB` of the current build, its declared dependencies, `dpkg -x` into a
# fresh scratch root, and from there `moreau --version`, the Python module, and examples/downstream
# (a C++-only project) built and run against the package's CMake config.
#   deb.sh BUILD_DIR WORK_DIR FCLIB_FILE [PYTHON]   (PYTHON: the interpreter the module was built for)
source "$(dirname "$0")/common.sh" "$1" "$2"
FCLIB=$3
PYTHON=${4:-}
cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK" > "$WORK/cpack.log" 2>&1 \
  || { cat "$WORK/cpack.log"; fail "cpack"; }
deb=$(ls "$WORK"/moreau_*.deb) || fail "no .deb"
depends=$(dpkg-deb -f "$deb" Depends)
for p in libfclib-dev libhdf5-dev libeigen3-dev libc6; do
  [[ "$depends" == *"$p"* ]] || fail "Depends lacks $p: $depends"
done
dpkg -x "$deb" "$WORK/root"
version=$(dpkg-deb -f "$deb" Version)
[[ $("$WORK/root/usr/bin/moreau" --version) == "moreau $version" ]] || fail "moreau --version is not $version"
# the page template of `moreau view`, where the installed program looks for it
if [[ -f "$BUILD/viewer/viewer.html" ]]; then
  [[ -s "$WORK/root/usr/share/moreau/viewer.html" ]] || fail "share/moreau/viewer.html is not in the package"
fi
if [[ -n "$PYTHON" ]]; then
  PYTHONPATH="$WORK/root/usr/lib/python3/dist-packages" "$PYTHON" -c \
    "import moreau, sys; sys.exit(moreau.__version__ != '$version')" || fail "Python module of the package"
fi
build_downstream "$WORK/root/usr" "$FCLIB"
