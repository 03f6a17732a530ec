"""Where saved networks are: in a training run's folder, or shipped inside the package.

The package ships one trained network per variant it has a baseline for, each in its own
folder ``baselines/<variant label>/`` next to this module (``network.npz`` and
``network.json``, package data of the wheel): the ``alphazero`` agent plays them when it is
given no run of its own, and :func:`ship` is how a trained run becomes one
(``scripts/ship_baseline.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

from zoo_games.alphazero.network import ARRAYS, DESCRIPTION, check_plays, load
from zoo_games.catalog import find_variant

#: The folder of the shipped baselines, one subfolder per variant label.
BASELINES = Path(__file__).resolve().parent / "baselines"
#: The subfolder of a training run that holds its network, as for the ``rllib`` agent's runs.
CHECKPOINT = "checkpoint"


def network_folder(path: str | os.PathLike[str]) -> Path:
    """The folder holding the network of ``path``: a run folder, its ``checkpoint/``, or itself.

    ``path`` is resolved against the working folder now, so that the folder returned names
    the same network wherever the caller goes next. ``ValueError`` (one line) if ``path``
    does not exist or holds no network in either place.
    """
    if not str(path).strip():
        raise ValueError(
            "checkpoint= needs a path: a run folder of zoo-games train --algorithm alphazero"
        )
    folder = Path(path).expanduser().resolve()
    if not folder.exists():
        raise ValueError(f"checkpoint {folder} does not exist")
    for candidate in (folder, folder / CHECKPOINT):
        if (candidate / DESCRIPTION).is_file() and (candidate / ARRAYS).is_file():
            return candidate
    raise ValueError(
        f"{folder} holds no saved network: neither it nor its {CHECKPOINT}/ has {DESCRIPTION} "
        f"and {ARRAYS} (a run folder of zoo-games train --algorithm alphazero has them)"
    )


def baseline_variants() -> list[str]:
    """The labels of the variants a baseline ships for, sorted."""
    if not BASELINES.is_dir():
        return []
    return sorted(
        folder.name
        for folder in BASELINES.iterdir()
        if (folder / DESCRIPTION).is_file() and (folder / ARRAYS).is_file()
    )


def baseline_folder(label: str) -> Path:
    """The folder of the baseline shipped for variant ``label``; ``ValueError`` if none is."""
    shipped = baseline_variants()
    if label not in shipped:
        raise ValueError(
            f"no alphazero baseline ships for {label!r}; "
            + (f"baselines ship for {', '.join(shipped)}" if shipped else "none ships yet")
            + " (or give checkpoint=PATH, a run of zoo-games train --algorithm alphazero)"
        )
    return BASELINES / label


def ship(run: str | os.PathLike[str], label: str, baselines: Path | None = None) -> Path:
    """Copy the network of ``run`` into ``baselines`` as the one of variant ``label``.

    ``baselines`` is :data:`BASELINES` unless given (``scripts/ship_baseline.py`` names the
    repository's, whichever copy of the package is imported). The network is loaded and
    checked first: it must read ``label``'s observations and actions
    (:func:`~zoo_games.alphazero.network.check_plays`), or ``ValueError`` says why and
    nothing is copied. Returns the baseline's folder.
    """
    network = load(network_folder(run))
    variant = find_variant(label)
    space = variant.observer.space
    check_plays(network, variant.label, tuple(space.shape), variant.game.num_actions)
    if "command" in network.trained:
        network.trained["command"] = command_without_folder(str(network.trained["command"]))
    return network.save((BASELINES if baselines is None else baselines) / variant.label)


def command_without_folder(command: str) -> str:
    """The training ``command`` without ``--output FOLDER`` and ``--resume``.

    A shipped baseline says how to train it again; the folder its run happened to write to
    (a path of the machine that trained it) is not part of that, and a run resumed into the
    same folder trained as one run of the same settings would (its ``seconds`` count both).
    """
    words = command.split()
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--output":
            skip = True
        elif word != "--resume" and not word.startswith("--output="):
            kept.append(word)
    return " ".join(kept)
