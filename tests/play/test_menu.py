"""The numbered list of legal moves, and what any typed entry means in it."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zoo_games.catalog import find_variant
from zoo_games.play.language import language_of
from zoo_games.play.menu import Command, Mistake, Move, MoveMenu, _ranges
from zoo_games.santorini.rules import SantoriniGame, play_action
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame

E, W = 4, 3
SANTORINI = ["santorini-fixed", "santorini-placement"]


def menu_of(state) -> MoveMenu:
    return MoveMenu(state, language_of(state.game))


def test_togyz_moves_are_numbered_by_their_holes() -> None:
    state = TogyzKumalakGame().state_from_position("0,0,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 18 0 W")
    menu = menu_of(state)
    assert [entry.number for entry in menu.entries] == list(range(3, 10))
    assert menu.read("3") == Move(2)
    assert menu.read("34") == Mistake(  # hole 3 sows to Black's hole 2: '32'
        "'34' is not a legal move now: type a listed move such as '3' or its number (3-9), "
        "or help, undo, quit"
    )
    assert menu.read("1").message.startswith("'1' is not a legal move now")  # type: ignore[union-attr]


def test_santorini_lists_a_winning_climb_once() -> None:
    state = SantoriniGame().state_from_position(
        "23000/00000/00000/00000/00000 0,22;10,14 0 20,16,13,18"
    )
    menu = menu_of(state)
    climbs = [entry for entry in menu.entries if entry.name == "w0-E"]
    assert len(climbs) == 1
    assert menu.read("w0 e") == Move(climbs[0].action)
    assert menu.read("w0-E-W") == Move(play_action(0, E, W))  # the same climb: builds are moot


def test_commands_and_numbers() -> None:
    state = TogyzKumalakGame().new_initial_state()
    menu = menu_of(state)
    assert menu.read(" UNDO ") == Command("undo")
    assert menu.read("1") == Move(menu.entries[0].action)
    assert menu.lines()[0].startswith(f"   1. {menu.entries[0].name}")


def test_a_long_list_is_grouped_in_columns_and_numbered_in_order() -> None:
    state = SantoriniGame().new_initial_state()  # 64 turns: one line each would not fit
    menu = menu_of(state)
    lines = menu.lines()
    assert lines[0].startswith("  1-5. w0-W: W E SW S SE ")
    assert lines[0].endswith("33-39. w1-NW: N NE W E SW S SE")
    assert len(lines) == 5 and max(map(len, lines)) <= 80
    assert menu.heading().startswith("legal moves ('w0-W: W E' is w0-W-W, w0-W-E, numbered")
    assert menu.read("2") == Move(play_action(0, W, E))  # the second of w0-W's group
    assert menu.read("33") == Move(menu.read("w1-NW-N").action)  # type: ignore[union-attr]


def test_a_number_too_long_for_int_is_a_mistake_too() -> None:
    # Python converts at most 4,300 digits; a longer entry is no move's number either.
    env = find_variant("togyz-kumalak").raw_env()
    env.reset(seed=0)
    meaning = menu_of(env.game_state).read("1" * 5000)
    assert isinstance(meaning, Mistake) and "there is no move number 111" in meaning.message
    # What was typed is repeated back cut short, not in full.
    assert f"there is no move number {'1' * 37}...:" in meaning.message
    assert len(meaning.message) < 400
    long_word = menu_of(env.game_state).read("x" * 5000)
    assert isinstance(long_word, Mistake) and f"unknown entry '{'x' * 37}...'" in long_word.message


def test_ranges_of_numbers() -> None:
    assert _ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"


@pytest.mark.parametrize("label", ["senet-skyruk-5", "togyz-kumalak", *SANTORINI])
@settings(max_examples=40, deadline=None)
@given(entry=st.text(max_size=12) | st.from_regex(r"[wr]?\d{1,3}[ -]?[nsewc]{0,2}\d?"))
@example(entry="\u00b2")  # a superscript 2: a digit to str.isdigit(), not a number to int()
def test_any_entry_is_a_legal_move_a_command_or_a_one_line_mistake(label, entry: str) -> None:
    env = find_variant(label).raw_env()
    env.reset(seed=0)
    state = env.game_state
    meaning = menu_of(state).read(entry)
    if isinstance(meaning, Move):
        assert meaning.action in state.legal_actions()
    elif isinstance(meaning, Mistake):
        assert "\n" not in meaning.message and meaning.message.endswith("or help, undo, quit")
    else:
        assert isinstance(meaning, Command)
