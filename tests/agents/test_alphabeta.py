"""The alphabeta agent: plain minimax's values, legal moves, seeds, and the games it refuses.

Its wins in one and blocks are tried with the other deciding agents' (``DECIDING_AGENTS`` of
tests/agents/test_agents.py), on the same hand-made positions.
"""

from __future__ import annotations

import io
import re
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tests.agents.test_agents import (
    SANTORINI_WIN,
    TOGYZ_WIN,
    fingerprint,
    game_of,
    play_out,
    random_decision_state,
)
from zoo_games import agents
from zoo_games.agents.alphabeta import AlphaBetaAgent
from zoo_games.batched import kernels_of
from zoo_games.batched.batch import MOVER
from zoo_games.batched.rng import seed_states
from zoo_games.batched.search.alphabeta import (
    MOST_DEPTH,
    PLY_COST,
    TIE,
    WIN,
    AlphaBetaSearch,
)
from zoo_games.catalog import labels
from zoo_games.cli import main
from zoo_games.core.game import NO_WINNER, winner_returns

#: The variants of the games without chance: the ones alphabeta plays.
PLAYED = [label for label in labels() if not game_of(label).has_chance]
SENET_REFUSED = (
    "alphabeta searches games without chance (togyz_kumalak, santorini); "
    "senet's chance nodes would need an expectimax search"
)


def alphabeta(**options) -> AlphaBetaAgent:
    agent = agents.make("alphabeta", **options)
    assert isinstance(agent, AlphaBetaAgent)
    return agent


class PlainMinimax:
    """The values the search is meant to find, by minimax without pruning over the kernels.

    A finished game is worth +-(10 - ply / 100) to the mover, a position at the depth its
    evaluation for the mover, and a child's value changes sign when the mover changes.
    """

    def __init__(self, label: str) -> None:
        game = game_of(label)
        self.kernels = kernels_of(game)
        self.module = self.kernels.module
        self.config = np.array(self.kernels.config(game, {}), dtype=np.int64)
        self.actions = game.num_actions
        self.rngs = seed_states(0, 1)

    def move_values(self, row: np.ndarray, depth: int, ply: int = 0) -> dict[int, float]:
        """Each legal move's value for the mover of ``row``, ``ply`` plies below the root."""
        mover = row[MOVER]
        mask = np.zeros(self.actions, dtype=np.int8)
        self.module.legal_mask(row, self.config, mask)
        values = {}
        for action in np.flatnonzero(mask).tolist():
            child = row.copy()
            outcome = self.module.play(child, action, self.config, self.rngs, 0)
            if outcome != NO_WINNER:
                values[action] = winner_returns(outcome)[mover] * (WIN - PLY_COST * (ply + 1))
            elif ply + 1 == depth:
                values[action] = self.module.evaluate(child, self.config, mover)
            else:
                sign = 1 if child[MOVER] == mover else -1
                values[action] = sign * self.value(child, depth, ply + 1)
        return values

    def value(self, row: np.ndarray, depth: int, ply: int) -> float:
        """The value of ``row`` for its mover: its best move's, or the end if it has none."""
        values = self.move_values(row, depth, ply)
        if values:
            return max(values.values())
        outcome = self.module.outcome_without_moves(row, self.config)
        return winner_returns(outcome)[row[MOVER]] * (WIN - PLY_COST * ply)


@pytest.mark.parametrize(
    ("label", "depth", "plies"),
    [
        ("togyz-kumalak", 4, range(0, 100, 10)),
        ("santorini-fixed", 2, range(0, 30, 3)),
        # The workers placed in turn (player_0 places both) and the first moves: the sign of
        # a child's value stays when the mover does.
        ("santorini-placement", 3, range(3)),
    ],
)
def test_the_search_finds_the_values_of_plain_minimax(label, depth, plies):
    plain = PlainMinimax(label)
    search = AlphaBetaSearch(game_of(label), plain.kernels, depth)
    for seed, ply in enumerate(plies):
        state = random_decision_state(label, seed, ply)
        row = plain.kernels.row_from_state(state)
        expected = plain.move_values(row, depth)
        best = max(expected.values())
        found = search.search(row)
        assert found.values.keys() == expected.keys() == set(state.legal_actions())
        assert found.value == best, state.position()
        ties = [action for action, value in expected.items() if value >= best - TIE]
        assert found.best_actions() == ties, state.position()
        assert all(found.values[action] == expected[action] for action in ties)
        if found.depth == depth:  # not stopped by a win or a loss found sooner
            # The other moves' values are upper bounds, below any tie with the best.
            for action, value in found.values.items():
                assert value >= expected[action]
                assert action in ties or value < best - TIE


@pytest.mark.parametrize(
    ("label", "position"), [("togyz-kumalak", TOGYZ_WIN), ("santorini-fixed", SANTORINI_WIN)]
)
def test_a_win_in_one_ends_the_deepening_at_once(label, position):
    state = game_of(label).state_from_position(position)
    agent = alphabeta(depth=6, seed=0)
    action = agent.act(state)
    state.apply_action(action)
    assert state.is_terminal() and state.returns()[0] == 1
    search = agent.last_search
    assert search is not None and search.action == action
    assert search.depth == 1 and search.value == WIN - PLY_COST


def test_a_forced_move_is_played_without_search():
    # White's last ball, in its ninth hole, is its only move.
    position = "0,0,0,0,0,0,0,0,1/9,9,9,9,9,9,9,9,9 40 40 W"
    state = game_of("togyz-kumalak").state_from_position(position)
    assert state.legal_actions() == [8]
    agent = alphabeta(seed=0)
    assert agent.act(state) == 8
    assert agent.last_search is not None and agent.last_search.depth == 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    label=st.sampled_from(PLAYED),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
    depth=st.integers(1, 3),
)
def test_it_plays_legal_actions_and_leaves_the_state_alone(label, seed, plies, depth):
    state = random_decision_state(label, seed, plies)
    before = fingerprint(state)
    agent = alphabeta(depth=depth, seed=seed)
    action = agent.act(state)
    assert action in state.legal_actions()
    assert fingerprint(state) == before
    search = agent.last_search
    assert search is not None and search.action == action
    assert 0 <= search.depth <= depth and abs(search.value) < WIN


@pytest.mark.parametrize("label", ["togyz-kumalak", "santorini-placement"])
def test_the_same_seed_plays_the_same_moves(label):
    assert play_out(label, "alphabeta:depth=2", seed=7) == play_out(
        label, "alphabeta:depth=2", seed=7
    )


def test_equal_values_are_drawn_from_all_of_them():
    # At depth 1 a move is worth the evaluation after it, as for greedy, which at Santorini's
    # fixed start finds several best moves; the agent's generator draws each of them.
    state = game_of("santorini-fixed").new_initial_state()
    best = agents.make("greedy").best_actions(state)
    assert len(best) > 1
    agent = alphabeta(depth=1, seed=3)
    drawn = [agent.act(state) for _ in range(30 * len(best))]
    assert set(drawn) == set(best)
    again = alphabeta(depth=1, seed=3)
    assert [again.act(state) for _ in drawn] == drawn


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"depth": 0}, f"alphabeta depth must be from 1 to {MOST_DEPTH}, not 0"),
        ({"depth": MOST_DEPTH + 1}, f"from 1 to {MOST_DEPTH}, not {MOST_DEPTH + 1}"),
        ({"depth": 2.5}, "alphabeta option depth=2.5 is not allowed: expected int"),
        ({"depth": True}, "depth=True is not allowed: expected int"),
        ({"seed": -1}, "seed=-1 is not allowed: expected 0 or more"),
    ],
)
def test_bad_options_are_one_line(options, says):
    with pytest.raises(ValueError, match=says) as raised:
        agents.make("alphabeta", **options)
    assert "\n" not in str(raised.value)


def test_games_with_chance_are_refused():
    game = game_of("senet-kendall-5")
    agent = alphabeta()
    with pytest.raises(ValueError, match=re.escape(SENET_REFUSED)):
        agent.check_game(game)
    decision = random_decision_state("senet-kendall-5", seed=0, plies=3)
    with pytest.raises(ValueError, match=re.escape(SENET_REFUSED)):
        agent.act(decision)
    for label in PLAYED:
        agent.check_game(game_of(label))


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "senet-kendall-5", "alphabeta", "random", "--games", "2"],
        ["play", "senet-kendall-5", "--vs", "alphabeta"],
    ],
)
def test_the_commands_refuse_senet_in_one_line_before_any_game(capsys, monkeypatch, argv):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))  # play's first move, never read
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert SENET_REFUSED in line
