#!/bin/sh
# The tools of the differential tests against the reference
# (tests/reference): the keys crafter-config(5) lists as verified are the
# ones the tools can lay over the reference; and, when the reference's
# virtual environment exists (make reference-env), a short fuzzing run
# finds no difference, while one with textures other than Crafter's must
# find one and leave a reproducer that crafter-step replays.
. "$(dirname "$0")/tap.sh"
plan 6
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
step=$top/bin/crafter-step

if command -v python3 >/dev/null; then
  python3 "$top/tests/reference/patches.py" --list | sort >"$scratch/tools"
  sed -n '/^\.SH VERIFIED AGAINST THE REFERENCE/,/^\.SH /p' "$top/man/man5/crafter-config.5" |
    sed -n '/^\.nf/,/^\.fi/p' | tr ' ' '\n' | grep -E '^[a-z_]+(\.[A-Za-z_]+)*$' | sort >"$scratch/man"
  [ -s "$scratch/tools" ] && cmp -s "$scratch/tools" "$scratch/man"
  status=$?
  [ $status -ne 0 ] && diff "$scratch/tools" "$scratch/man" | diag
  ok $status "crafter-config(5) lists as verified the $(wc -l <"$scratch/tools" | tr -d ' ') keys the reference can play by"
else
  skip "python3 not found: the verified keys of crafter-config(5) were NOT checked"
fi

python=$REFERENCE_ENV/bin/python
if [ ! -x "$python" ]; then
  for reason in "a short fuzzing run" "a planted difference found" "its reproducer replayed" \
    "the reproducer script"; do
    skip "the reference is not installed (make reference-env): $reason against it was NOT run"
  done
  skip "the reference is not installed: its despawn order was NOT checked"
  finish
fi

"$python" "$top/tests/reference/fuzz.py" --budget 4 --seed 7 --out "$scratch/clean" >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
grep -q "no difference in 4 episodes" "$scratch/log"
fuzzed=$?
sed -n 's/^check-reference: \(numpy.s float64 cos .*\)/\1/p' "$scratch/log" | grep -v '^numpy.s float64 cos is the' |
  while read -r line; do report note "$line"; done
(exit $fuzzed)
ok $(( status || $? )) "4 fuzzed episodes play alike in the reference and the engine: $(tail -n 1 "$scratch/log" | cut -c1-100)"

# The toolkit's own textures are not Crafter's: every picture differs.
"$python" "$top/tests/reference/fuzz.py" --budget 2 --seed 7 --no-configs --shrink-seconds 5 \
  --assets "$top/data/textures" --out "$scratch/planted" >"$scratch/log" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "DIFFERENCE" "$scratch/log" && grep -q "field obs" "$scratch/log" &&
  [ -s "$scratch/planted/reproducer.actions" ] && [ -s "$scratch/planted/reference.jsonl.gz" ]
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "a planted difference (other textures) stops the run with a reproducer"

args=$(sed -n 's/^# crafter-step //p' "$scratch/planted/reproducer.actions")
# shellcheck disable=SC2086
(cd "$scratch/planted" && "$step" $args <reproducer.actions) >"$scratch/replay" 2>"$scratch/err" &&
  [ "$(grep -c '"kind": "step"' "$scratch/replay")" -eq "$(grep -c '^[0-9]' "$scratch/planted/reproducer.actions")" ]
ok $? "crafter-step replays the reproducer's actions with its own options"

"$scratch/planted/reproducer.sh" >"$scratch/shown" 2>&1 && grep -q '^reference:' "$scratch/shown" &&
  grep -q '"kind"' "$scratch/shown"
ok $? "the reproducer script shows the engine's record and the reference's"

# Without the deterministic order the reference despawns the creature a
# draw picks from a set, in memory-address order; with it, from the
# candidates in creation order: a draw of 0 removes the oldest.
"$python" - "$top/tests/reference" >"$scratch/order" 2>&1 <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import recorder, crafter
from crafter import objects
env = recorder.make_env(1, (12, 12))
env.reset()
world = env._world
seen = []
cows = [objects.Cow(world, (x, 0)) for x in range(6)]
for cow in cows:
  if world[cow.pos][1] is None and world[cow.pos][0] in ('grass', 'sand', 'path'):
    world.add(cow)
added = [c for c in cows if not c.removed and world._obj_map[tuple(c.pos)]]
class Spy:
  def randint(self, low, high):
    seen.append(high)
    return 0
  def uniform(self, *a):
    return 0.0
world.random = Spy()
chunk = world.chunk_key((0, 0))
objs = list(reversed(added))  # newest first: unordered, the newest would go
env._balance_object(chunk, objs, objects.Cow, 'grass', 0, 0, 0, 1,
                    lambda pos: None, lambda num, space: (0, 0))
left = [c for c in added if not c.removed]
print(len(added), 'cows;', 'removed the oldest' if added and added[0].removed and len(left) == len(added) - 1 else 'removed another')
PY
grep -q "removed the oldest" "$scratch/order"
ok $? "the recorder despawns in creation order: $(cat "$scratch/order")"
finish
