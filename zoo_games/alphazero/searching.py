"""What AlphaZero asks of the batched search, and the one place it is made.

The search itself lives with the engine (:mod:`zoo_games.batched`): it runs one tree per
game of a batch and asks a leaf evaluator for the policies and values of all the games'
leaves at once. Self-play and the player only need the protocol below, so that tests can give
them a scripted search, and :func:`make_search` is the only code that names the real one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

#: ``evaluator(observations, masks) -> (logits, values)``: ``(n, *observation_shape)`` and
#: ``(n, num_actions)`` ``int8`` in; ``float32`` ``(n, num_actions)`` and ``(n,)`` out, the
#: values from the view of each position's player to move. A
#: :class:`~zoo_games.alphazero.network.PolicyValueNetwork` is one.
Evaluator = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]

#: Root actions Gumbel's Sequential Halving considers at each move: the paper's choice for
#: few simulations (all legal actions when there are fewer).
CONSIDERED = 16


class SearchResult(Protocol):
    """What one search of a batch of positions gives back."""

    #: ``(n,)`` ``int64``: the action chosen in each position.
    actions: np.ndarray
    #: ``(n, num_actions)`` ``float32``: the improved policy, the learner's policy target
    #: (0 on illegal actions).
    policy: np.ndarray
    #: ``(n,)``: the search's value of each root, for its player to move.
    root_values: np.ndarray


class Search(Protocol):
    """A search of one batch of games' positions at once."""

    def run(
        self,
        rows: np.ndarray,
        evaluator: Evaluator,
        explore: bool = True,
        *,
        root_masks: np.ndarray | None = None,
    ) -> SearchResult:
        """Search from each state row (``BatchedEngine.states``); ``explore``: self-play noise.

        ``root_masks``: the root actions each search may consider (``None``: every legal one).
        """
        ...


#: How a batched search is made: ``(variant, games, simulations, seed) -> Search``.
SearchMaker = Callable[[str, int, int, int], Search]


def make_search(
    variant: str, games: int, simulations: int, seed: int, waves: bool = False
) -> Search:
    """The batched search of ``games`` positions of ``variant``, Gumbel root selection.

    ``waves``: each round of Sequential Halving in one step, its leaves evaluated together
    (:class:`~zoo_games.batched.search.alphazero.BatchedSearch`). The only place in this
    package that names the search.
    """
    from zoo_games.batched.search.alphazero import BatchedSearch

    search: Search = BatchedSearch(
        variant,
        games,
        simulations,
        selection="gumbel",
        considered=CONSIDERED,
        seed=seed,
        waves=waves,
    )
    return search
