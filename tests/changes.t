#!/bin/sh
# --info full: "changes" lists the cells whose material differs from the
# start of the step (crafter-step(1), RECORDS); a cell changed and changed
# back within the step is no change.  Legal play does that: the player
# places a table on a path cell that an arrow is flying into, and the
# arrow, updated after the player in the same step, turns the table back
# into path.  Controls: the same placement without the arrow is listed,
# and on sand (sand, table, path) it is listed as path.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 6

printf 'items: {wood: {max: 9, initial: 9}}\n' >"$scratch/wood.yaml"
# world FILE GROUND-BELOW ARROW: the player at (3, 2) facing down onto
# (3, 3), and at (3, 4) an arrow flying up (^, on path) or a cell.
world() {
  {
    printf 'crafter-world 1\nsize 7 7\nmap\n:::::::\n:::::::\n:::@:::\n'
    printf ':::%s:::\n:::%s:::\n:::::::\n:::::::\n' "$2" "$3"
  } >"$scratch/$1"
}
world arrow.txt _ '^'
world plain.txt _ _ # the arrow's cell without it: path
world sand.txt : '^'
# full WORLD ACTION...: the step records of a run on WORLD.
full() {
  world_file=$1
  shift
  printf '%s\n' "$@" | "$step" --area 7,7 --world "$scratch/$world_file" \
    --config "$scratch/wood.yaml" --info full | grep '"kind": "step"'
}
changes() { sed -n 's/.*"changes": \(\[[^"]*\]\), "objects".*/\1/p'; }
crc() { sed -n 's/.*"semantic_crc": \([0-9]*\).*/\1/p'; }

full arrow.txt place_table noop >"$scratch/arrow"
first=$(head -1 "$scratch/arrow")
# The table was placed (wood 9 -> 7, place_table counted) and the arrow
# is gone: only the player is left among the objects.
echo "$first" | grep -q '"inventory": \[9, 9, 9, 9, 0, 7,' &&
  echo "$first" | grep -q '"achievements": \[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0\]' &&
  echo "$first" | grep -q '"objects": \[\[0, 3, 2, 9, 3\]\]'
ok $? "the table is placed on the path and the arrow flies into it in the same step"
[ "$(echo "$first" | changes)" = "[]" ]
ok $? "path, table, path within one step is no change: changes [] (got $(echo "$first" | changes))"
# The cell is path again: the semantic map equals that of the world
# without the arrow after a step that did nothing.
full plain.txt noop >"$scratch/plain-noop"
[ "$(echo "$first" | crc)" = "$(crc <"$scratch/plain-noop")" ]
ok $? "and the world is as before it, path where the table stood for the step"
[ "$(sed -n 2p "$scratch/arrow" | changes)" = "[]" ]
ok $? "the next step changes nothing either"

full plain.txt place_table >"$scratch/plain"
[ "$(changes <"$scratch/plain")" = "[[3, 3, 11]]" ]
ok $? "without the arrow the table is listed: [[3, 3, 11]] (got $(changes <"$scratch/plain"))"
full sand.txt place_table >"$scratch/sand"
[ "$(changes <"$scratch/sand")" = "[[3, 3, 4]]" ]
ok $? "sand, table, path within one step is a change to path: [[3, 3, 4]] (got $(changes <"$scratch/sand"))"
finish
