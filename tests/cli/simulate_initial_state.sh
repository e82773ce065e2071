#!/usr/bin/env bash
# `moreau simulate MODEL` started as asked: --srdf's group_state chosen by --keyframe, --joint
# NAME=VALUE, --base-pose X Y Z QW QX QY QZ (the final state of a 1 ms run is within 1e-3 of the
# values given), and each bad option refused with exit 2 naming it.
source "$(dirname "$0")/support/prelude.sh"
URDF=$(cd "$(dirname "$0")/../../examples/urdf" && pwd)/two_link_arm.urdf
cat > "$TMP/arm.srdf" <<'SRDF'
<robot name="two_link_arm">
  <group_state name="ready" group="arm">
    <joint name="shoulder" value="-0.3"/>
    <joint name="elbow" value="0.6"/>
  </group_state>
</robot>
SRDF

# final QUERY ARGS...: evaluates the Python expression QUERY on the final q of `moreau simulate`
final() {
  local query=$1
  shift
  "$MOREAU" simulate "$URDF" --t-end 0.001 --json "$@" 2>/dev/null |
    /usr/bin/python3 -c "import json, sys; q = json.load(sys.stdin)['final']['q']; print($query)"
}
check() {  # LABEL GOT: GOT must be True
  [ "$2" = "True" ] || { echo "FAIL $1: $2"; fail=1; }
}
check srdf "$(final 'abs(q["shoulder.q"] + 0.3) < 1e-3 and abs(q["elbow.q"] - 0.6) < 1e-3' \
  --srdf "$TMP/arm.srdf" --keyframe ready)"
check joint "$(final 'abs(q["elbow.q"] - 0.3) < 1e-3 and abs(q["shoulder.q"]) < 1e-3' --joint elbow=0.3)"
# a floating base turned half a turn about z at (1, 2, 3): its link frame's origin moves there, so
# the base's centre of mass is at (1, 2, 3) + R c with c its place at the default pose
c=$(final 'q["base_link.x"], q["base_link.y"], q["base_link.z"]' --floating-base | tr -d '(),')
read -r cx cy cz <<<"$c"
check base_pose "$(final "abs(q['base_link.x'] - (1 - $cx)) < 1e-3 and abs(q['base_link.y'] - (2 - $cy)) < 1e-3 and abs(q['base_link.z'] - (3 + $cz)) < 1e-3 and abs(abs(q['base_link.qz']) - 1) < 1e-9" \
  --floating-base --base-pose 1 2 3 0 0 0 1)"

expect_bad() {  # LABEL WORD ARGS...: exit 2, and stderr mentions WORD
  local label=$1 word=$2 out rc
  shift 2
  out=$("$MOREAU" simulate "$URDF" --t-end 0.001 --no-plot "$@" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || { echo "FAIL $label: exit $rc, expected 2 ($out)"; fail=1; }
  grep -qF -- "$word" <<<"$out" || { echo "FAIL $label: '$out' does not mention '$word'"; fail=1; }
}
expect_bad unknown_joint "no revolute or prismatic joint 'wrist'" --joint wrist=0.1
expect_bad joint_syntax "expected NAME=VALUE" --joint elbow
expect_bad unknown_keyframe "keyframe 'home'" --keyframe home
expect_bad base_pose_count "--base-pose" --base-pose 1 2
printf '<robot><group_state name="s"><joint name="elbow" value="0.1 0.2"/></group_state></robot>' \
  >"$TMP/bad.srdf"
expect_bad srdf_values "one finite number expected" --srdf "$TMP/bad.srdf"
exit $fail
