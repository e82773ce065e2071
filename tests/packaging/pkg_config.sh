#!/usr/bin/env bash
# install.pkg_config: `cmake --install` into a fresh prefix, then compile and run a small program
# with `pkg-config --cflags --libs moreau` from that prefix alone.
#   pkg_config.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX
source "$(dirname "$0")/common.sh" "$1" "$3"
SOURCE=$(cd "$2" && pwd)
CXX=$4
PREFIX=$WORK/prefix
install_prefix "$PREFIX"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
[[ $(pkg-config --modversion moreau) == "$(sed -n 's/^#define MOREAU_VERSION "\(.*\)"/\1/p' "$PREFIX/include/moreau/version.hpp")" ]] \
  || fail "pkg-config version differs from MOREAU_VERSION"
flags=$(pkg-config --cflags --libs moreau)
[[ $(realpath "$(pkg-config --variable=includedir moreau)") == "$PREFIX/include" ]] \
  || fail "includedir is not $PREFIX/include: $flags"
# shellcheck disable=SC2086
"$CXX" -O1 -o "$WORK/lcp" "$SOURCE/examples/downstream/lcp.cpp" $flags
"$WORK/lcp" > /dev/null || fail "the pkg-config program did not solve the LCP"
