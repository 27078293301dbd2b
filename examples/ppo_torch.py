#!/usr/bin/env python3
"""PPO in plain PyTorch on Crafter's pixels, in one file.

What it does: runs --envs Crafter environments in one crafter-step through
crafter_toolkit.VectorEnv and trains a small convolutional actor-critic
(Nature-CNN-like: three convolutions and a 512-unit layer over the 64x64x3
uint8 observation scaled to [0, 1], a policy head over the 17 actions and a
value head) with PPO: rollouts of --rollout steps an env, GAE advantages,
the clipped surrogate objective, a value loss, an entropy bonus, Adam over
shuffled minibatches, gradient clipping.  Every finished episode goes to
LOGDIR/stats.jsonl (VectorEnv's stats=), so that

    bin/crafter-score LOGDIR/stats.jsonl

prints the success rates and the Crafter score.  It prints, every
--log-every updates, the steps per second and the mean return and length of
the episodes finished since the last print, and at the end the steps per
second of the whole run.

Autoreset: VectorEnv follows Gymnasium's next-step autoreset.  The step
that ends an episode returns its final observation; the next step of that
env is a reset step: it ignores the action, returns reward 0 and the next
episode's first observation.  That step is no transition of the game, so
it is masked out here: it gets no advantage, no return, and no place in the
loss, and the GAE recursion never crosses it.  Because the final
observation is returned as an ordinary observation, an episode cut by the
time limit (truncated) is bootstrapped from the value of its real final
observation, while one ended by death (terminated) is not.  Steps per
second count every env step, the reset steps included.

Observations: with --no-copy (the default) VectorEnv hands out arrays that
view crafter-step's frame buffers, valid only until a buffer comes round
again; this script copies each observation into its rollout storage at
once, which is safe.  --copy makes VectorEnv copy them first (slower).

Run (from the source tree, without installing the package):

    PYTHONPATH=python CRAFTER_STEP=bin/crafter-step \\
        python examples/ppo_torch.py --envs 16 --steps 1000000 --logdir logs/ppo-torch
    bin/crafter-score logs/ppo-torch/stats.jsonl

A short test: --steps 4096 --envs 8 --length 100 (episodes of 100 steps, so
that some end; Crafter's own length is 10000, the default).

Needs: torch and numpy, and the package with Gymnasium
(pip install 'crafter-toolkit[gymnasium]' torch); crafter-step is found as
the package finds it (CRAFTER_STEP, the package, the source tree, PATH).

Options (see --help): --envs (16), --steps (total env steps, 1000000),
--rollout (steps an env between updates, 128), --seed (0; env i plays
seed S + i), --logdir (logs/ppo-torch), --length (10000), --threads
(crafter-step's threads), --torch-threads, --copy/--no-copy, --epochs (4),
--minibatches (4), --lr (3e-4), --gamma (0.95), --gae-lambda (0.65),
--clip (0.2), --ent-coef (0.01), --vf-coef (0.5), --max-grad-norm (0.5),
--log-every (updates between prints, 5), --save (a file for the trained
network's state_dict).  The defaults are a starting point for Crafter,
not a tuned result.
"""

import argparse
import collections
import os
import sys
import time

import numpy as np
import torch
from torch import nn


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="PPO in plain PyTorch on crafter_toolkit.VectorEnv, "
                                            "logging stats.jsonl for crafter-score.")
    p.add_argument("--envs", type=int, default=16, help="environments (default 16)")
    p.add_argument("--steps", type=int, default=1_000_000,
                   help="total env steps, reset steps included (default 1000000); rounded "
                        "up to whole rollouts")
    p.add_argument("--rollout", type=int, default=128,
                   help="steps of each env between updates (default 128)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of torch and the worlds; env i plays seed+i (default 0)")
    p.add_argument("--logdir", default="logs/ppo-torch",
                   help="folder that gets stats.jsonl (default logs/ppo-torch)")
    p.add_argument("--length", type=int, default=10000,
                   help="steps before an episode is cut (default 10000, Crafter's)")
    p.add_argument("--threads", type=int, default=None,
                   help="crafter-step's threads (default: one a core)")
    p.add_argument("--torch-threads", type=int, default=None,
                   help="torch's threads (default: torch's choice)")
    p.add_argument("--copy", action=argparse.BooleanOptionalAction, default=False,
                   help="let VectorEnv copy observations (default --no-copy: views of "
                        "crafter-step's buffers, copied into the rollout here)")
    p.add_argument("--device", default="cpu", help="torch device (default cpu)")
    p.add_argument("--epochs", type=int, default=4, help="passes over a rollout (default 4)")
    p.add_argument("--minibatches", type=int, default=4,
                   help="minibatches a pass (default 4)")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate (default 3e-4)")
    p.add_argument("--gamma", type=float, default=0.95, help="discount (default 0.95)")
    p.add_argument("--gae-lambda", type=float, default=0.65, help="GAE lambda (default 0.65)")
    p.add_argument("--clip", type=float, default=0.2, help="PPO clip range (default 0.2)")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    p.add_argument("--vf-coef", type=float, default=0.5, help="value loss weight (default 0.5)")
    p.add_argument("--max-grad-norm", type=float, default=0.5,
                   help="gradient norm clip (default 0.5)")
    p.add_argument("--log-every", type=int, default=5, help="updates between prints (default 5)")
    p.add_argument("--save", default=None, help="save the network's state_dict to this file")
    args = p.parse_args(argv)
    for name in ("envs", "steps", "rollout", "length", "epochs", "minibatches", "log_every"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be positive")
    return args


class ActorCritic(nn.Module):
    """Convolutions 32x8/4, 64x4/2, 64x3/1 and a 512-unit layer, shared by
    a policy head (17 logits) and a value head."""

    def __init__(self, height, width, actions):
        super().__init__()
        self.body = nn.Sequential(
            self._init(nn.Conv2d(3, 32, 8, stride=4)), nn.ReLU(),
            self._init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            self._init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten())
        with torch.no_grad():
            features = self.body(torch.zeros(1, 3, height, width)).shape[1]
        self.hidden = nn.Sequential(self._init(nn.Linear(features, 512)), nn.ReLU())
        self.policy = self._init(nn.Linear(512, actions), gain=0.01)
        self.value = self._init(nn.Linear(512, 1), gain=1.0)

    @staticmethod
    def _init(layer, gain=np.sqrt(2)):
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)
        return layer

    def forward(self, obs):
        """obs: uint8 (B, H, W, 3) -> (logits (B, A), values (B,))."""
        x = obs.permute(0, 3, 1, 2).float().div_(255.0)
        h = self.hidden(self.body(x))
        return self.policy(h), self.value(h).squeeze(-1)


def advantages(rewards, values, last_values, terminated, ended, valid, gamma, lam):
    """GAE over a rollout of T steps of N envs (arrays (T, N)).

    values[t] is V(obs_t), last_values V(obs_T).  terminated[t]: step t
    ended its episode by death (no bootstrap); ended[t]: it ended it at
    all (the recursion stops there); valid[t] is False for the reset steps
    of next-step autoreset, which get advantage 0 and pass nothing back.
    A truncated step bootstraps from V(obs_{t+1}), its real final
    observation."""
    steps = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    running = torch.zeros_like(last_values)
    for t in reversed(range(steps)):
        next_values = last_values if t == steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_values * (1.0 - terminated[t]) - values[t]
        running = delta + gamma * lam * (1.0 - ended[t]) * running
        running = running * valid[t]
        adv[t] = running
    return adv


def main(argv=None):
    args = parse_args(argv)
    import crafter_toolkit

    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    os.makedirs(args.logdir, exist_ok=True)
    stats_path = os.path.join(args.logdir, "stats.jsonl")
    if os.path.exists(stats_path) and os.path.getsize(stats_path) > 0:
        print(f"note: {stats_path} exists; this run's episodes are appended to it "
              "(crafter-score will read both runs as one)", file=sys.stderr)

    envs = crafter_toolkit.VectorEnv(args.envs, obs="pixels", seed=args.seed,
                                     length=args.length, threads=args.threads,
                                     copy=args.copy, stats=args.logdir)
    n, steps = args.envs, args.rollout
    height, width, _ = envs.single_observation_space.shape
    actions_count = envs.single_action_space.n
    net = ActorCritic(height, width, actions_count).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)

    # The rollout, kept on the CPU: observations as uint8 (a numpy view
    # of the same memory lets a frame be copied in without a torch wrapper
    # round crafter-step's read-only buffer).
    obs_buf = torch.zeros((steps, n, height, width, 3), dtype=torch.uint8)
    obs_np = obs_buf.numpy()
    act_buf = torch.zeros((steps, n), dtype=torch.long)
    logp_buf = torch.zeros((steps, n))
    val_buf = torch.zeros((steps, n))
    rew_buf = torch.zeros((steps, n))
    term_buf = torch.zeros((steps, n))
    end_buf = torch.zeros((steps, n))
    valid_buf = torch.zeros((steps, n))

    obs, _ = envs.reset()
    resetting = np.zeros(n, dtype=bool)  # the env's next step is a reset step
    episode_return = np.zeros(n)
    episode_length = np.zeros(n, dtype=np.int64)
    finished = collections.deque()  # (return, length) since the last print

    updates = -(-args.steps // (steps * n))
    batch = steps * n
    print(f"PPO on {n} envs (crafter_toolkit.VectorEnv, copy={args.copy}), {updates} updates "
          f"of {steps} steps an env, episodes of at most {args.length} steps", flush=True)
    start = last_time = time.perf_counter()
    last_steps = done_steps = 0
    for update in range(1, updates + 1):
        # -- collect ---------------------------------------------------
        net.eval()
        for t in range(steps):
            obs_np[t] = obs  # copy now: with copy=False obs is a view
            with torch.no_grad():
                logits, value = net(obs_buf[t].to(device))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            act_buf[t] = action.cpu()
            logp_buf[t] = dist.log_prob(action).cpu()
            val_buf[t] = value.cpu()
            valid_buf[t] = torch.from_numpy(~resetting)

            obs, reward, terminated, truncated, _ = envs.step(act_buf[t].numpy())
            ended = (terminated | truncated) & ~resetting
            rew_buf[t] = torch.from_numpy(np.asarray(reward, dtype=np.float32))
            term_buf[t] = torch.from_numpy((terminated & ~resetting).astype(np.float32))
            end_buf[t] = torch.from_numpy(ended.astype(np.float32))

            real = ~resetting
            episode_return[real] += reward[real]
            episode_length[real] += 1
            for i in np.flatnonzero(ended):
                finished.append((episode_return[i], episode_length[i]))
                episode_return[i] = 0.0
                episode_length[i] = 0
            resetting = ended
        done_steps += batch

        with torch.no_grad():
            _, last_values = net(torch.from_numpy(np.array(obs)).to(device))
        adv = advantages(rew_buf, val_buf, last_values.cpu(), term_buf, end_buf, valid_buf,
                         args.gamma, args.gae_lambda)
        returns = adv + val_buf

        # -- learn: only the real transitions --------------------------
        net.train()
        keep = valid_buf.reshape(-1).bool()
        b_obs = obs_buf.reshape(batch, height, width, 3)[keep]
        b_act = act_buf.reshape(-1)[keep]
        b_logp = logp_buf.reshape(-1)[keep]
        b_adv = adv.reshape(-1)[keep]
        b_ret = returns.reshape(-1)[keep]
        count = b_act.shape[0]
        size = max(1, count // args.minibatches)
        policy_loss = value_loss = entropy = torch.tensor(float("nan"))
        for _ in range(args.epochs if count else 0):
            order = torch.randperm(count)
            for begin in range(0, count - size + 1, size):
                idx = order[begin:begin + size]
                logits, value = net(b_obs[idx].to(device))
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[idx].to(device))
                ratio = torch.exp(logp - b_logp[idx].to(device))
                a = b_adv[idx].to(device)
                a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = -torch.min(ratio * a,
                                         ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                value_loss = 0.5 * (value - b_ret[idx].to(device)).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
                optimizer.step()

        # -- report ----------------------------------------------------
        if update % args.log_every == 0 or update == updates:
            now = time.perf_counter()
            rate = (done_steps - last_steps) / (now - last_time)
            line = f"update {update}/{updates}  steps {done_steps}  steps/s {rate:.0f}"
            if finished:
                returns_, lengths = zip(*finished)
                line += (f"  episodes {len(finished)}  mean return {np.mean(returns_):.2f}"
                         f"  mean length {np.mean(lengths):.0f}")
                finished.clear()
            else:
                line += "  (no episode finished)"
            line += (f"  policy {policy_loss.item():.3f}  value {value_loss.item():.3f}"
                     f"  entropy {entropy.item():.2f}")
            print(line, flush=True)
            last_time, last_steps = now, done_steps

    seconds = time.perf_counter() - start
    envs.close()
    if args.save:
        torch.save(net.state_dict(), args.save)
        print(f"network: {args.save}")
    print(f"steps/s: {done_steps / seconds:.0f} ({done_steps} env steps in {seconds:.1f} s)")
    print(f"stats: {stats_path}")


if __name__ == "__main__":
    main()
