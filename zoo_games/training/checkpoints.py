"""A run's checkpoint and metrics, written so that a kill at any moment loses nothing.

RLlib writes a checkpoint as many files over a second or more; a run killed meanwhile (a
``SIGKILL``, a power cut) would leave a folder that cannot be restored, and the run with it.
So each checkpoint is written beside the last one, ``checkpoint.new/``, and swapped in by two
renames (``checkpoint`` -> ``checkpoint.old``, ``checkpoint.new`` -> ``checkpoint``), each atomic
on one file system; :func:`recover` finishes or undoes a swap a kill interrupted, so there is
always one complete checkpoint.

The metrics rows a checkpoint has trained travel inside it (``checkpoint/metrics.csv``): on a
resume they are the run's metrics, whatever the kill left in the run's own ``metrics.csv``
(which is written after the swap, itself through a temporary file and a rename). So do the
settings a checkpoint can only be continued with (``checkpoint/run.json``: the variant, which
names the observation encoding, the engine, and the modules' shape), which a resume checks.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from zoo_games.training.budget import Budget

CHECKPOINT = "checkpoint"
METRICS = "metrics.csv"
RUN = "run.json"
#: A run's settings, one ``key = repr(value)`` line each (what :func:`read_settings` reads).
SETTINGS = "settings.txt"


class UnreadableCheckpoint(Exception):
    """A checkpoint whose files are all there, but one of them cannot be read back.

    Found only when a resume loads it (its files are checked for before any work, not read
    twice); the command reports it in one line.
    """


def _parts(output: Path) -> tuple[Path, Path, Path]:
    current = output / CHECKPOINT
    return current, current.with_name(CHECKPOINT + ".new"), current.with_name(CHECKPOINT + ".old")


def recover(output: Path) -> None:
    """Leave ``output`` with its last complete checkpoint in ``checkpoint/``, nothing beside.

    ``checkpoint.old`` exists only once ``checkpoint.new`` is complete, so a run killed
    between the renames has its new checkpoint in ``checkpoint.new``; a ``checkpoint.new``
    beside ``checkpoint`` may be half-written and is removed.
    """
    current, new, old = _parts(output)
    if not current.exists() and old.exists():
        os.rename(new if new.exists() else old, current)
    for leftover in (new, old):
        if leftover.exists():
            shutil.rmtree(leftover)


def save(
    output: Path,
    write_checkpoint: Callable[[Path], None],
    run: dict[str, Any],
    rows: Sequence[dict[str, Any]],
    columns: list[str],
) -> None:
    """Write a checkpoint beside the last one and swap it in.

    ``write_checkpoint(folder)`` writes the algorithm's state; ``run`` (the settings it can
    only be continued with) and the metrics ``rows`` are written into it too.
    """
    current, new, old = _parts(output)
    if new.exists():
        shutil.rmtree(new)
    write_checkpoint(new)
    (new / RUN).write_text(json.dumps(run, indent=1) + "\n")
    write_metrics(new / METRICS, rows, columns)
    if current.exists():
        os.rename(current, old)
    os.rename(new, current)
    shutil.rmtree(old, ignore_errors=True)


def write_metrics(path: Path, rows: Sequence[dict[str, Any]], columns: list[str]) -> None:
    """Write ``rows`` as CSV to ``path`` through a temporary file: never half a file."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(temporary, path)


def read_metrics(path: Path) -> list[dict[str, Any]]:
    """The rows of a metrics file (none if it does not exist)."""
    if not path.exists():
        return []
    with path.open() as handle:
        return list(csv.DictReader(handle))


def saved_run(output: Path, keys: Sequence[str]) -> dict[str, Any]:
    """The settings the run's checkpoint needs, by name (``keys``).

    A checkpoint written before they travelled with it has them in the run's
    ``settings.txt`` (``key = repr(value)`` lines); such a run sampled through the environment.
    ``ValueError`` when neither is there, or what is there cannot be read: a resume of such a
    folder could not know what it continues.
    """
    path = output / CHECKPOINT / RUN
    if path.exists():
        try:
            loaded = json.loads(path.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as problem:
            raise ValueError(f"{path} is not a run record this version reads: {problem}") from None
        if not isinstance(loaded, dict):
            raise ValueError(f"{path} is not a run record: it holds no settings by name")
        return loaded
    older = output / SETTINGS
    if not older.exists():
        raise ValueError(
            f"nothing to resume: {output / CHECKPOINT} holds no record of its run ({RUN}), "
            f"nor does {output} have the {SETTINGS} of an older run"
        )
    settings = read_settings(older)
    return {"engine": "env", **{key: settings[key] for key in keys if key in settings}}


def read_settings(path: Path) -> dict[str, Any]:
    """The ``key = value`` lines of a settings file, values as Python literals where they are."""
    settings: dict[str, Any] = {}
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a settings file: it is not text") from None
    for line in text.splitlines():
        key, equals, value = line.partition(" = ")
        if equals:
            try:
                settings[key.strip()] = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                settings[key.strip()] = value.strip()
    return settings


def trained_metrics(output: Path) -> Path:
    """The metrics file of the run's checkpoint: its own copy, else (older runs) the run's."""
    inside = output / CHECKPOINT / METRICS
    return inside if inside.exists() else output / METRICS


def trained_rows(output: Path) -> list[dict[str, Any]]:
    """The metrics rows the run's checkpoint has trained (:func:`trained_metrics`)."""
    return read_metrics(trained_metrics(output))


def iterations_done(rows: list[dict[str, Any]]) -> int:
    """The iterations a run's metrics rows have trained."""
    return int(rows[-1]["iteration"]) if rows else 0


def check_budget_left(output: Path, budget: Budget) -> None:
    """``ValueError`` if the run in ``output`` has already trained ``budget``.

    A resume that could not train one more iteration is refused before any work starts.
    """
    path = trained_metrics(output)
    rows = read_metrics(path)
    try:
        done, spent = iterations_done(rows), float(rows[-1]["minutes"]) if rows else 0.0
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            f"{path} is not a run's metrics: its last row has no whole iteration and minutes "
            "to continue from"
        ) from None
    if budget.share_spent(done, spent) >= 1:
        raise ValueError(
            f"the run in {output} has trained {budget.spent_text(done, spent)} already; "
            "ask for more"
        )
