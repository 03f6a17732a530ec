"""``zoo-games arena``: a table on stdout, the files, and one-line errors before any game."""

from __future__ import annotations

import json

import pytest

from zoo_games.cli import main


def test_arena_command_prints_the_table_and_writes_the_files(tmp_path, capsys):
    out = tmp_path / "run"
    agents = ["random", "random", "random"]
    options = ["--games", "4", "--seed", "2", "--workers", "2", "--out", str(out)]
    code = main(["arena", "santorini-fixed", *agents, *options])
    captured = capsys.readouterr()
    printed = captured.out
    assert code == 0
    assert "random#2" in printed and "Elo" in printed and "arena.png" in printed
    # Progress goes to stderr, so that the table can be piped alone.
    assert captured.err.splitlines()[-1] == "zoo-games arena: 12 of 12 games played"
    assert json.loads((out / "arena.json").read_text())["seed"] == 2
    assert (out / "arena.csv").exists() and (out / "arena.png").stat().st_size > 0


def test_arena_command_gauntlet_plays_only_the_first_agents_pairings(tmp_path, capsys):
    out = tmp_path / "gauntlet"
    agents = ["greedy", "random", "random"]
    options = ["--games", "2", "--gauntlet", "--out", str(out)]
    assert main(["arena", "santorini-fixed", *agents, *options]) == 0
    pairings = json.loads((out / "arena.json").read_text())["pairings"]
    assert [(p["first"], p["second"]) for p in pairings] == [
        ("greedy", "random"),
        ("greedy", "random#2"),
    ]
    assert "Elo" in capsys.readouterr().out and (out / "arena.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["chess", "random", "random"], "unknown variant 'chess'"),
        (["santorini-fixed", "random", "nobody"], "unknown agent 'nobody'"),
        (["santorini-fixed", "random", "random:depth=2"], "has no option 'depth'"),
        (["santorini-fixed", "random", "random:seed=many"], "expected int"),
        (["santorini-fixed", "random"], "at least 2 agents"),
        (["santorini-fixed", "random", "random", "--games", "0"], "positive even"),
        (["santorini-fixed", "random", "random", "--games", "5"], "positive even"),
        (["santorini-fixed", "random", "random", "--workers", "0"], "workers"),
        (["santorini-fixed", "random", "random", "--seed", "-3"], "seed"),
        (["santorini-fixed", "random", "random", "--opening-moves", "-1"], "opening_moves"),
        (["santorini-fixed", "random", "random", "--opening-moves", "99"], "from 0 to 20"),
    ],
)
def test_arena_command_mistakes_give_one_line_and_no_game(arguments, message, monkeypatch, capsys):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    assert main(["arena", *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err
    assert captured.err.startswith("zoo-games arena: error:")


def test_arena_command_refuses_an_unwritable_output_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["arena", "santorini-fixed", "random", "random", "--out", str(blocker / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write into" in err


def test_arena_command_refuses_a_file_as_its_output_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["arena", "santorini-fixed", "random", "random", "--out", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file, not a folder for the results" in err


def test_arena_command_non_numbers_are_argparse_errors(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "santorini-fixed", "random", "random", "--games", "many"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid int value: 'many'" in err and "Traceback" not in err


def test_an_agent_named_name_equals_spec_is_shown_by_its_name(tmp_path, capsys):
    out = tmp_path / "named"
    argv = ["santorini-fixed", "quick=mcts:simulations=2", "random", "--games", "2"]
    assert main(["arena", *argv, "--out", str(out)]) == 0
    table = capsys.readouterr().out
    assert "quick " in table and "mcts:simulations" not in table
    pairing = json.loads((out / "arena.json").read_text())["pairings"][0]
    assert (pairing["first"], pairing["second"]) == ("quick", "random")


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        (["a=random", "a=greedy"], "agent name 'a' is given twice"),
        (["random", "random=greedy"], "agent name 'random' is given twice"),
        (["=random", "greedy"], "agent name '' in '=random'"),
        (["my/agent=random", "greedy"], "a name is letters, digits"),
    ],
)
def test_bad_or_repeated_agent_names_are_one_line(agents, message, monkeypatch, capsys):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    assert main(["arena", "santorini-fixed", *agents, "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
