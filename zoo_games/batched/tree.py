"""The search trees of many games, held in numpy arrays, and the rules that walk them.

Every game of a batched search owns one tree: slot ``g`` of each array below. Node 0 is the
root; nodes are numbered in the order they were made, and a node's children are found through
``children[g, node, key]``, where the key is the action played (at a decision node) or the
chance outcome drawn (at a chance node: Senet's throw), -1 while that child does not exist.
Nothing is allocated during a search: a tree has room for the root and two nodes per
simulation (a chance node and the decision node behind it).

Values are ``player_0``'s (``value_sum`` and ``raw_value``), so that a node's value reads the
same whoever moved into it: the mover may stay the same across a move (Senet's extra turns).
Where a rule needs the mover's view it multiplies by :func:`sign_of`.

The selection rules are the Gumbel MuZero ones (Danihelka et al., "Policy improvement by
planning with Gumbel", ICLR 2022): Q values completed by the mixed value for unvisited
actions, squashed by ``sigma`` (:func:`sigma_of_completed_q`); at the root, the considered
action of Sequential Halving with the best ``g + logits + sigma(q)`` (:func:`gumbel_root_action`);
below it, the action whose improved-policy probability most exceeds its share of the visits
(:func:`gumbel_interior_action`). AlphaZero's PUCT is the other rule (:func:`puct_action`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zoo_games.batched.rng import Integer, uniform

#: ``kind`` of a node whose state was reached but not evaluated yet (a leaf of this descent).
UNEXPANDED = 0
#: ``kind`` of a decision node with its priors stored.
DECISION = 1
#: ``kind`` of a node where chance decides (children keyed by outcome).
CHANCE_NODE = 2
#: ``kind`` of a finished game (its exact value in ``raw_value``).
FINISHED = 3

#: The selection rules, as the compiled code receives them.
GUMBEL = 0
PUCT = 1
SELECTIONS = {"gumbel": GUMBEL, "puct": PUCT}

#: Gumbel MuZero's ``sigma``: ``(VISIT_OFFSET + max visits) * VALUE_SCALE * q``, with ``q``
#: rescaled to [0, 1] (the paper's c_visit = 50, c_scale = 0.1, as mctx).
VISIT_OFFSET = 50.0
VALUE_SCALE = 0.1
#: Smallest spread of Q values when they are rescaled to [0, 1].
RESCALE_EPSILON = 1e-8


class Trees:
    """The arrays of ``num_games`` trees of up to ``max_nodes`` nodes over ``num_actions`` keys.

    Per node: ``kind`` (:data:`UNEXPANDED`, :data:`DECISION`, :data:`CHANCE_NODE`,
    :data:`FINISHED`), ``player`` (the mover at a decision node), ``visits``, ``value_sum``
    (``player_0``'s results of the simulations through it), ``raw_value`` (``player_0``'s value
    from the evaluator, or the finished game's result), ``logits`` (log-probabilities of the
    prior over the mover's legal actions, ``-inf`` on illegal ones) and ``children``.
    ``size`` is the number of nodes of each tree.
    """

    def __init__(self, num_games: int, max_nodes: int, num_actions: int) -> None:
        shape = (num_games, max_nodes)
        self.kind = np.zeros(shape, dtype=np.int8)
        self.player = np.zeros(shape, dtype=np.int8)
        self.visits = np.zeros(shape, dtype=np.int32)
        self.value_sum = np.zeros(shape, dtype=np.float64)
        self.raw_value = np.zeros(shape, dtype=np.float32)
        self.logits = np.zeros((*shape, num_actions), dtype=np.float32)
        self.children = np.full((*shape, num_actions), -1, dtype=np.int32)
        self.size = np.zeros(num_games, dtype=np.int32)

    @property
    def bytes_per_game(self) -> int:
        """Memory the trees hold per game."""
        arrays = (self.kind, self.player, self.visits, self.value_sum, self.raw_value)
        total = sum(a.nbytes for a in (*arrays, self.logits, self.children, self.size))
        return total // self.size.shape[0]


@njit(cache=True)
def reset_roots(
    games: np.ndarray,
    kind: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    size: np.ndarray,
    children: np.ndarray,
) -> None:
    """Empty the trees of ``games``: each is one unexpanded, unvisited root."""
    for g in games:
        new_node(g, 0, kind, visits, value_sum, children)
        size[g] = 1


@njit(cache=True, inline="always")
def new_node(
    g: Integer,
    node: Integer,
    kind: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    children: np.ndarray,
) -> None:
    """Node ``node`` of tree ``g`` made fresh: unexpanded, unvisited, without children."""
    kind[g, node] = UNEXPANDED
    visits[g, node] = 0
    value_sum[g, node] = 0.0
    children[g, node, :] = -1


@njit(cache=True, inline="always")
def add_child(
    g: Integer,
    parent: Integer,
    key: Integer,
    kind: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    size: np.ndarray,
    children: np.ndarray,
) -> int:
    """A new node of tree ``g`` under ``parent``, reached by ``key`` (action or outcome)."""
    node = size[g]
    size[g] = node + 1
    new_node(g, node, kind, visits, value_sum, children)
    children[g, parent, key] = node
    return node


@njit(cache=True, inline="always")
def sign_of(player: Integer) -> float:
    """+1 for ``player_0``, -1 for ``player_1``: turns a ``player_0`` value into the player's."""
    return 1.0 if player == 0 else -1.0


@njit(cache=True)
def sigma_of_completed_q(
    g: Integer,
    node: Integer,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write ``sigma(completed Q)`` of decision node ``node``'s actions into ``out``.

    A visited action's Q is its child's mean value for the mover; an unvisited one's is the
    mixed value: the node's raw value averaged with the prior-weighted Q of the visited actions,
    weighted by their visits (the paper's appendix D). The completed Qs are rescaled to [0, 1]
    over the legal actions and multiplied by ``(VISIT_OFFSET + most visits) * VALUE_SCALE``, so
    that they weigh more as the search grows. ``out`` is 0 on illegal actions.
    """
    sign = sign_of(player[g, node])
    total_visits = 0
    most_visits = 0
    visited_prior = 0.0
    weighted_q = 0.0
    for a in range(out.shape[0]):
        child = children[g, node, a]
        if child >= 0 and visits[g, child] > 0:
            n = visits[g, child]
            q = sign * value_sum[g, child] / n
            prior = math.exp(logits[g, node, a])
            total_visits += n
            most_visits = max(most_visits, n)
            visited_prior += prior
            weighted_q += prior * q
    raw = sign * raw_value[g, node]
    mixed = raw
    if total_visits > 0:
        mixed = (raw + total_visits * weighted_q / max(visited_prior, 1e-30)) / (total_visits + 1)
    low = math.inf
    high = -math.inf
    for a in range(out.shape[0]):
        if logits[g, node, a] == -math.inf:
            out[a] = 0.0
            continue
        child = children[g, node, a]
        q = mixed
        if child >= 0 and visits[g, child] > 0:
            q = sign * value_sum[g, child] / visits[g, child]
        out[a] = q
        low = min(low, q)
        high = max(high, q)
    scale = (VISIT_OFFSET + most_visits) * VALUE_SCALE / max(high - low, RESCALE_EPSILON)
    for a in range(out.shape[0]):
        if logits[g, node, a] != -math.inf:
            out[a] = (out[a] - low) * scale


@njit(cache=True, inline="always")
def child_visits(
    g: Integer, node: Integer, a: Integer, visits: np.ndarray, children: np.ndarray
) -> int:
    """Visits of the child of ``node`` reached by ``a`` (0 if it does not exist)."""
    child = children[g, node, a]
    return 0 if child < 0 else int(visits[g, child])


@njit(cache=True)
def gumbel_root_action(
    g: Integer,
    target: Integer,
    gumbel: np.ndarray,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    sigma: np.ndarray,
) -> int:
    """The root action of this simulation under Sequential Halving.

    Among the legal actions visited exactly ``target`` times (the schedule's count for this
    simulation: :func:`considered_visit_schedule`), the one with the best
    ``gumbel + logits + sigma(completed Q)``. While ``target`` is 0 that walks the actions in
    the order of ``gumbel + logits`` (unvisited actions share one completed Q), which makes the
    considered set the top ones by that order; later targets keep the best half of them. If no
    action has ``target`` visits (never, by the schedule), the best legal action.
    """
    sigma_of_completed_q(g, 0, player, visits, value_sum, raw_value, logits, children, sigma)
    best = -1
    best_score = -math.inf
    fallback = -1
    fallback_score = -math.inf
    for a in range(sigma.shape[0]):
        if logits[g, 0, a] == -math.inf:
            continue
        score = gumbel[g, a] + logits[g, 0, a] + sigma[a]
        if score > fallback_score or fallback < 0:
            fallback, fallback_score = a, score
        if child_visits(g, 0, a, visits, children) == target and (score > best_score or best < 0):
            best, best_score = a, score
    return best if best >= 0 else fallback


@njit(cache=True)
def gumbel_interior_action(
    g: Integer,
    node: Integer,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    sigma: np.ndarray,
) -> int:
    """The deterministic rule below the root: argmax of ``improved policy - visit share``.

    The improved policy is ``softmax(logits + sigma(completed Q))``; the visit share of an
    action is its visits over ``1 + the node's child visits``. Choosing this way makes the
    visit counts track the improved policy.
    """
    improved_policy(g, node, player, visits, value_sum, raw_value, logits, children, sigma)
    total = 0
    for a in range(sigma.shape[0]):
        total += child_visits(g, node, a, visits, children)
    best = -1
    best_score = -math.inf
    for a in range(sigma.shape[0]):
        if logits[g, node, a] == -math.inf:
            continue
        score = sigma[a] - child_visits(g, node, a, visits, children) / (1.0 + total)
        if score > best_score or best < 0:
            best, best_score = a, score
    return best


@njit(cache=True)
def improved_policy(
    g: Integer,
    node: Integer,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write ``softmax(logits + sigma(completed Q))`` of ``node`` into ``out`` (0 if illegal)."""
    sigma_of_completed_q(g, node, player, visits, value_sum, raw_value, logits, children, out)
    top = -math.inf
    for a in range(out.shape[0]):
        if logits[g, node, a] != -math.inf:
            out[a] += logits[g, node, a]
            top = max(top, out[a])
    total = 0.0
    for a in range(out.shape[0]):
        if logits[g, node, a] == -math.inf:
            out[a] = 0.0
        else:
            out[a] = math.exp(out[a] - top)
            total += out[a]
    for a in range(out.shape[0]):
        out[a] /= total


@njit(cache=True)
def puct_action(
    g: Integer,
    node: Integer,
    exploration: float,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
) -> int:
    """AlphaZero's rule: argmax of ``Q + c * prior * sqrt(N) / (1 + n)`` for the mover.

    ``N`` is the node's visits, ``n`` the action's; an unvisited action's Q is the node's own
    mean value (first-play urgency at the parent's value).
    """
    sign = sign_of(player[g, node])
    parent_q = sign * value_sum[g, node] / max(visits[g, node], 1)
    root_n = math.sqrt(max(visits[g, node], 1))
    best = -1
    best_score = -math.inf
    for a in range(logits.shape[2]):
        if logits[g, node, a] == -math.inf:
            continue
        child = children[g, node, a]
        n = 0 if child < 0 else visits[g, child]
        q = parent_q if n == 0 else sign * value_sum[g, child] / n
        score = q + exploration * math.exp(logits[g, node, a]) * root_n / (1.0 + n)
        if score > best_score or best < 0:
            best, best_score = a, score
    return best


@njit(cache=True)
def select_action(
    g: Integer,
    node: Integer,
    selection: Integer,
    root_target: Integer,
    exploration: float,
    gumbel: np.ndarray,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """The action the selection rule takes at decision node ``node`` of tree ``g``."""
    if selection == GUMBEL:
        if node == 0:
            return gumbel_root_action(
                g, root_target, gumbel, player, visits, value_sum, raw_value, logits, children,
                scratch,
            )  # fmt: skip
        return gumbel_interior_action(
            g, node, player, visits, value_sum, raw_value, logits, children, scratch
        )
    return puct_action(g, node, exploration, player, visits, value_sum, logits, children)


@njit(cache=True)
def expand_and_backup(
    games: np.ndarray,
    paths: np.ndarray,
    depths: np.ndarray,
    needs_evaluation: np.ndarray,
    leaf_masks: np.ndarray,
    leaf_values: np.ndarray,
    evaluated_logits: np.ndarray,
    evaluated_values: np.ndarray,
    kind: np.ndarray,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
) -> None:
    """Store each evaluated leaf's priors and value, then back its value up its path.

    For the ``k``-th searched game (tree ``games[k]``): a leaf that needed evaluation gets the
    evaluator's logits, normalised over its legal actions (``leaf_masks[k]``) into
    log-probabilities, and its value (the mover's, turned into ``player_0``'s); a finished
    game's leaf brings its exact value (``leaf_values[k]``). Every node of the path, leaf and
    root included, then counts one more visit and adds the value.
    """
    for k in range(games.shape[0]):
        g = games[k]
        leaf = paths[k, depths[k] - 1]
        if needs_evaluation[k]:
            value = sign_of(player[g, leaf]) * evaluated_values[k]
            raw_value[g, leaf] = value
            top = -math.inf
            for a in range(leaf_masks.shape[1]):
                if leaf_masks[k, a]:
                    top = max(top, evaluated_logits[k, a])
            total = 0.0
            for a in range(leaf_masks.shape[1]):
                if leaf_masks[k, a]:
                    total += math.exp(evaluated_logits[k, a] - top)
            shift = top + math.log(total)
            for a in range(leaf_masks.shape[1]):
                logits[g, leaf, a] = (
                    evaluated_logits[k, a] - shift if leaf_masks[k, a] else -math.inf
                )
            kind[g, leaf] = DECISION
        else:
            value = leaf_values[k]
        for i in range(depths[k]):
            node = paths[k, i]
            visits[g, node] += 1
            value_sum[g, node] += value


@njit(cache=True)
def gumbel_noise(games: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out[g]`` with standard Gumbel draws from game ``g``'s own generator."""
    for g in games:
        for a in range(out.shape[1]):
            out[g, a] = -math.log(-math.log(max(uniform(rngs, g), 1e-300)))


def considered_visit_schedule(considered: int, simulations: int) -> np.ndarray:
    """For each simulation, how often its root action must have been visited already.

    Sequential Halving over ``considered`` actions: the budget is split into ``log2(considered)``
    rounds; each round gives every action still considered the same number of visits (at least
    one), then the better half goes on (never fewer than two). Entry ``k`` is the visit count
    that simulation ``k``'s root action has before it, so the rule picks among actions with that
    count (:func:`gumbel_root_action`). One action alone just collects every visit.
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


@njit(cache=True)
def summarize_roots(
    games: np.ndarray,
    selection: Integer,
    sample: bool,
    gumbel: np.ndarray,
    rngs: np.ndarray,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    actions: np.ndarray,
    policy: np.ndarray,
    root_values: np.ndarray,
    root_visits: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """What the search of each game ``k`` (tree ``games[k]``) found at its root.

    ``root_visits[k]``: each action's visits. Gumbel: ``policy[k]`` is the improved policy
    ``softmax(logits + sigma(completed Q))`` and the action is, among the most visited actions
    (the survivors of Sequential Halving), the best by ``gumbel + logits + sigma``. PUCT:
    ``policy[k]`` is the visit distribution (the prior when nothing was visited) and the action
    is drawn from it when ``sample``, else the most visited one (ties to the higher prior).
    ``root_values[k]`` is the root's mean value for its mover.
    """
    num_actions = policy.shape[1]
    for k in range(games.shape[0]):
        g = games[k]
        most = 0
        total = 0
        for a in range(num_actions):
            n = child_visits(g, 0, a, visits, children)
            root_visits[k, a] = n
            most = max(most, n)
            total += n
        root_values[k] = sign_of(player[g, 0]) * value_sum[g, 0] / max(visits[g, 0], 1)
        best = -1
        best_score = -math.inf
        if selection == GUMBEL:
            improved_policy(g, 0, player, visits, value_sum, raw_value, logits, children, scratch)
            policy[k, :] = scratch
            sigma_of_completed_q(
                g, 0, player, visits, value_sum, raw_value, logits, children, scratch
            )
            for a in range(num_actions):
                if logits[g, 0, a] == -math.inf or root_visits[k, a] != most:
                    continue
                score = gumbel[g, a] + logits[g, 0, a] + scratch[a]
                if score > best_score or best < 0:
                    best, best_score = a, score
        else:
            for a in range(num_actions):
                if logits[g, 0, a] == -math.inf:
                    policy[k, a] = 0.0
                elif total == 0:
                    policy[k, a] = math.exp(logits[g, 0, a])
                else:
                    policy[k, a] = root_visits[k, a] / total
            if sample:
                draw = uniform(rngs, g)
                for a in range(num_actions):
                    if policy[k, a] > 0.0:
                        best = a
                        draw -= policy[k, a]
                        if draw < 0.0:
                            break
            else:
                for a in range(num_actions):
                    if logits[g, 0, a] == -math.inf:
                        continue
                    score = root_visits[k, a] + 0.5 * math.exp(logits[g, 0, a])
                    if score > best_score or best < 0:
                        best, best_score = a, score
        actions[k] = best
