#!/bin/sh
# reward.combine (crafter-config(5), reward): when one step unlocks two
# achievements for the first time, max pays the larger of their rewards
# and sum pays both.  A configuration makes a tree give wood and a
# sapling, so one do on a tree unlocks collect_sapling and collect_wood at
# once; the rewards of the two differ, larger first in the order of the
# achievements and larger second, and both below zero.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
# The player in the middle of a 9x9 beach (no grass, so no creature
# spawns), facing down onto a tree.
tree=$top/tests/data/worlds/tree-9x9.txt
plan 8

# reward COMBINE SAPLING WOOD: the reward of one do on the tree.
reward() {
  printf 'collect:\n  tree: {receive: {wood: 1, sapling: 1}, leaves: tree}\n' >"$scratch/config.yaml"
  printf 'reward:\n  health: 0\n  combine: %s\n' "$1" >>"$scratch/config.yaml"
  printf '  achievements: {collect_sapling: %s, collect_wood: %s}\n' "$2" "$3" >>"$scratch/config.yaml"
  echo do | "$step" --area 9,9 --world "$tree" --config "$scratch/config.yaml" \
    >"$scratch/out" 2>&1 || return 1
  grep -q '"unlocked": \["collect_sapling", "collect_wood"\]' "$scratch/out" || return 1
  sed -n 's/.*"reward": \([^,]*\),.*/\1/p' "$scratch/out"
}

# check COMBINE SAPLING WOOD EXPECTED DESCRIPTION
check() {
  got=$(reward "$1" "$2" "$3")
  [ "$got" = "$4" ]
  status=$?
  ok $status "$5 (got ${got:-nothing})"
  [ $status -eq 0 ] || diag <"$scratch/out"
}
check max 5 2 5.0 "combine: max, collect_sapling 5 and collect_wood 2 at once pay 5"
check max 2 5 5.0 "combine: max, collect_sapling 2 and collect_wood 5 at once pay 5"
check max 3 3 3.0 "combine: max of two equal rewards pays one of them"
check max -3 -1 -1.0 "combine: max of -3 and -1 pays -1"
check max -1 -3 -1.0 "combine: max of -1 and -3 pays -1"
check sum 5 2 7.0 "combine: sum, 5 and 2 at once pay 7"
check sum -3 -1 -4.0 "combine: sum, -3 and -1 at once pay -4"
# Crafter's own rewards: +1 however many unlock at once.
printf 'collect:\n  tree: {receive: {wood: 1, sapling: 1}, leaves: tree}\nreward: {health: 0}\n' \
  >"$scratch/default.yaml"
echo do | "$step" --area 9,9 --world "$tree" --config "$scratch/default.yaml" |
  grep -q '"reward": 1.0, .*"unlocked": \["collect_sapling", "collect_wood"\]'
ok $? "the default (max of ones) pays 1 for the two"
finish
