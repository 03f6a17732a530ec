"""Togyz Kumalak invariants over random legal play (Hypothesis draws the seed)."""

from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.togyz_kumalak import reference
from zoo_games.togyz_kumalak.holes import (
    HOLES_PER_SIDE,
    NO_TUZDUK,
    TOTAL_BALLS,
    hole_number,
    side_of,
)
from zoo_games.togyz_kumalak.observation import (
    BOARD_LENGTH,
    BoardObserver,
    CapturesObserver,
    TesauroObserver,
)
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame

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


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_moves_equal_the_ball_by_ball_reference(seed):
    # The rules core sows a stretch at a time; the reference (zoo_games/togyz_kumalak/
    # reference.py) drops one ball after another, and settles atsis kalu its own way too.
    rng = random.Random(seed)
    state = TogyzKumalakGame(stop_at_majority=False).new_initial_state()
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        position = reference.from_state(state)
        _, _, (_, last_number) = reference.sow(position, action + 1)
        expected = reference.after_action(position, action)
        state.apply_action(action)
        assert state.moves[-1][:2] == f"{action + 1}{last_number}"
        assert state.position() == reference.position_string(expected)


def tesauro_by_formula(state):
    """The 128 Tesauro values computed straight from the formulas of the docs."""
    values = []
    for side in (0, 1):
        for number in range(9):
            hole = 9 * side + number
            n = state.holes[hole]
            common = [(n % 9) / 8, (n % 18) / 17, n / 9]
            if number < 8:
                values += [n >= 1, n >= 2, n % 2, *common, hole in state.tuzduk]
            else:
                values += [n >= 1, n % 2, *common]
        kazan, other = state.kazans[side], state.kazans[1 - side]
        values += [min(kazan, 82) / 82, kazan > other]
    playing = state.winner < 0
    values += [playing and state.mover == 0, playing and state.mover == 1]
    return np.array(values, dtype=np.float32)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_tesauro_observation_equals_its_formulas_all_game(seed):
    rng = random.Random(seed)
    observer = TesauroObserver()
    state = TogyzKumalakGame().new_initial_state()
    while True:
        for player in (0, 1):
            observed = observer.observe(state, player)
            np.testing.assert_array_equal(observed, tesauro_by_formula(state))
            assert observer.space.contains(observed)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_sowing_effects_equal_the_ball_by_ball_reference_all_game(seed):
    # Every hole of both players, as if its owner were to move, against the reference's
    # sowing; positions after which the reference ends the game by atsis kalu are skipped,
    # as that settlement is not part of a sowing's effect.
    rng = random.Random(seed)
    state = TogyzKumalakGame(stop_at_majority=False).new_initial_state()
    while not state.is_terminal():
        for hole in range(2 * HOLES_PER_SIDE):
            if not state.holes[hole]:
                continue
            owner = side_of(hole)
            position = dataclasses.replace(reference.from_state(state), mover=owner)
            after = reference.after_action(position, hole % HOLES_PER_SIDE)
            if reference.cannot_move(after):
                continue
            gains = [after.kazans[p] - position.kazans[p] for p in (owner, 1 - owner)]
            made = after.tuzduks[owner] != position.tuzduks[owner]
            assert state.sowing_effect(hole) == (gains[0], gains[1], made)
        state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_captures_observation_reads_the_sowing_effects_all_game(seed):
    # The observer reads the effects off tables for speed; they must be sowing_effect's.
    rng = random.Random(seed)
    observer = CapturesObserver()
    board = BoardObserver()
    state = TogyzKumalakGame(stop_at_majority=False).new_initial_state()
    while True:
        for player in (0, 1):
            observed = observer.observe(state, player)
            expected = np.zeros((2, 3, HOLES_PER_SIDE), dtype=np.uint8)
            for block, side in enumerate((player, 1 - player)):
                for number in range(HOLES_PER_SIDE):
                    hole = side * HOLES_PER_SIDE + number
                    if state.holes[hole]:
                        expected[block, :, number] = state.sowing_effect(hole)
            np.testing.assert_array_equal(observed[:BOARD_LENGTH], board.observe(state, player))
            np.testing.assert_array_equal(observed[BOARD_LENGTH:], expected.ravel())
            assert observer.space.contains(observed)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
