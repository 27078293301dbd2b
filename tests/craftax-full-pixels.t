#!/bin/sh
# crafter-step --game craftax --obs pixels: Craftax-Pixels-v1's
# observations (130x110x3 float32) in frames and JSON lines, with the
# textures of an installed craftax package (--textures naming its
# craftax/assets folder), bit for bit those JAX returned along seeds
# 10-12's 1,000 random actions (tests/data/craftax/cx-pixels.txt.gz,
# recorded by tests/reference/craftax_full_pixels.py: the pixels env,
# whose worlds come from other keys than the symbolic env's); without
# those textures the toolkit's own, which differ.  Skipped, saying so,
# where no craftax package is installed (the project holds none of its
# files).
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-assets.sh"
step=$top/bin/crafter-step
golden=$top/tests/data/craftax/cx-pixels.txt.gz
plan 3
assets=${CRAFTAX_FULL_ASSETS:-}
[ -z "$assets" ] && assets=$(craftax_assets craftax/assets gnome_warrior.png)
if [ -z "$assets" ] || ! command -v python3 >/dev/null 2>&1; then
  skip "no installed craftax package or no python3: Craftax's pixels in crafter-step were NOT checked"
  skip "no installed craftax package or no python3"
  skip "no installed craftax package or no python3"
  finish
fi
check() {
  python3 - "$step" "$golden" "$assets" "$1" <<'PY'
import base64, gzip, json, struct, subprocess, sys, zlib
step, golden, assets, mode = sys.argv[1:5]
runs, kind = {}, None
for line in gzip.open(golden, 'rt'):
    if line.startswith('#'):
        kind = line.split()[1]
        continue
    s, n, a, c = line.split()
    if kind == 'random':
        runs.setdefault(int(s), []).append((int(n), int(a), c))
seeds = sorted(runs)
steps = min(len(runs[s]) for s in seeds) - 1
crc = lambda b: '%08x' % (zlib.crc32(b) & 0xffffffff)
bad = []
if mode in ('frames', 'builtin'):
    args = [step, '--game', 'craftax', '-b', '-O', 'pixels', '-N', str(len(seeds)), '-T', '2',
            '-s', str(seeds[0])]
    if mode == 'frames':
        args += ['--textures', assets]
    data = bytes(runs[s][n][1] for n in range(1, steps + 1) for s in seeds)
    out = subprocess.run(args, input=data, capture_output=True)
    if out.returncode:
        sys.exit(out.stderr.decode())
    b = out.stdout
    head = struct.unpack_from('<I', b, 12)[0]
    shape = struct.unpack_from('<III', b, 28)
    obs_bytes, frame = struct.unpack_from('<II', b, 40)
    at_obs = struct.unpack_from('<I', b, 76 + 4 * 11)[0]
    count = 0
    for n, at in enumerate(range(head, len(b), frame)):
        for i, s in enumerate(seeds):
            got = crc(b[at + at_obs + obs_bytes * i: at + at_obs + obs_bytes * (i + 1)])
            count += 1
            if (got == runs[s][n][2]) != (mode == 'frames'):
                bad.append((s, n))
    print('%d observations of shape %s, %d %s' % (count, 'x'.join(map(str, shape)), count - len(bad),
          'equal to JAX\'s' if mode == 'frames' else 'unlike JAX\'s'))
else:
    s = seeds[1]
    text = '\n'.join(str(a) for _, a, _ in runs[s][1:101]) + '\n'
    out = subprocess.run([step, '--game', 'craftax', '-O', 'pixels', '--textures', assets, '-s',
                          str(s), '-n', '0'], input=text, capture_output=True, text=True)
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    steps_ = [r for r in recs if 't' in r]
    for n, r in enumerate(steps_, 1):
        if crc(base64.b64decode(r['obs'])) != runs[s][n][2]:
            bad.append(n)
    print('%d JSON records, %d equal' % (len(steps_), len(steps_) - len(bad)))
for x in bad[:5]:
    print('differs:', x)
sys.exit(1 if bad or (mode == 'json' and not steps_) else 0)
PY
}
check frames >"$scratch/frames" 2>&1
ok $? "seeds 10-12 as three envs on two threads, with craftax's textures: $(head -n 1 "$scratch/frames")" || diag <"$scratch/frames"
check json >"$scratch/json" 2>&1
ok $? "JSON lines, seed 11's first 100 steps in base64: $(head -n 1 "$scratch/json")" || diag <"$scratch/json"
check builtin >"$scratch/builtin" 2>&1
ok $? "with the toolkit's own textures every observation differs: $(head -n 1 "$scratch/builtin")" || diag <"$scratch/builtin"
finish
