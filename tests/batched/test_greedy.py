"""The compiled greedy player chooses as the ``greedy`` agent does, on rows of every game."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.agents.test_agents import (
    SANTORINI_BLOCK,
    SANTORINI_ONE_BLOCK,
    SANTORINI_WIN,
    TOGYZ_WIN,
    game_of,
)
from zoo_games import agents, batched
from zoo_games.agents import greedy as greedy_agent
from zoo_games.agents.evaluation import opponent_wins_next, winning_actions
from zoo_games.batched import KERNEL_MODULES, kernels_of
from zoo_games.batched.search import greedy
from zoo_games.batched.search.greedy import compile_greedy
from zoo_games.catalog import find_variant

#: One variant of each game, and Santorini's placement (whose moves are placements).
LABELS = ["senet-kendall-5", "senet-skyruk-7", "togyz-kumalak", "santorini-fixed"]


def choices(label: str, rows: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """The compiled greedy's choice in each row, each drawn with its own generator."""
    variant = find_variant(label)
    kernels = kernels_of(variant.game)
    config = np.array(kernels.config(variant.game, variant.kwargs), dtype=np.int64)
    play = compile_greedy(importlib.import_module(KERNEL_MODULES[variant.game.name]))
    out = np.empty(rows.shape[0], dtype=np.int64)
    games = np.arange(rows.shape[0], dtype=np.int64)
    play(rows.copy(), config, variant.game.num_actions, games, seeds.copy(), out)
    return out


def choice_in(label: str, position: str, draws: int = 1) -> np.ndarray:
    """``draws`` choices in one position, each with a generator of its own."""
    variant = find_variant(label)
    state = variant.game.state_from_position(position)
    row = kernels_of(variant.game).row_from_state(state)
    seeds = np.random.SeedSequence(0).generate_state(draws, np.uint64)
    return choices(label, np.repeat(row[None], draws, axis=0), seeds)


def the_agents_choices(state) -> set[int]:
    """What the ``greedy`` agent may play: a win if it has one, else its best actions."""
    return set(winning_actions(state)) or set(agents.make("greedy").best_actions(state))


def test_ties_are_the_agents():
    assert greedy.TIE == greedy_agent.TIE


@pytest.mark.parametrize("label", [*LABELS, "santorini-placement"])
def test_every_choice_is_one_the_greedy_agent_could_make(label):
    engine = batched.make(label, batch_size=64, seed=3)
    compared = 0
    for turn in range(30):
        rows = np.array(engine.states)
        chosen = choices(label, rows, np.random.SeedSequence(turn).generate_state(64, np.uint64))
        for game in range(0, 64, 4):
            state = engine.state(game)
            assert int(chosen[game]) in the_agents_choices(state), engine.position(game)
            compared += 1
        engine.step(engine.sample_legal_actions())
    assert compared == 30 * 16


@pytest.mark.parametrize(
    ("label", "position"), [("togyz-kumalak", TOGYZ_WIN), ("santorini-fixed", SANTORINI_WIN)]
)
def test_a_win_in_one_is_taken(label, position):
    state = game_of(label).state_from_position(position)
    for action in choice_in(label, position, draws=20):
        child = state.clone()
        child.apply_action(int(action))
        assert child.is_terminal() and child.returns()[0] == 1


@pytest.mark.parametrize("position", [SANTORINI_BLOCK, SANTORINI_ONE_BLOCK])
def test_the_opponents_win_in_one_is_blocked(position):
    # Hand-made (tests/agents/test_agents.py): 70 legal moves, of which only domes on the
    # level-3 cell beside the opponent's level-2 worker leave it no win.
    state = game_of("santorini-fixed").state_from_position(position)
    for action in choice_in("santorini-fixed", position, draws=20):
        child = state.clone()
        child.apply_action(int(action))
        assert not opponent_wins_next(child, 0)
        assert "dome" in state.action_to_string(int(action))


def test_equal_values_are_drawn_from_all_of_them():
    # At Santorini's fixed start, moves of equal value abound; each generator draws one.
    label = "santorini-fixed"
    state = find_variant(label).game.new_initial_state()
    best = agents.make("greedy").best_actions(state)
    assert len(best) > 1
    drawn = choice_in(label, state.position(), draws=40 * len(best))
    assert set(drawn.tolist()) == set(best)
    again = choice_in(label, state.position(), draws=40 * len(best))
    np.testing.assert_array_equal(drawn, again)  # the same generators, the same draws
