"""Senet's plain reference (``zoo_games/senet/reference.py``): by hand, and as the core's oracle.

The hand-worked positions follow docs/senet.md rule by rule. The differential tests play
seeded random games (throws drawn with the stick rule's probabilities) in the rules core and in
the reference side by side: at every step the player to act, the legal actions or chance
outcomes, the position string, and at the end the returns must agree.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zoo_games.catalog import find_variant, variants
from zoo_games.core.game import CHANCE, TERMINAL
from zoo_games.senet import reference
from zoo_games.senet.reference import after_action, from_position, legal_actions
from zoo_games.senet.rules import SenetGame

LABELS = [v.label for v in variants() if v.label.startswith("senet-")]
GAMES_PER_VARIANT = 300
#: A con far behind keeps the cons in the game in positions about the spools.
FAR_CON = 1


def board(spools: tuple[int, ...], cons: tuple[int, ...]) -> str:
    """The 30 houses with spools on ``spools`` and cons on ``cons``."""
    return "".join(
        "S" if house in spools else "C" if house in cons else "." for house in range(1, 31)
    )


def play(rules: str, text: str, action: int) -> str:
    position = from_position(text, rules)
    assert action in legal_actions(position)
    return reference.position_string(after_action(position, action))


# ---------------------------------------------------------------------- by hand
def test_the_sticks_give_1_to_5_with_4_6_4_1_1_sixteenths():
    assert reference.throw_outcomes() == [
        (1, Fraction(4, 16)),
        (2, Fraction(6, 16)),
        (3, Fraction(4, 16)),
        (4, Fraction(1, 16)),
        (5, Fraction(1, 16)),
    ]


@pytest.mark.parametrize("num_pieces", [5, 7])
def test_the_start_alternates_dancers_cons_first_and_the_spools_throw(num_pieces):
    position = reference.initial_position("skyruk", num_pieces)
    assert position.board == "CS" * num_pieces + "." * (30 - 2 * num_pieces)
    assert reference.current_player(position) == CHANCE
    assert reference.current_player(reference.after_throw(position, 3)) == 0


@pytest.mark.parametrize("throw,next_side", [(1, "S"), (2, "C"), (3, "C"), (4, "S"), (5, "S")])
def test_throws_of_1_4_5_give_another_throw_2_and_3_pass_the_turn(throw, next_side):
    text = f"{board((10,), (FAR_CON,))} S {throw}"
    assert play("kendall", text, throw) == f"{board((10 + throw,), (FAR_CON,))} {next_side}"


def test_dancers_are_counted_from_the_rear_and_backward_is_11_minus_steps():
    assert legal_actions(from_position(f"{board((3, 9, 14), (1,))} S 2")) == [2, 12, 22]
    # The spool on 20 cannot go forward past Kendall's blockade of five: it goes back 5.
    text = f"{board((20,), (21, 22, 23, 24, 25))} S 5"
    assert legal_actions(from_position(text)) == [6]


def test_a_pass_only_when_nothing_moves_and_it_hands_the_turn_over_even_on_a_4():
    text = f"{board((1,), (2, 3, 4, 5, 6))} S 4"  # forward: a blockade; backward: off the path
    assert legal_actions(from_position(text)) == [0]
    assert play("kendall", text, 0) == f"{board((1,), (2, 3, 4, 5, 6))} C"


def test_landing_on_a_lone_opponent_swaps_them():
    text = f"{board((5,), (8, FAR_CON))} S 3"
    assert play("kendall", text, 3) == f"{board((8,), (5, FAR_CON))} C"


@pytest.mark.parametrize("rules,beatable", [("kendall", False), ("skyruk", True)])
def test_the_inner_dancer_of_a_row_of_three_can_be_beaten_only_under_skyruk(rules, beatable):
    # Reading 2: the spool on 7 with cons on 8, 9, 10 may beat the con on 9 with a 2 (Skyruk).
    position = from_position(f"{board((7,), (8, 9, 10))} S 2", rules)
    assert (2 in legal_actions(position)) is beatable


@pytest.mark.parametrize(
    "rules,cons,blocked", [("kendall", (8, 9), False), ("skyruk", (8, 9), True)]
)
def test_a_blockade_is_three_in_a_row_for_kendall_two_for_skyruk(rules, cons, blocked):
    position = from_position(f"{board((7,), cons)} S 4", rules)
    assert (4 not in legal_actions(position)) is blocked


def test_the_house_of_rebirth_is_safe():
    position = from_position(f"{board((12,), (15, FAR_CON))} S 3")
    assert 3 not in legal_actions(position)


def test_kendall_needs_the_exact_throw_to_reach_happiness_skyruk_stops_there():
    text = f"{board((25, 3), (1,))} S 3"
    assert legal_actions(from_position(text, "kendall")) == [3]  # only the rear spool moves
    assert play("skyruk", text, 13) == f"{board((3, 26), (1,))} S"  # a re-throw is due


def test_kendall_a_1_from_happiness_drowns_and_the_dancer_is_reborn_before_a_taken_15():
    text = f"{board((26,), (15, FAR_CON))} S 1"
    assert play("kendall", text, 1) == f"{board((14,), (15, FAR_CON))} S"


def test_skyruk_rethrow_moves_only_the_dancer_on_happiness():
    position = from_position(f"{board((3, 26), (1,))} S 2", "skyruk")
    assert legal_actions(position) == [12]
    assert play("skyruk", f"{board((3, 26), (1,))} S 2", 12) == f"{board((3, 28), (1,))} C"


def test_skyruk_a_5_in_the_water_waits_there_and_passes_the_turn():
    assert play("skyruk", f"{board((27,), (1,))} S 5", 5) == f"{board((27,), (1,))} C"


def test_skyruk_re_horakhty_bears_off_with_any_throw_kendall_only_with_a_1():
    text = f"{board((30, 5), (1,))} S 2"
    assert play("skyruk", text, 12) == f"{board((5,), (1,))} C"
    assert legal_actions(from_position(text, "kendall")) == [2]


def test_bearing_off_the_last_dancer_wins_and_ends_the_game():
    position = after_action(from_position(f"{board((30,), (1,))} S 1"), 1)
    assert reference.current_player(position) == TERMINAL
    assert reference.returns(position) == (1.0, -1.0)
    assert legal_actions(position) == []


# ---------------------------------------------------------------------- the core against it
@pytest.mark.parametrize("label", LABELS)
def test_the_core_plays_like_the_reference_in_seeded_random_games(label, against_the_reference):
    game = find_variant(label).raw_env().game
    decisions = sum(against_the_reference(game, seed) for seed in range(GAMES_PER_VARIANT))
    assert decisions > 100 * GAMES_PER_VARIANT


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(["kendall", "skyruk"]),
    num_pieces=st.sampled_from([5, 7]),
)
def test_the_core_plays_like_the_reference_for_any_seed(
    seed, rules, num_pieces, against_the_reference
):
    against_the_reference(SenetGame(rules, num_pieces), seed)


#: Positions near the rarer rules: the House of Water, Rebirth taken, blockades, the last houses.
ENDGAMES = [
    ("skyruk", f"{board((24, 27, 29), (25, 28, 30))} S"),
    ("skyruk", f"{board((13, 14, 15, 22, 26), (11, 12, 27))} S 1"),
    ("kendall", f"{board((12, 13, 14, 15, 26), (20, 21, 22, 28))} S"),
    ("kendall", f"{board((2, 3, 4, 18, 19), (5, 6, 7, 8, 30))} C"),
    ("skyruk", f"{board((2, 3, 4, 18, 19), (5, 6, 7, 8, 30))} C"),
]


@pytest.mark.parametrize("rules,start", ENDGAMES)
def test_the_core_plays_like_the_reference_from_endgames(rules, start, against_the_reference):
    for seed in range(40):
        against_the_reference(SenetGame(rules), seed, start)
