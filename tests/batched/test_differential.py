"""The batched engine against the rules cores, transition by transition.

Every variant plays 256 games for 400 steps of random legal play in the engine (102,400
transitions). Each game is mirrored by a rules-core state driven with the same actions; a
Senet throw, drawn inside the engine, is read from the engine's state row and applied to the
mirror. After every step all games' rewards, terminations, movers and masks are compared, and
a sample of games in full: the observation the environment gives the player to move, and the
position string.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games import batched
from zoo_games.batched import senet as senet_kernels
from zoo_games.catalog import find_variant, variants
from zoo_games.core.adapter import AGENTS
from zoo_games.core.game import GameState

LABELS = [v.label for v in variants()]
BATCH = 256
STEPS = 400
#: Games compared in full (observation, position) after every step.
SAMPLE = 8


def resolve_chance(state: GameState, engine: batched.BatchedEngine, index: int) -> None:
    """Apply the throw the engine drew for game ``index`` to its mirror (Senet only)."""
    if state.is_chance_node():
        state.apply_action(int(engine.states[index, senet_kernels.THROW]))


def env_observation(env, state: GameState) -> np.ndarray:
    """What ``env.observe(agent)["observation"]`` gives the player to move in ``state``."""
    env.game_state = state
    return env.observe(AGENTS[state.current_player()])["observation"]


@pytest.mark.parametrize("label", LABELS)
def test_engine_matches_the_rules_core_over_random_play(label: str) -> None:
    engine = batched.make(label, batch_size=BATCH, seed=LABELS.index(label))
    env = find_variant(label).raw_env()
    env.reset()
    game = env.game
    mirrors = [game.new_initial_state() for _ in range(BATCH)]
    for index, state in enumerate(mirrors):
        resolve_chance(state, engine, index)
    rng = np.random.default_rng(0)
    finished = 0
    for step in range(STEPS):
        actions = engine.sample_legal_actions()
        rewards, terminated = engine.step(actions)
        masks = engine.action_mask
        movers = engine.current_player
        for index in range(BATCH):
            state = mirrors[index]
            state.apply_action(int(actions[index]))
            resolve_chance(state, engine, index)
            if state.is_terminal():
                assert terminated[index], (label, step, index)
                assert tuple(rewards[index]) == state.returns(), (label, step, index)
                finished += 1
                state = mirrors[index] = game.new_initial_state()
                resolve_chance(state, engine, index)
            else:
                assert not terminated[index], (label, step, index, state.position())
                assert not rewards[index].any()
            assert movers[index] == state.current_player(), (label, step, index)
            assert masks[index].tobytes() == state.legal_actions_mask(), (
                label,
                step,
                index,
                state.position(),
            )
        for index in rng.choice(BATCH, SAMPLE, replace=False):
            state = mirrors[index]
            assert engine.position(index) == state.position()
            expected = env_observation(env, state)
            observed = engine.observation[index]
            assert observed.dtype == expected.dtype and observed.shape == expected.shape
            assert np.array_equal(observed, expected), (label, step, index, state.position())
    assert finished > 0, "random play should finish some games in 400 steps"
