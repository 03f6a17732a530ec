"""The tutorial notebooks run top to bottom."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
