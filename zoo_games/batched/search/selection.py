"""How a search picks the child to descend into: UCT, PUCT, and Gumbel's rules.

Every rule reads one tree of :mod:`zoo_games.batched.search.tree` and returns a child node. UCT
(:func:`uct_child`, with :func:`take_untried`) is ``batched-mcts``'s; the others are the
AlphaZero search's, which keeps each child's prior logit (``priors[child]``, normalised over
the parent's legal actions) and each evaluated node's value (``raw_values[node]``,
``player_0``'s) beside the tree.

Gumbel (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022): Q values
completed by the mixed value for unvisited actions and squashed by ``sigma``
(:func:`sigma_of_completed_q`); at the root, the considered action of Sequential Halving with the
best ``g + logits + sigma(q)`` (:func:`gumbel_root_children`, :func:`considered_visit_schedule`);
below it, the child whose improved-policy probability most exceeds its share of the visits
(:func:`gumbel_interior_child`). PUCT is AlphaZero's (:func:`puct_child`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zoo_games.batched.rng import Integer, below, uniform
from zoo_games.batched.search.tree import OPEN, sign_of

#: The AlphaZero search's rules, as its compiled code receives them.
GUMBEL = 0
PUCT = 1
SELECTIONS = {"gumbel": GUMBEL, "puct": PUCT}
#: Gumbel MuZero's ``sigma``: ``(VISIT_OFFSET + max visits) * VALUE_SCALE * q``, with ``q``
#: rescaled to [0, 1] (the paper's c_visit = 50 and c_scale = 0.1).
VISIT_OFFSET = 50.0
VALUE_SCALE = 0.1
#: Smallest spread of Q values when they are rescaled to [0, 1].
RESCALE_EPSILON = 1e-8


# ---------------------------------------------------------------------- UCT (batched-mcts)
@njit(cache=True)
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


@njit(cache=True)
def uct_child(nodes: np.ndarray, node: Integer, exploration: float) -> int:
    """The tried child with the best UCB1 score for the mover, never one solved as its loss.

    (A node whose children are all solved is solved itself, so some child is always left.)
    """
    sign = sign_of(nodes[node].player)
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


# ---------------------------------------------------------------------- AlphaZero's rules
@njit(cache=True)
def sigma_of_completed_q(
    nodes: np.ndarray, node: Integer, priors: np.ndarray, raw_values: np.ndarray, out: np.ndarray
) -> None:
    """Write ``sigma(completed Q)`` of decision node ``node``'s children into ``out[:count]``.

    A visited child's Q is its mean value for the mover; an unvisited one's is the mixed value:
    the node's raw value averaged with the prior-weighted Q of the visited children, weighted by
    their visits (the paper's appendix D). The completed Qs are rescaled to [0, 1] and multiplied
    by ``(VISIT_OFFSET + most visits) * VALUE_SCALE``, so that they weigh more as visits grow.
    """
    sign = sign_of(nodes[node].player)
    first, count = nodes[node].first, nodes[node].count
    total_visits = 0
    most_visits = 0
    visited_prior = 0.0
    weighted_q = 0.0
    for child in range(first, first + count):
        visits = nodes[child].visits
        if visits > 0:
            prior = math.exp(priors[child])
            total_visits += visits
            most_visits = max(most_visits, visits)
            visited_prior += prior
            weighted_q += prior * sign * nodes[child].total / visits
    mixed = sign * raw_values[node]
    if total_visits > 0:
        mixed = (mixed + total_visits * weighted_q / max(visited_prior, 1e-30)) / (total_visits + 1)
    low = math.inf
    high = -math.inf
    for i in range(count):
        child = first + i
        visits = nodes[child].visits
        q = sign * nodes[child].total / visits if visits > 0 else mixed
        out[i] = q
        low = min(low, q)
        high = max(high, q)
    scale = (VISIT_OFFSET + most_visits) * VALUE_SCALE / max(high - low, RESCALE_EPSILON)
    for i in range(count):
        out[i] = (out[i] - low) * scale


@njit(cache=True)
def improved_policy(
    nodes: np.ndarray, node: Integer, priors: np.ndarray, raw_values: np.ndarray, out: np.ndarray
) -> None:
    """Write the improved policy ``softmax(logits + sigma(completed Q))`` of ``node``'s children.

    Into ``out[:count]``, in the order of the children.
    """
    sigma_of_completed_q(nodes, node, priors, raw_values, out)
    first, count = nodes[node].first, nodes[node].count
    top = -math.inf
    for i in range(count):
        out[i] += priors[first + i]
        top = max(top, out[i])
    total = 0.0
    for i in range(count):
        out[i] = math.exp(out[i] - top)
        total += out[i]
    for i in range(count):
        out[i] /= total


@njit(cache=True)
def gumbel_root_children(
    nodes: np.ndarray,
    target: Integer,
    width: Integer,
    gumbel: np.ndarray,
    priors: np.ndarray,
    raw_values: np.ndarray,
    scratch: np.ndarray,
    out: np.ndarray,
) -> None:
    """The root's children for the next ``width`` simulations under Sequential Halving.

    Into ``out[:width]``: among the children visited exactly ``target`` times (the schedule's
    count: :func:`considered_visit_schedule`), the ``width`` best by ``gumbel[action] + logit
    + sigma(completed Q)``, best first. While ``target`` is 0 that walks the actions in the
    order of ``gumbel + logits`` (unvisited actions share one completed Q), so the considered
    set is the top ones by that order; later targets keep the better half of them. Should
    fewer children have ``target`` visits than asked for (the schedule rules it out), the best
    of the others follow. The children picked are distinct, so the simulations through them
    descend disjoint subtrees and may run at once.
    """
    sigma_of_completed_q(nodes, 0, priors, raw_values, scratch)
    first, count = nodes[0].first, nodes[0].count
    for i in range(count):
        scratch[i] += gumbel[nodes[first + i].action] + priors[first + i]
    for slot in range(width):
        best = -1
        best_matches = False
        for i in range(count):
            if scratch[i] == -math.inf:
                continue
            matches = nodes[first + i].visits == target
            if (
                best < 0
                or (matches and not best_matches)
                or (matches == best_matches and scratch[i] > scratch[best])
            ):
                best, best_matches = i, matches
        out[slot] = first + best
        scratch[best] = -math.inf


@njit(cache=True)
def gumbel_interior_child(
    nodes: np.ndarray,
    node: Integer,
    priors: np.ndarray,
    raw_values: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """The deterministic rule below the root: argmax of ``improved policy - visit share``.

    The visit share of a child is its visits over ``1 +`` the visits of all the node's
    children; picking this way makes the visits follow the improved policy.
    """
    improved_policy(nodes, node, priors, raw_values, scratch)
    first, count = nodes[node].first, nodes[node].count
    total = 0
    for child in range(first, first + count):
        total += nodes[child].visits
    best = first
    best_score = -math.inf
    for i in range(count):
        score = scratch[i] - nodes[first + i].visits / (1.0 + total)
        if score > best_score:
            best, best_score = first + i, score
    return best


@njit(cache=True)
def puct_child(nodes: np.ndarray, node: Integer, exploration: float, priors: np.ndarray) -> int:
    """AlphaZero's rule: argmax of ``Q + c * prior * sqrt(N) / (1 + n)`` for the mover.

    ``N`` is the node's visits, ``n`` the child's; an unvisited child's Q is the node's own
    mean value (first-play urgency at the parent's value).
    """
    sign = sign_of(nodes[node].player)
    parent_q = sign * nodes[node].total / max(nodes[node].visits, 1)
    root_n = math.sqrt(max(nodes[node].visits, 1))
    first = nodes[node].first
    best = first
    best_score = -math.inf
    for child in range(first, first + nodes[node].count):
        n = nodes[child].visits
        q = parent_q if n == 0 else sign * nodes[child].total / n
        score = q + exploration * math.exp(priors[child]) * root_n / (1.0 + n)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def select_child(
    nodes: np.ndarray,
    node: Integer,
    selection: Integer,
    exploration: float,
    priors: np.ndarray,
    raw_values: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """The child the AlphaZero search's rule (``selection``) takes at decision node ``node``.

    Gumbel's root is not chosen here: its children follow Sequential Halving's plan
    (:func:`gumbel_root_children`).
    """
    if selection == GUMBEL:
        return gumbel_interior_child(nodes, node, priors, raw_values, scratch)
    return puct_child(nodes, node, exploration, priors)


@njit(cache=True)
def gumbel_noise(games: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out[g]`` with standard Gumbel draws from game ``g``'s own generator."""
    for g in games:
        for a in range(out.shape[1]):
            out[g, a] = -math.log(-math.log(max(uniform(rngs, g), 1e-300)))


def considered_visit_schedule(considered: int, simulations: int) -> np.ndarray:
    """For each simulation, how often its root action must have been visited already.

    Sequential Halving over ``considered`` actions: the budget is split into
    ``ceil(log2(considered))`` rounds; each round gives every action still considered the same
    number of visits (at least one), then the better half goes on (never fewer than two). Entry
    ``k`` is the visit count that simulation ``k``'s root action has before it, so that the rule
    picks among the actions with that count (:func:`gumbel_root_children`). One action alone
    collects every visit.
    """
    if considered <= 1:
        return np.arange(simulations, dtype=np.int32)
    rounds = math.ceil(math.log2(considered))
    schedule: list[int] = []
    counts = [0] * considered
    remaining = considered
    while len(schedule) < simulations:
        per_action = max(1, simulations // (rounds * remaining))
        for _ in range(per_action):
            schedule.extend(counts[:remaining])
            for i in range(remaining):
                counts[i] += 1
        remaining = max(2, remaining // 2)
    return np.array(schedule[:simulations], dtype=np.int32)
