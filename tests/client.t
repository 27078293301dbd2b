#!/bin/sh
# The Python client (examples/crafter_client.py) drives crafter-step over
# the binary protocol: a reference episode replayed through it matches the
# reference, and vectorized envs equal single ones.
. "$(dirname "$0")/tap.sh"
if ! command -v python3 >/dev/null 2>&1; then
  echo "1..0 # SKIP python3 is not installed"
  exit 0
fi
plan 3
ASSETS=$(dirname "$GOLDEN_DIR")/crafter-assets
trace=$(ls "$GOLDEN_DIR"/scripted-s2-e1-*.jsonl.gz 2>/dev/null | head -1)
if [ -n "$trace" ] && [ -f "$ASSETS/grass.png" ]; then
  python3 - "$top/examples" "$trace" "$ASSETS" >"$scratch/out" 2>&1 <<'PYTHON'
import gzip, json, sys, zlib
sys.path.insert(0, sys.argv[1])
from crafter_client import CrafterEnv
records = [json.loads(line) for line in gzip.open(sys.argv[2])]
reset = records[0]
env = CrafterEnv(envs=1, obs="pixels", seed=reset["seed"], first_episode=reset["episode"],
                 area=reset["area"], view=reset["view"], size=reset["size"],
                 length=reset["length"], textures=sys.argv[3])
obs, infos = env.reset()
def crc(o):
    return zlib.crc32(bytes(o) if not hasattr(o, "tobytes") else o.tobytes())
assert crc(obs[0]) == reset["obs_crc"], "reset observation differs"
for record in records[1:]:
    obs, rewards, terminated, truncated, infos = env.step([record["action"]])
    done = terminated[0] or truncated[0]
    if abs(rewards[0] - record["reward"]) > 1e-6 or done != record["done"]:
        sys.exit("step %d: reward %r done %r, expected %r %r" % (
            record["t"], rewards[0], done, record["reward"], record["done"]))
    if not done and crc(obs[0]) != record["obs_crc"]:
        sys.exit("step %d: observation differs" % record["t"])
env.close()
print("replayed %d steps" % (len(records) - 1))
PYTHON
  status=$?
  diag <"$scratch/out"
  ok $status "a reference episode through the Python client"
else
  skip "no reference traces or Crafter textures beside the project"
fi

python3 - "$top/examples" >"$scratch/out" 2>&1 <<'PYTHON'
import random, sys
sys.path.insert(0, sys.argv[1])
from crafter_client import CrafterEnv
rng = random.Random(5)
actions = [[rng.randrange(17) for _ in range(3)] for _ in range(300)]
vector = CrafterEnv(envs=3, obs="symbolic", seed=10, length=100)
singles = [CrafterEnv(envs=1, obs="symbolic", seed=10 + i, length=100) for i in range(3)]
together = [vector.reset()[0]] + [vector.step(a)[0] for a in actions]
for i, single in enumerate(singles):
    alone = [single.reset()[0]] + [single.step([a[i]])[0] for a in actions]
    for t, (a, b) in enumerate(zip(together, alone)):
        if list(a[i]) != list(b[0]):
            sys.exit("env %d differs at step %d" % (i, t))
print("three envs of one process equal three processes")
PYTHON
status=$?
diag <"$scratch/out"
ok $status "vectorized envs equal single envs with seeds seed+i"

python3 - "$top/examples" >"$scratch/out" 2>&1 <<'PYTHON'
import sys
sys.path.insert(0, sys.argv[1])
from crafter_client import CrafterEnv, ProtocolError
env = CrafterEnv(program="/bin/true")
env.args = ["sh", "-c", "printf CRAFTSTP; head -c 20 /dev/zero"]
try:
    env.reset()
except ProtocolError as error:
    print("error:", error)
    sys.exit(0)
sys.exit("a truncated header was accepted")
PYTHON
status=$?
diag <"$scratch/out"
ok $status "a truncated stream raises a one-line ProtocolError"
finish
