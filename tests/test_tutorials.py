"""Every tutorial notebook runs top to bottom, in its short setting (``ZOO_GAMES_QUICK=1``).

Each notebook is executed by a real Jupyter kernel (nbclient), as "Run all" would, on a copy in
memory: the stored notebook, with the outputs of its full run, is never changed. Notebooks that
need an optional extra are skipped, naming the missing package, when it is not installed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the test extra's nbformat runs the tutorials")
nbclient = pytest.importorskip("nbclient", reason="the test extra's nbclient runs the tutorials")
pytest.importorskip("ipykernel", reason="the test extra's ipykernel runs the tutorials")

TUTORIALS = Path(__file__).parents[1] / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("*.ipynb"))

#: The modules each notebook imports beyond the package's own dependencies (its extra).
REQUIREMENTS: dict[str, tuple[str, ...]] = {
    "04_training_with_rllib": ("ray", "torch"),
    "05_sb3_and_tianshou": ("sb3_contrib", "tianshou", "torch"),
    "07_batched_engine": ("numba", "torch"),
    "08_alphazero": ("numba", "torch"),
}

CELL_TIMEOUT_SECONDS = 600


def test_there_are_tutorials() -> None:
    assert NOTEBOOKS
    assert set(REQUIREMENTS) <= {notebook.stem for notebook in NOTEBOOKS}


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_tutorial_notebook_runs(notebook: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in REQUIREMENTS.get(notebook.stem, ()):
        pytest.importorskip(module, reason=f"{notebook.name} needs {module} (its extra)")
    stored = notebook.read_bytes()
    copy = nbformat.reads(stored.decode(), as_version=4)
    assert any(cell.cell_type == "code" for cell in copy.cells), f"{notebook.name} has no code"
    # The kernel inherits this process's environment: the short setting, and this checkout's
    # zoo_games first on the path.
    monkeypatch.setenv("ZOO_GAMES_QUICK", "1")
    path = [str(TUTORIALS.parent), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, path)))
    # "python3" is ipykernel's kernel of the interpreter running the tests.
    client = nbclient.NotebookClient(
        copy,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(TUTORIALS)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    assert notebook.read_bytes() == stored, f"running {notebook.name} changed the stored file"
    outputs = [output for cell in copy.cells if cell.cell_type == "code" for output in cell.outputs]
    assert outputs, f"{notebook.name} shows no results"
    assert not [o for o in outputs if o.output_type == "error"]
