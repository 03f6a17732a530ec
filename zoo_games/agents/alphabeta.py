"""The ``alphabeta`` agent: a classical alpha-beta search, compiled, for the games without chance.

It searches every line ``depth`` plies ahead (iterative deepening, the moves ordered by the
game's evaluation), scores the positions at the end with the same evaluation as the
``greedy`` agent and backs the values up by minimax with alpha-beta pruning; a win found is
worth more than any evaluation, a quicker win more than a later one. The search runs in numba
over the state rows of :mod:`zoo_games.batched` (see :mod:`zoo_games.batched.search.alphabeta`).

It plays Togyz Kumalak and Santorini. Senet is refused before any game
(:meth:`AlphaBetaAgent.check_game`): its throws are chance nodes, which a minimax search
cannot weigh (that takes an expectimax search).

Needs the ``batched`` extra: ``pip install "zoo-games[batched]"``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

try:
    from zoo_games.batched import kernels_of
    from zoo_games.batched.search.alphabeta import (
        AlphaBetaSearch,
        check_depth,
        check_without_chance,
    )
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f'the alphabeta agent needs numba ({error}): pip install "zoo-games[batched]"'
    ) from error

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.core.game import Game, GameState


@dataclass(frozen=True)
class AlphaBetaResult:
    """What the search of one move found.

    ``depth`` is the deepest iteration run (0: a forced move, played without search, whose
    ``value`` is then 0), ``value`` the root's value for the mover (beyond +-1: a win or a
    loss found, worth +-(10 - plies / 100)), ``nodes`` the positions the search reached by a
    move, ``seconds`` the time the move took.
    """

    action: int
    depth: int
    value: float
    nodes: int
    seconds: float


class AlphaBetaAgent(Agent):
    """Alpha-beta search ``depth`` plies deep over the game's evaluation (module docstring).

    ``depth`` is from 1 to :data:`~zoo_games.batched.search.alphabeta.MOST_DEPTH`; depth 1
    plays the move whose position the evaluation likes best. Root moves of equal value
    (within :data:`~zoo_games.batched.search.greedy.TIE`) are drawn by a
    ``random.Random(seed)``, so the same seed gives the same moves. :attr:`last_search`
    holds what the last move's search found.
    """

    name = "alphabeta"

    def __init__(self, depth: int = 4, seed: int | None = None) -> None:
        super().__init__(seed)
        check_depth(depth)
        self.depth = depth
        self._rng = random.Random(seed)
        self._searches: dict[Game, AlphaBetaSearch] = {}
        self.last_search: AlphaBetaResult | None = None

    def __repr__(self) -> str:
        return f"AlphaBetaAgent(depth={self.depth}, seed={self.seed!r})"

    def check_game(self, game: Game) -> None:
        """``ValueError`` for a game with chance (Senet) or without batched kernels."""
        check_without_chance(game)
        kernels_of(game)

    def act(self, state: GameState) -> int:
        """A best root action of the search (see :attr:`last_search`)."""
        check_decision_node(state)
        start = time.perf_counter()
        search = self.search_for(state.game)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = AlphaBetaResult(legal[0], 0, 0.0, 0, time.perf_counter() - start)
            return legal[0]
        found = search.search(search.kernels.row_from_state(state))
        action = self._rng.choice(found.best_actions())
        self.last_search = AlphaBetaResult(
            action, found.depth, found.value, found.nodes, time.perf_counter() - start
        )
        return action

    def search_for(self, game: Game) -> AlphaBetaSearch:
        """The search of ``game`` (compiled on first use), kept for the agent's next moves."""
        if game not in self._searches:
            self._searches[game] = AlphaBetaSearch(game, kernels_of(game), self.depth)
        return self._searches[game]
