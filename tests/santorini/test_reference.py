"""Santorini's plain reference (``zoo_games/santorini/reference.py``) and the core.

The hand-worked positions follow docs/santorini.md rule by rule (positions are
``"<heights> <workers> <mover> <parts>"``, cells ``5 * row + column``). The differential tests
play seeded random games in the rules core and in the reference side by side, with both
set-ups: at every decision the legal actions, the position string after every action, and at
the end the returns must agree.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zoo_games.catalog import find_variant, variants
from zoo_games.core.game import TERMINAL
from zoo_games.santorini import reference
from zoo_games.santorini.reference import after_action, from_position, legal_actions, turn_action
from zoo_games.santorini.rules import SantoriniGame

LABELS = [v.label for v in variants() if v.label.startswith("santorini-")]
GAMES_PER_VARIANT = 300
START = "00000/00000/00000/00000/00000 2,22;10,14 0 22,18,14,18"
NW, N, NE, W, E, SW, S, SE = range(8)


def play(text: str, action: int, setup: str = "fixed") -> str:
    position = from_position(text, setup)
    assert action in legal_actions(position)
    return reference.position_string(after_action(position, action))


# ---------------------------------------------------------------------- by hand
def test_the_fixed_start_has_64_turns():
    # The worker on cell 2 moves W, E (5 builds each on the top edge), SW (7), S (8) or SE (7);
    # the worker on 22 mirrors it.
    position = reference.initial_position()
    assert reference.position_string(position) == START
    assert len(legal_actions(position)) == 64


def test_a_worker_moves_then_builds_next_to_its_new_cell_and_the_turn_passes():
    assert play(START, turn_action(0, S, S)) == (
        "00000/00000/00100/00000/00000 7,22;10,14 1 21,18,14,18"
    )


def test_the_cell_just_left_may_be_built_on():
    assert play(START, turn_action(0, S, N)) == (
        "00100/00000/00000/00000/00000 7,22;10,14 1 21,18,14,18"
    )


def test_a_worker_climbs_at_most_one_level_and_never_onto_a_dome():
    position = from_position("02000/14000/00000/00000/00000 0,24;12,18 0 20,17,13,17")
    moves = {action // 8 for action in legal_actions(position) if action < 64}
    assert moves == {turn_action(0, S, 0) // 8}  # level 1 on cell 5; not level 2, not the dome


def test_a_dome_goes_on_level_3_only_while_domes_are_left():
    text = "00030/00000/00000/00000/00000 7,24;12,18 0 21,17,13,{domes}"
    assert play(text.format(domes=18), turn_action(0, N, E)).startswith("00040/")
    assert turn_action(0, N, E) not in legal_actions(from_position(text.format(domes=0)))


def test_climbing_onto_level_3_wins_with_any_build_direction_and_builds_nothing():
    position = from_position("23000/00000/00000/00000/00000 0,24;12,18 0 20,16,13,18")
    wins = [turn_action(0, E, build) for build in range(8)]
    assert set(wins) <= set(legal_actions(position))
    after = after_action(position, wins[0])
    assert reference.position_string(after) == (
        "23000/00000/00000/00000/00000 1,24;12,18 0 20,16,13,18"
    )
    assert reference.current_player(after) == TERMINAL
    assert reference.returns(after) == (1.0, -1.0)


def test_a_player_with_no_legal_turn_loses():
    # player_1's workers on 0 and 1 are hemmed in once player_0's worker leaves 10 for 5.
    position = from_position("00400/04400/00000/00000/00000 10,24;0,1 0 19,15,11,15")
    after = after_action(position, turn_action(0, N, S))
    assert legal_actions(after) == []
    assert reference.returns(after) == (1.0, -1.0)


def test_placement_goes_player_0_twice_then_player_1_twice_then_player_0_moves():
    position = reference.initial_position("placement")
    assert legal_actions(position) == [128 + cell for cell in range(25)]
    for cell, mover in ((12, 0), (0, 0), (24, 1), (4, 1)):
        assert position.mover == mover
        position = after_action(position, 128 + cell)
    assert reference.position_string(position) == (
        "00000/00000/00000/00000/00000 12,0;24,4 0 22,18,14,18"
    )
    assert all(action < 128 for action in legal_actions(position))


# ---------------------------------------------------------------------- the core against it
@pytest.mark.parametrize("label", LABELS)
def test_the_core_plays_like_the_reference_in_seeded_random_games(label, against_the_reference):
    game = find_variant(label).game
    decisions = sum(against_the_reference(game, seed) for seed in range(GAMES_PER_VARIANT))
    assert decisions > 15 * GAMES_PER_VARIANT


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(["fixed", "placement"]))
def test_the_core_plays_like_the_reference_for_any_seed(seed, setup, against_the_reference):
    against_the_reference(SantoriniGame(setup), seed)


#: Crowded boards where parts run out and workers get boxed in.
ENDGAMES = [
    ("fixed", "11111/11111/11111/11111/11000 0,24;12,18 0 0,18,14,18"),
    ("fixed", "22222/22122/21112/22222/22000 6,8;16,18 1 0,0,14,18"),
    ("fixed", "04000/04000/00000/00000/00000 0,24;12,18 0 20,16,12,16"),
    ("fixed", "22222/21012/20002/21012/22224 7,11;13,17 0 2,2,13,17"),
]


@pytest.mark.parametrize("setup,start", ENDGAMES)
def test_the_core_plays_like_the_reference_from_endgames(setup, start, against_the_reference):
    for seed in range(20):
        against_the_reference(SantoriniGame(setup), seed, start)


def test_a_placement_position_with_buildings_is_refused():
    # Workers are placed on the empty board, before any build: a loaded position with
    # unplaced workers and a building is no position of the game (it would let a worker be
    # placed on level 3, where a worker only stands after climbing there and winning).
    with pytest.raises(ValueError, match="workers are placed before anything is built"):
        SantoriniGame("placement").state_from_position(
            "30000/00000/00000/00000/00000 -,-;-,- 0 21,17,13,18"
        )
