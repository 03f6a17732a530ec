"""Monte Carlo tree search whose simulations run in numba over state rows, for every game.

The search is the one of :mod:`zoo_games.agents.mcts` (UCT, sampled chance nodes, solved wins
and losses propagated upwards, wins in one taken at once, and the same rollouts: a few random
moves scored by the game's evaluation, or random moves to the end), but the tree lives in one
preallocated numpy array of nodes and a whole simulation (selection, expansion, rollout,
backup) is one call into compiled code over the game's kernels
(:mod:`zoo_games.batched.batch`'s ``play``, ``begin_turn``, ``legal_mask`` and
``outcome_without_moves``, and the ``evaluate`` of each kernel module, which compiles its
game's scoring from the game's evaluation module). What still
differs from ``mcts``: the random generator (so the same seed does not give the same
moves), the order in which untried children are picked, and Santorini's wins in one inside
the tree and the rollouts, which are the climbs onto level 3 only (``mcts`` also counts a
move that leaves the opponent without a move, when counting cannot rule it out).

How it reaches a game's kernels: as in :func:`zoo_games.batched.batch.compile_loops`, the
functions below are templates written once against global names, and :func:`compile_search`
compiles a copy of them per game module with those names bound:

* ``game_kernels``: the game module;
* ``chance_outcome(row)``: the game module's function of that name if it has one (Senet: the
  throw, 0 while the sticks are still to be thrown), else :func:`no_chance_outcome`;
* ``OUTCOME_PROBABILITY``: the game module's array of that name, indexed by outcome;
* ``evaluate(row, config, player)``: the game module's evaluation (the rules core's
  ``zoo_games.<game>.evaluation.evaluate`` over a state row, results included);
* ``find_win(row, config, mask, rngs)``: an action after which ``play`` reports the mover's
  win, or -1: the game module's ``winning_action`` (same arguments) if it has one, cheap
  enough for every move of a rollout (Santorini's climbs onto level 3; Togyz Kumalak's
  counting rules most positions out before trying the moves), else :func:`win_by_trying`,
  which plays every legal action on a copy of the row (Senet).

The copies are cached by numba next to the game module and recompiled when any file they
may compile from changes (:mod:`zoo_games.batched.cache`).

The tree: node 0 is the root; the children of a node are a contiguous range of nodes
(``first``, ``count``), one per legal action (or per chance outcome), allocated the first
time a simulation passes through the node. At a decision node, the first ``tried`` children
have been visited; an untried child is picked at random and swapped to position ``tried``.
A child of a chance node is found by its outcome. Values are ``player_0``'s.
"""

from __future__ import annotations

import math
import time
import types
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from zoo_games.batched.batch import MOVER, GameKernels, compile_for_game, winner_returns
from zoo_games.batched.rng import Integer, below, seed_states
from zoo_games.core.game import CHANCE, NO_WINNER, Game

#: ``solved`` of a node whose exact value is not known (values lie in [-1, 1]).
OPEN = 2.0
#: One node of the tree. ``total`` sums the simulations' results through the node and
#: ``solved`` is its exact value, both for ``player_0``; ``action`` is the action (or chance
#: outcome) that leads to it from its parent; ``first`` is its first child (-1 before its
#: children are allocated), ``count`` their number, ``tried`` how many have been visited.
NODE = np.dtype(
    [
        ("total", np.float64),
        ("solved", np.float64),
        ("visits", np.int32),
        ("first", np.int32),
        ("count", np.int16),
        ("tried", np.int16),
        ("action", np.int16),
        ("player", np.int8),
    ],
    align=True,
)
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

#: Bound per game module by :func:`compile_search` (the templates are never compiled).
game_kernels: Any = None
OUTCOME_PROBABILITY = np.zeros(1)


@njit(cache=True, inline="always")
def no_chance_outcome(row: np.ndarray) -> int:
    """``chance_outcome`` of a game without chance: never 0, so no node is a chance node."""
    return -1


def chance_outcome(row: np.ndarray) -> int:
    """Template: bound to the game's ``chance_outcome`` or to :func:`no_chance_outcome`."""
    raise NotImplementedError


def find_win(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """Template: bound to :func:`game_win` or to :func:`win_by_trying`."""
    raise NotImplementedError


# ---------------------------------------------------------------------- templates
def play_move(
    row: np.ndarray, action: Integer, config: np.ndarray, rngs: np.ndarray, game: Integer
) -> int:
    """The game's ``play``, compiled once (the kernels are inlined where they are called)."""
    return int(game_kernels.play(row, action, config, rngs, game))


def find_legal(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """The game's ``legal_mask``, compiled once."""
    return int(game_kernels.legal_mask(row, config, mask))


def resolve_chance(row: np.ndarray, config: np.ndarray, rngs: np.ndarray) -> None:
    """The game's ``begin_turn`` with the search's one generator, compiled once."""
    game_kernels.begin_turn(row, config, rngs, 0)


def game_win(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """The game module's own ``winning_action`` (``mask``: the mover's legal actions)."""
    return int(game_kernels.winning_action(row, config, mask, rngs))


def win_by_trying(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """A legal action after which ``play`` reports the mover's win, tried on a copy; or -1."""
    mover = row[MOVER]
    copy = np.empty_like(row)
    for action in range(mask.shape[0]):
        if mask[action]:
            copy[:] = row
            if play_move(copy, action, config, rngs, 0) == mover:
                return action
    return -1


def random_legal(row: np.ndarray, mask: np.ndarray, count: Integer, rngs: np.ndarray) -> int:
    """A uniformly random legal action: the game's ``kth_legal`` of ``count``, k uniform."""
    return int(game_kernels.kth_legal(row, mask, below(rngs, 0, count)))


def evaluate_position(row: np.ndarray, config: np.ndarray) -> float:
    """The game's ``evaluate`` for ``player_0``: the rules core's evaluation, compiled once."""
    return float(game_kernels.evaluate(row, config, 0))


def rollout(
    row: np.ndarray,
    config: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
    take_wins: bool,
    depth: Integer,
) -> float:
    """The result for ``player_0`` of random play from ``row`` (changed).

    After ``depth`` random moves (chance outcomes do not count) the position is scored by
    the game's evaluation; a ``depth`` of -1 plays to the end. A mover without a legal
    action ends the game as the game's ``outcome_without_moves`` says; with ``take_wins`` a
    mover that can win at once (as :func:`find_win` sees it) is counted as the winner
    without playing the move. As :meth:`zoo_games.agents.mcts.MCTSAgent._rollout`, in that
    order.
    """
    moves = 0
    while True:
        resolve_chance(row, config, rngs)
        if moves == depth:
            return evaluate_position(row, config)
        count = find_legal(row, config, mask)
        mover = row[MOVER]
        if count == 0:
            outcome = game_kernels.outcome_without_moves(row, config)
            if outcome != NO_WINNER:
                return winner_returns(outcome)[0]
        if take_wins and find_win(row, config, mask, rngs) >= 0:
            return winner_returns(mover)[0]
        outcome = play_move(row, random_legal(row, mask, count, rngs), config, rngs, 0)
        if outcome != NO_WINNER:
            return winner_returns(outcome)[0]
        moves += 1


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


def new_child(nodes: np.ndarray, child: Integer, action: Integer) -> None:
    """Make node ``child`` an unvisited child reached by ``action``."""
    nodes[child].total = 0.0
    nodes[child].solved = OPEN
    nodes[child].visits = 0
    nodes[child].first = -1
    nodes[child].count = 0
    nodes[child].tried = 0
    nodes[child].action = action
    nodes[child].player = 0


def add_children(nodes: np.ndarray, size: np.ndarray, node: Integer, mask: np.ndarray) -> None:
    """Allocate one child per legal action of a decision node, after the last node."""
    first = size[0]
    count = 0
    for action in range(mask.shape[0]):
        if mask[action]:
            new_child(nodes, first + count, action)
            count += 1
    nodes[node].first = first
    nodes[node].count = count
    size[0] = first + count


def add_outcomes(nodes: np.ndarray, size: np.ndarray, node: Integer) -> None:
    """Allocate one child per chance outcome (of positive probability) of a chance node."""
    first = size[0]
    count = 0
    for outcome in range(OUTCOME_PROBABILITY.shape[0]):
        if OUTCOME_PROBABILITY[outcome] > 0:
            new_child(nodes, first + count, outcome)
            count += 1
    nodes[node].first = first
    nodes[node].count = count
    size[0] = first + count


def outcome_child(nodes: np.ndarray, node: Integer, outcome: Integer) -> int:
    """The child of a chance node reached by ``outcome``."""
    first = nodes[node].first
    for child in range(first, first + nodes[node].count):
        if nodes[child].action == outcome:
            return child
    return -1


def take_untried(nodes: np.ndarray, node: Integer, rngs: np.ndarray) -> int:
    """A random untried child of a decision node, swapped to position ``tried``; now tried."""
    first, tried = nodes[node].first, nodes[node].tried
    pick = first + tried + below(rngs, 0, nodes[node].count - tried)
    child = first + tried
    action = nodes[pick].action
    nodes[pick].action = nodes[child].action
    nodes[child].action = action
    nodes[node].tried = tried + 1
    return child


def select(nodes: np.ndarray, node: Integer, exploration: float) -> int:
    """The child with the best UCB1 score for the mover, never one solved as its loss.

    (A node whose children are all solved is solved itself, so some child is always left.)
    """
    sign = 1.0 if nodes[node].player == 0 else -1.0
    explore = exploration * math.sqrt(math.log(nodes[node].visits))
    best_score = -math.inf
    best = -1
    first = nodes[node].first
    for child in range(first, first + nodes[node].tried):
        solved = nodes[child].solved
        if solved == OPEN:
            mean = sign * nodes[child].total / nodes[child].visits
        elif sign * solved <= -1.0:
            continue
        else:
            mean = sign * solved
        score = mean + explore / math.sqrt(nodes[child].visits)
        if score > best_score:
            best_score = score
            best = child
    return best


def solve(nodes: np.ndarray, node: Integer) -> bool:
    """Mark ``node`` solved if its children decide it (MCTS-Solver); whether it now is.

    A decision node is won when one child is won for its mover, and decided when all its
    children are; a chance node when all its outcomes are, to their weighted value.
    """
    if nodes[node].solved != OPEN:
        return True
    first = nodes[node].first
    if first < 0:
        return False
    if nodes[node].player == CHANCE:
        value = 0.0
        for child in range(first, first + nodes[node].count):
            if nodes[child].visits == 0 or nodes[child].solved == OPEN:
                return False
            value += OUTCOME_PROBABILITY[nodes[child].action] * nodes[child].solved
        nodes[node].solved = value
        return True
    sign = 1.0 if nodes[node].player == 0 else -1.0
    best = -math.inf
    open_child = nodes[node].tried < nodes[node].count
    for child in range(first, first + nodes[node].tried):
        solved = nodes[child].solved
        if solved == OPEN:
            open_child = True
        elif sign * solved >= 1.0:
            nodes[node].solved = solved
            return True
        else:
            best = max(best, sign * solved)
    if open_child:
        return False
    nodes[node].solved = sign * best
    return True


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
            resolve_chance(row, config, rngs)
            if nodes[node].first < 0:
                add_outcomes(nodes, size, node)
            child = outcome_child(nodes, node, chance_outcome(row))
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
        node = select(nodes, node, exploration)
        play_move(row, nodes[node].action, config, rngs, 0)
        path[depth] = node
        depth += 1
    for index in range(depth):
        nodes[path[index]].visits += 1
        nodes[path[index]].total += result
    for index in range(depth - 2, -1, -1):
        if not solve(nodes, path[index]):
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
    resolve_chance(row, config, rngs)
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
def compile_search(module: types.ModuleType) -> SearchFunctions:
    """The templates above compiled against the game ``module`` (see the module docstring)."""
    namespace = dict(globals(), game_kernels=module)
    namespace["chance_outcome"] = getattr(module, "chance_outcome", no_chance_outcome)
    namespace["OUTCOME_PROBABILITY"] = getattr(module, "OUTCOME_PROBABILITY", np.zeros(1))

    def copy(function: Any, **options: Any) -> Any:
        return compile_for_game(function, module, namespace, **options)

    # Order does not matter: numba resolves the globals when ``run`` is first called.
    namespace["find_win"] = copy(game_win if hasattr(module, "winning_action") else win_by_trying)
    helpers: tuple[Any, ...] = (
        play_move,
        find_legal,
        resolve_chance,
        random_legal,
        evaluate_position,
        new_child,
        outcome_child,
        take_untried,
        select,
        solve,
        rollout,
        describe_node,
        add_children,
        add_outcomes,
        simulate,
        winning_move,
    )
    for function in helpers:
        copy(function)
    return SearchFunctions(run=copy(run), analyse_root=copy(analyse_root))


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
        self._functions = compile_search(kernels.module)
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
        legal = np.zeros(self.num_actions, dtype=np.int8)
        safe = np.zeros(self.num_actions, dtype=np.int8)
        rngs = seed_states(0, 1)  # the kernels' signature; nothing random happens here
        win = self._functions.analyse_root(row, self._config, rngs, legal, safe)
        return int(win), np.flatnonzero(legal).tolist(), np.flatnonzero(safe).tolist()

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
