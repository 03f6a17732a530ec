"""The batched AlphaZero search against hand-made positions and its contract."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.agents.test_agents import SANTORINI_WIN, TOGYZ_WIN, game_of
from zoo_games import batched
from zoo_games.batched import kernels_of
from zoo_games.batched.search.alphazero import BatchedSearch, SearchResult
from zoo_games.batched.search.alphazero_steps import compile_descent
from zoo_games.batched.search.evaluators import uniform_evaluator
from zoo_games.batched.search.selection import considered_visit_schedule
from zoo_games.batched.search.tree import NODE, stratified_outcome_child
from zoo_games.core.game import CHANCE
from zoo_games.senet.rules import THROW_PROBABILITIES

# player_1's worker on r2c2 (level 2) threatens to climb onto r3c3 (level 3). player_0's
# worker 0 is walled in by domes; worker 1 (r4c3) can only step W to r4c2 and then build on
# r3c1, r3c3, r4c1 or r4c3: the dome on r3c3 (action 90) is the one move that does not lose.
SANTORINI_ONLY_BLOCK = "04000/44000/00200/00434/00000 0,23;12,24 0 15,11,8,13"
# The same with r3c1 and r4c1 domed too: player_0 has two moves, 90 (dome r3c3) and 92.
SANTORINI_TWO_MOVES = "04000/44000/00200/04434/04000 0,23;12,24 0 13,9,6,11"
LABELS = ["togyz-kumalak", "senet-kendall-5", "santorini-fixed"]


def rows_of(label: str, *positions: str) -> np.ndarray:
    game = game_of(label)
    kernels = kernels_of(game)
    return np.stack([kernels.row_from_state(game.state_from_position(p)) for p in positions])


def played_rows(label: str, games: int, steps: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """State rows and masks of seeded random games after ``steps`` moves (games restart)."""
    engine = batched.make(label, batch_size=games, seed=seed)
    for _ in range(steps):
        engine.step(engine.sample_legal_actions())
    return engine.states.copy(), engine.action_mask.copy()


def fixed_evaluator(value: float):
    def evaluate(observations: np.ndarray, masks: np.ndarray):
        return np.zeros(masks.shape, np.float32), np.full(masks.shape[0], value, np.float32)

    return evaluate


def observation_evaluator(observations: np.ndarray, masks: np.ndarray):
    """A deterministic evaluator that depends on each observation alone (not on the batch)."""
    flat = observations.reshape(observations.shape[0], -1).astype(np.float64)
    weights = np.sin(np.arange(flat.shape[1]) + 1.0)
    score = flat @ weights
    logits = np.cos(score[:, None] * 0.37 + np.arange(masks.shape[1])[None, :])
    return logits.astype(np.float32), np.tanh(score / 50).astype(np.float32)


def check_result(result: SearchResult, masks: np.ndarray) -> None:
    legal = masks.astype(bool)
    assert legal[np.arange(len(result.actions)), result.actions].all()
    assert np.allclose(result.policy.sum(axis=1), 1.0, atol=1e-5)
    assert (result.policy[~legal] == 0).all()
    assert (result.visits[~legal] == 0).all()
    assert (np.abs(result.root_values) <= 1).all()


@pytest.mark.parametrize(
    ("label", "position", "winning"),
    [("togyz-kumalak", TOGYZ_WIN, {8}), ("santorini-fixed", SANTORINI_WIN, set(range(32, 40)))],
)
@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_a_win_in_one_is_taken(label, position, winning, selection):
    search = BatchedSearch(label, 1, 200, selection=selection, considered=128, seed=0)
    result = search.run(rows_of(label, position), uniform_evaluator, explore=False)
    assert result.actions[0] in winning
    assert result.visits[0].argmax() in winning
    assert result.root_values[0] > 0


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_a_loss_in_one_is_blocked(selection):
    search = BatchedSearch("santorini-fixed", 1, 400, selection=selection, seed=0)
    result = search.run(
        rows_of("santorini-fixed", SANTORINI_ONLY_BLOCK), uniform_evaluator, explore=False
    )
    assert result.actions[0] == 90


def test_a_tiny_tree_worked_out_by_hand():
    """Two root actions, every leaf worth 0.5 to its mover, no noise, three simulations.

    The root's evaluation is its first visit (+0.5 for player_0). Sequential Halving over two
    actions and three simulations asks for visit counts 0, 0, 1: simulation 1 takes action 90
    (equal scores: the first), simulation 2 the unvisited 92; each leaf is player_1's, worth
    -0.5 to player_0. Simulation 3: both have one visit and Q = -0.5, so 90 again, then
    player_1's first legal action (nothing visited below), a leaf worth +0.5 to player_0.
    """
    search = BatchedSearch("santorini-fixed", 1, 3, considered=16, seed=0)
    result = search.run(
        rows_of("santorini-fixed", SANTORINI_TWO_MOVES), fixed_evaluator(0.5), explore=False
    )
    assert result.visits[0, 90] == 2 and result.visits[0, 92] == 1
    assert result.visits[0].sum() == 3
    assert result.actions[0] == 90
    # Root: 4 visits, 0.5 - 0.5 - 0.5 + 0.5 = 0.
    assert result.root_values[0] == pytest.approx(0.0)
    # Q(90) = (-0.5 + 0.5) / 2 = 0, Q(92) = -0.5: rescaled to 1 and 0, times (50 + 2) * 0.1.
    sigma = 5.2
    expected = np.array([math.exp(sigma), 1.0]) / (math.exp(sigma) + 1.0)
    assert result.policy[0, [90, 92]] == pytest.approx(expected, rel=1e-5)
    assert search.nodes[0, 0]["visits"] == 4


def test_gumbels_choice_when_every_root_action_is_visited():
    """Without noise, the action is the most visited one with the best logits + sigma(Q)."""
    label = "togyz-kumalak"
    rows, masks = played_rows(label, 4, 12, seed=3)
    search = BatchedSearch(label, 4, 64, considered=16, seed=1)
    result = search.run(rows, observation_evaluator, explore=False)
    check_result(result, masks)
    for k in range(4):
        root = search.nodes[k, 0]
        children = np.arange(root["first"], root["first"] + root["count"])
        nodes = search.nodes[k, children]
        assert (nodes["visits"] > 0).all()
        assert sorted(nodes["action"]) == np.flatnonzero(masks[k]).tolist()
        sign = 1.0 if root["player"] == 0 else -1.0
        q = sign * nodes["total"] / nodes["visits"]
        most = nodes["visits"].max()
        sigma = (50 + most) * 0.1 * (q - q.min()) / max(q.max() - q.min(), 1e-8)
        logits = search.priors[k, children]
        score = np.where(nodes["visits"] == most, logits + sigma, -np.inf)
        assert result.actions[k] == nodes["action"][np.argmax(score)]
        improved = np.exp(logits + sigma)
        assert result.policy[k, nodes["action"]] == pytest.approx(
            improved / improved.sum(), rel=1e-4
        )


@pytest.mark.parametrize("simulations", [7, 10, 33, 1600])
def test_chance_outcomes_are_visited_as_often_as_they_come_up(simulations):
    """Senet: every simulation through one root action; each throw's visits are its share.

    After ``n`` visits of the chance node, each throw has been followed ``n * probability``
    times rounded up or down, however few the simulations.
    """
    label = "senet-kendall-5"
    rows, _ = played_rows(label, 1, 10, seed=2)
    search = BatchedSearch(label, 1, simulations, considered=1, seed=0)
    result = search.run(rows, uniform_evaluator)
    tree = search.nodes[0]
    root_children = tree[tree[0]["first"] : tree[0]["first"] + tree[0]["count"]]
    chance = tree[0]["first"] + np.flatnonzero(root_children["action"] == result.actions[0])[0]
    assert tree[chance]["player"] == CHANCE  # the next throw is pending
    assert tree[chance]["visits"] == simulations
    throws = tree[tree[chance]["first"] : tree[chance]["first"] + tree[chance]["count"]]
    visits = dict(zip(throws["action"], throws["visits"], strict=True))
    assert sum(visits.values()) == simulations
    for throw, probability in THROW_PROBABILITIES:
        assert abs(visits[throw] - simulations * probability) < 1


def test_the_order_of_a_chance_nodes_outcomes_worked_out_by_hand():
    """Senet's throws 1-5 come up 4, 6, 4, 1 and 1 times in 16: the visits take them in turn.

    Each visit follows the throw whose probability most exceeds its visits over (1 + the
    node's visits). First: 2 (6/16 is the largest). Second, shares over 2: 1 and 3 tie at 4/16
    and the first listed, 1, goes. Third: 3 (4/16 against 2 at 6/16 - 1/3). Fourth: 2
    (6/16 - 1/4 = 2/16 against 4/16 - 1/4 = 0 for 1 and 3 and 1/16 for 4 and 5). Fifth, shares
    over 5: 4 (1/16, tied with 5 and listed first, against 6/16 - 2/5 < 0 and 4/16 - 1/5 =
    0.05). Then 1, 3, 2, 5, 2.
    """
    nodes = np.zeros(8, dtype=NODE)
    nodes[0]["first"] = -1
    nodes[0]["player"] = CHANCE
    size = np.array([1], dtype=np.int64)
    probabilities = np.array([0.0] + [p for _, p in sorted(THROW_PROBABILITIES)])
    order = []
    for _ in range(10):
        child = stratified_outcome_child(nodes, size, 0, probabilities)
        order.append(int(nodes[child]["action"]))
        nodes[child]["visits"] += 1
        nodes[0]["visits"] += 1
    assert order == [2, 1, 3, 2, 4, 1, 3, 2, 5, 2]
    assert nodes[0]["count"] == 5 and size[0] == 6  # one child per throw, made at the first visit


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_batched_equals_one_game_at_a_time(label, selection):
    rows, masks = played_rows(label, 4, 15)
    together = BatchedSearch(label, 4, 24, selection=selection, seed=5)
    batch = together.run(rows, observation_evaluator)
    check_result(batch, masks)
    for k in range(4):
        alone = BatchedSearch(label, 4, 24, selection=selection, seed=5)
        one = alone.run(rows[k : k + 1], observation_evaluator, games=np.array([k]))
        assert one.actions[0] == batch.actions[k]
        assert (one.visits[0] == batch.visits[k]).all()
        assert one.policy[0] == pytest.approx(batch.policy[k])
        assert one.root_values[0] == pytest.approx(batch.root_values[k])


@pytest.mark.parametrize("label", LABELS)
def test_deterministic_for_a_seed_and_only_legal(label):
    rows, masks = played_rows(label, 8, 25, seed=1)
    results = [BatchedSearch(label, 8, 16, seed=9).run(rows, observation_evaluator) for _ in "ab"]
    for first, second in zip(
        results[0].__dict__.values(), results[1].__dict__.values(), strict=True
    ):
        assert (first == second).all()
    check_result(results[0], masks)


@pytest.mark.parametrize("label", ["togyz-kumalak", "senet-kendall-5"])
@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_a_search_run_again_starts_afresh(label, selection):
    """Without noise a search repeats itself exactly: Senet's throws are not drawn either."""
    rows, masks = played_rows(label, 3, 20, seed=4)
    search = BatchedSearch(label, 3, 20, selection=selection, seed=2)
    first = search.run(rows, observation_evaluator, explore=False)
    search.run(rows[::-1].copy(), observation_evaluator, explore=False)
    again = search.run(rows, observation_evaluator, explore=False)
    assert (again.visits.sum(axis=1) == 20).all()
    assert (again.visits == first.visits).all()
    assert again.actions.tolist() == first.actions.tolist()
    assert again.root_values == pytest.approx(first.root_values)
    check_result(again, masks)


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_no_simulations_plays_the_prior(selection):
    engine = batched.make("togyz-kumalak", batch_size=4, seed=0)
    for _ in range(9):
        engine.step(engine.sample_legal_actions())
    masks = engine.action_mask.copy()
    search = BatchedSearch("togyz-kumalak", 4, 0, selection=selection)
    result = search.run(engine.states, observation_evaluator, explore=False)
    logits, _ = observation_evaluator(engine.observation, masks)
    logits = np.where(masks == 1, logits, -np.inf)
    prior = np.exp(logits - logits.max(axis=1, keepdims=True))
    assert result.policy == pytest.approx(prior / prior.sum(axis=1, keepdims=True), rel=1e-5)
    assert result.actions.tolist() == logits.argmax(axis=1).tolist()
    assert (result.visits == 0).all()
    check_result(result, masks)


def test_schedule_of_sequential_halving():
    # 4 actions, 8 simulations: two rounds; each of the 4 once, then the best 2 three times.
    assert considered_visit_schedule(4, 8).tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    assert considered_visit_schedule(1, 3).tolist() == [0, 1, 2]
    assert considered_visit_schedule(2, 3).tolist() == [0, 0, 1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"selection": "uct"}, "selection must be one of gumbel, puct"),
        ({"simulations": -1}, "simulations must be an integer of at least 0"),
        ({"considered": 0}, "considered must be an integer of at least 1"),
        ({"dirichlet_fraction": 2}, "dirichlet_fraction must be from 0 to 1"),
    ],
)
def test_bad_options_are_refused(options, message):
    arguments = {"variant": "togyz-kumalak", "num_games": 2, "simulations": 4, **options}
    with pytest.raises(ValueError, match=message):
        BatchedSearch(**arguments)


def test_bad_rows_and_evaluators_are_refused():
    rows, _ = played_rows("togyz-kumalak", 2, 3)
    search = BatchedSearch("togyz-kumalak", 2, 4)
    with pytest.raises(ValueError, match="rows must be a uint8 array"):
        search.run(rows[:, :5], uniform_evaluator)
    with pytest.raises(ValueError, match="rows must hold 1 to 2 games"):
        search.run(np.concatenate([rows, rows]), uniform_evaluator)
    with pytest.raises(ValueError, match="games must be 2 distinct game indices"):
        search.run(rows, uniform_evaluator, games=np.array([1, 1]))
    with pytest.raises(ValueError, match="the evaluator must return logits of shape"):
        search.run(rows, lambda o, m: (np.zeros(m.shape[0]), np.zeros(m.shape[0])))
    with pytest.raises(ValueError, match="values must be numbers from -1 to 1"):
        search.run(rows, lambda o, m: (np.zeros(m.shape), np.full(m.shape[0], 2.0)))
    senet = BatchedSearch("senet-kendall-5", 1, 4)
    waiting = rows_of("senet-kendall-5", "CSCSCSCSCS.................... S")
    with pytest.raises(ValueError, match="waits for chance"):
        senet.run(waiting, uniform_evaluator)


def test_puct_targets_are_the_root_visits():
    label = "santorini-fixed"
    rows, masks = played_rows(label, 3, 6, seed=8)
    search = BatchedSearch(label, 3, 40, selection="puct", seed=3)
    for explore in (True, False):
        result = search.run(rows, observation_evaluator, explore=explore)
        check_result(result, masks)
        visits = result.visits.astype(np.float64)
        assert result.policy == pytest.approx(visits / visits.sum(axis=1, keepdims=True))
        assert (result.visits.sum(axis=1) == 40).all()
        assert (result.visits[np.arange(3), result.actions] > 0).all()
        if not explore:
            assert (result.visits[np.arange(3), result.actions] == visits.max(axis=1)).all()


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_root_masks_keep_the_search_to_the_allowed_root_actions(selection):
    # Two Togyz Kumalak games after a few random moves; the first may sow only its
    # lowest and highest legal holes, the second every legal hole but its lowest.
    rows, masks = played_rows("togyz-kumalak", 2, 5, seed=4)
    allowed = np.zeros_like(masks)
    first_legal = np.flatnonzero(masks[0])
    allowed[0, [first_legal[0], first_legal[-1]]] = 1
    allowed[1] = masks[1]
    allowed[1, np.flatnonzero(masks[1])[0]] = 0
    allowed[1, np.flatnonzero(masks[1] == 0)] = 1  # illegal actions stay out however allowed
    result = BatchedSearch("togyz-kumalak", 2, 24, selection=selection, seed=1).run(
        rows, observation_evaluator, root_masks=allowed
    )
    considered = masks * allowed
    check_result(result, considered)
    for game in range(2):
        assert considered[game, result.actions[game]]
        assert set(np.flatnonzero(result.visits[game])) <= set(np.flatnonzero(considered[game]))


def test_root_masks_that_allow_nothing_or_do_not_fit_are_refused():
    rows, masks = played_rows("togyz-kumalak", 2, 3)
    search = BatchedSearch("togyz-kumalak", 2, 4)
    with pytest.raises(ValueError, match=r"root_masks must have shape \(2, 9\)"):
        search.run(rows, uniform_evaluator, root_masks=masks[:1])
    nothing_legal = 1 - masks
    with pytest.raises(ValueError, match="root_masks allows no legal action in row 0"):
        search.run(rows, uniform_evaluator, root_masks=nothing_legal)


def test_a_game_with_chance_but_no_way_to_set_it_is_refused():
    """The descent writes the outcomes it chooses: a game module must say how."""
    module = types.ModuleType("dice_without_setter")
    module.chance_outcome = lambda row: int(row[0])
    with pytest.raises(TypeError, match="no set_chance_outcome"):
        compile_descent(module)
