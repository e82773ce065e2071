#!/usr/bin/env bash
# ctest viewer.browser: `moreau view` pages of two small runs, loaded in headless Chromium
# (browser.mjs): the falling pencil of `make demo` (planar, event-driven, CSV folder) and the
# first 0.2 s of the 216-sphere pile (spatial, time stepping, run.h5). The expected counts come
# from the run's own files, not from the page: frames = the trajectory's records (the lines of
# trajectory.csv, the length of run.h5's /t), bodies = the coordinate columns named *.theta
# (planar) or *.qw (spatial). The page's embedded run is also parsed by the page's own code under
# Node's test runner (run_data.test.mjs with MOREAU_VIEW_PAGE).
#   bash page_in_browser.sh MOREAU NODE CHROMIUM
set -u
MOREAU=$1
NODE=$2
CHROMIUM=$3
HERE=$(cd "$(dirname "$0")" && pwd)
SCENES=$HERE/../../examples/scenes
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# check LABEL PAGE BODIES FRAMES [BROWSER OPTIONS…]: the page's run under node --test, then the
# page in Chromium.
check() {
  local label=$1 page=$2 bodies=$3 frames=$4
  shift 4
  if [ "$frames" -lt 2 ] || [ "$bodies" -lt 1 ]; then
    echo "FAIL $label: the run has $frames records and $bodies bodies"; fail=1; return
  fi
  if ! MOREAU_VIEW_PAGE=$page MOREAU_VIEW_FRAMES=$frames "$NODE" --test \
      "$HERE/run_data.test.mjs" > "$TMP/node.log" 2>&1; then
    echo "FAIL $label: node --test on the page's run"; cat "$TMP/node.log"; fail=1
  fi
  mkdir -p "$TMP/shots-$label"
  if ! "$NODE" "$HERE/browser.mjs" "$page" --bodies "$bodies" --frames "$frames" \
      --chromium "$CHROMIUM" --shots "$TMP/shots-$label" "$@"; then
    echo "FAIL $label: the page in Chromium"; fail=1
  fi
}

# 1. the demo's scene: planar pencil, event-driven, CSV
"$MOREAU" -q simulate "$SCENES/falling_pencil.json" -o "$TMP/pencil" --no-plot || {
  echo "FAIL: moreau simulate falling_pencil.json"; exit 1; }
[ -f "$TMP/pencil/geometry.json" ] || { echo "FAIL: no geometry.json next to the trajectory"; fail=1; }
"$MOREAU" -q view "$TMP/pencil" || { echo "FAIL: moreau view (CSV)"; exit 1; }
frames=$(( $(wc -l < "$TMP/pencil/trajectory.csv") - 1 ))
bodies=$(head -1 "$TMP/pencil/trajectory.csv" | tr ',' '\n' | grep -c '\.theta$')
check pencil "$TMP/pencil/view.html" "$bodies" "$frames"

# 2. a spatial pile in HDF5, the page written elsewhere with -o
"$MOREAU" -q simulate "$SCENES/sphere_pile.json" -o "$TMP/pile" --format hdf5 --t-end 0.2 \
  --no-plot || { echo "FAIL: moreau simulate sphere_pile.json --format hdf5"; exit 1; }
"$MOREAU" -q view "$TMP/pile" -o "$TMP/pile.html" || { echo "FAIL: moreau view (HDF5)"; exit 1; }
read -r frames bodies < <(/usr/bin/python3 -c '
import sys, h5py
with h5py.File(sys.argv[1]) as f:
    names = [n.decode() if isinstance(n, bytes) else n for n in f["position_names"][()]]
    print(len(f["t"]), sum(n.endswith(".qw") for n in names))' "$TMP/pile/run.h5")
check pile "$TMP/pile.html" "$bodies" "$frames" --min-fill 0.3

# 3. a robot as published: the Franka Panda (welded, 0.1 s), drawn by its visual meshes (one per
# <visual> of the URDF), its joints (the URDF's joints that are not fixed) and framed
PANDA=$HERE/../../../shared/data/robots/example-robot-data/robots/panda_description/urdf/panda.urdf
if [ -f "$PANDA" ]; then
  "$MOREAU" -q simulate "$PANDA" -o "$TMP/panda" --t-end 0.1 --no-plot 2> "$TMP/panda.log" || {
    echo "FAIL: moreau simulate panda.urdf"; cat "$TMP/panda.log"; exit 1; }
  "$MOREAU" -q view "$TMP/panda" || { echo "FAIL: moreau view (the Panda)"; exit 1; }
  frames=$(( $(wc -l < "$TMP/panda/trajectory.csv") - 1 ))
  bodies=$(head -1 "$TMP/panda/trajectory.csv" | tr ',' '\n' | grep -c '\.qw$')
  visuals=$(grep -c '<visual' "$PANDA")
  joints=$(grep '<joint ' "$PANDA" | grep -vc 'type="fixed"')
  check panda "$TMP/panda/view.html" "$bodies" "$frames" --visuals "$visuals" --joints "$joints" \
    --min-fill 0.3
else
  echo "FAIL: $PANDA is missing (shared/data/robots)"; fail=1
fi
exit $fail
