"""``batched-mcts``'s search: UCT whose whole simulations run in numba, one tree per move.

The search is the one of :mod:`zoo_games.agents.mcts` (UCT, sampled chance nodes, solved wins
and losses propagated upwards, wins in one taken at once, and the same rollouts: a few random
moves scored by the game's evaluation, or random moves to the end), but the tree lives in one
preallocated array of nodes (:mod:`zoo_games.batched.search.tree`, shared with the AlphaZero search)
and a whole simulation (selection, expansion, rollout, backup) is one call into compiled code
over the game's kernels. It keeps its leaves' evaluation compiled too (the rollouts of
:mod:`zoo_games.batched.search.rollouts`) rather than stopping between steps as the AlphaZero search
does, for its speed: a simulation costs about a microsecond. What still differs from
``mcts``: the random generator (so the same seed does not give the same moves), the order in
which untried children are picked, and Santorini's wins in one inside the tree and the
rollouts, which are the climbs onto level 3 only (``mcts`` also counts a move that leaves the
opponent without a move, when counting cannot rule it out).

The functions below are templates over a game's kernels, compiled per game module by
:func:`compile_uct` (:mod:`zoo_games.batched.search.templates`). At a decision node, the first
``tried`` children have been visited; an untried child is picked at random and swapped to
position ``tried`` (:func:`~zoo_games.batched.search.selection.take_untried`), then UCB1
chooses among the tried ones (:func:`~zoo_games.batched.search.selection.uct_child`).
"""

from __future__ import annotations

import time
import types
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from zoo_games.batched.batch import MOVER, GameKernels, winner_returns
from zoo_games.batched.rng import Integer, seed_states
from zoo_games.batched.search import rollouts
from zoo_games.batched.search.rollouts import find_win, rollout
from zoo_games.batched.search.selection import take_untried, uct_child
from zoo_games.batched.search.templates import (
    OUTCOME_PROBABILITY,
    chance_outcome,
    find_legal,
    game_kernels,
    play_move,
    resolve_chance,
)
from zoo_games.batched.search.tree import NODE, OPEN, add_children, backup, outcome_child, solve
from zoo_games.core.game import CHANCE, NO_WINNER, Game

#: Nodes of a new tree; the tree doubles when a simulation could run out of room.
INITIAL_NODES = 1 << 14
#: Seconds of simulations between two looks at the clock, under a time budget: a call into
#: the compiled loop costs microseconds, and a search overruns its budget by about this much.
CHUNK_SECONDS = 0.002
#: Whether random rollouts take a win in one (by ``find_win``), by the rules core's game
#: name (heuristic rollouts do as ``mcts``: see :class:`TreeSearch`). Santorini: random
#: players blunder their climbs away, and the check is a few reads. Togyz Kumalak: the check
#: costs about as much as a move, and in short trials at equal time per move the search
#: without it was clearly stronger (as were heuristic rollouts without it: docs/agents.md);
#: Senet has no cheap finder.
ROLLOUT_WINS = {"santorini": True, "togyz_kumalak": False, "senet": False}


def describe_node(
    nodes: np.ndarray,
    node: Integer,
    row: np.ndarray,
    outcome: int,
    config: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
) -> None:
    """Fill in a node just reached in ``row`` (``outcome``: what ``play`` returned).

    A finished game is solved as its result; a pending chance makes a chance node; a mover
    without a legal action is solved as the game's ``outcome_without_moves`` says, and one
    that can win at once as won.
    """
    if outcome != NO_WINNER:
        nodes[node].solved = winner_returns(outcome)[0]
        return
    if chance_outcome(row) == 0:
        nodes[node].player = CHANCE
        return
    mover = row[MOVER]
    nodes[node].player = mover
    if find_legal(row, config, mask) == 0:
        outcome = game_kernels.outcome_without_moves(row, config)
        if outcome != NO_WINNER:
            nodes[node].solved = winner_returns(outcome)[0]
    elif find_win(row, config, mask, rngs) >= 0:
        nodes[node].solved = winner_returns(mover)[0]


def simulate(
    root_row: np.ndarray,
    config: np.ndarray,
    nodes: np.ndarray,
    size: np.ndarray,
    path: np.ndarray,
    row: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
    exploration: float,
    take_wins: bool,
    rollout_depth: Integer,
) -> None:
    """One simulation: selection, expansion, rollout, backup and solving.

    ``rollout_depth``: the moves of a rollout before the evaluation, -1 to play to the end.

    ``legal_mask`` runs before every move played in the tree, as the engine's contract
    requires (Senet's ``play`` reads what its ``legal_mask`` wrote into the row).
    """
    row[:] = root_row
    node = 0
    path[0] = 0
    depth = 1
    while True:
        if nodes[node].solved != OPEN:
            result = nodes[node].solved
            break
        if nodes[node].player == CHANCE:
            resolve_chance(row, config, rngs, 0)
            child = outcome_child(nodes, size, node, chance_outcome(row), OUTCOME_PROBABILITY)
            path[depth] = child
            depth += 1
            if nodes[child].visits == 0:
                describe_node(nodes, child, row, NO_WINNER, config, mask, rngs)
                result = nodes[child].solved
                if result == OPEN:
                    result = rollout(row, config, mask, rngs, take_wins, rollout_depth)
                break
            node = child
            continue
        find_legal(row, config, mask)
        if nodes[node].first < 0:
            add_children(nodes, size, node, mask)
        if nodes[node].tried < nodes[node].count:
            child = take_untried(nodes, node, rngs)
            outcome = play_move(row, nodes[child].action, config, rngs, 0)
            path[depth] = child
            depth += 1
            describe_node(nodes, child, row, outcome, config, mask, rngs)
            result = nodes[child].solved
            if result == OPEN:
                result = rollout(row, config, mask, rngs, take_wins, rollout_depth)
            break
        node = uct_child(nodes, node, exploration)
        play_move(row, nodes[node].action, config, rngs, 0)
        path[depth] = node
        depth += 1
    backup(nodes, path, depth, result)
    for index in range(depth - 2, -1, -1):
        if not solve(nodes, path[index], OUTCOME_PROBABILITY):
            break


def run(
    root_row: np.ndarray,
    config: np.ndarray,
    nodes: np.ndarray,
    size: np.ndarray,
    path: np.ndarray,
    row: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
    simulations: Integer,
    exploration: float,
    take_wins: bool,
    rollout_depth: Integer,
) -> int:
    """Run up to ``simulations``; how many ran.

    ``path`` holds a simulation's nodes (as long as ``nodes``), ``row`` its state and ``mask``
    its legal actions. Stops early once the root is solved, or when the nodes left could not
    hold the children one more simulation may allocate (one node's: at most the mask's length).
    """
    for done in range(simulations):
        if nodes[0].solved != OPEN or size[0] + mask.shape[0] > nodes.shape[0]:
            return done
        simulate(
            root_row,
            config,
            nodes,
            size,
            path,
            row,
            mask,
            rngs,
            exploration,
            take_wins,
            rollout_depth,
        )
    return int(simulations)


def winning_move(
    row: np.ndarray,
    config: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
    scratch: np.ndarray,
    scratch_mask: np.ndarray,
) -> int:
    """A legal action (``mask``) that wins at once, tried on a copy, or -1.

    Unlike :func:`find_win`, it also counts a move after which the opponent, to act next,
    has no legal action and the game's ``outcome_without_moves`` makes the mover the winner
    (Santorini).
    """
    mover = row[MOVER]
    for action in range(mask.shape[0]):
        if not mask[action]:
            continue
        scratch[:] = row
        outcome = play_move(scratch, action, config, rngs, 0)
        if outcome == mover:
            return action
        if (
            outcome == NO_WINNER
            and chance_outcome(scratch) != 0
            and scratch[MOVER] != mover
            and find_legal(scratch, config, scratch_mask) == 0
            and game_kernels.outcome_without_moves(scratch, config) == mover
        ):
            return action
    return -1


def analyse_root(
    root_row: np.ndarray, config: np.ndarray, rngs: np.ndarray, legal: np.ndarray, safe: np.ndarray
) -> int:
    """The mover's winning action or -1; writes its legal actions and the safe ones.

    A legal action is safe unless after it the opponent acts (no chance in between) and
    can win at once (:func:`winning_move`).
    """
    num_actions = legal.shape[0]
    row = root_row.copy()
    child = np.empty_like(row)
    scratch = np.empty_like(row)
    reply_mask = np.zeros(num_actions, dtype=np.int8)
    scratch_mask = np.zeros(num_actions, dtype=np.int8)
    resolve_chance(row, config, rngs, 0)
    find_legal(row, config, legal)
    win = winning_move(row, config, legal, rngs, scratch, scratch_mask)
    if win >= 0:
        return win
    mover = row[MOVER]
    for action in range(num_actions):
        safe[action] = legal[action]
        if not legal[action]:
            continue
        child[:] = row
        play_move(child, action, config, rngs, 0)
        if chance_outcome(child) == 0 or child[MOVER] == mover:
            continue
        find_legal(child, config, reply_mask)
        if winning_move(child, config, reply_mask, rngs, scratch, scratch_mask) >= 0:
            safe[action] = 0
    return -1


class SearchFunctions(NamedTuple):
    """The search compiled for one game."""

    run: Any
    analyse_root: Any


@cache
def compile_uct(module: types.ModuleType) -> SearchFunctions:
    """The templates of this module and the rollouts compiled for the game ``module``."""
    copy = rollouts.template_compiler(module, globals())
    for helper in (describe_node, simulate, winning_move):
        copy(helper)
    return SearchFunctions(run=copy(run), analyse_root=copy(analyse_root))


def analyse_position(
    kernels: GameKernels, config: np.ndarray, row: np.ndarray, num_actions: int
) -> tuple[int, np.ndarray, np.ndarray]:
    """``(winning action or -1, legal mask, safe mask)`` of the mover in state ``row``.

    What ``batched-mcts`` decides before it searches (:func:`analyse_root`): a win in one is
    played at once, and the moves after which the opponent can win at once are left out when
    others remain. Players of other searches ask it too (the ``alphazero`` agent).
    """
    legal = np.zeros(num_actions, dtype=np.int8)
    safe = np.zeros(num_actions, dtype=np.int8)
    rngs = seed_states(0, 1)  # the kernels' signature; nothing random happens here
    win = compile_uct(kernels.module).analyse_root(row, config, rngs, legal, safe)
    return int(win), legal, safe


# ---------------------------------------------------------------------- the driver
@dataclass
class RootStatistics:
    """What a search found at the root: per tried root action, and the cost.

    ``values`` and ``solved`` are ``player_0``'s (``solved`` is :data:`OPEN` where unknown).
    """

    actions: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    solved: np.ndarray
    #: The root's value for ``player_0``: solved, else the mean of its simulations.
    root_value: float
    simulations: int


class TreeSearch:
    """The search for one game (its kernels and options), with a tree reused move after move.

    ``max_nodes`` caps the tree: a search that fills it stops early (its simulations say how
    many ran). ``rollout`` and ``rollout_depth`` mean what they mean for ``mcts``
    (:data:`~zoo_games.agents.mcts.ROLLOUTS`): ``"heuristic"`` rollouts stop after
    ``rollout_depth`` random moves and score the position with the game's ``evaluate``,
    ``"random"`` ones play to the end. ``rollout_wins`` says whether rollouts take a win in
    one; ``None`` means: as ``mcts`` for heuristic rollouts (where the game has a cheap
    ``winning_action``: Santorini, Togyz Kumalak), the game's :data:`ROLLOUT_WINS` for
    random ones.
    """

    def __init__(
        self,
        game: Game,
        kernels: GameKernels,
        max_nodes: int,
        rollout: str = "heuristic",
        rollout_depth: int = 4,
        rollout_wins: bool | None = None,
    ) -> None:
        self.game = game
        self.kernels = kernels
        self.num_actions = game.num_actions
        self.max_nodes = max_nodes
        self.rollout_depth = rollout_depth if rollout == "heuristic" else -1
        if rollout_wins is not None:
            self.take_wins = rollout_wins
        elif rollout == "heuristic":
            self.take_wins = hasattr(kernels.module, "winning_action")
        else:
            self.take_wins = ROLLOUT_WINS.get(game.name, False)
        self._functions = compile_uct(kernels.module)
        self._config = np.array(kernels.config(game, {}), dtype=np.int64)
        self._nodes = np.empty(min(INITIAL_NODES, max_nodes), dtype=NODE)

    @property
    def nodes(self) -> np.ndarray:
        """The tree of the last search (:data:`NODE` records; node 0 is the root), read-only.

        Only the nodes reachable from the root belong to it (the array is reused).
        """
        view = self._nodes.view()
        view.flags.writeable = False
        return view

    def analyse_root(self, row: np.ndarray) -> tuple[int, list[int], list[int]]:
        """``(winning action or -1, legal actions, safe actions)`` of the mover in ``row``."""
        win, legal, safe = analyse_position(self.kernels, self._config, row, self.num_actions)
        return win, np.flatnonzero(legal).tolist(), np.flatnonzero(safe).tolist()

    def search(
        self,
        row: np.ndarray,
        root_actions: list[int],
        simulations: int | None,
        deadline: float | None,
        exploration: float,
        seed: int,
    ) -> RootStatistics:
        """Search from ``row`` (a decision node) over ``root_actions`` until the budget is spent.

        The budget is ``simulations``, or the ``deadline`` of :func:`time.perf_counter`:
        simulations then run in chunks of about :data:`CHUNK_SECONDS` between clock checks.
        """
        nodes = self._nodes
        count = len(root_actions)
        nodes[0] = (0.0, OPEN, 0, 1, count, 0, 0, row[MOVER])
        nodes[1 : count + 1] = [(0.0, OPEN, 0, -1, 0, 0, a, 0) for a in root_actions]
        size = np.array([count + 1], dtype=np.int64)
        rngs = seed_states(seed, 1)
        work_row = np.empty_like(row)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        path = np.empty(nodes.shape[0], dtype=np.int64)
        done = 0
        chunk = 64
        while True:
            wanted = chunk if simulations is None else simulations - done
            started = time.perf_counter()
            ran = self._functions.run(
                row,
                self._config,
                nodes,
                size,
                path,
                work_row,
                mask,
                rngs,
                wanted,
                exploration,
                self.take_wins,
                self.rollout_depth,
            )
            done += ran
            if nodes[0]["solved"] != OPEN or (simulations is not None and done >= simulations):
                break
            if ran < wanted:  # out of room
                if nodes.shape[0] >= self.max_nodes:
                    break
                nodes = self._grow(nodes)
                path = np.empty(nodes.shape[0], dtype=np.int64)
                continue
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = ran / max(now - started, 1e-6)
                chunk = max(1, int(rate * min(CHUNK_SECONDS, (deadline - now) / 2)))
        self._nodes = nodes
        children = nodes[1 : 1 + int(nodes[0]["tried"])]
        visits = children["visits"].astype(np.int64)
        solved = children["solved"].copy()
        values = np.where(solved != OPEN, solved, children["total"] / np.maximum(visits, 1))
        root = nodes[0]
        root_value = (
            float(root["solved"])
            if root["solved"] != OPEN
            else float(root["total"]) / max(int(root["visits"]), 1)
        )
        return RootStatistics(
            children["action"].astype(np.int64), visits, values, solved, root_value, done
        )

    def _grow(self, nodes: np.ndarray) -> np.ndarray:
        grown = np.empty(min(2 * nodes.shape[0], self.max_nodes), dtype=NODE)
        grown[: nodes.shape[0]] = nodes
        return grown
