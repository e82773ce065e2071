#!/usr/bin/env bash
# `moreau view` on good and bad folders: a run's page is written atomically (default
# OUT_DIR/view.html, or -o), geometry.json is written next to the trajectory, and every bad input
# exits 2 with one line naming the file and the defect, leaving no page and no temporary file.
source "$(dirname "$0")/support/prelude.sh"
run="$TMP/run"
"$MOREAU" -q simulate "$SCENES/bouncing_ball.json" -o "$run" --t-end 0.5 --no-plot || {
  echo "FAIL: simulate"; exit 1; }
[ -s "$run/geometry.json" ] || { echo "FAIL: no geometry.json next to the trajectory"; fail=1; }
grep -Eq '"type": ?"sphere"' "$run/geometry.json" || { echo "FAIL: geometry.json has no sphere"; fail=1; }
if ! "$MOREAU" view "$run" > "$TMP/stdout" 2> "$TMP/stderr"; then
  echo "FAIL: moreau view exit $? ($(cat "$TMP/stderr"))"; fail=1
fi
grep -q "wrote $run/view.html" "$TMP/stdout" || { echo "FAIL: no 'wrote' line: $(cat "$TMP/stdout")"; fail=1; }
grep -q 'id="moreau-run"' "$run/view.html" || { echo "FAIL: view.html is not the viewer"; fail=1; }
grep -q '__MOREAU_RUN_JSON__' "$run/view.html" && { echo "FAIL: the run was not filled in"; fail=1; }
ls -a "$run" | grep -q '\.tmp' && { echo "FAIL: temporary files left: $(ls -a "$run")"; fail=1; }
# --max-frames: at most that many frames, the first and the last among them
records=$(( $(wc -l < "$run/trajectory.csv") - 1 ))
for cap in 1 2 7; do
  "$MOREAU" view "$run" -o "$TMP/cap.html" --max-frames $cap > "$TMP/stdout" || { echo "FAIL --max-frames $cap"; fail=1; }
  grep -Eq "^[0-9]+ frames of $records recorded" "$TMP/stdout" || { echo "FAIL --max-frames $cap: $(cat "$TMP/stdout")"; fail=1; }
  frames=$(grep -Eo '^[0-9]+' "$TMP/stdout" | head -1)
  [ "$frames" -le $(( cap > 1 ? cap : 2 )) ] || { echo "FAIL --max-frames $cap gave $frames frames"; fail=1; }
done

# expect_error LABEL PATTERN ARGS...: exit 2, one stderr line matching PATTERN, no page written
expect_error() {
  local label=$1 pattern=$2
  shift 2
  "$MOREAU" view "$@" > /dev/null 2> "$TMP/err"
  local rc=$?
  [ $rc -eq 2 ] || { echo "FAIL $label: exit $rc, expected 2"; fail=1; }
  grep -q -- "$pattern" "$TMP/err" || { echo "FAIL $label: stderr '$(cat "$TMP/err")' lacks '$pattern'"; fail=1; }
  [ "$(wc -l < "$TMP/err")" -eq 1 ] || { echo "FAIL $label: more than one line: $(cat "$TMP/err")"; fail=1; }
}
expect_error missing "$TMP/none: no such folder" "$TMP/none"
mkdir "$TMP/empty"
expect_error empty "no trajectory.csv and no run.h5" "$TMP/empty"
[ -e "$TMP/empty/view.html" ] && { echo "FAIL empty: wrote a page"; fail=1; }
cp -r "$run" "$TMP/badrow"
sed -i '3s/^[^,]*,/abc,/' "$TMP/badrow/trajectory.csv"
expect_error badrow 'trajectory.csv line 3: t = "abc" is not a number' "$TMP/badrow"
cp -r "$run" "$TMP/badgeo"
echo '{"moreau_geometry_version": 1, "dimension": 2, "bodies": [' > "$TMP/badgeo/geometry.json"
expect_error badjson "geometry.json" "$TMP/badgeo"
cp -r "$run" "$TMP/badshape"
sed -Ei 's/"type": ?"sphere"/"type": "torus"/' "$TMP/badshape/geometry.json"
expect_error badshape 'type = "torus"' "$TMP/badshape"
"$MOREAU" -q simulate "$SCENES/newtons_cradle.json" -o "$TMP/cradle" --t-end 0.1 --no-plot || fail=1
cp "$TMP/cradle/geometry.json" "$TMP/badshape/geometry.json"
expect_error othergeometry "not the same run" "$TMP/badshape"
mkdir "$TMP/h5" && echo "not hdf5" > "$TMP/h5/run.h5"
expect_error badh5 "run.h5: not an HDF5 file" "$TMP/h5"
expect_error badout "cannot" "$run" -o "$TMP/no/such/folder/page.html"
exit $fail
