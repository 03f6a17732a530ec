"""Togyz Kumalak's plain reference (``zoo_games/togyz_kumalak/reference.py``) and the core.

The hand-worked positions follow docs/togyz_kumalak.md rule by rule (positions are
``"<white holes>/<black holes> <white kazan> <black kazan> <mover>"``). The differential tests
play seeded random games in the rules core and in the reference side by side, for every
variant of the catalog: at every move the legal actions, the position string after the move,
and at the end the returns must agree.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zoo_games.catalog import find_variant, variants
from zoo_games.core.game import TERMINAL
from zoo_games.togyz_kumalak import reference
from zoo_games.togyz_kumalak.reference import after_action, from_position, legal_actions
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame

LABELS = [v.label for v in variants() if v.label.startswith("togyz-kumalak")]
GAMES_PER_VARIANT = 300
START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 W"


def play(text: str, action: int, stop_at_majority: bool = True) -> str:
    position = from_position(text, stop_at_majority)
    assert action in legal_actions(position)
    return reference.position_string(after_action(position, action))


# ---------------------------------------------------------------------- by hand
def test_the_start_has_nine_balls_in_every_hole_and_white_moves():
    position = reference.initial_position()
    assert reference.position_string(position) == START
    assert legal_actions(position) == list(range(9))


def test_sowing_puts_the_first_ball_back_into_the_hole_it_came_from():
    assert play(START, 0) == "1,10,10,10,10,10,10,10,10/9,9,9,9,9,9,9,9,9 0 0 B"


def test_a_last_ball_making_an_opponents_hole_even_captures_it():
    # Hole 9's balls: one back into it, eight into Black's holes 1-8; Black's 8 now holds 10.
    assert play(START, 8) == "9,9,9,9,9,9,9,9,1/10,10,10,10,10,10,10,0,9 10 0 B"


def test_a_lone_ball_goes_to_the_next_hole():
    text = "1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 80 W"
    assert play(text, 0) == "0,1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 80 B"


def test_a_last_ball_making_three_makes_a_tuzduk():
    text = "1,0,0,0,0,0,0,0,2/2,1,0,0,0,0,0,0,0 78 78 W"
    assert play(text, 8) == "1,0,0,0,0,0,0,0,1/X,1,0,0,0,0,0,0,0 81 78 B"


def test_the_ninth_hole_never_becomes_a_tuzduk():
    text = "1,0,0,0,0,0,0,0,10/0,0,0,0,0,0,0,0,2 75 74 W"
    assert play(text, 8) == "1,0,0,0,0,0,0,0,1/1,1,1,1,1,1,1,1,3 75 74 B"


def test_no_second_tuzduk_and_none_facing_the_opponents():
    # White already owns Black's hole 1: Black's hole 2 at three stays as it is.
    text = "1,0,0,0,0,0,0,0,3/X,2,0,0,0,0,0,0,0 78 78 W"
    assert play(text, 8) == "1,0,0,0,0,0,0,0,1/X,3,0,0,0,0,0,0,0 79 78 B"
    # Black owns White's hole 2: White may not take Black's hole 2.
    text = "1,X,0,0,0,0,0,0,3/1,2,0,0,0,0,0,0,0 76 79 W"
    assert play(text, 8) == "1,X,0,0,0,0,0,0,1/2,3,0,0,0,0,0,0,0 76 79 B"


def test_a_ball_sown_into_a_tuzduk_goes_to_its_owner():
    text = "1,0,0,0,0,0,0,0,3/X,0,0,0,0,0,0,0,5 76 77 W"
    assert play(text, 8) == "1,0,0,0,0,0,0,0,1/X,1,0,0,0,0,0,0,5 77 77 B"


def test_atsis_kalu_gives_the_other_player_its_own_balls_and_81_81_is_a_draw():
    position = after_action(from_position("0,0,0,0,0,0,5,1,0/0,0,0,0,0,0,0,0,0 75 81 W"), 7)
    assert reference.position_string(position) == ("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 B")
    assert reference.current_player(position) == TERMINAL
    assert reference.result(position) == reference.DRAW
    assert reference.returns(position) == (0.0, 0.0)


@pytest.mark.parametrize("stop_at_majority", [True, False])
def test_82_balls_end_the_game_at_once_unless_it_is_played_out(stop_at_majority):
    text = "0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80 74 W"
    position = after_action(from_position(text, stop_at_majority), 8)
    assert reference.position_string(position) == "0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,5 82 74 B"
    assert reference.is_over(position) is stop_at_majority
    assert reference.returns(position) == ((1.0, -1.0) if stop_at_majority else (0.0, 0.0))


# ---------------------------------------------------------------------- the core against it
@pytest.mark.parametrize("label", LABELS)
def test_the_core_plays_like_the_reference_in_seeded_random_games(label, against_the_reference):
    game = find_variant(label).game
    decisions = sum(against_the_reference(game, seed) for seed in range(GAMES_PER_VARIANT))
    assert decisions > 50 * GAMES_PER_VARIANT


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), stop_at_majority=st.booleans())
def test_the_core_plays_like_the_reference_for_any_seed(
    seed, stop_at_majority, against_the_reference
):
    against_the_reference(TogyzKumalakGame(stop_at_majority), seed)


#: Late positions: few balls left, tuzduks made, kazans near 81.
ENDGAMES = [
    "1,X,0,0,0,0,0,0,3/1,2,0,0,0,0,0,0,0 76 79 W",
    "0,0,3,0,1,0,0,2,0/0,4,0,X,1,0,0,0,1 76 74 B",
    "2,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 79 W",
]


@pytest.mark.parametrize("stop_at_majority", [True, False])
@pytest.mark.parametrize("start", ENDGAMES)
def test_the_core_plays_like_the_reference_from_endgames(
    start, stop_at_majority, against_the_reference
):
    for seed in range(20):
        against_the_reference(TogyzKumalakGame(stop_at_majority), seed, start)
