"""Keeping the garbage collector's full passes short while a training loop runs.

Before its first iteration a training process already holds hundreds of thousands of objects
that live as long as it does (Ray, torch, RLlib's algorithm, its modules and connectors), and
every iteration then makes and drops many more (episode chunks, batches, tensors). Now and
then Python's collector makes a full pass over every tracked object, long-lived or not (what
those passes cost a PPO iteration: docs/training.md, "Choosing the settings", measured with
``benchmarks/bench_training.py``). The objects alive when the loop starts are not garbage and
will not become garbage before it ends, so :func:`startup_objects_frozen` moves them out of
the collector's sight (``gc.freeze``, Python's permanent generation) for the loop, after one
last full collection, and gives them back when the loop ends (unless the process had frozen
objects of its own before: those, and the loop's, then stay frozen).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def startup_objects_frozen() -> Iterator[None]:
    """Run the block with every object alive at its start left out of collections."""
    frozen_before = gc.get_freeze_count() > 0
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        if not frozen_before:
            gc.unfreeze()
