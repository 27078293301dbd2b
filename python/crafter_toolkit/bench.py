"""Steps per second through the Python client.

    python -m crafter_toolkit.bench --envs 64 --threads 2 --obs pixels \\
        --transport shm --seconds 5 --format json

Random actions (drawn before timing) and every frame read; arrays view
crafter-step's frames (copy=False) unless --copy, and --threads defaults
to VectorEnv's (as many as the process may use cores).  --api env measures one
crafter_toolkit.Env instead, the drop-in for crafter.Env (a copied
observation and the info dicts every step).  --api state measures
Env.save_state() and Env.load_state() round trips of one Env (with
--players P > 1, a ParallelEnv), after 300 random steps: save_us and
restore_us, microseconds each, and state_bytes.  Prints one JSON object
(or a line of text) with sps, the environment steps per second, or the
state figures.
"""

import argparse
import json
import sys
import time

import numpy as np

from . import _kinds
from .vector import VectorEnv


def measure(envs, threads, obs, transport, seconds, seed=0, copy=False):
    vector = VectorEnv(envs, obs=obs, threads=threads, transport=transport, seed=seed,
                       copy=copy)
    threads = vector.threads
    try:
        vector.reset()
        used = vector._stream.transport
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
            "obs": obs, "transport": used, "copy": copy, "steps": steps,
            "seconds": round(elapsed, 3)}


def measure_env(obs, transport, seconds, seed=0):
    """One crafter_toolkit.Env, the drop-in for crafter.Env, with its info
    dicts built every step."""
    from .env import Env
    env = Env(seed=seed, obs=obs, transport=transport)
    try:
        env.reset()
        transport = env._stream.transport
        actions = np.random.RandomState(seed).randint(0, 17, 4096).tolist()
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for action in actions[:256]:
                if env.step(action)[2]:
                    env.reset()
            steps += 256
            now = time.perf_counter()
            if now >= deadline:
                break
            actions = actions[256:] + actions[:256]
        elapsed = now - start
    finally:
        env.close()
    return {"sps": round(steps / elapsed, 1), "envs": 1, "threads": 1, "obs": obs,
            "transport": transport, "api": "env", "steps": steps,
            "seconds": round(elapsed, 3)}


def measure_state(obs, transport, seconds, players=1, seed=0):
    """Env.save_state() and Env.load_state(), each timed over round trips
    of one Env (ParallelEnv with several players) for `seconds` in all."""
    if players > 1:
        from .parallel import ParallelEnv
        env = ParallelEnv(players=players, seed=seed, obs=obs, transport=transport)
    else:
        from .env import Env
        env = Env(seed=seed, obs=obs, transport=transport)
    try:
        env.reset()
        transport = env._stream.transport
        actions = np.random.RandomState(seed).randint(0, 17, (300, players))
        for row in actions:
            if players > 1:
                env.step({agent: int(a) for agent, a in zip(env.agents, row)})
                if not env.agents:
                    env.reset()
            elif env.step(int(row[0]))[2]:
                env.reset()
        state = env.save_state()
        rounds, saving, loading = 0, 0.0, 0.0
        while saving + loading < seconds:
            start = time.perf_counter()
            for _ in range(64):
                env.save_state()
            middle = time.perf_counter()
            for _ in range(64):
                env.load_state(state)
            saving += middle - start
            loading += time.perf_counter() - middle
            rounds += 64
    finally:
        env.close()
    return {"save_us": round(saving / rounds * 1e6, 2), "restore_us": round(loading / rounds * 1e6, 2),
            "state_bytes": len(state), "rounds": rounds, "envs": 1, "players": players, "obs": obs,
            "transport": transport, "api": "state"}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m crafter_toolkit.bench",
                                     description="Steps per second through the Python client.")
    parser.add_argument("--envs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None,
                        help="crafter-step's threads (default: VectorEnv's, one a core)")
    parser.add_argument("--copy", action="store_true",
                        help="copy observations and infos, as VectorEnv does by default")
    parser.add_argument("--obs", default="pixels", choices=list(_kinds.NAMES))
    parser.add_argument("--transport", default="auto", choices=["auto", "pipe", "shm"])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--format", default="text", choices=["text", "json"])
    parser.add_argument("--api", default="vector", choices=["vector", "env", "state"],
                        help="VectorEnv (default), or one crafter_toolkit.Env, the drop-in "
                        "for crafter.Env (--envs and --threads do not apply), or state: "
                        "the Env's save_state and load_state")
    parser.add_argument("--players", type=int, default=1,
                        help="with --api state: players a world (a ParallelEnv when above 1)")
    args = parser.parse_args(argv)
    if args.envs < 1 or (args.threads is not None and args.threads < 1) or args.seconds <= 0:
        parser.error("--envs and --threads must be at least 1, --seconds above 0")
    if args.api == "state":
        result = measure_state(args.obs, args.transport, args.seconds, args.players)
        if args.format == "json":
            print(json.dumps(result))
        else:
            print("state, %(players)d player(s), %(obs)s over %(transport)s: save %(save_us).1f us, "
                  "load %(restore_us).1f us, %(state_bytes)d bytes" % result)
        return 0
    if args.api == "env":
        result = measure_env(args.obs, args.transport, args.seconds)
    else:
        result = measure(args.envs, args.threads, args.obs, args.transport, args.seconds,
                         copy=args.copy)
        result["api"] = "vector"
    if args.format == "json":
        print(json.dumps(result))
    else:
        print("%(api)s, %(envs)d envs, %(threads)d threads, %(obs)s over %(transport)s%(copied)s: "
              "%(sps).0f steps/s" % dict(result, copied=", copied" if result.get("copy") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
