#!/usr/bin/env python3
"""Train Stable-Baselines3 PPO ("CnnPolicy") on Crafter's pixels.

What it does: builds NUM_ENVS Crafter environments (--envs) in one
crafter-step process through crafter_toolkit.sb3.VecEnv (the adapter),
wraps them in SB3's VecMonitor, and trains PPO("CnnPolicy") for --steps
timesteps.  Every finished episode is appended to LOGDIR/stats.jsonl,
Crafter's own log format, so that

    bin/crafter-score LOGDIR/stats.jsonl

prints the success rate of each achievement and the Crafter score.  With
--dummy the envs are instead SB3's usual make_vec_env() of the Gymnasium id
"crafter_toolkit/CrafterReward-v1" (one crafter-step per env, stepped in
turn by DummyVecEnv), with the same stats.jsonl, to compare the speed of
the two.  At the end it prints the steps per second of learn() (timesteps
done / wall time of learn()) and the path of stats.jsonl, and does nothing
else (no evaluation, no model saved).

The PPO hyperparameters below (n_steps 256 per env, batch 512, 3 epochs,
learning rate 3e-4, gamma 0.95, GAE lambda 0.65, clip 0.2, entropy 0.01)
are a starting point for Crafter, not a tuned result.

Run (from the source tree, without installing the package):

    PYTHONPATH=python CRAFTER_STEP=bin/crafter-step \\
        python examples/sb3_ppo.py --envs 16 --steps 1000000 --logdir logs/sb3-ppo
    bin/crafter-score logs/sb3-ppo/stats.jsonl

A short test: --steps 4096 --envs 8 --length 100 (episodes of 100 steps, so
that some end).  Crafter's episodes last 10000 steps (--length 10000, the
default) unless the player dies.

Needs: pip install 'crafter-toolkit[sb3]' (stable-baselines3, which brings
torch and gymnasium); crafter-step is found as the package finds it
(CRAFTER_STEP, the package, the source tree, PATH).

Options (see --help):
  --envs N           environments (default 16)
  --steps N          total timesteps of learn() (default 1000000)
  --seed S           seed of PPO and of the worlds: env i plays seed S + i
                     (default 0)
  --logdir DIR       folder for stats.jsonl (default logs/sb3-ppo); made if
                     missing; an existing stats.jsonl is appended to
  --length N         steps before an episode is cut (default 10000)
  --threads N        crafter-step's threads (default: one a core, at most
                     one an env); the adapter only
  --torch-threads N  torch's threads (default: torch's choice)
  --device DEV       torch device (default cpu)
  --dummy            SB3's make_vec_env + DummyVecEnv instead of the adapter
  --quiet            no SB3 progress tables
"""

import argparse
import os
import sys
import time

import numpy as np


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Stable-Baselines3 PPO(\"CnnPolicy\") on Crafter, logging stats.jsonl "
                    "for crafter-score.")
    parser.add_argument("--envs", type=int, default=16, help="environments (default 16)")
    parser.add_argument("--steps", type=int, default=1_000_000,
                        help="total timesteps of learn() (default 1000000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of PPO and the worlds; env i plays seed+i (default 0)")
    parser.add_argument("--logdir", default="logs/sb3-ppo",
                        help="folder that gets stats.jsonl (default logs/sb3-ppo)")
    parser.add_argument("--length", type=int, default=10000,
                        help="steps before an episode is cut (default 10000, Crafter's)")
    parser.add_argument("--threads", type=int, default=None,
                        help="crafter-step's threads (default: one a core); adapter only")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch's threads (default: torch's choice)")
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
    parser.add_argument("--dummy", action="store_true",
                        help="SB3's make_vec_env (DummyVecEnv) instead of the adapter")
    parser.add_argument("--quiet", action="store_true", help="no SB3 progress tables")
    args = parser.parse_args(argv)
    if args.envs < 1 or args.steps < 1 or args.length < 1:
        parser.error("--envs, --steps and --length must be positive")
    return args


def make_adapter_env(args):
    """The fast path: every env in one crafter-step, stats.jsonl written by
    the adapter itself."""
    from stable_baselines3.common.vec_env import VecMonitor
    from crafter_toolkit.sb3 import VecEnv

    env = VecEnv(args.envs, obs="pixels", seed=args.seed, length=args.length,
                 threads=args.threads, stats=args.logdir)
    return VecMonitor(env)


def make_dummy_env(args):
    """For comparison: SB3's make_vec_env over the Gymnasium id (one
    crafter-step per env, DummyVecEnv stepping them one after another),
    with a small wrapper that writes the same stats.jsonl."""
    import crafter_toolkit  # noqa: F401  (registers the Gymnasium ids)
    from crafter_toolkit import StatsWriter
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, VecEnvWrapper

    class StatsJsonl(VecEnvWrapper):
        """Crafter's stats.jsonl from a VecEnv whose envs return Crafter's
        info (an "achievements" array on the step that ends an episode)."""

        def __init__(self, venv, path):
            super().__init__(venv)
            self.writer = StatsWriter(path, venv.num_envs)

        def reset(self):
            obs = self.venv.reset()
            for i in range(self.num_envs):
                self.writer.start(i)
            return obs

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            for i in range(self.num_envs):
                self.writer.step(i, rewards[i])
                if dones[i]:
                    self.writer.episode_ended(i, infos[i]["achievements"])
            return obs, rewards, dones, infos

        def close(self):
            self.writer.close()
            self.venv.close()

    # make_vec_env puts a Monitor round each env (the episode statistics
    # VecMonitor gives the adapter).
    env = make_vec_env("crafter_toolkit/CrafterReward-v1", n_envs=args.envs, seed=args.seed,
                       env_kwargs={"length": args.length}, vec_env_cls=DummyVecEnv)
    return StatsJsonl(env, os.path.join(args.logdir, "stats.jsonl"))


def main(argv=None):
    args = parse_args(argv)
    import torch
    from stable_baselines3 import PPO

    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    os.makedirs(args.logdir, exist_ok=True)
    stats_path = os.path.join(args.logdir, "stats.jsonl")
    if os.path.exists(stats_path) and os.path.getsize(stats_path) > 0:
        print(f"note: {stats_path} exists; this run's episodes are appended to it "
              "(crafter-score will read both runs as one)", file=sys.stderr)

    env = make_dummy_env(args) if args.dummy else make_adapter_env(args)

    # A starting point for Crafter: 256 steps an env between updates, 3
    # epochs of minibatches of 512, a short horizon (gamma 0.95) as
    # Crafter's rewards come often, a little entropy to keep exploring.
    batch_size = 512
    rollout = 256 * args.envs
    if rollout % batch_size:
        batch_size = int(np.gcd(rollout, batch_size))  # no ragged minibatch
    model = PPO("CnnPolicy", env, n_steps=256, batch_size=batch_size, n_epochs=3,
                learning_rate=3e-4, gamma=0.95, gae_lambda=0.65, clip_range=0.2,
                ent_coef=0.01, vf_coef=0.5, max_grad_norm=0.5, seed=args.seed,
                device=args.device, verbose=0 if args.quiet else 1)

    kind = "make_vec_env + DummyVecEnv" if args.dummy else "crafter_toolkit.sb3.VecEnv"
    print(f"PPO CnnPolicy on {args.envs} envs ({kind}), {args.steps} timesteps, "
          f"episodes of at most {args.length} steps", flush=True)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start
    env.close()

    done = model.num_timesteps  # learn() finishes its last rollout: may pass --steps
    print(f"steps/s: {done / seconds:.0f} ({done} timesteps in {seconds:.1f} s of learn())")
    print(f"stats: {stats_path}")


if __name__ == "__main__":
    main()
