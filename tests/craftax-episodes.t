#!/bin/sh
# Craftax-Classic's step against JAX itself, where the reference is
# installed (make craftax-env, or CRAFTAX_ENV naming a virtual environment
# with craftax): fresh random seeds a run (4, or CRAFTAX_EPISODES), each
# played 300 steps (CRAFTAX_EPISODE_STEPS) of random actions by jitted
# env.step, resets and all, then 300 crafted states (CRAFTAX_CRAFTED:
# the player at the map's edges, tables on the edges, creatures around,
# arrows leaving the map, ripe plants, counters at their limits) stepped
# once each, and every word of every step (every field of the state, the
# symbolic observation's bits, the reward's bits, done) compared with the
# C step's (tests/reference/craftax_episodes.py --compare), the first
# difference said with its seed or state, step, field and index; and a
# planted difference is found, against the same JAX run kept (JAX
# compiles its step once a process, 10 to 40 s here).
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-craftax-episodes
script=$top/tests/reference/craftax_episodes.py
craftax_or_skip "the episodes"

version=$("$python" -c 'import jax; print(jax.__version__)' 2>/dev/null)
CRAFTAX_EPISODES_KEEP=$scratch/jax.pickle "$python" "$script" --compare "$program" \
  "${CRAFTAX_EPISODES:-4}" "${CRAFTAX_EPISODE_STEPS:-300}" "${CRAFTAX_CRAFTED:-300}" \
  >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
if [ $status -eq 1 ] && [ "$version" != 0.10.1 ]; then
  echo "not ok $((test_number + 1)) - fresh episodes against jax $version: $(tail -n 1 "$scratch/log" | cut -c1-80) # TODO jax $version is not the pinned 0.10.1"
  test_number=$((test_number + 1))
  report skipped "jax $version, not the pinned 0.10.1, played an episode unlike 0.10.1's"
else
  ok $status "fresh episodes and crafted states are JAX's: $(tail -n 2 "$scratch/log" | tr '\n' ' ' | cut -c1-160)"
fi
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]* seeds x [0-9]* steps\) equal.*/\1/p' "$scratch/log") of Craftax-Classic with JAX's, word for word"

# The player's health one more at step 7 of every C episode: the
# comparison against the kept JAX run must name it.
if [ -f "$scratch/jax.pickle" ]; then
  cat >"$scratch/planted" <<SH
#!/bin/sh
"$program" "\$@" | awk '\$1 == "step" && \$3 == 7 { \$(5 + 8195) += 1 } { print }'
SH
  chmod +x "$scratch/planted"
  "$python" "$script" --compare-kept "$scratch/jax.pickle" "$scratch/planted" >"$scratch/out" 2>&1
  found=$?
  [ $found -eq 1 ] && grep -q "step 7: first difference at player_health\[0\]" "$scratch/out"
  found=$?
  [ $found -ne 0 ] && diag <"$scratch/out"
  ok $found "a planted difference is found: $(tail -n 1 "$scratch/out" | cut -c1-100)"
else
  ok 1 "a planted difference is found: no JAX run was kept"
fi
finish
