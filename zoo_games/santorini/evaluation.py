"""How good a Santorini position is for one player: the static evaluation of search agents.

A player wins by climbing onto level 3, and a worker climbs at most one level per move, so
what counts is how high the workers stand and how close they are to a climb: a worker on
level 2 next to a free level-3 cell wins on its next move unless the opponent domes that cell
or the worker is blocked, and a worker with free cells one level up around it can keep
climbing. Free cells around a worker also matter on their own: a player without a legal move
loses. The same function is the potential of the reward shaping in training
(:mod:`zoo_games.rllib.shaping`).

:func:`winning_actions` finds the climbs onto level 3 with a few mask operations (and rules
out boxing the opponent in by counting), which lets the agents look for immediate wins
(their own and the opponent's) without trying every move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zoo_games.santorini.cells import NUM_CELLS, UNPLACED
from zoo_games.santorini.rules import (
    NEIGHBOUR_MASK,
    NEIGHBOURS_ON_BOARD,
    SantoriniState,
    play_action,
)

#: NEIGHBOUR_BITS[cell]: ``(direction, bit of the neighbour)`` for each neighbour on the board.
NEIGHBOUR_BITS = tuple(
    tuple((direction, 1 << target) for direction, target in NEIGHBOURS_ON_BOARD[cell])
    for cell in range(NUM_CELLS)
)
#: Weights of the terms (per worker, own minus opponent's); see :func:`evaluate`.
HEIGHT_WEIGHT = 0.1
CLIMB_WEIGHT = 0.05
THREAT_WEIGHT = 0.3
MOBILITY_WEIGHT = 0.01
#: The most a non-terminal position scores, so that a won game (1.0) always ranks higher.
LIMIT = 0.95


def evaluate(state: SantoriniState, player: int) -> float:
    """``player``'s prospects in [-1, 1]: the game's return once it is over, else a score.

    The score sums, over ``player``'s workers minus the opponent's:

    * 0.1 x the height the worker stands on (0-2);
    * 0.3 for each free level-3 cell next to a worker on level 2 (a threat to win at once);
    * 0.05 for each free cell one level above a lower worker (a climb it can make);
    * 0.01 for each free cell the worker can move to (being boxed in loses the game);

    clipped to [-0.95, 0.95]. "Free" means no worker and no dome.
    """
    if state.winner >= 0:
        return state.returns()[player]
    if UNPLACED in state.workers:
        return 0.0  # placing workers: nobody stands anywhere yet
    return score(_standing(state, player), _standing(state, 1 - player))


def score(own: float, theirs: float) -> float:
    """The score of a game in progress, from the two players' standings (:func:`worker_terms`).

    Plain Python over floats: the batched kernels compile this very function.
    """
    return max(-LIMIT, min(LIMIT, own - theirs))


def worker_terms(total: float, height: int, climbs: int, steps: int) -> float:
    """``total`` plus one worker's weighted terms (see :func:`evaluate`).

    ``height`` is the level it stands on, ``climbs`` the free cells one level up around it,
    ``steps`` the free cells it can step onto. Added in this order, which fixes the float;
    plain Python over numbers: the batched kernels compile this very function.
    """
    total += HEIGHT_WEIGHT * height + MOBILITY_WEIGHT * steps
    total += (THREAT_WEIGHT if height == 2 else CLIMB_WEIGHT) * climbs
    return total


def walkable_levels(levels: Sequence[int] | np.ndarray, height: int) -> int:
    """The cells a worker standing on ``height`` may step onto, by level, as one cell mask.

    ``levels[h]`` is the mask of the cells of height ``h``; a worker climbs at most one level,
    so these are levels 0 .. ``height + 1`` (never a dome: ``height`` is at most 2). Plain
    Python over a list or an array: the batched kernels compile this very function.
    """
    walkable = levels[0] | levels[1]
    if height:
        walkable |= levels[2]
    if height == 2:
        walkable |= levels[3]
    return int(walkable)


def _standing(state: SantoriniState, player: int) -> float:
    """The weighted terms of :func:`evaluate` for ``player``'s two workers."""
    heights, levels, workers = state.heights, state.levels, state.workers
    occupied = 1 << workers[0] | 1 << workers[1] | 1 << workers[2] | 1 << workers[3]
    total = 0.0
    for cell in workers[2 * player : 2 * player + 2]:
        height = heights[cell]
        around = NEIGHBOUR_MASK[cell] & ~occupied
        climbs = (levels[height + 1] & around).bit_count()
        steps = (walkable_levels(levels, height) & around).bit_count()
        total = worker_terms(total, height, climbs, steps)
    return total


def winning_actions(state: SantoriniState) -> list[int]:
    """The mover's moves that win at once: climbs, and moves that box the opponent in.

    A climb is found on masks (one action per climb, build direction 0: a winning move
    builds nothing, so every direction is legal). Boxing the opponent in is ruled out by
    counting when some opponent worker has 3 or more free cells it can step onto and at least
    2 parts left of the level it stands on: one move takes at most one of those cells with a
    worker and one with a build, and from any cell left the worker can build on the cell it
    came from. Only when that fails is every move tried on a copy.
    """
    if state.winner >= 0 or UNPLACED in state.workers:
        return []
    workers, heights, mover, levels = state.workers, state.heights, state.mover, state.levels
    occupied = 1 << workers[0] | 1 << workers[1] | 1 << workers[2] | 1 << workers[3]
    if not _opponent_surely_moves(state, occupied):
        return [action for action in state.legal_actions() if _wins(state, action)]
    targets = levels[3] & ~occupied
    wins: list[int] = []
    for worker in (0, 1):
        cell = workers[2 * mover + worker]
        if heights[cell] == 2 and targets:
            wins.extend(
                play_action(worker, direction, 0)
                for direction, bit in NEIGHBOUR_BITS[cell]
                if targets & bit
            )
    return wins


def _opponent_surely_moves(state: SantoriniState, occupied: int) -> bool:
    """Whether the opponent has a legal move after any move of the mover (see above)."""
    levels, heights, parts = state.levels, state.heights, state.parts
    opponent = 1 - state.mover
    for cell in state.workers[2 * opponent : 2 * opponent + 2]:
        height = heights[cell]
        room = (walkable_levels(levels, height) & NEIGHBOUR_MASK[cell] & ~occupied).bit_count()
        if room >= 3 and parts[height] >= 2:
            return True
    return False


def _wins(state: SantoriniState, action: int) -> bool:
    """Whether the mover has won after ``action`` (played on a copy)."""
    mover = state.mover
    child = state.clone()
    child.apply_action(action)
    return child.winner == mover
