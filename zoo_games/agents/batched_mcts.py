"""The ``batched-mcts`` agent: Monte Carlo tree search run in numba over the batched kernels.

It runs the algorithm of :mod:`zoo_games.agents.mcts` (UCT, Senet's throws sampled at chance
nodes, wins in one played at once, moves that let the opponent win at once left out at the
root, proven wins and losses propagated up the tree, and by default the same heuristic
rollouts: ``rollout_depth`` random moves, taking a win in one where the game finds it
cheaply, then the game's evaluation), but every simulation runs in compiled code over the
state rows of :mod:`zoo_games.batched` (see :mod:`zoo_games.batched.search.uct`), many times
faster. It does not play the very moves of ``mcts`` for a seed: its random generator is
another, and Santorini's wins in one are only the climbs onto level 3 (see
:mod:`zoo_games.batched.search.uct`).

Needs the ``batched`` extra: ``pip install "zoo-games[batched]"``.
"""

from __future__ import annotations

import random
import time

try:
    from zoo_games.batched import kernels_of
    from zoo_games.batched.search.tree import OPEN
    from zoo_games.batched.search.uct import RootStatistics, TreeSearch
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f'the batched-mcts agent needs numba ({error}): pip install "zoo-games[batched]"'
    ) from error

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.agents.budget import budget_text
from zoo_games.agents.mcts import SearchResult, check_rollout_options, checked_search_options
from zoo_games.core.game import Game, GameState

#: The largest tree, in nodes (32 bytes each): a search that fills it stops early.
DEFAULT_MAX_NODES = 1 << 24
#: The most nodes a tree can index (children are found by 32-bit node numbers).
MOST_NODES = 2**31 - 1


class BatchedMCTSAgent(Agent):
    """UCT with sampled chance, cut heuristic rollouts and solved wins, compiled (module docstring).

    Options: ``simulations`` (per move) or ``seconds`` (per move), not both; neither means
    1000 simulations. ``rollout`` is ``"heuristic"`` (``rollout_depth`` random moves, then
    the evaluation) or ``"random"`` (to the end), as for ``mcts``. ``exploration`` is UCB1's
    constant ``c`` in ``q + c * sqrt(ln N / n)``, with values in [-1, 1]. ``rollout_wins``
    says whether rollouts count a mover that can win at once as the winner (default
    ``None``: as ``mcts`` for heuristic rollouts, Santorini and Togyz Kumalak; for random
    rollouts where it was measured to pay, Santorini).
    ``max_nodes`` caps the tree (it grows by doubling up to there).
    The same ``seed`` and the same ``simulations`` give the same moves and visit counts; a
    ``seconds`` budget depends on the machine. :attr:`last_search` holds what the last move's
    search found (its ``root`` is ``None``: the tree is a numpy array, reused move after move).
    """

    name = "batched-mcts"

    def __init__(
        self,
        simulations: int | None = None,
        seconds: float | None = None,
        rollout: str = "heuristic",
        rollout_depth: int = 4,
        exploration: float = 1.4,
        rollout_wins: bool | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        simulations = checked_search_options(self.name, simulations, seconds, exploration)
        check_rollout_options(self.name, rollout, rollout_depth)
        if not 1024 <= max_nodes <= MOST_NODES:
            raise ValueError(
                f"batched-mcts max_nodes must be from 1024 to {MOST_NODES}, not {max_nodes}"
            )
        self.simulations = simulations
        self.seconds = seconds
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.rollout_wins = rollout_wins
        self.max_nodes = max_nodes
        self._rng = random.Random(seed)
        self._searches: dict[Game, TreeSearch] = {}
        self.last_search: SearchResult | None = None

    def __repr__(self) -> str:
        budget = budget_text(self.simulations, self.seconds)
        return (
            f"BatchedMCTSAgent({budget}, rollout={self.rollout!r},"
            f" rollout_depth={self.rollout_depth}, exploration={self.exploration},"
            f" rollout_wins={self.rollout_wins}, max_nodes={self.max_nodes}, seed={self.seed!r})"
        )

    def act(self, state: GameState) -> int:
        """The most visited root action after the search (see :attr:`last_search`)."""
        check_decision_node(state)
        start = time.perf_counter()
        tree = self.tree_search(state.game)
        row = tree.kernels.row_from_state(state)
        win, legal, safe = tree.analyse_root(row)
        if win >= 0 or len(legal) == 1:
            action = win if win >= 0 else legal[0]
            value = 1.0 if win >= 0 else 0.0
            self.last_search = SearchResult(
                action, {action: 1}, 0, time.perf_counter() - start, value
            )
            return action
        deadline = None if self.seconds is None else start + self.seconds
        found = tree.search(
            row,
            safe or legal,
            self.simulations,
            deadline,
            self.exploration,
            self._rng.getrandbits(63),
        )
        sign = 1.0 if state.current_player() == 0 else -1.0  # values are player_0's
        action = _choose(found, sign)
        self.last_search = SearchResult(
            action,
            dict(zip(found.actions.tolist(), found.visits.tolist(), strict=True)),
            found.simulations,
            time.perf_counter() - start,
            sign * found.root_value,
        )
        return action

    def tree_search(self, game: Game) -> TreeSearch:
        """The search of ``game`` (compiled on first use), kept for the agent's next moves.

        Its :attr:`~zoo_games.batched.search.uct.TreeSearch.nodes` is the last search's tree.
        """
        if game not in self._searches:
            self._searches[game] = TreeSearch(
                game,
                kernels_of(game),
                self.max_nodes,
                self.rollout,
                self.rollout_depth,
                self.rollout_wins,
            )
        return self._searches[game]


def _choose(found: RootStatistics, sign: float) -> int:
    """A root action solved as won, else the most visited one not solved as lost.

    Ties in visits go to the better value, as in :mod:`zoo_games.agents.mcts`.
    """
    best: tuple[int, float] | None = None
    chosen = -1
    lost = (found.solved != OPEN) & (sign * found.solved <= -1.0)
    candidates = [i for i in range(len(found.actions)) if not lost[i]] or range(len(lost))
    for index in candidates:
        solved = found.solved[index]
        if solved != OPEN and sign * solved >= 1.0:
            return int(found.actions[index])
        key = (int(found.visits[index]), sign * float(found.values[index]))
        if best is None or key > best:
            best, chosen = key, index
    return int(found.actions[chosen])
