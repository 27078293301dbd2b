#!/bin/sh
# Observations in JSON lines are base64 (RFC 4648, with padding): decoded,
# every record's "obs" is exactly the observation the binary protocol
# (crafter-protocol(5)) sends for the same run.  The semantic map of an
# area of W x H cells is W*H bytes, so the areas 8x4 (32 bytes: a
# two-byte ending, one "="), 7x4 (28: a one-byte ending, "==") and 6x4
# (24: no padding) take each ending of the encoding.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 9

# u32 FILE OFFSET: a little-endian uint32 of a file.
u32() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
# slice FILE OFFSET COUNT: bytes of a file.
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }

# Moves, noops and do: the player walks, so the maps differ step by step.
actions="3 3 4 0 2 5 1 1 4 4 2 0 3"
for area in 8,4 7,4 6,4; do
  cells=$((${area%,*} * ${area#*,}))
  case $((cells % 3)) in 0) padding="" ;; 1) padding="==" ;; 2) padding="=" ;; esac
  printf '%s\n' $actions | "$step" --area "$area" --obs semantic >"$scratch/json"
  printf "$(printf '\\%03o' $actions)" |
    "$step" --binary --area "$area" --obs semantic >"$scratch/binary"
  frame=$(u32 "$scratch/binary" 44)
  obs_at=$(u32 "$scratch/binary" 120)
  # Every record's obs: its length, alphabet and padding as RFC 4648
  # says for CELLS bytes.
  sed -n 's/.*"obs": "\([^"]*\)".*/\1/p' "$scratch/json" >"$scratch/encoded"
  awk -v cells="$cells" -v padding="$padding" '
    { ending = $0; sub(/^[A-Za-z0-9+\/]*/, "", ending) }
    length($0) != 4 * int((cells + 2) / 3) || ending != padding { bad++ }
    END { exit !(NR == 14 && !bad) }' "$scratch/encoded"
  ok $? "$area: 14 records of $cells bytes, each $((4 * ((cells + 2) / 3))) characters ending in '$padding'"
  [ "$(u32 "$scratch/binary" 40)" = "$cells" ] && [ "$(wc -c <"$scratch/binary")" -eq $((128 + 14 * frame)) ]
  ok $? "$area: the binary run has 14 frames with $cells bytes of observation"
  k=0 same=0
  while read -r text; do
    printf '%s' "$text" | base64 -d >"$scratch/decoded" 2>"$scratch/err" &&
      slice "$scratch/binary" $((128 + k * frame + obs_at)) "$cells" | cmp -s - "$scratch/decoded" &&
      same=$((same + 1))
    k=$((k + 1))
  done <"$scratch/encoded"
  [ "$same" -eq 14 ]
  ok $? "$area: every decoded observation is the binary frame's ($same of 14 agree)"
done
finish
