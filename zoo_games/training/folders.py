"""Where a training run writes: a folder of its own, never one that holds another run."""

from __future__ import annotations

from pathlib import Path


def new_run_folder(output: Path, chosen: bool) -> Path:
    """The folder a new run writes into, given ``output`` (chosen by the user, or the default).

    A chosen folder that already holds a run is refused (``ValueError``: it is never
    replaced); the default one is then followed by ``output-2``, ``output-3``, ...
    """
    if not holds_files(output):
        return output
    if chosen:
        raise ValueError(
            f"{output} already holds a run; use --resume to continue it, or another --output folder"
        )
    return fresh_folder(output)


def check_creatable(folder: Path) -> None:
    """Refuse a folder that cannot be created, by creating it and removing what was made.

    Only trying tells (permissions, a file on the way, ``/proc``, a full disk), and trying
    here refuses it before any work starts (Ray, a compilation); removing it again leaves
    nothing behind a run that stops before training (a cluster that cannot be joined).
    """
    missing = [path for path in (folder, *folder.parents) if not path.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        problem = error.strerror or error
        raise ValueError(f"cannot create the output folder {folder}: {problem}") from None
    for made in missing:  # the deepest first
        made.rmdir()


def holds_files(folder: Path) -> bool:
    """Whether ``folder`` exists and holds anything."""
    return folder.is_dir() and any(folder.iterdir())


def fresh_folder(taken: Path) -> Path:
    """The first of ``taken-2``, ``taken-3``, ... that holds no run."""
    number = 2
    while holds_files(taken.with_name(f"{taken.name}-{number}")):
        number += 1
    return taken.with_name(f"{taken.name}-{number}")
