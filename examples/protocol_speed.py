"""How many env steps per second pass through crafter-step's binary protocol
with a client that reads every frame: random actions, auto-reset.

    python3 examples/protocol_speed.py [--envs N] [--threads T] [--obs KIND] [--seconds S]
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crafter_client import CrafterEnv  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--obs", default="pixels")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with CrafterEnv(envs=args.envs, obs=args.obs, seed=args.seed, threads=args.threads) as env:
        env.reset()
        steps, frames = 0, 0
        start = time.monotonic()
        while time.monotonic() - start < args.seconds:
            env.step([rng.randrange(17) for _ in range(args.envs)])
            steps += args.envs
            frames += 1
        elapsed = time.monotonic() - start
    print("envs %d threads %d obs %s: %.0f env steps/s (%d frames in %.1f s)"
          % (args.envs, args.threads, args.obs, steps / elapsed, frames, elapsed))


if __name__ == "__main__":
    main()
