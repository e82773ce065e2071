#!/usr/bin/env bash
# A start pose made valid from the command line (docs/scene-format.md §Contact): a ball 0.05 m
# into the floor is lifted out with one warning naming the pair and the depth and starts at
# z = 0.1 (its radius); --initial-overlap ignore keeps it where it is; --initial-overlap refuse
# exits 2 naming the pair; a bad mode is refused; `moreau convert` writes the scene anyway.
source "$(dirname "$0")/support/prelude.sh"
cat > "$TMP/ball.xml" <<'XML'
<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="ball" pos="0 0 0.05"><freejoint/><geom type="sphere" size="0.1" mass="1"/></body>
  </worldbody>
</mujoco>
XML
check() {  # LABEL GOT: GOT must be True
  [ "$2" = "True" ] || { echo "FAIL $1: $2"; fail=1; }
}
# start_z ARGS...: the ball's height at t = 0 of a 1 ms run
start_z() {
  "$MOREAU" simulate "$TMP/ball.xml" --t-end 0.001 --no-plot -o "$TMP/run" "$@" >/dev/null 2>"$TMP/err" &&
    /usr/bin/python3 -c "import csv; r = next(csv.DictReader(open('$TMP/run/trajectory.csv'))); print(r['ball.z'])"
}
check resolve "$(/usr/bin/python3 -c "print(abs($(start_z) - 0.1) < 1e-6)")"
check warning "$(grep -c "overlapping bodies separated by a position projection in joint coordinates: 'ball' and 'world' by 0.05 m" "$TMP/err" | sed 's/^1$/True/')"
check ignore "$(/usr/bin/python3 -c "print($(start_z --initial-overlap ignore) == 0.05)")"
out=$("$MOREAU" simulate "$TMP/ball.xml" --t-end 0.001 --no-plot -o "$TMP/refused" --initial-overlap refuse 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL refuse: exit $rc ($out)"; fail=1; }
case "$out" in *"bodies 'ball' and 'world' interpenetrate (gap = -0.05 m"*) ;; *) echo "FAIL refuse message: $out"; fail=1 ;; esac
[ ! -e "$TMP/refused/trajectory.csv" ] || { echo "FAIL refuse: wrote a trajectory"; fail=1; }
out=$("$MOREAU" simulate "$TMP/ball.xml" --initial-overlap undo 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$out" == *'--initial-overlap = "undo": must be "resolve", "ignore" or "refuse"'* ]] ||
  { echo "FAIL bad mode: $out"; fail=1; }
"$MOREAU" convert "$TMP/ball.xml" -o "$TMP/ball.json" --initial-overlap refuse >/dev/null 2>&1 ||
  { echo "FAIL convert refused an overlapping model"; fail=1; }
check convert "$(/usr/bin/python3 -c "import json; d = json.load(open('$TMP/ball.json')); print(d['contact']['initial_overlap'] == 'refuse' and abs(d['bodies'][1]['position'][2] - 0.05) < 1e-12)")"
exit $fail
