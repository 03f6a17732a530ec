"""Self-play records each position's mover, its search target and the outcome from its side."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games import batched
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.replay import ReplayBuffer
from zoo_games.alphazero.returns import lambda_returns
from zoo_games.alphazero.selfplay import SelfPlay
from zoo_games.catalog import find_variant


def random_network(label: str, seed: int = 0) -> PolicyValueNetwork:
    """A network of one hidden layer of 8 with random weights: it steers the scripted search."""
    variant = find_variant(label)
    shape = tuple(variant.observer.space.shape)
    inputs, actions = int(np.prod(shape)), variant.game.num_actions
    rng = np.random.default_rng(seed)

    def layer(outputs: int, reads: int) -> tuple[np.ndarray, np.ndarray]:
        weight = rng.normal(0.0, 0.3, (outputs, reads)).astype(np.float32)
        return weight, np.zeros(outputs, np.float32)

    return PolicyValueNetwork(
        label, shape, actions, [layer(8, inputs)], layer(actions, 8), layer(1, 8)
    )


def play_until_a_game_ends(
    label: str, games: int, make_search: Any, seed: int = 0, value_lambda: float = 1.0
) -> Any:
    variant = find_variant(label)
    engine = batched.make(label, batch_size=games, seed=seed)
    search = make_search(label, games, 1, seed)
    space = variant.observer.space
    buffer = ReplayBuffer(10_000, tuple(space.shape), np.dtype(space.dtype), engine.num_actions)
    selfplay = SelfPlay(engine, search, buffer.add, value_lambda=value_lambda)
    network = random_network(label, seed)
    while buffer.added == 0:
        counts = selfplay.play(network, moves=1)
    return variant, search, buffer, counts


def replayed(variant: Any, search: Any, game: int) -> Any:
    """Game ``game``'s first game, replayed in the rules core from the recorded rows.

    Returns each position's state (before its move) and the final returns.
    """
    states = []
    for rows, actions in search.calls:
        state = search.kernels.state_from_row(variant.game, rows[game])
        states.append(state)
        after = state.clone()
        after.apply_action(int(actions[game]))
        if after.is_terminal():
            return states, after.returns()
    raise AssertionError(f"game {game} did not end")


def ends_at_the_last_move(variant: Any, search: Any, game: int) -> bool:
    """Whether game ``game`` ended at the last recorded move."""
    rows, actions = search.calls[-1]
    after = search.kernels.state_from_row(variant.game, rows[game])
    after.apply_action(int(actions[game]))
    return after.is_terminal()


@pytest.mark.parametrize("label", ["togyz-kumalak", "senet-kendall-5", "santorini-fixed"])
def test_each_position_gets_the_outcome_of_its_mover(label, make_scripted_search):
    variant, search, buffer, counts = play_until_a_game_ends(label, 3, make_scripted_search)
    # The games that ended go to the buffer in the order of their index: the first one first.
    first = next(g for g in range(3) if ends_at_the_last_move(variant, search, g))
    states, returns = replayed(variant, search, first)
    held = buffer.latest(buffer.added)
    assert counts.games >= 1 and counts.positions == buffer.added >= len(states)
    movers = [state.current_player() for state in states]
    expected = np.array([returns[mover] for mover in movers], dtype=np.float32)
    np.testing.assert_array_equal(held.returns[: len(states)], expected)
    assert expected.any()  # a decided game: +1 for the winner's positions, -1 for the loser's
    for index, (state, mover) in enumerate(zip(states, movers, strict=True)):
        observation = variant.observer.observe(state, mover)
        np.testing.assert_array_equal(held.observations[index], observation)
        legal = np.frombuffer(state.legal_actions_mask(), dtype=np.int8)
        np.testing.assert_array_equal(held.masks[index], legal)
        assert held.policies[index][legal == 0].sum() == 0
        assert held.policies[index].sum() == pytest.approx(1.0, abs=1e-5)
    if label.startswith("senet"):  # extra turns: the same mover twice in a row
        assert any(a == b for a, b in pairwise(movers))


def test_below_a_lambda_of_one_each_position_gets_the_lambda_return(make_scripted_search):
    label = "senet-kendall-5"
    variant, search, buffer, _ = play_until_a_game_ends(
        label, 3, make_scripted_search, value_lambda=0.8
    )
    first = next(g for g in range(3) if ends_at_the_last_move(variant, search, g))
    states, returns = replayed(variant, search, first)
    held = buffer.latest(buffer.added)
    movers = np.array([state.current_player() for state in states])
    outcomes = np.array([returns[mover] for mover in movers], dtype=np.float32)
    expected = lambda_returns(outcomes, held.search_values[: len(states)], movers, 0.8)
    np.testing.assert_array_equal(held.returns[: len(states)], expected)
    assert not np.array_equal(expected, outcomes)
