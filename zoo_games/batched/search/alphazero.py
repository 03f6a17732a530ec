"""The batched search of AlphaZero: many games' trees searched at once, leaves scored together.

A simulation is split into compiled steps over every game of the batch
(:mod:`zoo_games.batched.search.alphazero_steps`): the descent (select down each tree to a leaf,
following each chance outcome in proportion to its probability), then one call of the
:class:`~zoo_games.batched.search.evaluators.LeafEvaluator` from Python for all the leaves that
need it, then the expansion and backup. The root of each game is evaluated first, in the same
way. The trees are those of :mod:`zoo_games.batched.search.tree`, one row of a 2-D array per
game; the selection rules are in :mod:`zoo_games.batched.search.selection`.

Root selection is Gumbel (Danihelka et al. 2022) by default: Gumbel noise ``g`` is drawn once per
root, Sequential Halving over the simulation budget visits the top ``min(considered, legal)``
actions by ``g + logits`` and halves them round after round by ``g + logits + sigma(Q)``, and
the surviving action with the best score is played. The policy target is the improved policy
``softmax(logits + sigma(completed Q))``. ``selection="puct"`` is AlphaZero's PUCT everywhere,
with Dirichlet noise on the root's priors when exploring; its target is the visit distribution.

A simulation's root action under Sequential Halving depends only on the root's children, and the
simulations of one round go through distinct children, into disjoint subtrees: with
``waves=True`` each round runs as one step, all its leaves evaluated in one call, instead of one
simulation per step. The rounds' survivors are then chosen by the scores at the round's start,
as the paper describes Sequential Halving; one simulation at a time, each pick sees the
scores after the simulations before it in the round (as mctx does). For a single game searched
by a player, the evaluator's calls fall from one per simulation to one per round (120 instead of
512 for 16 considered actions), and each call's fixed cost is what a network of this size
spends most of its time on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from zoo_games.batched import kernels_of
from zoo_games.batched.rng import seed_states
from zoo_games.batched.search.alphazero_steps import (
    compile_descent,
    expand_and_backup,
    plan_root_children,
    reset_roots,
    summarize_roots,
)
from zoo_games.batched.search.evaluators import LeafEvaluator
from zoo_games.batched.search.selection import (
    GUMBEL,
    SELECTIONS,
    considered_visit_schedule,
    gumbel_noise,
)
from zoo_games.batched.search.tree import NODE, OPEN
from zoo_games.catalog import Variant, find_variant


@dataclass
class SearchResult:
    """What one :meth:`BatchedSearch.run` found, one row per searched game."""

    #: ``(n,)`` ``int64``: the action to play.
    actions: np.ndarray
    #: ``(n, num_actions)`` ``float32``: the policy target (0 on illegal actions, sums to 1).
    policy: np.ndarray
    #: ``(n,)`` ``float32``: the root's search value for its mover.
    root_values: np.ndarray
    #: ``(n, num_actions)`` ``int32``: the visits of each root action.
    visits: np.ndarray


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def _positive_int(name: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
        raise ValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    return int(value)


def _non_negative_number(name: str, value: Any, most: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"{name} must be a non-negative number, got {value!r}")
    if most is not None and value > most:
        raise ValueError(f"{name} must be from 0 to {most}, got {value!r}")
    return float(value)


class BatchedSearch:
    """Search ``num_games`` positions of one variant at once with ``simulations`` each.

    ``variant``: a label of :func:`zoo_games.catalog.labels` or a
    :class:`~zoo_games.catalog.Variant`. ``selection``: ``"gumbel"`` (``considered`` actions at
    the root, Sequential Halving) or ``"puct"`` (``exploration`` is PUCT's constant;
    ``dirichlet_alpha`` and ``dirichlet_fraction`` shape the root noise when exploring).
    ``waves``: run each round of Sequential Halving as one step (module docstring; Gumbel only).
    ``seed`` seeds one generator per game (Gumbel noise, Dirichlet noise, sampled PUCT
    actions; chance outcomes are chosen, not drawn): game ``g`` of the search draws only from
    its own, so a game's search does not depend on the others searched with it, and runs go on
    from where the last one left the generators.

    The trees are allocated once, with room for the root's children and, per simulation, the
    children of one leaf and the outcomes of one chance node: 40 bytes a node, about
    ``40 * (simulations + 1) * num_actions`` bytes per game (:attr:`bytes_per_game`).
    Read-only views of the last search's trees: :attr:`nodes` (``(num_games, max_nodes)``
    :data:`~zoo_games.batched.search.tree.NODE` records, node 0 the root of each game),
    :attr:`priors` and :attr:`raw_values`.
    """

    def __init__(
        self,
        variant: str | Variant,
        num_games: int,
        simulations: int,
        selection: str = "gumbel",
        considered: int = 16,
        seed: int = 0,
        exploration: float = 1.25,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.25,
        waves: bool = False,
    ) -> None:
        chosen = find_variant(variant) if isinstance(variant, str) else variant
        if not isinstance(chosen, Variant):
            raise TypeError(f"variant must be a variant label or a Variant, got {variant!r}")
        if selection not in SELECTIONS:
            raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}")
        self.variant = chosen
        self.num_games = _positive_int("num_games", num_games, 1)
        self.simulations = _positive_int("simulations", simulations, 0)
        self.considered = _positive_int("considered", considered, 1)
        self.selection = selection
        self.exploration = _non_negative_number("exploration", exploration)
        self.dirichlet_alpha = _non_negative_number("dirichlet_alpha", dirichlet_alpha)
        self.dirichlet_fraction = _non_negative_number("dirichlet_fraction", dirichlet_fraction, 1)
        if self.dirichlet_alpha == 0:
            raise ValueError("dirichlet_alpha must be positive, got 0")
        if not isinstance(waves, bool):
            raise ValueError(f"waves must be True or False, got {waves!r}")
        if waves and selection != "gumbel":
            raise ValueError(
                "waves=True runs each round of Gumbel's Sequential Halving at once; PUCT picks "
                "every simulation's path from the ones before, so it needs selection='gumbel'"
            )
        self.waves = waves
        self.seed = _positive_int("seed", seed, 0)
        game = chosen.game
        self.kernels = kernels_of(game)
        self.num_actions = game.num_actions
        self.row_length = self.kernels.row_length
        space = chosen.observer.space
        self.observation_dtype = np.dtype(space.dtype)
        self.observation_shape = tuple(space.shape)
        module = self.kernels.module
        self._descend = compile_descent(module)
        self._chance_outcome = getattr(module, "chance_outcome", None)
        outcomes = len(getattr(module, "OUTCOME_PROBABILITY", ()))
        self._config = np.array(self.kernels.config(game, chosen.kwargs), dtype=np.int64)
        self._rngs = seed_states(self.seed, self.num_games)
        self._noise = [np.random.default_rng([self.seed, g]) for g in range(self.num_games)]
        max_nodes = 1 + self.num_actions + self.simulations * (self.num_actions + outcomes)
        self._nodes = np.zeros((self.num_games, max_nodes), dtype=NODE)
        self._priors = np.zeros((self.num_games, max_nodes), dtype=np.float32)
        self._raw_values = np.zeros((self.num_games, max_nodes), dtype=np.float32)
        self._sizes = np.zeros((self.num_games, 1), dtype=np.int64)
        self._plan_targets, self._plan_widths = root_plan(considered, self.simulations, waves)
        games = self.num_games
        lanes = games * int(self._plan_widths.max(initial=1))
        observation_bytes = int(np.prod(self.observation_shape)) * self.observation_dtype.itemsize
        # One row per lane: a simulation under way, one or more per game (``waves``).
        self._root_children = np.full(lanes, -1, dtype=np.int64)
        self._paths = np.zeros((lanes, 2 * self.simulations + 2), dtype=np.int64)
        self._depths = np.zeros(lanes, dtype=np.int32)
        self._leaf_rows = np.zeros((lanes, self.row_length), dtype=np.uint8)
        self._leaf_masks = np.zeros((lanes, self.num_actions), dtype=np.int8)
        self._leaf_observations = np.zeros((lanes, observation_bytes), dtype=np.uint8)
        self._leaf_values = np.zeros(lanes, dtype=np.float32)
        self._needs_evaluation = np.zeros(lanes, dtype=np.bool_)
        self._evaluated_logits = np.zeros((lanes, self.num_actions), dtype=np.float32)
        self._evaluated_values = np.zeros(lanes, dtype=np.float32)
        self._gumbel = np.zeros((games, self.num_actions), dtype=np.float64)
        self._scratch = np.zeros(self.num_actions, dtype=np.float64)

    @property
    def nodes(self) -> np.ndarray:
        """The trees of the last search, read-only: row ``g`` is game ``g``'s, node 0 its root.

        Only the nodes reachable from a root belong to its tree (the arrays are reused).
        """
        return _read_only(self._nodes)

    @property
    def priors(self) -> np.ndarray:
        """Each node's prior logit (log-probability among its parent's legal actions)."""
        return _read_only(self._priors)

    @property
    def raw_values(self) -> np.ndarray:
        """Each evaluated node's value from the evaluator, for ``player_0``."""
        return _read_only(self._raw_values)

    @property
    def bytes_per_game(self) -> int:
        """Memory the trees hold per game."""
        arrays = (self._nodes, self._priors, self._raw_values)
        return sum(array.nbytes for array in arrays) // self.num_games

    def __repr__(self) -> str:
        return (
            f"BatchedSearch({self.variant.label!r}, num_games={self.num_games}, "
            f"simulations={self.simulations}, selection={self.selection!r})"
        )

    def run(
        self,
        rows: np.ndarray,
        evaluator: LeafEvaluator,
        explore: bool = True,
        games: np.ndarray | None = None,
        root_masks: np.ndarray | None = None,
    ) -> SearchResult:
        """Search from each state row of ``rows`` (``(n, row_length)`` ``uint8``, at a decision).

        ``explore``: Gumbel noise at the root (else ``g = 0``); for PUCT, Dirichlet noise on the
        root's priors and the action drawn from the visits (else the most visited). ``games``:
        which of the search's games (trees and generators) the rows are, by default the first
        ``n``. ``root_masks`` (``(n, num_actions)``, nonzero where allowed): the root actions
        the search may consider, among the legal ones (a player leaving out the moves that let
        the opponent win at once); every row must keep one.
        """
        rows = self._checked_rows(rows)
        slots = self._checked_games(games, rows.shape[0])
        if root_masks is not None:
            root_masks = np.asarray(root_masks)
            if root_masks.shape != (rows.shape[0], self.num_actions):
                raise ValueError(
                    f"root_masks must have shape ({rows.shape[0]}, {self.num_actions}), one "
                    f"row of allowed actions per game; got {root_masks.shape}"
                )
        selection = SELECTIONS[self.selection]
        reset_roots(slots, self._nodes, self._sizes)
        count = slots.shape[0]
        each = np.arange(count)
        # The first simulation's leaves are the roots themselves: no root child is taken.
        self._simulate(rows, each, slots, evaluator, selection, root_masks)
        finished = np.flatnonzero(self._nodes[slots, 0]["solved"] != OPEN)
        if finished.size:
            raise ValueError(f"row {finished[0]} is a finished game: there is nothing to search")
        if selection == GUMBEL and explore:
            gumbel_noise(slots, self._rngs, self._gumbel)
        else:
            self._gumbel[slots] = 0.0
        if selection != GUMBEL and explore and self.dirichlet_fraction > 0:
            self._add_dirichlet_noise(slots)
        considered = np.minimum(self._nodes[slots, 0]["count"], self.considered)
        steps = int((self._plan_widths[considered] > 0).sum(axis=1).max(initial=0))
        for step in range(steps):
            widths = self._plan_widths[considered, step]
            if selection == GUMBEL:  # PUCT's lanes keep -1: its rule chooses at the root too
                starts = np.cumsum(widths) - widths
                targets = self._plan_targets[considered, step]
                plan_root_children(
                    slots, targets, widths, starts, self._gumbel, self._nodes, self._priors,
                    self._raw_values, self._scratch, self._root_children,
                )  # fmt: skip
            origins = np.repeat(each, widths)
            self._simulate(rows, origins, slots[origins], evaluator, selection)
        result = SearchResult(
            actions=np.zeros(count, dtype=np.int64),
            policy=np.zeros((count, self.num_actions), dtype=np.float32),
            root_values=np.zeros(count, dtype=np.float32),
            visits=np.zeros((count, self.num_actions), dtype=np.int32),
        )
        summarize_roots(
            slots, selection, explore, self._gumbel, self._rngs, self._nodes, self._priors,
            self._raw_values, result.actions, result.policy, result.root_values, result.visits,
            self._scratch,
        )  # fmt: skip
        return result

    def _simulate(
        self,
        rows: np.ndarray,
        origins: np.ndarray,
        lane_games: np.ndarray,
        evaluator: LeafEvaluator,
        selection: int,
        root_masks: np.ndarray | None = None,
    ) -> None:
        """One simulation per lane: descend, evaluate the leaves together, back up.

        Lane ``k`` searches tree ``lane_games[k]`` from ``rows[origins[k]]``, through root
        child ``self._root_children[k]`` (``-1``: the selection rule's). ``root_masks``: given
        for the first simulation only, one lane per game, whose leaves are the roots.
        """
        count = lane_games.shape[0]
        self._descend(
            rows, origins, lane_games, self._config, self._rngs, selection,
            self._root_children[:count], self.exploration, self._nodes, self._priors,
            self._raw_values, self._sizes, self._paths, self._depths, self._leaf_rows,
            self._leaf_masks, self._leaf_observations, self._leaf_values, self._needs_evaluation,
            self._scratch,
        )  # fmt: skip
        waiting = np.flatnonzero(self._needs_evaluation[:count])
        if root_masks is not None:
            allowed = self._leaf_masks[:count] * (root_masks != 0)
            empty = waiting[~allowed[waiting].any(axis=1)]
            if empty.size:
                raise ValueError(f"root_masks allows no legal action in row {empty[0]}")
            self._leaf_masks[:count] = allowed
        if waiting.size:
            self._evaluate(waiting, evaluator)
        expand_and_backup(
            lane_games, self._paths, self._depths, self._needs_evaluation, self._leaf_masks,
            self._leaf_values, self._evaluated_logits, self._evaluated_values, self._nodes,
            self._priors, self._raw_values, self._sizes,
        )  # fmt: skip

    def _evaluate(self, waiting: np.ndarray, evaluator: LeafEvaluator) -> None:
        """Call ``evaluator`` on the leaves ``waiting`` and keep its checked answers."""
        observations = (
            self._leaf_observations[waiting]
            .view(self.observation_dtype)
            .reshape(waiting.size, *self.observation_shape)
        )
        masks = self._leaf_masks[waiting]
        logits, values = evaluator(observations, masks)
        logits = np.asarray(logits, dtype=np.float32)
        values = np.asarray(values, dtype=np.float32)
        if logits.shape != masks.shape or values.shape != (waiting.size,):
            raise ValueError(
                f"the evaluator must return logits of shape {masks.shape} and values of shape "
                f"({waiting.size},); got {logits.shape} and {values.shape}"
            )
        if not np.isfinite(logits[masks.astype(bool)]).all():
            raise ValueError("the evaluator's logits must be finite on legal actions")
        if not (np.abs(values) <= 1).all():
            raise ValueError("the evaluator's values must be numbers from -1 to 1")
        self._evaluated_logits[waiting] = logits
        self._evaluated_values[waiting] = values

    def _add_dirichlet_noise(self, slots: np.ndarray) -> None:
        """Mix Dirichlet noise into the root priors of ``slots`` (each from its own generator)."""
        fraction = self.dirichlet_fraction
        for g in slots:
            first, count = int(self._nodes[g, 0]["first"]), int(self._nodes[g, 0]["count"])
            children = slice(first, first + count)
            noise = self._noise[g].dirichlet(np.full(count, self.dirichlet_alpha))
            prior = np.exp(self._priors[g, children].astype(np.float64))
            mixed = (1 - fraction) * prior + fraction * noise
            self._priors[g, children] = np.log(np.maximum(mixed, 1e-30))

    def _checked_rows(self, rows: Any) -> np.ndarray:
        array = np.asarray(rows)
        if array.ndim != 2 or array.shape[1] != self.row_length or array.dtype != np.uint8:
            raise ValueError(
                f"rows must be a uint8 array of shape (n, {self.row_length}), one state row per "
                f"game; got {array.dtype} {array.shape}"
            )
        if not 1 <= array.shape[0] <= self.num_games:
            raise ValueError(
                f"rows must hold 1 to {self.num_games} games (num_games), got {array.shape[0]}"
            )
        if self._chance_outcome is not None:
            pending = [k for k in range(array.shape[0]) if self._chance_outcome(array[k]) == 0]
            if pending:
                raise ValueError(
                    f"row {pending[0]} waits for chance (a throw); search rows at a decision, "
                    "as the batched engine's states are"
                )
        return np.ascontiguousarray(array)

    def _checked_games(self, games: Any, count: int) -> np.ndarray:
        if games is None:
            return np.arange(count, dtype=np.int64)
        slots = np.asarray(games)
        if (
            slots.shape != (count,)
            or slots.dtype.kind not in "iu"
            or (count and (slots.min() < 0 or slots.max() >= self.num_games))
            or np.unique(slots).size != count
        ):
            raise ValueError(
                f"games must be {count} distinct game indices from 0 to {self.num_games - 1}, "
                f"one per row; got {games!r}"
            )
        return slots.astype(np.int64)


def root_plan(considered: int, simulations: int, waves: bool) -> tuple[np.ndarray, np.ndarray]:
    """The root's schedule of simulations, step by step, for each number of considered actions.

    Row ``m`` (the root considers ``m`` actions, 0 to ``considered``) of ``(targets, widths)``:
    step ``s`` runs ``widths[m, s]`` simulations, through the root children visited
    ``targets[m, s]`` times (:func:`considered_visit_schedule`). One simulation a step; with
    ``waves``, a round of Sequential Halving a step (the schedule's runs of equal counts). Rows
    that need fewer steps end in zero widths.
    """
    schedules = [np.zeros(simulations, dtype=np.int32)] + [
        considered_visit_schedule(m, simulations) for m in range(1, considered + 1)
    ]
    plans = []
    for schedule in schedules:
        if waves and simulations:
            starts = np.flatnonzero(np.diff(schedule, prepend=-1))
            widths = np.diff(starts, append=simulations)
            plans.append((schedule[starts], widths))
        else:
            plans.append((schedule, np.ones(simulations, dtype=np.int64)))
    steps = max(len(widths) for _, widths in plans)
    targets = np.zeros((len(plans), steps), dtype=np.int32)
    widths = np.zeros((len(plans), steps), dtype=np.int64)
    for m, (row_targets, row_widths) in enumerate(plans):
        targets[m, : len(row_targets)] = row_targets
        widths[m, : len(row_widths)] = row_widths
    return targets, widths
