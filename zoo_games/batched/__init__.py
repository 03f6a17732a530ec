"""A batched engine for every variant: N games stepped at once by numba kernels.

``make(label, batch_size=N, seed=S)`` gives a :class:`~zoo_games.batched.engine.BatchedEngine`
for any label of :func:`zoo_games.catalog.variants`. See ``docs/batched.md``.

numba is an optional dependency: ``pip install "zoo-games[batched]"``. The threading layer of
large batches is numba's own choice (TBB, else OpenMP, else its workqueue; ``NUMBA_THREADING_LAYER``
picks one): the setting is the whole process's, so a library has no business changing it, and
with both cores free OpenMP's waiting threads made two threads faster than one at large
batches, where the workqueue layer's were not (docs/batched.md, "Threads and compilation").
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

try:
    import numba
except ImportError:  # pragma: no cover - depends on the installation
    raise ImportError('zoo_games.batched needs numba: pip install "zoo-games[batched]"') from None

from zoo_games.batched import cache
from zoo_games.core.game import Game

__all__ = ["KERNEL_MODULES", "BatchedEngine", "kernels_of", "make"]

#: The kernel module of each game, by the rules core's ``Game.name`` (its package's name).
KERNEL_MODULES = {
    "senet": "zoo_games.batched.senet",
    "togyz_kumalak": "zoo_games.batched.togyz_kumalak",
    "santorini": "zoo_games.batched.santorini",
}
#: The packages the kernels compile from: this one, the core's, and each game's.
PACKAGE = Path(__file__).resolve().parent.parent
cache.watch(*(PACKAGE / name for name in ("batched", "core", *KERNEL_MODULES)))

# After the cache is keyed: importing the kernels decorates them.
from zoo_games.batched.batch import GameKernels  # noqa: E402
from zoo_games.batched.engine import BatchedEngine  # noqa: E402
from zoo_games.catalog import find_variant  # noqa: E402


def kernels_of(game: Game) -> GameKernels:
    """The kernels of ``game``'s kernel module; ``ValueError`` for a game that has none."""
    module_name = KERNEL_MODULES.get(game.name)
    if module_name is None:
        raise ValueError(
            f"game {game.name!r} has no batched kernels; the batched engine and the searches "
            f"compiled on it (batched-mcts, alphabeta, alphazero's) play "
            f"{', '.join(KERNEL_MODULES)}"
        )
    kernels: GameKernels = importlib.import_module(module_name).KERNELS
    return kernels


def make(
    variant_label: str,
    batch_size: int = 1,
    seed: int | None = None,
    threads: int = 1,
) -> BatchedEngine:
    """``batch_size`` games of the variant ``variant_label``, all at their initial position.

    ``seed`` (a non-negative integer, or ``None`` for fresh entropy) seeds every game's
    generator; ``threads`` (1 to numba's thread count, ``NUMBA_NUM_THREADS``) is how many
    threads step a large batch. One is the default because more pay only when that many cores
    are free: on a 2-core machine beside one other busy process, two threads stepped slower
    than one (docs/batched.md, "Threads and compilation").
    """
    chosen = find_variant(variant_label)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise ValueError(f"threads must be an integer from 1 to {most}, got {threads!r}")
    game = chosen.game
    space = chosen.observer.space
    kernels = kernels_of(game)
    return BatchedEngine(
        chosen.label,
        game,
        kernels,
        chosen.kwargs,
        np.dtype(space.dtype),
        tuple(space.shape),
        batch_size,
        seed,
        threads,
    )
