"""A search budget that fills a time per move: the ``alphazero`` agent's ``seconds`` option.

``batched-mcts`` given ``seconds`` runs simulations until its deadline. Gumbel's Sequential
Halving cannot: it divides its simulations among rounds planned from their number, so the
budget must be chosen before the search starts. :class:`Pace` chooses it from how long the
player's recent moves took per simulation: the largest budget on :data:`LADDER` whose
expected time fits the time per move. It takes the median of the last few moves' paces, so
that one slow move (the first, while numba loads the compiled search; a busy neighbour for a
moment) does not cut the next budget, and it times whole moves, so that the work a move does
besides its simulations (the root's guard, the network's first call) is paid for out of the
same seconds. The budgets come from a ladder, each rung half again or a third more than the
one below, because the player keeps one search per budget it has used (a search holds arrays
sized for its budget). The ladder stops at :data:`MOST_SIMULATIONS`: a time per move worth
more plays that many, in less time.

The paces are the machine's, not the game's: the players of one network, evaluated and
searched the same way, share them within a process (:func:`shared_paces`). The arena makes a
new agent for every game; sharing, each game starts at the pace the one before ended with,
where a player of its own would search its first move with the first budget again.
"""

from __future__ import annotations

import statistics
from collections import deque

#: The largest budget a time per move buys.
MOST_SIMULATIONS = 32_768
#: The budgets a time per move is turned into: 16, 24, 32, 48, 64, 96, ... 24,576, 32,768.
LADDER = tuple(
    sorted(
        budget
        for budget in (base << shift for base in (2, 3) for shift in range(3, 15))
        if budget <= MOST_SIMULATIONS
    )
)
#: Moves whose pace the next budget is chosen from (their median).
REMEMBERED_MOVES = 5


#: Recent seconds per simulation by what sets them (:func:`shared_paces`), with the object
#: the key's identity is taken from, kept alive so that the identity is not reused.
_SHARED: dict[tuple[int, str, bool], tuple[object, deque[float]]] = {}


def shared_paces(network: object, evaluator: str, waves: bool) -> deque[float]:
    """The recent paces of every player of ``network`` in this process.

    ``evaluator`` names how it scores leaves and ``waves`` how the search runs, which both set
    the pace as much as the network does.
    """
    key = (id(network), evaluator, waves)
    if key not in _SHARED:
        _SHARED[key] = (network, deque(maxlen=REMEMBERED_MOVES))
    return _SHARED[key][1]


class Pace:
    """Budgets of simulations that fill ``seconds`` per move (module docstring).

    The first move searches with ``first`` simulations unless ``paces`` (recent seconds per
    simulation, shared with other players: :func:`shared_paces`) already holds some; after
    it, each budget comes from the moves :meth:`record` was told about.
    """

    def __init__(self, seconds: float, first: int, paces: deque[float] | None = None) -> None:
        if not seconds > 0:
            raise ValueError(f"seconds per move must be positive, not {seconds}")
        if first < 1:
            raise ValueError(f"the first move's budget must be at least 1, not {first}")
        self.seconds = seconds
        self.first = first
        self._seconds_per_simulation = deque(maxlen=REMEMBERED_MOVES) if paces is None else paces

    def budget(self) -> int:
        """The simulations the next move can afford: the largest rung of :data:`LADDER` that fits.

        The smallest rung when none does; ``first`` before any move was recorded.
        """
        if not self._seconds_per_simulation:
            return self.first
        pace = statistics.median(self._seconds_per_simulation)
        fitting = [rung for rung in LADDER if rung * pace <= self.seconds]
        return fitting[-1] if fitting else LADDER[0]

    def record(self, simulations: int, seconds: float) -> None:
        """A move searched ``simulations`` and took ``seconds``, all its work included."""
        self._seconds_per_simulation.append(seconds / simulations)
