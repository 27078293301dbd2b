"""Steps per second through the Python client.

    python -m crafter_toolkit.bench --envs 64 --threads 2 --obs pixels \\
        --transport shm --seconds 5 --format json

Random actions (drawn before timing), arrays viewing crafter-step's frames
(no copies), and every frame read.  Prints one JSON object (or a line of
text) with sps, the environment steps per second.
"""

import argparse
import json
import sys
import time

import numpy as np

from .vector import VectorEnv


def measure(envs, threads, obs, transport, seconds, seed=0):
    vector = VectorEnv(envs, obs=obs, threads=threads, transport=transport, seed=seed,
                       copy=False)
    try:
        vector.reset()
        actions = np.random.RandomState(seed).randint(0, 17, (1024, envs))
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for row in actions[:64]:
                vector.step(row)
            steps += 64
            now = time.perf_counter()
            if now >= deadline:
                break
            actions = np.roll(actions, 64, axis=0)
        elapsed = now - start
    finally:
        vector.close()
    return {"sps": round(steps * envs / elapsed, 1), "envs": envs, "threads": threads,
            "obs": obs, "transport": transport, "steps": steps, "seconds": round(elapsed, 3)}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m crafter_toolkit.bench",
                                     description="Steps per second through the Python client.")
    parser.add_argument("--envs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--obs", default="pixels",
                        choices=["none", "pixels", "semantic", "symbolic"])
    parser.add_argument("--transport", default="pipe", choices=["pipe", "shm"])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--format", default="text", choices=["text", "json"])
    args = parser.parse_args(argv)
    if args.envs < 1 or args.threads < 1 or args.seconds <= 0:
        parser.error("--envs and --threads must be at least 1, --seconds above 0")
    result = measure(args.envs, args.threads, args.obs, args.transport, args.seconds)
    if args.format == "json":
        print(json.dumps(result))
    else:
        print("%(envs)d envs, %(threads)d threads, %(obs)s over %(transport)s: "
              "%(sps).0f steps/s" % result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
