#!/bin/sh
# crafter-step --game craftax (the full game) against episodes JAX played:
# tests/data/craftax/cx-episodes.txt.gz holds seeds 10-17's 1,000 random
# actions of all 43 each as the pinned reference stepped them (one env per
# jit(env.step), auto-reset, Craftax's seed schedule; 28 episodes end and
# the next begins), recorded by tests/reference/craftax_full_steps.py
# --record random and --episode-lines: every step's reward (float32 bits)
# and done, and the CRC-32 of all the state's words.  crafter-step plays
# the same actions from the same seeds, one env a seed and all eight
# together on two threads, answers save requests every 50 steps and after
# every end, and must give every step's reward and done and each saved
# state's words.  A save/load round trip lands on the same states.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
golden=$top/tests/data/craftax/cx-episodes.txt.gz
plan 4

if ! command -v python3 >/dev/null 2>&1; then
  skip "python3 is not installed: Craftax's episodes were NOT compared with JAX's"
  skip "python3 is not installed"
  skip "python3 is not installed"
  skip "python3 is not installed"
  finish
fi

# compare MODE: plays the golden actions through crafter-step and
# compares; MODE one (an env a seed), all (-N 8 -T 2) or reload (every
# saved state loaded back at once).
compare() {
  python3 - "$step" "$golden" "$1" <<'EOF'
import base64, gzip, json, struct, subprocess, sys, zlib
step, golden, mode = sys.argv[1:4]
rows = {}
for line in gzip.open(golden, 'rt'):
    if line.startswith('#'):
        continue
    s, n, a, r, d, c = line.split()
    rows.setdefault(int(s), []).append((int(n), int(a), int(r, 16), int(d), c))
seeds = sorted(rows)
steps = len(rows[seeds[0]]) - 1

def words_crc(state):
    data = base64.b64decode(state)
    return '%08x' % (zlib.crc32(data[56:-4]) & 0xffffffff)

def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

def play(seed_list, threads):
    envs = len(seed_list)
    lines, saves = [], []
    for n in range(1, steps + 1):
        lines.append(' '.join(str(rows[s][n][1]) for s in seed_list))
        for i, s in enumerate(seed_list):
            if n % 50 == 0 or rows[s][n][3] or (n > 1 and rows[s][n - 1][3]):
                lines.append('save %d' % i)
                saves.append((i, n))
    args = [step, '--game', 'craftax', '-s', str(seed_list[0]), '-n', '0']
    if envs > 1:
        args += ['-N', str(envs), '-T', str(threads)]
    out = subprocess.run(args, input='\n'.join(lines) + '\n', capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('crafter-step failed: ' + out.stderr)
    records = [json.loads(l) for l in out.stdout.splitlines()]
    results, states = {}, []
    n = {i: 0 for i in range(envs)}
    for rec in records:
        i = rec.get('env', 0)
        if 'state' in rec:
            states.append((i, rec['state']))
        elif 't' in rec and 'loaded' not in rec:
            n[i] += 1
            results[(i, n[i])] = rec
    return results, saves, states

problems = []
if mode in ('one', 'all'):
    runs = [[s] for s in seeds] if mode == 'one' else [seeds]
    checked = saved = 0
    for seed_list in runs:
        results, saves, states = play(seed_list, 2)
        for i, s in enumerate(seed_list):
            for n in range(1, steps + 1):
                rec = results.get((i, n))
                want = rows[s][n]
                if rec is None:
                    problems.append('seed %d step %d: no record' % (s, n))
                    break
                if bits(rec['reward']) != want[2] or int(rec['done']) != want[3]:
                    problems.append('seed %d step %d: reward %r done %r, JAX %08x %d' %
                                    (s, n, rec['reward'], rec['done'], want[2], want[3]))
                    break
                checked += 1
        for (i, n), (j, state) in zip(saves, states):
            s = seed_list[i]
            if words_crc(state) != rows[s][n][4]:
                problems.append('seed %d step %d: the saved state differs from JAX\'s' % (s, n))
            saved += 1
        if len(states) != len(saves):
            problems.append('%d saves asked, %d answered' % (len(saves), len(states)))
    print('%d steps and %d saved states compared' % (checked, saved))
else:
    # Each state saved along seed 10's episode, loaded back and saved again.
    s = seeds[0]
    results, saves, states = play([s], 1)
    lines = []
    for _, state in states:
        lines += ['load 0 ' + state, 'save 0']
    out = subprocess.run([step, '--game', 'craftax', '-n', '0'], input='\n'.join(lines) + '\n',
                         capture_output=True, text=True)
    again = [json.loads(l)['state'] for l in out.stdout.splitlines() if '"state"' in l]
    if out.returncode != 0 or len(again) != len(states):
        problems.append('the loads were not all answered: ' + out.stderr)
    for (_, a), b in zip(states, again):
        if a != b:
            problems.append('a state loaded and saved again differs')
            break
    print('%d states loaded and saved again' % len(again))
for p in problems[:5]:
    print(p)
sys.exit(1 if problems else 0)
EOF
}

compare one >"$scratch/one" 2>&1
ok $? "seeds 10-17 one env each: every step's reward and done and every saved state are JAX's ($(head -n 1 "$scratch/one"))" || diag <"$scratch/one"
compare all >"$scratch/all" 2>&1
ok $? "the eight seeds as eight envs on two threads: the same ($(head -n 1 "$scratch/all"))" || diag <"$scratch/all"
compare reload >"$scratch/reload" 2>&1
ok $? "saved states load back to the same state ($(head -n 1 "$scratch/reload"))" || diag <"$scratch/reload"

# A step played from a loaded state is the step the saved env played.
{ printf '5\n5\nsave 0\n'; } | "$step" --game craftax -s 10 -n 0 | tail -n 1 >"$scratch/saved"
state=$(sed 's/.*"state": "\([^"]*\)".*/\1/' "$scratch/saved")
printf '3\n1\n' | "$step" --game craftax -s 10 -n 0 --info state | tail -n 2 >"$scratch/on"
{ echo "load 0 $state"; printf '3\n1\n'; } | "$step" --game craftax -s 99 -n 0 --info state |
  tail -n 2 >"$scratch/loaded"
{ printf '5\n5\n3\n1\n'; } | "$step" --game craftax -s 10 -n 0 --info state | tail -n 2 >"$scratch/straight"
cmp -s "$scratch/loaded" "$scratch/straight"
ok $? "steps after a load are those of the env that saved the state"
finish
