"""Each game's evaluation: bounded, zero-sum, the return at the end, and its terms by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.agents.evaluation import evaluation_for, winning_actions
from zoo_games.catalog import find_variant, labels
from zoo_games.core.game import CHANCE


def game_of(label: str):
    return find_variant(label).game


@settings(max_examples=15, deadline=None)
@given(label=st.sampled_from(labels()), seed=st.integers(0, 2**32 - 1))
def test_evaluations_are_bounded_zero_sum_and_the_return_at_the_end(label, seed):
    rng = random.Random(seed)
    state = game_of(label).new_initial_state()
    evaluate = evaluation_for(state.game.name)
    while True:
        values = evaluate(state, 0), evaluate(state, 1)
        assert -1.0 <= values[0] <= 1.0 and values[0] == -values[1]
        if state.is_terminal():
            assert values == state.returns()
            return
        assert abs(values[0]) < 1.0  # a game not over never scores like a win
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
        else:
            legal = state.legal_actions()
            won = set()
            for action in legal:
                child = state.clone()
                child.apply_action(action)
                if child.is_terminal() and child.returns()[state.current_player()] > 0:
                    won.add(action)
            # A game's own finder may name one action per winning move (Santorini: one
            # build direction of eight), never a move that does not win.
            wins = set(winning_actions(state))
            assert wins <= won and bool(wins) == bool(won)
            state.apply_action(legal[rng.randrange(len(legal))])


def test_togyz_kumalak_counts_kazans_and_tuzduks():
    game = game_of("togyz-kumalak")
    evaluate = evaluation_for("togyz_kumalak")
    assert evaluate(game.new_initial_state(), 0) == 0.0
    nine = "9,9,9,9,9,9,9,9,9"
    # White's kazan 10 ahead (10 balls taken from Black's holes 1 and 2): 10 / 92.
    ahead = game.state_from_position(f"{nine}/4,4,9,9,9,9,9,9,9 10 0 W")
    assert evaluate(ahead, 0) == pytest.approx(10 / 92)
    assert evaluate(ahead, 1) == pytest.approx(-10 / 92)
    # White owns Black's hole 1 as a tuzduk (its 9 balls in White's kazan): 9 + 10 balls.
    tuzduk = game.state_from_position(f"{nine}/X,9,9,9,9,9,9,9,9 9 0 B")
    assert evaluate(tuzduk, 0) == pytest.approx(19 / 92)


def test_santorini_counts_heights_climbs_threats_and_free_cells():
    game = game_of("santorini-fixed")
    evaluate = evaluation_for("santorini")
    assert evaluate(game.new_initial_state(), 0) == pytest.approx(0.0)
    state = game.state_from_position("23000/00000/00000/00000/00000 0,22;10,14 1 20,16,13,18")
    # player_0's worker on cell 0 stands on level 2 (0.2) next to the free level-3 cell 1
    # (a threat: 0.3) and can move to cells 1, 5 and 6 (0.03); its worker on cell 22 can
    # move to 5 cells of level 0 (0.05). player_1's workers on 10 and 14: 5 cells each.
    assert evaluate(state, 0) == pytest.approx(0.2 + 0.3 + 0.03 + 0.05 - 0.10)


def test_senet_counts_progress_safety_and_blockades():
    game = game_of("senet-kendall-5")
    evaluate = evaluation_for("senet")
    # At the start the spools (2, 4, ..., 10) stand 5 houses ahead of the cons (1, 3, ..., 9)
    # and no dancer has a neighbour of its side.
    assert evaluate(game.new_initial_state(), 0) == pytest.approx(0.8 * 5 / 155)
    board = ["."] * 30
    for house in (1, 3, 5, 7, 9):
        board[house - 1] = "C"
    for house in (19, 20, 21, 23, 24):
        board[house - 1] = "S"
    state = game.state_from_position("".join(board) + " S")
    # Progress 107 - 25; all 5 spools protected by a neighbour; 19-21 is a blockade of 3.
    expected = 0.8 * (107 - 25) / 155 + 0.1 * 5 / 5 + 0.1 * 3 / 5
    assert evaluate(state, 0) == pytest.approx(expected)
    assert evaluate(state, 1) == pytest.approx(-expected)


def test_senet_scores_a_chance_node_as_the_expectation_over_the_throws():
    # What greedy relies on: the evaluation ignores the throw, so a chance node's score is
    # the probability-weighted score of the states after each throw.
    game = game_of("senet-skyruk-7")
    evaluate = evaluation_for("senet")
    state = game.state_from_position("C.S.CS..C.S.C..S...C...S..CS.S..S.C.C"[:30] + " C")
    assert state.is_chance_node()
    expected = 0.0
    for throw, probability in state.chance_outcomes():
        child = state.clone()
        child.apply_action(throw)
        expected += probability * evaluate(child, 1)
    assert evaluate(state, 1) == pytest.approx(expected)


def test_unknown_games_have_no_evaluation():
    with pytest.raises(ValueError, match="has no evaluation"):
        evaluation_for("chess")
