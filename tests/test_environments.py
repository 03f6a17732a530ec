"""Checks every environment of the catalog must pass, whatever the game.

PettingZoo's own test suite (api_test, seed_test, render_test), the two SuperSuit recipes,
pickling mid-game, the golden playthroughs, bad input, and long random games in which the
mask must always equal the rules core's legal actions and positions must round-trip.
"""

from __future__ import annotations

import copy
import pickle
import warnings
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
import supersuit
from pettingzoo.test import api_test, render_test, seed_test

import zoo_games
from zoo_games.catalog import Variant, find_variant, variants
from zoo_games.core.adapter import BoardGameEnv
from zoo_games.playthrough import playthrough
from zoo_games.wrappers import flatten_observation

VARIANTS = variants()
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
API_TEST_RUNS = 8


def by_label(fn):
    return pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])(fn)


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


# ---------------------------------------------------------------------- PettingZoo's tests
@by_label
def test_api_test_wrapped_and_raw(variant: Variant) -> None:
    # api_test plays one game per call (its actions are drawn unseeded), so run it several times.
    for _ in range(API_TEST_RUNS):
        api_test(variant.env(), num_cycles=1000)
    api_test(variant.raw_env(), num_cycles=1000)


@by_label
def test_api_test_under_supersuit_with_mask_in_info(variant: Variant) -> None:
    env = supersuit.flatten_v0(variant.env(action_mask="info"))
    env = supersuit.dtype_v0(env, np.float32)
    env = supersuit.normalize_obs_v0(env)
    api_test(env, num_cycles=1000)
    seed_test(
        lambda: supersuit.dtype_v0(
            supersuit.flatten_v0(variant.env(action_mask="info")), np.float32
        ),
        num_cycles=200,
    )


@by_label
def test_api_test_under_mask_keeping_flatten_wrapper(variant: Variant) -> None:
    env = flatten_observation(variant.env(), dtype=np.float32)
    api_test(env, num_cycles=1000)
    space = env.observation_space("player_0")["observation"]
    assert len(space.shape) == 1 and space.dtype == np.float32
    seed_test(lambda: flatten_observation(variant.env()), num_cycles=200)


@by_label
def test_seed_test(variant: Variant) -> None:
    seed_test(variant.env, num_cycles=500)


@by_label
def test_render_test(variant: Variant) -> None:
    render_test(lambda render_mode=None: variant.env(render_mode=render_mode))


@by_label
def test_registry_makes_the_module_env(variant: Variant) -> None:
    assert variant.env_id in zoo_games.catalog.GAMES
    made = pettingzoo.make("aec", variant.env_id, **variant.kwargs)
    direct = variant.env()
    made.reset(seed=3)
    direct.reset(seed=3)
    assert type(made.unwrapped) is type(direct.unwrapped)
    assert made.unwrapped.game.options() == direct.unwrapped.game.options()
    assert made.unwrapped.position() == direct.unwrapped.position()


@by_label
def test_a_variant_gives_its_rules_and_observer_without_an_environment(variant: Variant) -> None:
    env = variant.raw_env()
    assert variant.game.options() == env.game.options()
    assert type(variant.observer) is type(env.observer)
    assert variant.observer.space == env.observation_space("player_0")["observation"]
    env.reset(seed=1)
    state = env.game_state
    player = state.current_player()
    assert np.array_equal(
        variant.observer.observe(state, player),
        env.observe(env.agent_selection)["observation"],
    )


# ---------------------------------------------------------------------- random play
@by_label
def test_long_random_games_mask_equals_rules_and_positions_round_trip(variant: Variant) -> None:
    rng = np.random.default_rng(2024)
    env = variant.raw_env()
    probe = variant.raw_env()
    for game_index in range(40):
        env.reset(seed=game_index)
        while not all(env.terminations.values()):
            agent = env.agent_selection
            state = env.game_state
            legal = state.legal_actions()
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            assert np.flatnonzero(mask).tolist() == legal
            other = "player_1" if agent == "player_0" else "player_0"
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
            for observer in env.possible_agents:
                assert env.observation_space(observer)["observation"].contains(
                    env.observe(observer)["observation"]
                )
            position = env.position()
            probe.reset(options={"position": position})
            assert probe.position() == position
            assert probe.game_state.legal_actions() == legal
            env.step(int(rng.choice(legal)))
        returns = [env._cumulative_rewards[a] for a in env.possible_agents]
        assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}


@by_label
def test_wrapped_random_games_end_with_zero_sum_rewards(variant: Variant) -> None:
    rng = np.random.default_rng(7)
    env = variant.env()
    for seed in range(10):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert sum(totals.values()) == 0
        assert not env.agents


# ---------------------------------------------------------------------- copies
@by_label
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "wrapped"])
def test_pickle_and_deepcopy_mid_game_continue_identically(variant: Variant, wrapped: bool) -> None:
    env = variant.env() if wrapped else variant.raw_env()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(15):
        observation, *_ = env.last()
        if all(env.unwrapped.terminations.values()):
            break
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    traces = []
    for candidate in [env, *copies]:
        chooser = np.random.default_rng(5)
        trace = []
        for agent in candidate.agent_iter(400):
            observation, reward, termination, truncation, _ = candidate.last()
            trace.append((agent, candidate.unwrapped.position(), reward))
            if termination or truncation:
                candidate.step(None)
            else:
                candidate.step(int(chooser.choice(np.flatnonzero(observation["action_mask"]))))
        traces.append(trace)
    assert traces[1] == traces[0]
    assert traces[2] == traces[0]


# ---------------------------------------------------------------------- golden playthroughs
@by_label
def test_golden_playthrough(variant: Variant) -> None:
    path = PLAYTHROUGHS / f"{variant.label}.txt"
    assert path.exists(), f"{path} is missing: run python scripts/regenerate_playthroughs.py"
    expected = path.read_text().splitlines()
    actual = playthrough(variant).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path.name}:{number} differs\n  golden: {want}\n  now:    {got}"
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} lines, golden {len(expected)}"


# ---------------------------------------------------------------------- bad input
@by_label
def test_illegal_action_on_raw_env_raises_and_changes_nothing(variant: Variant) -> None:
    env = variant.raw_env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while len(env.legal_actions()) == env.game.num_actions:  # find a state with an illegal move
        env.step(int(rng.choice(env.legal_actions())))
    before = (env.position(), env.agent_selection, env.legal_actions())
    illegal = next(a for a in range(env.game.num_actions) if a not in env.legal_actions())
    with pytest.raises(ValueError, match="legal actions"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(env.game.num_actions)
    with pytest.raises(ValueError, match="out of range"):
        env.step(-1)
    for wrong in (1.5, "3", None, True, [0]):
        with pytest.raises(TypeError, match="integer"):
            env.step(wrong)
    assert (env.position(), env.agent_selection, env.legal_actions()) == before
    env.step(np.int64(env.legal_actions()[0]))  # numpy integers are fine


@by_label
def test_illegal_action_through_env_loses_the_game(variant: Variant) -> None:
    env = variant.env()
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while env.last()[0]["action_mask"].all():  # find a state with an illegal move
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    offender = env.agent_selection
    mask = env.last()[0]["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    assert sum(env._cumulative_rewards.values()) == -1  # the other agent gets 0


@by_label
def test_step_after_the_end_and_calls_before_reset_are_clear_errors(variant: Variant) -> None:
    env = variant.raw_env()
    with pytest.raises(ValueError, match="reset"):
        env.observe("player_0")
    with pytest.raises(ValueError, match="reset"):
        env.position()
    with pytest.raises(ValueError, match=r"step\(\) before reset\(\)"):
        env.step(0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="None"):
        env.step(env.game.num_actions - 1)  # a move for an agent whose game has ended
    for _ in env.possible_agents:
        env.step(None)
    assert not env.agents
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


@by_label
def test_bad_options_and_positions_are_rejected(variant: Variant) -> None:
    with pytest.raises(ValueError, match="render_mode"):
        variant.raw_env(render_mode="pygame")
    with pytest.raises(ValueError, match="action_mask"):
        variant.raw_env(action_mask="both")
    with pytest.raises(TypeError):
        variant.raw_env(no_such_option=1)
    env = variant.raw_env()
    for bad in ("", "nonsense", "1 2 3 4 5 6 7"):
        with pytest.raises(ValueError):
            env.reset(options={"position": bad})
    with pytest.raises(ValueError, match="string"):
        env.reset(options={"position": 42})


@by_label
def test_reset_with_seed_reproduces_the_game_and_without_seed_continues(variant: Variant) -> None:
    def first_positions(env) -> list[str]:
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(30):
            if all(env.terminations.values()):
                break
            seen.append(env.position())
            env.step(int(rng.choice(env.legal_actions())))
        return seen

    env = variant.raw_env()
    env.reset(seed=123)
    first = first_positions(env)
    env.reset(seed=123)
    assert first_positions(env) == first


def test_seeded_generator_is_gymnasiums_whenever_it_is_made() -> None:
    # reset(seed=s) makes the generator on first use only (games without chance never do):
    # it must be the one gymnasium's seeding.np_random(s) makes, with the same seed record.
    from gymnasium.error import Error
    from gymnasium.utils import seeding

    env = find_variant("togyz-kumalak").raw_env()  # no chance: reset draws nothing
    for seed in (0, 7, 2**70):
        env.reset(seed=seed)
        expected, expected_seed = seeding.np_random(seed)
        assert env.np_random_seed == expected_seed
        assert env.np_random.random(5).tolist() == expected.random(5).tolist()
    replacement = np.random.default_rng(1)
    env.np_random = replacement
    assert env.np_random is replacement
    for bad in (-1, 1.5, np.int64(3)):
        with pytest.raises(Error, match="Seed must be"):
            env.reset(seed=bad)


@by_label
def test_observation_spaces_and_dtypes(variant: Variant) -> None:
    env = variant.raw_env()
    assert isinstance(env, BoardGameEnv)
    env.reset(seed=0)
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space is env.observation_space(agent)
        observation = env.observe(agent)
        assert observation["observation"].dtype == space["observation"].dtype
        assert observation["action_mask"].dtype == np.int8
        assert observation["action_mask"].shape == (env.game.num_actions,)
    info_env = variant.raw_env(action_mask="info")
    info_env.reset(seed=0)
    acting = info_env.agent_selection
    assert (
        np.flatnonzero(info_env.infos[acting]["action_mask"]).tolist() == info_env.legal_actions()
    )
    assert isinstance(info_env.observe(acting), np.ndarray)


# ---------------------------------------------------------------------- game facts
@by_label
def test_game_facts_hold_in_random_games(variant: Variant) -> None:
    game = variant.game
    assert game.zero_sum and (game.min_utility, game.max_utility) == (-1.0, 1.0)
    assert game.has_chance == (game.name == "senet")
    assert (game.max_game_length is None) == (game.name != "santorini")
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = game.new_initial_state()
        decisions = 0
        chance_nodes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                chance_nodes += 1
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                state.apply_action(int(rng.choice([o for o, _ in outcomes])))
                continue
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
        assert sum(state.returns()) == 0
        assert min(state.returns()) >= game.min_utility
        assert max(state.returns()) <= game.max_utility
        assert (chance_nodes > 0) == game.has_chance
        if game.max_game_length is not None:
            assert decisions <= game.max_game_length
