"""Several players a world: ParallelEnv (PettingZoo's API) and
VectorEnv(players=)."""

import warnings

import numpy as np
import pytest

import crafter_toolkit

try:
    import gymnasium
except ImportError:
    gymnasium = None
try:
    import pettingzoo
    from pettingzoo.test import parallel_api_test, parallel_seed_test
except ImportError:
    pettingzoo = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")
needs_pettingzoo = pytest.mark.skipif(pettingzoo is None, reason="pettingzoo is not installed")


def random_actions(env, rng):
    return {agent: int(rng.randint(17)) for agent in env.agents}


def play_until_a_death(env, rng, steps=2000):
    """Steps with random actions until one player's episode ends while
    another's goes on; the results of that step."""
    for _ in range(steps):
        out = env.step(random_actions(env, rng))
        if env.agents and len(env.agents) < len(env.possible_agents):
            return out
    raise AssertionError(f"no player died alone in {steps} steps")


@needs_pettingzoo
@pytest.mark.parametrize("obs", ["pixels", "semantic", "symbolic"])
def test_parallel_api(obs):
    env = crafter_toolkit.ParallelEnv(players=2, obs=obs, area=(24, 24), length=300)
    assert isinstance(env, pettingzoo.ParallelEnv)
    assert env.metadata["name"] and env.metadata["is_parallelizable"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # the test warns where it could fail
        parallel_api_test(env, num_cycles=1000)
    env.close()


@needs_pettingzoo
def test_parallel_seeds():
    parallel_seed_test(lambda: crafter_toolkit.ParallelEnv(players=3, obs="semantic",
                                                           area=(20, 20), length=200))


@needs_gymnasium
@pytest.mark.parametrize("obs", ["pixels", "semantic", "symbolic"])
def test_spaces_hold_the_observations(obs):
    env = crafter_toolkit.ParallelEnv(players=3, obs=obs, area=(16, 16), length=400, seed=3)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.action_space("player_1") == gymnasium.spaces.Discrete(17)
    rng = np.random.RandomState(0)
    observations, _ = env.reset()
    marked = 0
    while env.agents:
        for agent, observation in observations.items():
            assert env.observation_space(agent).contains(observation), agent
        if obs == "semantic":
            marked += (observations[env.agents[0]] == 19).sum()
        observations, *_ = env.step(random_actions(env, rng))
    if obs == "semantic":
        assert marked  # each player sees the others, marked 19
    env.close()


def test_dead_agents_leave():
    """A dead player leaves agents and the dicts; the others play on and
    keep getting observations; when all are done, reset() starts over."""
    env = crafter_toolkit.ParallelEnv(players=2, obs="semantic", area=(16, 16), length=1000,
                                      seed=3)
    rng = np.random.RandomState(3)
    obs, infos = env.reset()
    assert env.agents == ["player_0", "player_1"] and set(obs) == set(infos) == set(env.agents)
    obs, rewards, terminations, truncations, infos = play_until_a_death(env, rng)
    assert set(obs) == set(rewards) == set(terminations) == set(truncations) == set(infos) \
        == {"player_0", "player_1"}
    (dead,) = set(env.possible_agents) - set(env.agents)
    (alive,) = env.agents
    assert terminations[dead] and not truncations[dead] and infos[dead]["discount"] == 0
    assert infos[dead]["inventory"][0] <= 0  # health
    assert not terminations[alive] and not truncations[alive]
    steps = 0
    while env.agents:
        last = obs[alive]
        obs, rewards, terminations, truncations, infos = env.step(
            {alive: int(rng.randint(17)), dead: 5})  # a dead player's action counts for nothing
        assert set(obs) == {alive} and obs[alive].shape == last.shape
        steps += 1
    assert terminations[alive] or truncations[alive]
    assert steps > 0
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    obs, infos = env.reset()
    assert env.agents == env.possible_agents and set(obs) == set(env.possible_agents)
    assert all(info["crafter_episode"] == 2 for info in infos.values())
    play_until_a_death(env, rng)
    obs, infos = env.reset()  # before the others are done: all back
    assert env.agents == env.possible_agents and set(obs) == set(env.possible_agents)
    assert all(info["crafter_episode"] == 3 and info["inventory"][0] == 9
               for info in infos.values())
    env.close()


def test_time_limit_truncates_every_player():
    env = crafter_toolkit.ParallelEnv(players=2, obs="none", length=20, seed=1)
    env.reset()
    for _ in range(19):
        _, _, terminations, truncations, _ = env.step({a: 0 for a in env.agents})
        assert not any(terminations.values()) and not any(truncations.values())
    _, _, terminations, truncations, _ = env.step({a: 0 for a in env.agents})
    assert truncations == {"player_0": True, "player_1": True}
    assert not any(terminations.values()) and env.agents == []
    env.close()


def test_same_seed_same_game():
    """The same seed gives the same observations and rewards: two envs,
    and one env reset with the seed again."""
    def run(env, seed):
        rng = np.random.RandomState(7)
        obs, _ = env.reset(seed=seed)
        out = [obs]
        for _ in range(300):
            if not env.agents:
                out.append(env.reset()[0])
                continue
            obs, rewards, terminations, truncations, _ = env.step(random_actions(env, rng))
            out += [obs, rewards, terminations, truncations]
        return out

    def same(a, b):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert x.keys() == y.keys()
            assert all(np.array_equal(x[k], y[k]) for k in x)

    first = crafter_toolkit.ParallelEnv(players=2, obs="pixels", area=(16, 16), length=100)
    second = crafter_toolkit.ParallelEnv(players=2, obs="pixels", area=(16, 16), length=100)
    a = run(first, 11)
    same(a, run(second, 11))
    same(a, run(first, 11))
    other = run(second, 12)[0]
    assert not all(np.array_equal(a[0][k], other[k]) for k in other)
    first.close()
    second.close()


def test_fresh_seeds_without_a_seed():
    obs = [crafter_toolkit.ParallelEnv(players=2, obs="semantic").reset()[0]["player_0"]
           for _ in range(2)]
    assert not np.array_equal(obs[0], obs[1])


def test_one_player_is_crafter():
    """ParallelEnv(players=1) plays crafter.Env's game."""
    env = crafter_toolkit.ParallelEnv(players=1, obs="pixels", seed=5, length=150)
    single = crafter_toolkit.Env(seed=5, length=150)
    rng = np.random.RandomState(5)
    obs, _ = env.reset()
    assert np.array_equal(obs["player_0"], single.reset())
    while env.agents:
        action = int(rng.randint(17))
        obs, rewards, terminations, truncations, infos = env.step({"player_0": action})
        o, r, done, info = single.step(action)
        assert np.array_equal(obs["player_0"], o) and rewards["player_0"] == r
        assert (terminations["player_0"] or truncations["player_0"]) == done
    env.close()
    single.close()


def test_bad_actions_and_render():
    with pytest.raises(ValueError, match="players"):
        crafter_toolkit.ParallelEnv(players=17)
    with pytest.raises(ValueError, match="2 pixels a cell"):
        crafter_toolkit.ParallelEnv(obs="semantic", size=(16, 64), render_mode="rgb_array")
    # Other kinds render the views pixel observations show, the game unchanged.
    drawn = crafter_toolkit.ParallelEnv(players=2, obs="semantic", size=(32, 48),
                                        render_mode="rgb_array", seed=2)
    semantic, _ = drawn.reset()
    picture = drawn.render()
    assert picture.shape == (48, 64, 3)
    env = crafter_toolkit.ParallelEnv(players=2, size=(32, 48), render_mode="rgb_array", seed=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})
    obs, _ = env.reset()
    assert obs["player_0"].shape == (48, 32, 3)
    assert not np.array_equal(obs["player_0"], obs["player_1"])
    assert np.array_equal(env.render(), np.concatenate([obs["player_0"], obs["player_1"]], 1))
    assert np.array_equal(picture, env.render())
    drawn.close()
    for action in (17, -1, 2.5, "do"):
        with pytest.raises(ValueError, match="0..16"):
            env.step({"player_0": action})
    with pytest.raises(ValueError, match="no agent"):
        env.step({"player_9": 0})
    env.step({"player_0": 1})  # a missing agent plays noop
    env.close()


def test_vector_players_shapes_and_alive():
    """VectorEnv(players=2): arrays over envs x players, env-major; the
    alive mask follows the players' episodes, and each env plays the
    ParallelEnv of seed S + i."""
    envs, players, length = 2, 2, 200
    vector = crafter_toolkit.VectorEnv(envs, players=players, obs="semantic", area=(16, 16),
                                       length=length, seed=20)
    assert vector.num_envs == envs * players and vector.num_worlds == envs
    parallel = [crafter_toolkit.ParallelEnv(players=players, obs="semantic", area=(16, 16),
                                            length=length, seed=20 + i) for i in range(envs)]
    obs, infos = vector.reset()
    assert obs.shape == (envs * players, 16, 16)
    assert infos["alive"].dtype == bool and infos["alive"].all()
    assert list(infos["player"]) == [0, 1, 0, 1]
    assert infos["inventory"].shape == (4, 16)
    if gymnasium is not None:
        assert vector.action_space.shape == (4,)
        assert vector.observation_space.contains(obs)
    expected = [env.reset()[0] for env in parallel]
    for row in range(4):
        assert np.array_equal(obs[row], expected[row // 2][f"player_{row % 2}"])
    rng = np.random.RandomState(4)
    alive = infos["alive"].copy()
    restart = [False] * envs
    deaths = lone = resets = 0
    for _ in range(700):
        actions = rng.randint(0, 17, envs * players)
        obs, rewards, terminated, truncated, infos = vector.step(actions)
        ended = terminated | truncated
        for i, env in enumerate(parallel):
            rows = slice(i * players, (i + 1) * players)
            if restart[i]:  # next-step autoreset: every player back
                first = env.reset()[0]
                assert infos["alive"][rows].all() and not ended[rows].any()
                assert all(np.array_equal(obs[i * players + p], first[f"player_{p}"])
                           for p in range(players))
                assert (rewards[rows] == 0).all()
                restart[i] = False
                resets += 1
                continue
            playing = list(env.agents)
            out = env.step({a: int(actions[i * players + int(a[7:])]) for a in playing})
            for p in range(players):
                row, agent = i * players + p, f"player_{p}"
                if agent in playing:
                    assert np.array_equal(obs[row], out[0][agent])
                    assert rewards[row] == np.float32(out[1][agent])
                    assert terminated[row] == out[2][agent]
                    assert truncated[row] == out[3][agent]
                    assert infos["alive"][row] == (agent in env.agents)
                else:  # out of the game: masked, nothing happens to it
                    assert not alive[row] and not infos["alive"][row]
                    assert rewards[row] == 0 and not ended[row]
            deaths += int(terminated[rows].sum())
            lone += 0 < len(env.agents) < players
            restart[i] = not env.agents
        assert not (ended & infos["alive"]).any() and not (ended & ~alive).any()
        alive = infos["alive"].copy()
    assert deaths and lone and resets  # the test saw all three
    vector.close()
    for env in parallel:
        env.close()


def test_vector_players_errors_and_stats(tmp_path):
    vector = crafter_toolkit.VectorEnv(3, players=2, obs="none", length=30, seed=1,
                                       stats=tmp_path)
    vector.reset()
    with pytest.raises(ValueError, match="one action per agent"):
        vector.step(np.zeros(3, dtype=int))
    for _ in range(61):
        vector.step(np.zeros(6, dtype=int))
    lines = (tmp_path / "stats.jsonl").read_text().splitlines()
    assert len(lines) == 12  # an episode of each of 6 players, twice
    assert all('"length": 30' in line for line in lines)
    vector.close()


def test_vector_one_player_unchanged():
    """players=1 is the VectorEnv of before: same arrays, no new keys."""
    actions = np.random.RandomState(9).randint(0, 17, (150, 3))
    runs = []
    for options in ({}, {"players": 1}):
        vector = crafter_toolkit.VectorEnv(3, obs="symbolic", seed=8, length=50, **options)
        assert vector.num_envs == 3
        out = [vector.reset()]
        out += [vector.step(row) for row in actions]
        assert "alive" not in out[-1][-1] and "player" not in out[-1][-1]
        runs.append(out)
        vector.close()
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            if isinstance(x, dict):
                assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
            else:
                assert np.array_equal(x, y)



def test_protocol_a_dead_player_stays_out():
    """crafter-protocol(5) with several players: a player whose episode
    ended keeps done 1, alive 0, reward 0 and position (0, 0) until the
    world's episode is over, and its action bytes change nothing."""
    from crafter_toolkit import _stream

    def play(seed, actions, dead_bytes):
        stream = _stream.Stream(players=2, obs="none", area=(16, 16), seed=seed, length=1000,
                                manual_reset=True)
        out, frames = np.zeros(2, bool), []
        for row in actions:
            row = row.copy()
            row[out] = dead_bytes[len(frames)] if out.any() else row[out]
            frame = stream.step(row)
            frames.append({k: frame[k].copy() for k in ("done", "alive", "reward", "position")})
            if frame["done"].all():
                break
            out |= frame["done"].astype(bool)
        stream.close()
        return frames

    for seed in range(8):
        actions = np.random.RandomState(seed).randint(0, 17, (1000, 2)).astype(np.uint8)
        noops = play(seed, actions, np.zeros(1000, np.uint8))
        moves = play(seed, actions, np.random.RandomState(99).randint(0, 17, 1000))
        out = np.zeros(2, bool)
        for a, b in zip(noops, moves):
            assert all(np.array_equal(a[k], b[k]) for k in a), seed
            if a["done"].all():
                break
            assert all(a["done"][out]) and not any(a["alive"][out]), seed
            assert not any(a["reward"][out]) and not a["position"][out, :2].any(), seed
            out |= a["done"].astype(bool)
        assert len(noops) == len(moves)
