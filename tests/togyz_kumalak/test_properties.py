"""Togyz Kumalak invariants over random legal play (Hypothesis draws the seed)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.togyz_kumalak.rules import (
    HOLES_PER_SIDE,
    NO_TUZDUK,
    TOTAL_BALLS,
    TogyzKumalakGame,
    hole_number,
    side_of,
)

MAX_MOVES = 2_000


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop_at_majority=st.booleans())
def test_random_play_keeps_balls_and_tuzduk_rules_and_ends(seed, stop_at_majority):
    rng = random.Random(seed)
    game = TogyzKumalakGame(stop_at_majority)
    state = game.new_initial_state()
    for _ in range(MAX_MOVES):
        assert sum(state.holes) + sum(state.kazans) == TOTAL_BALLS
        for owner, hole in enumerate(state.tuzduk):
            if hole != NO_TUZDUK:
                assert side_of(hole) == 1 - owner  # in the opponent's row
                assert hole_number(hole) != HOLES_PER_SIDE  # never a ninth hole
                assert state.holes[hole] == 0
        if NO_TUZDUK not in state.tuzduk:
            assert hole_number(state.tuzduk[0]) != hole_number(state.tuzduk[1])
        if state.is_terminal():
            break
        legal = state.legal_actions()
        first = HOLES_PER_SIDE * state.mover
        assert legal == [a for a in range(9) if state.holes[first + a] > 0]
        copy = game.state_from_position(state.position())
        assert copy.position() == state.position()
        before = state.tuzduk[:]
        state.apply_action(rng.choice(legal))
        assert all(b in (NO_TUZDUK, a) for b, a in zip(before, state.tuzduk, strict=True))
    assert state.is_terminal()
    white, black = state.kazans
    expected = (1.0, -1.0) if white > black else (-1.0, 1.0) if black > white else (0.0, 0.0)
    assert state.returns() == expected
    restored = pickle.loads(pickle.dumps(state))
    assert restored.position() == state.position() and restored.moves == state.moves
