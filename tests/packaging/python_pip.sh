#!/usr/bin/env bash
# install.python_pip: a fresh venv (--system-site-packages, so Debian's numpy and matplotlib stay
# visible), `pip install --no-build-isolation --no-index` of a copy of the source tree, then
# `import moreau` from outside the tree with no PYTHONPATH; `python3 -m build --no-isolation`
# makes an sdist and a wheel. Both builds reuse this test's CMake build folder through
# MOREAU_CMAKE_BUILD_DIR (setup.py builds only the _moreau target there), so the library is not
# compiled a second time.
#   python_pip.sh BUILD_DIR SOURCE_DIR WORK_DIR PYTHON
source "$(dirname "$0")/common.sh" "$1" "$3"
SOURCE=$(cd "$2" && pwd)
PYTHON=$4
export MOREAU_CMAKE_BUILD_DIR="$BUILD"
unset PYTHONPATH
mkdir -p "$WORK/src"
tar -C "$SOURCE" --exclude=./.git --exclude='./build*' --exclude=./out --exclude='*.egg-info' \
    --exclude=__pycache__ -cf - . | tar -C "$WORK/src" -xf -
"$PYTHON" -m venv --system-site-packages "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q --no-build-isolation --no-index "$WORK/src" > "$WORK/pip.log" 2>&1 \
  || { cat "$WORK/pip.log"; fail "pip install"; }
version=$(sed -n 's/^project(moreau VERSION \([0-9.]*\).*/\1/p' "$SOURCE/CMakeLists.txt")
cd "$WORK"
"$WORK/venv/bin/python" - "$version" "$WORK/venv" <<'PY' || fail "import moreau from the venv"
import sys
import moreau
version, venv = sys.argv[1], sys.argv[2]
assert moreau.__version__ == version, (moreau.__version__, version)
assert moreau.__file__.startswith(venv), moreau.__file__
assert moreau._moreau.__file__.startswith(venv), moreau._moreau.__file__
import numpy as np
# M = [[2,1],[1,2]], q = (-5,-6): z = M^-1 (5, 6) = (4/3, 7/3).
r = moreau.solve_lcp(moreau.Lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -6.0])))
assert r.converged and np.allclose(r.z, [4 / 3, 7 / 3], atol=1e-10), r.z
PY
"$PYTHON" -m build --no-isolation --outdir "$WORK/dist" "$WORK/src" > "$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; fail "python3 -m build"; }
ls "$WORK/dist/moreau-$version.tar.gz" > /dev/null || fail "no sdist"
wheel=$(ls "$WORK"/dist/moreau-"$version"-*.whl) || fail "no wheel"
listing=$("$PYTHON" -m zipfile -l "$wheel")  # (not piped into grep -q: pipefail and SIGPIPE)
[[ "$listing" == *moreau/_moreau.*.so* ]] || fail "the wheel lacks the extension"
