#!/usr/bin/env bash
# One wording for one fault (issue 32): a file that does not exist reads the same whatever its
# format and whichever command opens it — a scene JSON, an MJCF .xml and a URDF .urdf (simulate,
# convert), an FCLIB .hdf5 (solve), a SPEC (impact), an analyze input (analyze). Each must exit
# with code 2 and print exactly `moreau: error: PATH: no such file`, nothing on stdout; a folder
# given as a file reads `PATH: is a folder, not a file`.
source "$(dirname "$0")/support/prelude.sh"

for f in scene.json model.xml robot.urdf; do
  expect_exact "simulate $f" "moreau: error: $TMP/$f: no such file" \
    simulate "$TMP/$f" --out "$TMP/run" --no-plot
done
for f in model.xml robot.urdf scene.json; do
  expect_exact "convert $f" "moreau: error: $TMP/$f: no such file" convert "$TMP/$f" -o "$TMP/o.json"
done
expect_exact "solve .hdf5" "moreau: error: $TMP/problem.hdf5: no such file" solve "$TMP/problem.hdf5"
expect_exact "solve --json .hdf5" "moreau: error: $TMP/problem.hdf5: no such file" \
  solve "$TMP/problem.hdf5" --json
expect_exact "impact" "moreau: error: $TMP/spec.json: no such file" impact "$TMP/spec.json"
expect_exact "analyze" "moreau: error: $TMP/state.json: no such file" analyze "$TMP/state.json"

mkdir -p "$TMP/folder.json" "$TMP/folder.hdf5" "$TMP/folder.xml"
expect_exact "simulate a folder" "moreau: error: $TMP/folder.json: is a folder, not a file" \
  simulate "$TMP/folder.json" --out "$TMP/run" --no-plot
expect_exact "solve a folder" "moreau: error: $TMP/folder.hdf5: is a folder, not a file" \
  solve "$TMP/folder.hdf5"
expect_exact "convert a folder" "moreau: error: $TMP/folder.xml: is a folder, not a file" \
  convert "$TMP/folder.xml" -o "$TMP/o.json"
[ ! -e "$TMP/run" ] || { echo "FAIL: a run folder was made for a missing scene"; fail=1; }
exit $fail
