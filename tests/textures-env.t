#!/bin/sh
# CRAFTER_TEXTURES: every program that draws pixels draws with the folder
# the environment variable names when no --textures is given; --textures
# overrides it; set but empty it is the built-in textures; a folder that
# cannot be loaded is an error that names the variable.  The folder used
# is the toolkit's own textures with grass and sand swapped, so that its
# pictures differ from the built-in ones without Crafter's assets at hand.
. "$(dirname "$0")/tap.sh"
plan 12
step=$top/bin/crafter-step
swapped=$scratch/swapped
mkdir -p "$swapped" && cp "$top"/data/textures/*.png "$swapped"/ &&
  cp "$top/data/textures/sand.png" "$swapped/grass.png" &&
  cp "$top/data/textures/grass.png" "$swapped/sand.png" || exit 1

# draw NAME [VAR=VALUE] -- COMMAND...: runs COMMAND with the environment
# variable given (or none), its standard output to $scratch/NAME.
draw() {
  out=$scratch/$1; shift
  if [ "$1" = -- ]; then
    shift; "$@" >"$out" 2>"$out.err"
  else
    (export "$1"; shift 2; "$@" >"$out" 2>"$out.err")
  fi
}
# same_as_option NAME COMMAND...: the variable draws as --textures does and
# unlike the built-in textures; --textures overrides the variable.
same_as_option() {
  label=$1; shift
  draw "$label.builtin" -- "$@" &&
    draw "$label.variable" CRAFTER_TEXTURES="$swapped" -- "$@" &&
    draw "$label.option" -- "$@" --textures "$swapped" &&
    draw "$label.override" CRAFTER_TEXTURES="$scratch/nowhere" -- "$@" --textures "$top/data/textures" &&
    draw "$label.empty" CRAFTER_TEXTURES= -- "$@" &&
    cmp -s "$scratch/$label.variable" "$scratch/$label.option" &&
    ! cmp -s "$scratch/$label.variable" "$scratch/$label.builtin" &&
    cmp -s "$scratch/$label.override" "$scratch/$label.builtin" &&
    cmp -s "$scratch/$label.empty" "$scratch/$label.builtin"
}
# names_variable COMMAND...: with CRAFTER_TEXTURES naming no folder, the
# command fails and says the variable named it.
names_variable() {
  (CRAFTER_TEXTURES=$scratch/nowhere; export CRAFTER_TEXTURES; "$@" >/dev/null 2>"$scratch/err")
  status=$?
  [ $status -ne 0 ] &&
    grep -q "CRAFTER_TEXTURES: textures folder $scratch/nowhere does not exist" "$scratch/err"
}

echo 0 >"$scratch/actions"
stepped() { "$step" "$@" <"$scratch/actions"; }
same_as_option step stepped --obs pixels --seed 1 --length 5
ok $? "crafter-step draws with CRAFTER_TEXTURES as with --textures; --textures and an empty value override it"
names_variable stepped --obs pixels --seed 1
ok $? "crafter-step: a CRAFTER_TEXTURES naming no folder is an error naming the variable"
"$step" --obs semantic --seed 1 --length 5 <"$scratch/actions" >"$scratch/semantic" 2>&1 &&
  CRAFTER_TEXTURES=$scratch/nowhere "$step" --obs semantic --seed 1 --length 5 \
    <"$scratch/actions" >"$scratch/semantic.variable" 2>&1 &&
  cmp -s "$scratch/semantic" "$scratch/semantic.variable"
ok $? "crafter-step without pixels does not read CRAFTER_TEXTURES"

same_as_option gen "$top/bin/crafter-gen" --seed 1 --area 16,16 --png /dev/stdout --unit 2
ok $? "crafter-gen --png draws with CRAFTER_TEXTURES as with --textures"
names_variable "$top/bin/crafter-gen" --seed 1 --area 16,16 --png "$scratch/map.png"
ok $? "crafter-gen: a CRAFTER_TEXTURES naming no folder is an error naming the variable"

same_as_option play "$top/bin/crafter-play" --colors truecolor --seed 1 --keys a
ok $? "crafter-play in colour draws with CRAFTER_TEXTURES as with --textures"
names_variable "$top/bin/crafter-play" --colors truecolor --seed 1 --keys a
ok $? "crafter-play: a CRAFTER_TEXTURES naming no folder is an error naming the variable"
CRAFTER_TEXTURES=$scratch/nowhere "$top/bin/crafter-play" --glyphs --seed 1 --keys a >/dev/null 2>&1
ok $? "crafter-play with letters does not read CRAFTER_TEXTURES"

# crafter-dataset: the pixels it records.
dataset=$top/bin/crafter-dataset
record() { # record NAME [VAR=VALUE]: $scratch/NAME.traj, a short episode's pixels
  if [ -n "${2:-}" ]; then set -- "$1" env "$2"; else set -- "$1"; fi
  label=$1; shift
  "$@" "$dataset" record -q -n 1 --steps 5 --seed 4 --obs pixels -o "$scratch/$label.traj" \
    >/dev/null 2>&1
}
record builtin && record variable CRAFTER_TEXTURES="$swapped" &&
  "$dataset" record -q -n 1 --steps 5 --seed 4 --obs pixels --textures "$swapped" \
    -o "$scratch/option.traj" >/dev/null 2>&1 &&
  cmp -s "$scratch/variable.traj" "$scratch/option.traj" &&
  ! cmp -s "$scratch/variable.traj" "$scratch/builtin.traj"
ok $? "crafter-dataset record draws with CRAFTER_TEXTURES as with --textures"
names_variable "$dataset" record -q -n 1 --steps 5 --obs pixels -o "$scratch/bad.traj"
ok $? "crafter-dataset: a CRAFTER_TEXTURES naming no folder is an error naming the variable"

# crafter-bench: pixels drawn with the variable's folder (no picture comes
# out; a folder it cannot load shows it read the variable).
bench() { "$top/bin/crafter-bench" --obs pixels --steps 20 --repeats 1 "$@"; }
(CRAFTER_TEXTURES=$swapped; export CRAFTER_TEXTURES; bench >/dev/null 2>&1)
ok $? "crafter-bench --obs pixels runs with CRAFTER_TEXTURES naming a folder of textures"
names_variable bench
ok $? "crafter-bench: a CRAFTER_TEXTURES naming no folder is an error naming the variable"
finish
