"""The λ-returns of a finished game, worked out by hand from their definition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zoo_games.alphazero.returns import lambda_returns

# Four positions: player 0 moves twice (an extra turn), then player 1, then player 0, who wins.
OUTCOMES = np.array([1.0, 1.0, -1.0, 1.0], dtype=np.float32)
SEARCH_VALUES = np.array([0.2, 0.4, -0.6, 0.8], dtype=np.float32)
MOVERS = np.array([0, 0, 1, 0])


def test_a_lambda_of_one_gives_the_outcomes() -> None:
    returns = lambda_returns(OUTCOMES, SEARCH_VALUES, MOVERS, 1.0)
    np.testing.assert_array_equal(returns, OUTCOMES)
    assert returns.dtype == np.float32


def test_a_lambda_of_zero_gives_the_next_positions_value_from_the_movers_side() -> None:
    # Position 0: the next mover is the same player, 0.4 as it is; position 1: the next is the
    # opponent, whose -0.6 is 0.6 for player 0; position 2: the opponent's 0.8 is -0.8; the
    # last position has no next one: its outcome.
    returns = lambda_returns(OUTCOMES, SEARCH_VALUES, MOVERS, 0.0)
    np.testing.assert_allclose(returns, [0.4, 0.6, -0.8, 1.0])


def test_a_lambda_of_one_half_by_hand() -> None:
    # G3 = 1 (the outcome); G2 = -(0.5 * 0.8 + 0.5 * 1) = -0.9;
    # G1 = -(0.5 * -0.6 + 0.5 * -0.9) = 0.75; G0 = 0.5 * 0.4 + 0.5 * 0.75 = 0.575.
    returns = lambda_returns(OUTCOMES, SEARCH_VALUES, MOVERS, 0.5)
    np.testing.assert_allclose(returns, [0.575, 0.75, -0.9, 1.0], rtol=1e-6)


def test_a_drawn_game_of_one_position_and_an_empty_one() -> None:
    np.testing.assert_array_equal(lambda_returns(np.zeros(1), np.array([0.7]), [1], 0.3), [0.0])
    assert lambda_returns(np.zeros(0), np.zeros(0), np.zeros(0), 0.5).shape == (0,)


values = st.floats(-1.0, 1.0, allow_nan=False, width=32)


@given(
    st.lists(st.tuples(values, st.integers(0, 1)), min_size=1, max_size=40),
    st.sampled_from([-1.0, 0.0, 1.0]),
    st.floats(0.0, 1.0),
)
def test_returns_stay_between_minus_one_and_one_and_end_at_the_outcome(
    positions: list[tuple[float, int]], result: float, value_lambda: float
) -> None:
    search_values = np.array([value for value, _ in positions], dtype=np.float32)
    movers = np.array([mover for _, mover in positions])
    outcomes = np.where(movers == movers[-1], result, -result).astype(np.float32)
    returns = lambda_returns(outcomes, search_values, movers, value_lambda)
    assert returns[-1] == pytest.approx(outcomes[-1])
    assert np.all(np.abs(returns) <= 1.0 + 1e-6)
