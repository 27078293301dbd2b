#!/bin/sh
# Every fuzz target (tests/fuzz/fuzz-*.c) over its seed corpus
# (tests/fuzz/corpus/TARGET), and over damaged copies of each seed:
# truncated at several points and with bytes flipped.  A target with a
# mutator of its own (the -repair ones) also runs a few mutants of every
# file it is given.  Under make check-asan this runs with the sanitizers,
# leak checking included; make fuzz runs the same targets under libFuzzer.
. "$(dirname "$0")/tap.sh"
targets=$(cd "$top/tests/fuzz" && ls fuzz-*.c | sed 's/^fuzz-//; s/\.c$//')
plan $((2 * $(echo $targets | wc -w)))

for target in $targets; do
  "$top/tests/fuzz/fuzz-$target" "$top/tests/fuzz/corpus/$target" >"$scratch/out" 2>&1
  ok $? "fuzz-$target runs its seed corpus cleanly"
  grep -v -e '^ok ' -e '^1\.\.' "$scratch/out" | diag

  mkdir -p "$scratch/$target"
  for seed in "$top/tests/fuzz/corpus/$target"/*; do
    name=${seed##*/}
    size=$(wc -c <"$seed")
    for cut in 1 7 64 129 $((size / 2)) $((size - 1)); do
      [ "$cut" -gt 0 ] && [ "$cut" -lt "$size" ] && head -c "$cut" "$seed" >"$scratch/$target/$name.cut$cut"
    done
    for offset in 0 9 17 100 130 $((size / 3)) $((size - 5)); do
      [ "$offset" -ge 0 ] && [ "$offset" -lt "$size" ] || continue
      cp "$seed" "$scratch/$target/$name.flip$offset"
      printf '\377' | dd of="$scratch/$target/$name.flip$offset" bs=1 seek="$offset" conv=notrunc \
        2>/dev/null
    done
  done
  "$top/tests/fuzz/fuzz-$target" "$scratch/$target" >"$scratch/out" 2>&1
  ok $? "fuzz-$target runs $(ls "$scratch/$target" | wc -l | tr -d ' ') damaged seeds cleanly"
  grep -v -e '^ok ' -e '^1\.\.' "$scratch/out" | diag
done
finish
