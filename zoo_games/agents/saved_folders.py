"""A saved network read once per process, and read again once its folder is saved anew.

The agents that play saved networks (``rllib``, a PPO run's modules; ``alphazero``, a run's or a
shipped baseline's network) are made once per arena game, so each network is read once per
process and shared by them. Keyed by its path alone, that read would outlive the file: a notebook
that trains a run, plays it, resumes the run and plays it again would go on playing the network it
read first. Training writes every checkpoint as new folders and swaps them in whole
(:mod:`zoo_games.training.checkpoints`), so a folder's inode and modification time tell a later
checkpoint from the one read before.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path
from typing import TypeVar

Saved = TypeVar("Saved")


def read_once_per_version(read: Callable[[Path], Saved]) -> Callable[[Path], Saved]:
    """``read(folder)``, cached per process until ``folder`` is replaced by a new one."""

    @cache
    def read_version(folder: Path, inode: int, modified_ns: int) -> Saved:
        return read(folder)

    @wraps(read)
    def read_current(folder: Path) -> Saved:
        version = folder.stat()
        return read_version(folder, version.st_ino, version.st_mtime_ns)

    return read_current
