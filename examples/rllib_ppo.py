#!/usr/bin/env python3
"""Train RLlib's PPO (its current API stack) on Crafter over a Ray cluster.

What it does: joins the Ray cluster at --address, registers Crafter for
RLlib (crafter_toolkit.ray.register_rllib_env) and builds PPO with one
EnvRunner per CPU of the cluster (each asks for one CPU, so Ray spreads
them over the nodes), each stepping one crafter_toolkit VectorEnv of
--envs-per-runner envs (one crafter-step; RLlib's "vector_entry_point"
mode).  The learner runs in this process.  Pixels are scaled to [0, 1]
floats by an env-to-module connector before RLlib's default CNN; symbolic
observations go to its MLP as they are.  After each of --iterations
training iterations it prints a JSON line and appends the episodes that
ended on every runner (wherever it runs: they come back through Ray) to
LOGDIR/stats.jsonl, Crafter's own log format, so that

    bin/crafter-score LOGDIR/stats.jsonl

prints the success rate of each achievement and the Crafter score.  The
last line it prints is a summary: iterations, env_runners, env_steps,
seconds and env_steps_per_second (environment steps sampled per second
of training, the learner's updates included).

The hyperparameters (train batch 4000 steps, minibatch 500, 3 epochs,
learning rate 3e-4, gamma 0.95, GAE lambda 0.65, entropy 0.01) are a
starting point, not a tuned result.

Run, on a cluster (README: "Past one machine"), or --address local for a
Ray of this machine alone:

    python examples/rllib_ppo.py --address HOST:6379 --iterations 100 \\
        --logdir logs/rllib-ppo
    bin/crafter-score logs/rllib-ppo/stats.jsonl

A short test: --iterations 1 --length 100 --train-batch 400 --obs symbolic.

Needs: pip install 'ray[rllib]' torch crafter-toolkit on every node.
"""

import argparse
import json
import os
import sys
import time


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="RLlib PPO (new API stack) on Crafter over a Ray cluster; writes "
                    "LOGDIR/stats.jsonl for crafter-score.")
    parser.add_argument("--address", required=True,
                        help="the Ray cluster (HOST:PORT, 'auto', or 'local' for this machine)")
    parser.add_argument("--iterations", type=int, default=10, help="training iterations (10)")
    parser.add_argument("--obs", default="pixels", choices=["pixels", "semantic", "symbolic"],
                        help="observations (default pixels)")
    parser.add_argument("--length", type=int, default=10000,
                        help="steps before an episode is cut (default 10000, Crafter's)")
    parser.add_argument("--envs-per-runner", type=int, default=8,
                        help="envs of each EnvRunner's VectorEnv (default 8)")
    parser.add_argument("--env-runners", type=int,
                        help="EnvRunners (default: one per CPU of the cluster)")
    parser.add_argument("--train-batch", type=int, default=4000,
                        help="environment steps per iteration (default 4000)")
    parser.add_argument("--logdir", default="logs/rllib-ppo",
                        help="folder for stats.jsonl (default logs/rllib-ppo), made if missing")
    return parser.parse_args(argv)


def float_pixels():
    """An env-to-module connector: uint8 pixels as float32 in [0, 1]."""
    import gymnasium as gym
    import numpy as np
    from ray.rllib.connectors.env_to_module.observation_preprocessor import (
        SingleAgentObservationPreprocessor)

    class FloatPixels(SingleAgentObservationPreprocessor):
        def recompute_output_observation_space(self, input_observation_space,
                                               input_action_space):
            return gym.spaces.Box(0.0, 1.0, input_observation_space.shape, np.float32)

        def preprocess(self, observation, episode):
            return np.asarray(observation, np.float32) / 255.0

    return FloatPixels()


def runner_stats(runner):
    env = getattr(runner, "env", None)
    take = getattr(getattr(env, "unwrapped", None), "take_stats", None)
    return take() if take else ""


def main(argv=None):
    args = parse_args(argv)
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig

    from crafter_toolkit.ray import register_rllib_env

    ray.init(address=args.address, log_to_driver=False)
    try:
        runners = args.env_runners or max(1, int(ray.cluster_resources().get("CPU", 1)))
        register_rllib_env("crafter", obs=args.obs, length=args.length)
        batch = max(args.train_batch, runners * args.envs_per_runner)
        config = (
            PPOConfig()
            .environment("crafter")
            .env_runners(num_env_runners=runners, num_cpus_per_env_runner=1,
                         num_envs_per_env_runner=args.envs_per_runner,
                         gym_env_vectorize_mode="vector_entry_point",
                         env_to_module_connector=(lambda env, spaces, device: float_pixels())
                         if args.obs == "pixels" else None)
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=batch,
                      minibatch_size=min(500, batch), num_epochs=3, lr=3e-4, gamma=0.95,
                      lambda_=0.65, entropy_coeff=0.01)
        )
        algo = config.build_algo()
        os.makedirs(args.logdir, exist_ok=True)
        stats_path = os.path.join(args.logdir, "stats.jsonl")
        steps, start = 0, time.perf_counter()
        try:
            for iteration in range(1, args.iterations + 1):
                result = algo.train()
                sampled = int(result["env_runners"]["num_env_steps_sampled"])
                steps += sampled
                lines = algo.env_runner_group.foreach_env_runner(runner_stats)
                with open(stats_path, "a") as stats:
                    stats.write("".join(lines))
                ret = result["env_runners"].get("episode_return_mean")
                print(json.dumps({"iteration": iteration, "env_steps": sampled,
                                  "episode_return_mean": None if ret is None or ret != ret
                                  else round(float(ret), 3),
                                  "seconds": round(time.perf_counter() - start, 2)}),
                      flush=True)
            seconds = time.perf_counter() - start
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    print(json.dumps({"iterations": args.iterations, "env_runners": runners,
                      "env_steps": steps, "seconds": round(seconds, 2),
                      "env_steps_per_second": round(steps / seconds, 1),
                      "stats": stats_path}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
