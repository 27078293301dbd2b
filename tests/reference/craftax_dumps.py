"""What craftax_worlds.py (Craftax-Classic) and craftax_full_worlds.py
(Craftax) share: the key their resets are given, a state's fields made
32-bit words, the text of a dump ('seed S', then one line a field:
'NAME n v0 v1 ...'), written, read, and asked of a C program's --dump,
and the time of resets."""

import subprocess
import time

import numpy as np
import jax


def reset_key(seed):
  """The key JAX's reset of seed S is given: key = PRNGKey(S); key, k =
  split(key); k (crafter_cc_reset_key in C)."""
  _, k = jax.random.split(jax.random.PRNGKey(seed))
  return k


def words_of(name, array):
  """The array flattened in row-major order, every element one 32-bit
  word: integers and booleans as their value, float32 numbers as their
  bits, the uint32 key as is."""
  if array.dtype == np.float32:
    return array.reshape(-1).view(np.uint32)
  if array.dtype in (np.bool_, np.int32, np.uint32):
    return array.reshape(-1).astype(np.uint32)
  raise SystemExit(f'{name}: unexpected dtype {array.dtype}')


def dump(seed, fields, out):
  """Writes seed's (name, words) fields to out."""
  out.write(f'seed {seed}\n')
  for name, words in fields:
    out.write(f'{name} {len(words)} ' + ' '.join(str(int(w)) for w in words) + '\n')


def parse_dump(text):
  """{seed: {name: [values]}} of a dump."""
  worlds, seed = {}, None
  for line in text.splitlines():
    parts = line.split()
    if not parts:
      continue
    if parts[0] == 'seed':
      seed = int(parts[1])
      worlds[seed] = {}
    else:
      worlds[seed][parts[0]] = [int(v) for v in parts[2:]]
  return worlds


def program_dump(program, seeds):
  """parse_dump of `program --dump SEED...`, or None, said, where it
  fails."""
  run = subprocess.run([program, '--dump'] + [str(s) for s in seeds],
                       capture_output=True, text=True)
  if run.returncode != 0:
    print(f'{program} --dump failed: {run.stderr.strip()}')
    return None
  return parse_dump(run.stdout)


def reset_seconds(reset, keys):
  """The seconds the jitted reset takes for keys, one call each, once
  compiled (by a call before the clock starts)."""
  jax.block_until_ready(reset(keys[0]))
  started = time.perf_counter()
  for k in keys:
    jax.block_until_ready(reset(k))
  return time.perf_counter() - started
