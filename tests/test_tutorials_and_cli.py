"""The tutorial notebooks run top to bottom, and the ``zoo-games`` command works."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from zoo_games.cli import main

TUTORIALS = sorted((Path(__file__).parents[1] / "tutorials").glob("*.ipynb"))


def test_there_are_tutorials():
    assert TUTORIALS


@pytest.mark.parametrize("notebook", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_notebook_runs(notebook: Path, monkeypatch, capsys) -> None:
    # Executing the code cells in order in one namespace is what "Run all" does, without
    # needing a Jupyter kernel in CI.
    cells = json.loads(notebook.read_text())["cells"]
    code = [("".join(cell["source"])) for cell in cells if cell["cell_type"] == "code"]
    assert code, f"{notebook.name} has no code"
    monkeypatch.chdir(notebook.parent)
    namespace: dict[str, object] = {"__name__": "__main__"}
    for number, source in enumerate(code, start=1):
        exec(compile(source, f"{notebook.name}[code cell {number}]", "exec"), namespace)
    assert capsys.readouterr().out  # the tutorial shows its results


def test_cli_list_names_every_variant(capsys) -> None:
    assert main(["list"]) == 0
    assert "senet-skyruk-7" in capsys.readouterr().out


def test_cli_demo_plays_a_seeded_game_move_by_move(capsys, tmp_path) -> None:
    gif = tmp_path / "game.gif"
    assert main(["demo", "senet-kendall-5", "--seed", "4", "--gif", str(gif)]) == 0
    first = capsys.readouterr().out
    assert "game over after" in first and "player_0 plays" in first
    assert gif.stat().st_size > 0
    main(["demo", "senet-kendall-5", "--seed", "4"])
    assert capsys.readouterr().out.split("game over")[0] in first  # same seed, same game


def test_cli_rejects_unknown_variants(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "chess"])
    assert "invalid choice" in capsys.readouterr().err
    assert os.environ is not None
