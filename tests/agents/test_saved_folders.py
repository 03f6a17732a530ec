"""A saved folder is read once per process, and read again once it is saved anew."""

from __future__ import annotations

from pathlib import Path

from zoo_games.agents.saved_folders import read_once_per_version
from zoo_games.training.checkpoints import save


def test_a_folder_is_read_once_until_a_new_one_is_swapped_in(tmp_path):
    reads: list[str] = []

    @read_once_per_version
    def read(folder: Path) -> str:
        reads.append(folder.name)
        return (folder / "weights").read_text()

    def saved(text: str) -> Path:
        # A checkpoint as training writes it: a new folder, swapped in whole.
        save(tmp_path, lambda folder: _write(folder, text), {}, [], ["iteration"])
        return tmp_path / "checkpoint"

    folder = saved("first")
    assert read(folder) == read(folder) == "first"
    assert len(reads) == 1  # every agent of an arena shares the one read
    folder = saved("second")  # a resumed run's next checkpoint, at the same path
    assert read(folder) == "second"
    assert len(reads) == 2


def _write(folder: Path, text: str) -> None:
    folder.mkdir(parents=True)
    (folder / "weights").write_text(text)
