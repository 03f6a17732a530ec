"""``zoo-games play`` driven by scripted standard input: every game, every kind of entry.

Sessions run through :func:`zoo_games.cli.main` with ``sys.stdin`` replaced by the script, so
each test reads what a player would see. A piped entry is echoed after its prompt
(``player_0 (spools)> 14-17``), which is how :func:`reply_to` finds what answered it.
"""

from __future__ import annotations

import io
import itertools
import sys

import pytest

from zoo_games.cli import main

SENET = ["senet-kendall-5", "senet-skyruk-5"]
ALL_PLAYED = [*SENET, "togyz-kumalak", "santorini-fixed", "santorini-placement"]


def play(monkeypatch, capsys, args: list[str], entries: list[str]) -> tuple[int, str]:
    """Run ``zoo-games play ARGS`` with ``entries`` as standard input; exit code and output."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{entry}\n" for entry in entries)))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert not err
    return code, out


def reply_to(out: str, entry: str, occurrence: int = 0) -> list[str]:
    """The lines printed after the prompt that echoed ``entry``, up to the next prompt."""
    lines = out.splitlines()
    echoes = [i for i, line in enumerate(lines) if line.endswith(f"> {entry}")]
    start = echoes[occurrence] + 1
    end = next((i for i in range(start, len(lines)) if "> " in lines[i]), len(lines))
    return lines[start:end]


def first_move_each_turn(count: int = 3000) -> list[str]:
    return ["1"] * count


# ---------------------------------------------------------------------- bad entries
BAD_ENTRIES = {
    # variant: (unknown word, out-of-range number, illegal move)
    "senet-kendall-5": ("foo", "99", "14-18"),
    "senet-skyruk-5": ("sticks", "0", "3-off"),
    "togyz-kumalak": ("sow", "10", "75"),
    "santorini-fixed": ("build", "200", "w0-N-N"),
    "santorini-placement": ("place", "26", "r9c9"),
}


@pytest.mark.parametrize("variant", list(BAD_ENTRIES))
def test_each_bad_entry_gets_one_line_and_a_new_prompt(variant, monkeypatch, capsys) -> None:
    unknown, out_of_range, illegal = BAD_ENTRIES[variant]
    code, out = play(
        monkeypatch,
        capsys,
        [variant, "--vs", "human", "--seed", "2"],
        ["", unknown, out_of_range, illegal, "quit"],
    )
    assert code == 0
    expected = {
        "": "? empty entry: type a listed move such as",
        unknown: f"? unknown entry '{unknown}': type a listed move such as",
        out_of_range: f"? there is no move number {out_of_range}: type a listed move",
        illegal: f"? '{illegal}' is not a legal move now: type a listed move such as",
    }
    for entry, start in expected.items():
        (line,) = reply_to(out, entry)
        assert line.startswith(start)
        assert line.endswith("or help, undo, quit")
    assert reply_to(out, "quit") == ["quit: the game is left unfinished"]


def test_togyz_accepts_a_hole_number_or_the_full_notation(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch, capsys, ["togyz-kumalak", "--vs", "human", "--seed", "0"], ["76", "7"]
    )
    assert reply_to(out, "76")[0] == "player_0 (White) plays 7: sow hole 7 (76), kazan +10"
    assert reply_to(out, "7")[0] == "player_1 (Black) plays 7: sow hole 7 (76), kazan +10"
    assert "   7. 7  sow hole 7 (76), kazan +10" in out  # listed under its hole number


def test_santorini_accepts_either_spelling_and_a_cell(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch,
        capsys,
        ["santorini-placement", "--vs", "human", "--seed", "0"],
        ["r2c2", "R0C0", "r4c4", "r0c4", "0 S S", "w0-n-n"],
    )
    assert reply_to(out, "r2c2")[0] == "player_0 (yellow) plays r2c2: place a worker on r2c2"
    assert reply_to(out, "R0C0")[0] == "player_0 (yellow) plays r0c0: place a worker on r0c0"
    assert "player_1 (red) to place a worker" in out
    assert reply_to(out, "0 S S")[0] == (
        "player_0 (yellow) plays w0-S-S: worker 0 S to r3c2, build level 1 S on r4c2"
    )
    assert reply_to(out, "w0-n-n")[0] == (
        "player_1 (red) plays w0-N-N: worker 0 N to r3c4, build level 1 N on r2c4"
    )


def test_santorini_takes_the_workers_as_the_help_names_them(monkeypatch, capsys) -> None:
    args = ["santorini-fixed", "--vs", "human", "--seed", "1"]  # A on r0c2, Z on r2c4
    _, out = play(monkeypatch, capsys, args, ["help", "A S S", "Z-N-N", "b n n"])
    assert "(w0 or 0, w1 or 1; or its letter on the board: A, B for player_0, Y, Z" in out
    assert reply_to(out, "A S S")[0] == (
        "player_0 (yellow) plays w0-S-S: worker 0 S to r1c2, build level 1 S on r2c2"
    )
    assert reply_to(out, "Z-N-N")[0].startswith("player_1 (red) plays w1-N-N: worker 1 N")
    assert reply_to(out, "b n n")[0].startswith("player_0 (yellow) plays w1-N-N: worker 1 N")


@pytest.mark.parametrize("entry", ["-1", "+3", "- 2"])
def test_a_signed_number_is_no_hole(monkeypatch, capsys, entry) -> None:
    _, out = play(monkeypatch, capsys, ["togyz-kumalak", "--seed", "0"], [entry])
    assert reply_to(out, entry)[0] == (
        f"? there is no move number {entry}: type a listed move such as '1' or its number "
        "(1-9), or help, undo, quit"
    )


@pytest.mark.parametrize("variant", ["santorini-fixed", "santorini-placement"])
def test_a_turn_fits_a_24_line_terminal(monkeypatch, capsys, variant) -> None:
    # From the board to the prompt, every turn of a whole game between two people.
    _, out = play(monkeypatch, capsys, [variant, "--vs", "human", "--seed", "5"], ["1"] * 200)
    turns = out.split("\nSantorini (")[1:]
    assert len(turns) > 5
    for turn in turns:
        shown = turn.split("> ")[0].splitlines()
        assert len(shown) <= 23  # and the prompt's line
        assert max(len(line) for line in shown) <= 80


def test_help_says_what_to_type(monkeypatch, capsys) -> None:
    _, out = play(monkeypatch, capsys, ["senet-kendall-5", "--seed", "3"], ["help"])
    shown = reply_to(out, "help")
    assert shown[0].startswith("moves: type the house a dancer leaves and the house it reaches")
    assert (
        shown[1]
        == "here: type a listed move such as '2-3' or its number (1-5), or help, undo, quit"
    )
    assert [line.split()[0] for line in shown[2:]] == ["help", "undo", "quit"]


# ---------------------------------------------------------------------- undo, quit, end of input
def test_undo_goes_back_to_your_previous_decision_past_the_agents_replies(
    monkeypatch, capsys
) -> None:
    _, out = play(
        monkeypatch,
        capsys,
        ["togyz-kumalak", "--vs", "random", "--seed", "4"],
        ["7", "undo", "undo"],
    )
    undone = reply_to(out, "undo")
    assert undone[0].startswith("undone: player_0 (White) 7, player_1 (Black) ")
    decisions = out.split("\nTogyz Kumalak (X")  # White, Black (the agent), White, White
    assert len(decisions) == 5
    assert decisions[4].split("> ")[0] == decisions[1].split("> ")[0]  # board and moves again
    assert reply_to(out, "undo", 1) == ["nothing to undo: no move of yours has been played yet"]


def test_undo_with_two_people_takes_back_one_decision(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch, capsys, ["togyz-kumalak", "--vs", "human", "--seed", "0"], ["7", "5", "undo"]
    )
    assert reply_to(out, "undo")[0] == "undone: player_1 (Black) 5"
    assert out.endswith("player_1 (Black)> \nend of input: the game is left unfinished\n")


def test_undo_restores_the_throw_of_that_moment(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch, capsys, ["senet-kendall-5", "--vs", "random", "--seed", "6"], ["1", "undo"]
    )
    decisions = out.split("\nSenet (kendall")
    first, after_undo = decisions[1], decisions[-1]
    assert after_undo.split("player_0 (spools)>")[0] == first.split("player_0 (spools)>")[0]


def test_nothing_to_undo_when_the_agent_alone_has_played(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch,
        capsys,
        ["togyz-kumalak", "--vs", "random", "--seat", "second", "--seed", "1"],
        ["undo"],
    )
    assert "player_0 (White) plays" in out.split("player_1 (Black)>")[0]
    assert reply_to(out, "undo") == ["nothing to undo: no move of yours has been played yet"]


def test_end_of_input_ends_the_game_cleanly(monkeypatch, capsys) -> None:
    code, out = play(monkeypatch, capsys, ["santorini-fixed", "--seed", "0"], [])
    assert code == 0
    assert out.endswith("player_0 (yellow)> \nend of input: the game is left unfinished\n")


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("variant", ALL_PLAYED)
def test_a_whole_game_by_script_ends_with_the_result_and_score(
    variant, monkeypatch, capsys
) -> None:
    # Togyz Kumalak lists moves by hole, so "1" is not always there: try the holes in turn.
    entries = (
        [str(hole) for _, hole in zip(range(4000), itertools.cycle(range(1, 10)))]
        if variant.startswith("togyz")
        else first_move_each_turn()
    )
    code, out = play(monkeypatch, capsys, [variant, "--vs", "random", "--seed", "11"], entries)
    assert code == 0
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("game over: player_")
    score = {
        "senet": "dancers borne off: spools",
        "togyz": "kazans: White",
        "santorini": "climbed to level 3",
    }[variant.split("-")[0]]
    assert score in last or "was stuck" in last


def test_senet_announces_extra_turns_and_skyruk_rethrows(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch,
        capsys,
        ["senet-skyruk-5", "--vs", "human", "--seed", "5"],
        first_move_each_turn(),
    )
    assert "extra turn: the spools threw 1 and throw again: 2" in out
    assert "re-throw from the House of Happiness: the spools throw" in out
    assert out.rstrip().endswith("dancers borne off: spools 5 of 5, cons 1 of 5")


def test_the_same_seed_and_entries_give_the_same_game(monkeypatch, capsys) -> None:
    args = ["senet-kendall-5", "--vs", "random", "--seed", "8"]
    entries = ["1", "2", "undo", "1", *first_move_each_turn(40)]
    _, first = play(monkeypatch, capsys, args, entries)
    _, second = play(monkeypatch, capsys, args, entries)
    assert first == second
    _, other = play(
        monkeypatch, capsys, ["senet-kendall-5", "--vs", "random", "--seed", "9"], entries
    )
    assert other != first


def test_the_agent_can_take_the_first_seat(monkeypatch, capsys) -> None:
    _, out = play(
        monkeypatch, capsys, ["santorini-fixed", "--seat", "second", "--seed", "3"], ["1"]
    )
    assert "player_0 (yellow): agent random, player_1 (red): human" in out
    assert out.index("player_0 (yellow) plays") < out.index("player_1 (red)> 1")


def test_the_opponent_may_be_given_a_name(monkeypatch, capsys) -> None:
    args = ["santorini-fixed", "--vs", "rnd=random:seed=2", "--seed", "3"]
    _, out = play(monkeypatch, capsys, args, ["quit"])
    assert out.startswith(
        "santorini-fixed, seed 3. player_0 (yellow): human, player_1 (red): agent rnd."
    )


def test_agent_options_are_read_from_the_spec(monkeypatch, capsys) -> None:
    entries = [str(hole) for hole in range(1, 10)] * 3
    _, own_seed = play(
        monkeypatch, capsys, ["togyz-kumalak", "--vs", "random:seed=4", "--seed", "0"], entries
    )
    _, from_game_seed = play(monkeypatch, capsys, ["togyz-kumalak", "--seed", "4"], entries)
    assert own_seed.split("\n", 1)[1] == from_game_seed.split("\n", 1)[1]  # no chance in it


class Interrupted(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_ends_the_game_with_exit_code_130(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted())
    assert main(["play", "santorini-fixed", "--seed", "0"]) == 130
    assert capsys.readouterr().out.endswith("\ninterrupted: the game is left unfinished\n")


# ---------------------------------------------------------------------- arguments
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown variant 'chess'; known variants: senet-kendall-5"),
        (
            ["senet-kendall-5", "--vs", "oracle"],
            "unknown opponent 'oracle'; known opponents: human",
        ),
        (["senet-kendall-5", "--vs", "random:depth=2"], "agent 'random' has no option 'depth'"),
        (["senet-kendall-5", "--vs", "random:seed=x"], "random:seed='x': expected int"),
        (["senet-kendall-5", "--vs", "human:seed=1"], "a human takes no options"),
        (["senet-kendall-5", "--vs", "me=human"], "a human takes no options and no name"),
        (["senet-kendall-5", "--vs", "a b=random"], "agent name 'a b' in 'a b=random'"),
        (["senet-kendall-5", "--seat", "third"], "--seat 'third' is not allowed; allowed: first"),
        (["senet-kendall-5", "--seed", "-1"], "--seed '-1' is not allowed; a seed is a whole"),
        (["senet-kendall-5", "--seed", "x"], "--seed 'x' is not allowed"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_code_2(args, message, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["play", *args]) == 2
    out, err = capsys.readouterr()
    assert not out
    assert err.count("\n") == 1 and err.startswith("zoo-games play: ")
    assert message in err
