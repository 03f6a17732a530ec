"""How many threads torch may use in a training process (needs torch).

PPO's learner and AlphaZero's run in the training process, beside the sampling or self-play
that keeps the other core busy.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

#: Torch threads of the training process (its learner and local runner). On a 2-core machine,
#: two threads made whole iterations many times slower as soon as another process kept a core
#: busy (torch's threads wait for each other at every small matrix product); one thread is
#: steady (docs/training.md, "Choosing the settings").
TORCH_THREADS = 1


@contextmanager
def torch_threads(count: int = TORCH_THREADS) -> Iterator[None]:
    """Run the block with ``count`` torch threads in this process, then restore the number."""
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)
