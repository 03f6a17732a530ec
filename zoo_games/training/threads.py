"""How many threads torch and numpy's BLAS may use in a training process (needs torch).

PPO's learner and AlphaZero's run in the training process, beside the sampling or self-play
that keeps the other core busy. Both libraries multiply small matrices there: torch in the
learners and the AlphaZero searches, numpy (its BLAS, OpenBLAS in numpy's wheels) in PPO's
batched sampler (:meth:`~zoo_games.rllib.module.MaskedActorCritic.sampling_logits`). Numpy
has no setting of its own for its BLAS's threads; ``threadpoolctl`` sets them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from threadpoolctl import threadpool_limits

#: Threads of each library in the training process (its learner and local runner). On a
#: 2-core machine, two torch threads made whole iterations many times slower as soon as another
#: process kept a core busy (the threads wait for each other at every small matrix product);
#: one thread is steady (docs/training.md, "Choosing the settings"). Numpy's BLAS behaves
#: alike: the sampler's pass over 64 Senet games took 170-200 µs on one thread and 250-300
#: µs, varying more, on two.
TRAINING_THREADS = 1


@contextmanager
def training_threads(count: int = TRAINING_THREADS) -> Iterator[None]:
    """Run the block with ``count`` threads of torch and of numpy's BLAS, then restore both."""
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        with threadpool_limits(count, user_api="blas"):
            yield
    finally:
        torch.set_num_threads(before)


def limit_threads_for_good(count: int = TRAINING_THREADS) -> None:
    """Give torch and numpy's BLAS ``count`` threads for the rest of this process.

    For processes that exist only to train (a remote sampling worker): nothing to restore.
    """
    torch.set_num_threads(count)
    threadpool_limits(count, user_api="blas")
