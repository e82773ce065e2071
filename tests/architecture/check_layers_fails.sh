#!/usr/bin/env bash
# The layer check must be able to fail: copy the tree's include/, src/, apps/, python/ and
# CMakeLists.txt to a scratch folder, add one back-edge at a time, and require check_layers.py to
# reject each with a message naming the file. Usage: check_layers_fails.sh SOURCE_DIR
set -euo pipefail
src=$1
checker="$src/tests/architecture/check_layers.py"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

fresh_copy() {
  rm -rf "$scratch/tree" && mkdir -p "$scratch/tree"
  cp -r "$src/include" "$src/src" "$src/apps" "$src/python" "$src/CMakeLists.txt" "$scratch/tree/"
}

expect_failure() {  # $1: what was broken, $2: text the message must contain
  if out=$(/usr/bin/python3 "$checker" "$scratch/tree"); then
    echo "FAIL: check_layers.py accepted $1"; exit 1
  fi
  grep -q -- "$2" <<<"$out" || { echo "FAIL: message for $1 lacks '$2':"; echo "$out"; exit 1; }
}

fresh_copy
/usr/bin/python3 "$checker" "$scratch/tree" || { echo "FAIL: the unmodified copy is rejected"; exit 1; }

# 1. a back-edge: the linalg layer includes a sim header
echo '#include "moreau/sim/simulation.hpp"' >> "$scratch/tree/src/linalg/pseudo_inverse.cpp"
expect_failure "linalg including sim" "src/linalg/pseudo_inverse.cpp"

# 2. a CMake target linking a layer its files do not include
fresh_copy
sed -i 's/^moreau_layer(linalg moreau::common)/moreau_layer(linalg moreau::common moreau::problems)/' "$scratch/tree/CMakeLists.txt"
expect_failure "an extra CMake link" "moreau_layer(linalg) links"

# 3. the program including a private header of src/
fresh_copy
echo '#include "../../src/sim/sim_internal.hpp"' >> "$scratch/tree/apps/moreau/main.cpp"
expect_failure "apps including src/" "apps/moreau/main.cpp"

# 4. a relative include across layers: sim reaching into io's sources
fresh_copy
echo '#include "../io/scene/scene.cpp"' >> "$scratch/tree/src/sim/simulation.cpp"
expect_failure "a relative include from sim into io" "src/sim/simulation.cpp"

# 5. an io room including a later room: json reading the scene
fresh_copy
echo '#include "moreau/io/scene/scene.hpp"' >> "$scratch/tree/src/io/json/json_reader.cpp"
expect_failure "io/json including io/scene" "io room 'json' includes"

# 6. the same through a relative include inside io: run reaching into import
fresh_copy
echo '#include "../import/body_tree.hpp"' >> "$scratch/tree/src/io/run/run_reader.cpp"
expect_failure "io/run including io/import relatively" "io room 'run' includes"

# 7. a source file left in io's top folder
fresh_copy
echo '// stray' > "$scratch/tree/src/io/stray.cpp"
expect_failure "a source in io's top folder" "src/io/stray.cpp"

# 8. a room file including a forwarding header
fresh_copy
echo '#include "moreau/io/scene.hpp"' >> "$scratch/tree/src/io/import/urdf.cpp"
expect_failure "a room including a forwarding header" "forwarding header"
echo "check_layers.py rejects all eight faults"
