"""Drawing chance outcomes (Senet's throws) from an environment's seeded generator, fast.

A Senet game throws the sticks a few hundred times. One ``Generator.random()`` call costs
about as much as the rest of a throw, so uniforms are drawn in batches; a batch holds exactly
the numbers that the same count of single calls would have given, so the outcomes depend
only on the seed, whichever way they are drawn. Each outcome table is turned into cumulative
probabilities once and searched by bisection.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

import numpy as np

#: Uniforms drawn from the generator at a time.
BATCH = 256
#: Outcome tables kept; games return the same few table objects again and again.
MAX_TABLES = 64


class ChanceSampler:
    """Samples ``(outcome, probability)`` tables with uniforms from a generator."""

    def __init__(self) -> None:
        self._source: np.random.Generator | None = None
        self._uniforms: list[float] = []
        # id(table) -> (table, cumulative probabilities, outcomes). The table itself is kept,
        # so its id cannot be reused by another object while the entry lives.
        self._tables: dict[int, tuple[Sequence[tuple[int, float]], list[float], list[int]]] = {}

    def sample(self, table: Sequence[tuple[int, float]], generator: np.random.Generator) -> int:
        """An outcome of ``table``, chosen with the next uniform of ``generator``.

        The outcome is the first whose cumulative probability exceeds the uniform (the last
        one if rounding leaves the uniform above the total).
        """
        if generator is not self._source:
            self._source = generator
            self._uniforms = []
        if not self._uniforms:
            self._uniforms = generator.random(BATCH).tolist()[::-1]
        draw = self._uniforms.pop()
        entry = self._tables.get(id(table))
        if entry is None or entry[0] is not table:
            entry = (table, list(accumulate(p for _, p in table)), [o for o, _ in table])
            if len(self._tables) < MAX_TABLES:
                self._tables[id(table)] = entry
        outcomes = entry[2]
        return outcomes[min(bisect_right(entry[1], draw), len(outcomes) - 1)]
