#!/usr/bin/env bash
# Fails when a C++ file of the tree differs from what .clang-format (100 columns) makes of it.
# Usage: check_format.sh <source-dir> <clang-format>
set -euo pipefail
root=$1
clang_format=$2
cd "$root"
mapfile -t files < <(find include src apps python tests bench examples fuzz \
  -name '*.cpp' -o -name '*.hpp' | sort)
if (( ${#files[@]} == 0 )); then
  echo "check_format: no C++ files found under $root" >&2
  exit 1
fi
if ! "$clang_format" --dry-run -Werror "${files[@]}"; then
  echo "check_format: run '$clang_format -i' on the files above (style: $root/.clang-format)" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files follow .clang-format"
