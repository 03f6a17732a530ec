"""Each game's move names for terminal play (``zoo_games/<game>/moves.py``), on worked positions."""

from __future__ import annotations

import importlib

import pytest

from zoo_games.catalog import variants
from zoo_games.play.language import MoveLanguage, language_of, normalise
from zoo_games.santorini import moves as santorini_moves
from zoo_games.santorini.rules import SantoriniGame, SantoriniState, play_action
from zoo_games.senet import moves as senet_moves
from zoo_games.senet.rules import PASS, SenetGame
from zoo_games.togyz_kumalak import moves as togyz_moves
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame

N, NE, W, E, S, SE, NW, SW = 1, 2, 3, 4, 6, 7, 0, 5


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.label)
def test_every_variant_names_every_legal_move_uniquely(variant) -> None:
    env = variant.raw_env()
    env.reset(seed=1)
    state = env.game_state
    language = language_of(env.game)
    shown = [language.move_names(state, action)[0] for action in state.legal_actions()]
    assert all(language.is_move_syntax(normalise(name)) for name in shown)
    assert len(set(shown)) == len(shown)
    assert len(language.SIDE_NAMES) == 2


@pytest.mark.parametrize("game", ["senet", "togyz_kumalak", "santorini"])
def test_every_game_has_a_complete_moves_module(game: str) -> None:
    module = importlib.import_module(f"zoo_games.{game}.moves")
    wanted = {name for name in vars(MoveLanguage) if not name.startswith("_")}
    wanted |= set(MoveLanguage.__annotations__)
    assert {name for name in wanted if not hasattr(module, name)} == set()


def test_senet_names_a_move_by_the_houses_left_and_reached() -> None:
    state = SenetGame().state_from_position("CSCSCSCS.................S.... S 5")
    names = {senet_moves.move_names(state, a)[0]: a for a in state.legal_actions()}
    assert set(names) == {"2-7", "4-9", "6-11", "8-13", "26-off"}
    assert senet_moves.describe(state, names["2-7"]) == "dancer 0: 2->7 (beats the dancer there)"
    assert senet_moves.turn_note(state) == "to move, throw 5"


def test_senet_names_the_pass_and_the_wait_in_the_water() -> None:
    blocked = SenetGame().state_from_position("SCCC.......................... S 2")
    assert blocked.legal_actions() == [PASS]
    assert senet_moves.move_names(blocked, PASS) == ("pass",)
    assert senet_moves.describe(blocked, PASS) == "no dancer can move with this throw"
    waiting = SenetGame("skyruk").state_from_position("CSCSCSCS..................S... S 5")
    assert "27-27" in {senet_moves.move_names(waiting, a)[0] for a in waiting.legal_actions()}


def test_senet_announces_extra_turns_and_skyruks_rethrow() -> None:
    before = SenetGame().state_from_position("CSCSCSCS.................S.... S 5")
    after = before.clone()
    after.apply_action(5)  # 2-7, then the sticks are thrown again
    after.apply_action(3)
    assert senet_moves.announce(before, 5, after) == (
        "extra turn: the spools threw 5 and throw again: 3"
    )
    to_happiness = SenetGame("skyruk").state_from_position("CSCSCSCS................S..... S 3")
    action = next(a for a, move in to_happiness.legal_moves().items() if move == (25, 26))
    after = to_happiness.clone()
    after.apply_action(action)
    after.apply_action(2)
    assert senet_moves.announce(to_happiness, action, after) == (
        "re-throw from the House of Happiness: the spools throw 2"
    )
    passing = SenetGame().state_from_position("CSCSCSCS.................S.... S 2")
    after = passing.clone()
    after.apply_action(32)  # 8-10: the turn passes on a 2
    assert senet_moves.announce(passing, 32, after) is None


def test_senet_score_counts_dancers_borne_off() -> None:
    state = SenetGame().state_from_position("CSCSCSCS.................S.... S 5")
    assert senet_moves.score(state) == "dancers borne off: spools 0 of 5, cons 1 of 5"


def test_togyz_names_a_move_by_its_hole_and_its_notation() -> None:
    state = TogyzKumalakGame().new_initial_state()
    assert togyz_moves.move_names(state, 6) == ("7", "76")
    assert togyz_moves.describe(state, 6) == "sow hole 7 (76), kazan +10"
    assert togyz_moves.describe(state, 0) == "sow hole 1 (19)"
    assert togyz_moves.is_move_syntax("36x") and not togyz_moves.is_move_syntax("10")


def test_togyz_describes_a_tuzduk() -> None:
    state = TogyzKumalakGame().state_from_position("0,0,0,0,0,0,0,0,3/2,2,0,0,0,0,0,0,7 79 69 W")
    assert togyz_moves.move_names(state, 8) == ("9", "92x")
    assert togyz_moves.describe(state, 8) == "sow hole 9 (92x), makes a tuzduk, kazan +3"
    assert togyz_moves.score(state) == "kazans: White 79, Black 69"


def test_santorini_names_worker_move_and_build_directions() -> None:
    state = SantoriniGame().new_initial_state()  # workers on r0c2, r4c2 and r2c0, r2c4
    action = play_action(0, S, S)
    assert santorini_moves.move_names(state, action) == ("w0-S-S", "0 S S", "A S S")
    assert santorini_moves.describe(state, action) == (
        "worker 0 S to r1c2, build level 1 S on r2c2"
    )
    assert santorini_moves.turn_note(state) == "to move and build"
    state.apply_action(action)  # player_1 to act: its workers are Y and Z
    assert santorini_moves.move_names(state, play_action(1, N, N)) == ("w1-N-N", "1 N N", "Z N N")


def test_santorini_names_a_winning_climb_without_its_build() -> None:
    state = SantoriniGame().state_from_position(
        "23000/00000/00000/00000/00000 0,22;10,14 0 20,16,13,18"
    )
    action = play_action(0, E, W)
    assert santorini_moves.move_names(state, action)[:2] == ("w0-E", "0 E")
    assert "w0-E-W" in santorini_moves.move_names(state, action)


def test_santorini_names_a_placement_by_its_cell() -> None:
    state = SantoriniGame("placement").new_initial_state()
    assert santorini_moves.move_names(state, 128 + 13) == ("r2c3",)
    assert santorini_moves.turn_note(state) == "to place a worker"


def test_santorini_score_tells_who_climbed_or_who_was_stuck() -> None:
    game = SantoriniGame()
    heights = bytes([3] + [0] * 24)
    climbed = SantoriniState(game, heights, [0, 22, 10, 14], 1, [22, 18, 14, 18], winner=0)
    assert santorini_moves.score(climbed) == "yellow climbed to level 3"
    stuck = SantoriniState(game, bytes(25), [0, 22, 10, 14], 1, [22, 18, 14, 18], winner=0)
    assert santorini_moves.score(stuck) == "red was stuck: no worker could move and then build"


@pytest.mark.parametrize(
    ("typed", "normalised"),
    [("W0-N-S", "w0 n s"), ("  0 n  s ", "0 n s"), ("14-17", "14 17"), ("26 - OFF", "26 off")],
)
def test_entries_and_names_compare_in_one_form(typed: str, normalised: str) -> None:
    assert normalise(typed) == normalised
