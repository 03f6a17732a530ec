"""Monte Carlo tree search (UCT) over the rules core, with chance nodes and solved nodes.

One simulation walks down the tree from the current state (on a clone), choosing at each
decision node the child with the best UCB1 score for the player to act there, adds one new
node, finishes the game from it with a *rollout*, and adds the result to every node on the
way. After the budget is spent the agent plays the most visited move.

Choices, and why:

* **Chance (Senet's throws) is sampled.** At a chance node a simulation draws the throw with
  the rules core's probabilities (:meth:`~zoo_games.core.game.GameState.chance_outcomes`),
  so each throw's subtree is visited in proportion to its probability and every
  simulation costs one path, as in OpenSpiel's MCTS. Averaging over all five throws in every
  simulation would cost five rollouts per chance node on the path for no better estimate.
* **Rollouts.** ``rollout="random"`` plays uniformly random moves to the end of the game.
  ``rollout="heuristic"`` (the default) plays ``rollout_depth`` random moves and then scores
  the position with the game's evaluation (:mod:`zoo_games.agents.evaluation`); where the
  game finds its winning moves cheaply (Santorini, Togyz Kumalak), a rollout also
  always takes a win in one. Rollouts to the end are long in Senet and Togyz Kumalak
  (hundreds of moves) and say little about a position in Santorini, where random players
  blunder wins away; a short rollout cut by the evaluation is cheaper and less noisy. In
  short trials against ``greedy`` a depth of 4 did better than 10 in Santorini and about as
  well in the other games, hence the default.
* **Decisive and anti-decisive moves.** A search with random rollouts easily misses a win in
  one among many moves, or a reply that stops the opponent's. So: a move that wins at once is
  played without search; at the root, moves after which the opponent can win at once are
  left out when some move avoids that; and in the tree, a decision node whose player can win
  at once is *solved* as a win on creation, a terminal node is solved as its return, and
  solved values propagate upwards (MCTS-Solver: a node is won when one child is won for its
  player, and decided when all its children are; a chance node when all its throws are, to
  their probability-weighted value). Solved values replace sampled means in the selection,
  and a child solved as a loss for the player to act is not selected again.

Values are kept from ``player_0``'s point of view (the games are zero-sum), so the same
player acting several times in a row (Senet's extra turns) needs no special care.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.agents.budget import budget_text, checked_budget
from zoo_games.agents.evaluation import (
    evaluation_for,
    fast_winning_actions,
    opponent_wins_next,
    winning_actions,
    winning_actions_finder,
)
from zoo_games.core.game import CHANCE, TERMINAL, GameState

ROLLOUTS = ("random", "heuristic")
#: Simulations per move when neither ``simulations`` nor ``seconds`` is given.
DEFAULT_SIMULATIONS = 1000


class Node:
    """A node of the search tree: a state reached from the root by the actions on its path.

    ``total`` sums the results of the simulations through the node from ``player_0``'s point
    of view; ``solved`` is the node's exact value (``player_0``'s) once it is known.
    A decision node keeps the actions it has not tried yet in ``untried``; a chance node its
    ``outcomes`` (``(outcome, probability)`` pairs).
    """

    __slots__ = ("children", "outcomes", "player", "solved", "total", "untried", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, Node] = {}
        self.untried: list[int] = []
        self.outcomes: Sequence[tuple[int, float]] = ()
        self.visits = 0
        self.total = 0.0
        self.solved: float | None = None

    def value(self) -> float:
        """The node's value for ``player_0``: solved, else the mean of its simulations."""
        if self.solved is not None:
            return self.solved
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchResult:
    """What one :meth:`MCTSAgent.act` found: a policy target and the cost of the search.

    A move that wins at once, or the only legal move, is played without search: its
    ``visit_counts`` are then ``{action: 1}``, ``simulations`` is 0 and ``value`` is 1 for
    the win and 0 (not searched) for the forced move.
    """

    action: int
    #: Root action -> simulations that went through it (actions never tried are absent).
    visit_counts: dict[int, int]
    simulations: int
    seconds: float
    #: The root's value for the player to act, in [-1, 1].
    value: float
    #: The root of the search tree (``None`` without search), for inspection.
    root: Node | None = field(default=None, repr=False)

    def policy(self) -> dict[int, float]:
        """The visit counts normalised to sum to 1 (a policy target for training)."""
        total = sum(self.visit_counts.values())
        return {action: count / total for action, count in self.visit_counts.items()}


class MCTSAgent(Agent):
    """UCT with sampled chance, cut heuristic rollouts and solved wins (module docstring).

    Options: ``simulations`` (per move) or ``seconds`` (per move), not both; neither means
    1000 simulations. ``rollout`` is ``"heuristic"`` (``rollout_depth`` random moves, wins in
    one taken where the game finds them cheaply, then the evaluation) or ``"random"`` (to
    the end). ``exploration`` is UCB1's constant ``c`` in ``q + c * sqrt(ln N / n)``, with
    values in [-1, 1]. The same ``seed`` and the same
    ``simulations`` give the same moves; a ``seconds`` budget depends on the machine.
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int | None = None,
        seconds: float | None = None,
        rollout: str = "heuristic",
        rollout_depth: int = 4,
        exploration: float = 1.4,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        simulations = checked_search_options(self.name, simulations, seconds, exploration)
        check_rollout_options(self.name, rollout, rollout_depth)
        self.simulations = simulations
        self.seconds = seconds
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self._rng = random.Random(seed)
        # The game's evaluation and win finder, looked up once per move (see act).
        self._evaluate: Callable[[GameState, int], float] = _no_evaluation
        self._winning_actions: Callable[[GameState], list[int]] = winning_actions
        self._rollout_wins: Callable[[GameState], list[int]] | None = None
        self.last_search: SearchResult | None = None

    def __repr__(self) -> str:
        budget = budget_text(self.simulations, self.seconds)
        return (
            f"MCTSAgent({budget}, rollout={self.rollout!r}, rollout_depth={self.rollout_depth},"
            f" exploration={self.exploration}, seed={self.seed!r})"
        )

    # ------------------------------------------------------------------ the move
    def act(self, state: GameState) -> int:
        """The most visited root action after the search (see :attr:`last_search`)."""
        check_decision_node(state)
        start = time.perf_counter()
        player = state.current_player()
        self._evaluate = evaluation_for(state.game.name)
        self._winning_actions = winning_actions_finder(state.game.name)
        self._rollout_wins = (
            fast_winning_actions(state.game.name) if self.rollout == "heuristic" else None
        )
        wins = self._winning_actions(state)
        legal = state.legal_actions()
        if wins or len(legal) == 1:
            action = wins[0] if wins else legal[0]
            value = 1.0 if wins else 0.0
            self.last_search = SearchResult(
                action, {action: 1}, 0, time.perf_counter() - start, value
            )
            return action
        root = Node(player)
        root.untried = self._safe_actions(state, legal)
        simulations = self._search(root, state, start)
        action = self._choose(root)
        sign = 1.0 if player == 0 else -1.0
        self.last_search = SearchResult(
            action,
            {a: child.visits for a, child in root.children.items()},
            simulations,
            time.perf_counter() - start,
            sign * root.value(),
            root,
        )
        return action

    def _safe_actions(self, state: GameState, legal: list[int]) -> list[int]:
        """``legal`` without the moves that let the opponent win at once, unless all do."""
        player = state.current_player()
        safe = []
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            if not opponent_wins_next(child, player):
                safe.append(action)
        return safe or legal

    def _search(self, root: Node, state: GameState, start: float) -> int:
        """Run simulations from ``root`` (for ``state``) until the budget is spent."""
        simulate = self._simulate
        if self.simulations is not None:
            for done in range(self.simulations):
                simulate(root, state)
                if root.solved is not None:
                    return done + 1
            return self.simulations
        deadline = start + (self.seconds or 0.0)
        done = 0
        while True:
            simulate(root, state)
            done += 1
            if root.solved is not None or time.perf_counter() >= deadline:
                return done

    def _choose(self, root: Node) -> int:
        """The root action to play: a solved win, else the most visited move not solved lost."""
        sign = 1.0 if root.player == 0 else -1.0
        children = root.children
        for action, child in children.items():
            if child.solved is not None and sign * child.solved >= 1.0:
                return action
        candidates = [
            (action, child)
            for action, child in children.items()
            if child.solved is None or sign * child.solved > -1.0
        ] or list(children.items())
        return max(candidates, key=lambda item: (item[1].visits, sign * item[1].value()))[0]

    # ------------------------------------------------------------------ one simulation
    def _simulate(self, root: Node, root_state: GameState) -> None:
        """Selection, expansion, rollout, backup and solving, once."""
        state = root_state.clone()
        node = root
        path = [root]
        rng = self._rng
        while True:
            if node.solved is not None:
                result = node.solved
                break
            player = node.player
            if player == CHANCE:
                outcome = _sample(node.outcomes, rng.random())
                state.apply_action(outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new_node(state)
                    path.append(child)
                    result = child.solved if child.solved is not None else self._rollout(state)
                    break
                node = child
                path.append(node)
                continue
            untried = node.untried
            if untried:
                index = rng.randrange(len(untried))
                untried[index], untried[-1] = untried[-1], untried[index]
                action = untried.pop()
                state.apply_action(action)
                child = node.children[action] = self._new_node(state)
                path.append(child)
                result = child.solved if child.solved is not None else self._rollout(state)
                break
            action, node = self._select(node)
            state.apply_action(action)
            path.append(node)
        for visited in path:
            visited.visits += 1
            visited.total += result
        for index in range(len(path) - 2, -1, -1):
            if not _solve(path[index]):
                break

    def _select(self, node: Node) -> tuple[int, Node]:
        """The child with the best UCB1 score for the player to act at ``node``.

        Children solved as losses for that player are never chosen: simulations through
        them would only repeat a known result and drag the node's mean towards a move its
        player will not play. (A node all of whose children are solved is solved itself, so
        some child is always left.)
        """
        sign = 1.0 if node.player == 0 else -1.0
        explore = self.exploration * math.sqrt(math.log(node.visits))
        best_score = -math.inf
        best: tuple[int, Node] | None = None
        for action, child in node.children.items():
            solved = child.solved
            if solved is None:
                mean = sign * child.total / child.visits
            elif sign * solved <= -1.0:
                continue
            else:
                mean = sign * solved
            score = mean + explore / math.sqrt(child.visits)
            if score > best_score:
                best_score, best = score, (action, child)
        assert best is not None  # see the docstring
        return best

    def _new_node(self, state: GameState) -> Node:
        """A node for ``state``; solved at once if terminal or if its player can win at once."""
        player = state.current_player()
        node = Node(player)
        if player == TERMINAL:
            node.solved = state.returns()[0]
        elif player == CHANCE:
            node.outcomes = state.chance_outcomes()
        elif self._winning_actions(state):
            node.solved = 1.0 if player == 0 else -1.0
        else:
            node.untried = state.legal_actions()
        return node

    def _rollout(self, state: GameState) -> float:
        """The result for ``player_0`` of playing on from ``state`` (changed in place)."""
        rng = self._rng
        limit = self.rollout_depth if self.rollout == "heuristic" else -1
        find_wins = self._rollout_wins
        moves = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return state.returns()[0]
            if player == CHANCE:
                state.apply_action(_sample(state.chance_outcomes(), rng.random()))
                continue
            if moves == limit:
                return self._evaluate(state, 0)
            if find_wins is not None:
                wins = find_wins(state)
                if wins:
                    state.apply_action(wins[0])
                    continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            moves += 1


def checked_search_options(
    agent: str, simulations: int | None, seconds: float | None, exploration: float
) -> int | None:
    """The simulations per move of a rollout search, after checking its budget and exploration.

    The budget as every search agent's (:func:`~zoo_games.agents.budget.checked_budget`),
    neither meaning :data:`DEFAULT_SIMULATIONS`, and at least one simulation. Shared by
    ``mcts`` and ``batched-mcts``.
    """
    simulations = checked_budget(agent, simulations, seconds, DEFAULT_SIMULATIONS)
    if simulations is not None and simulations < 1:
        raise ValueError(f"{agent} simulations must be at least 1, not {simulations}")
    if exploration < 0:
        raise ValueError(f"{agent} exploration must be at least 0, not {exploration}")
    return simulations


def check_rollout_options(agent: str, rollout: str, rollout_depth: int) -> None:
    """Refuse a ``rollout`` not in :data:`ROLLOUTS` or a negative ``rollout_depth``.

    Shared by every search agent with rollouts, for the same options and messages.
    """
    if rollout not in ROLLOUTS:
        raise ValueError(f"{agent} rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
    if rollout_depth < 0:
        raise ValueError(f"{agent} rollout_depth must be at least 0, not {rollout_depth}")


def _no_evaluation(state: GameState, player: int) -> float:
    raise RuntimeError("the evaluation is looked up by act() before any search")


def _sample(outcomes: Sequence[tuple[int, float]], draw: float) -> int:
    """The outcome that ``draw`` (uniform in [0, 1)) picks with the outcomes' probabilities."""
    for outcome, probability in outcomes:
        draw -= probability
        if draw < 0:
            return outcome
    return outcomes[-1][0]


def _solve(node: Node) -> bool:
    """Mark ``node`` solved if its children decide it (MCTS-Solver); whether it now is."""
    if node.solved is not None:
        return True
    children = node.children
    if node.player == CHANCE:
        if len(children) < len(node.outcomes):
            return False
        values = []
        for outcome, probability in node.outcomes:
            solved = children[outcome].solved
            if solved is None:
                return False
            values.append(probability * solved)
        node.solved = sum(values)
        return True
    sign = 1.0 if node.player == 0 else -1.0
    best = -math.inf
    open_child = bool(node.untried)
    for child in children.values():
        solved = child.solved
        if solved is None:
            open_child = True
        elif sign * solved >= 1.0:
            node.solved = solved
            return True
        else:
            best = max(best, sign * solved)
    if open_child:
        return False
    node.solved = sign * best
    return True
