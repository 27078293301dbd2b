"""How fast the pinned JAX reference plays Craftax-Classic, or with --game
craftax the full game (Craftax-Symbolic-v1), on this CPU, for
crafter-bench's figures to be compared with (crafter-games(7)):

    craftax_speed.py [--game craftax-classic|craftax] [--envs N] [--steps T]

The step of the auto-reset env with the symbolic observation, random
actions, vmapped over N envs and scanned over T steps in one jitted call
(jit(scan(vmap))), timed after a first call that compiles it; then one
env a jitted call, as the toolkit's exactness is defined.  Prints one JSON
object: steps per second of each, and the compile time.
"""

import argparse
import json
import os
import sys
import time

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

GAME = sys.argv[sys.argv.index('--game') + 1] if '--game' in sys.argv else 'craftax-classic'
if GAME == 'craftax':
  import craftax_full_worlds as worlds  # noqa: E402
else:
  import craftax_worlds as worlds  # noqa: E402  (imports craftax with its stand-ins)
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

ENV = worlds.ENV
ACTIONS = 43 if GAME == 'craftax' else 17


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument('--game', default='craftax-classic', choices=['craftax-classic', 'craftax'])
  parser.add_argument('--envs', type=int, default=64)
  parser.add_argument('--steps', type=int, default=200)
  args = parser.parse_args()
  params = ENV.default_params

  def one(carry, _):
    key, states = carry
    key, k_act, k_step = jax.random.split(key, 3)
    actions = jax.random.randint(k_act, (args.envs,), 0, ACTIONS)
    keys = jax.random.split(k_step, args.envs)
    obs, states, reward, done, _ = jax.vmap(ENV.step, in_axes=(0, 0, 0, None))(
        keys, states, actions, params)
    return (key, states), reward.sum()

  @jax.jit
  def run(key, states):
    return jax.lax.scan(one, (key, states), None, length=args.steps)

  keys = jax.random.split(jax.random.PRNGKey(0), args.envs)
  _, states = jax.vmap(ENV.reset, in_axes=(0, None))(keys, params)
  start = time.perf_counter()
  out = run(jax.random.PRNGKey(1), states)
  jax.block_until_ready(out)
  compile_seconds = time.perf_counter() - start
  # The states a step returns may be typed otherwise than a reset's (weak
  # types), which compiles the call again: once more untimed.
  out = run(jax.random.PRNGKey(2), out[0][1])
  jax.block_until_ready(out)
  start = time.perf_counter()
  out = run(jax.random.PRNGKey(3), out[0][1])
  jax.block_until_ready(out)
  batched = args.envs * args.steps / (time.perf_counter() - start)

  step = jax.jit(ENV.step)
  key = jax.random.PRNGKey(3)
  _, state = ENV.reset(key, params)
  for t in range(2):  # compiled for the reset's state, then for a step's
    obs, state, reward, done, info = step(key, state, 0)
  jax.block_until_ready(reward)
  start = time.perf_counter()
  count = 300
  for t in range(count):
    key, k = jax.random.split(key)
    obs, state, reward, done, info = step(k, state, t % ACTIONS)
  jax.block_until_ready(reward)
  single = count / (time.perf_counter() - start)
  print(json.dumps({'game': GAME, 'jax': jax.__version__, 'envs': args.envs, 'steps': args.steps,
                    'batched_sps': round(batched, 1), 'compile_s': round(compile_seconds, 1),
                    'single_env_sps': round(single, 1)}))


if __name__ == '__main__':
  main()
