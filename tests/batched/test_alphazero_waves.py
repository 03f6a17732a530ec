"""The AlphaZero search with ``waves=True``: each round of Sequential Halving as one step.

A round's simulations go through distinct root children, so they can descend together and
have their leaves scored in one call; only the choice of a round's survivors may differ from
one simulation at a time (made at the round's start). These tests pin the plan of rounds by
hand, the root's picks on a hand-made tree, the calls the evaluator gets, and the cases where
no round chooses and both ways must agree exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.agents.test_agents import SANTORINI_WIN, TOGYZ_WIN
from tests.batched.test_alphazero_search import (
    LABELS,
    SANTORINI_ONLY_BLOCK,
    check_result,
    observation_evaluator,
    played_rows,
    rows_of,
)
from zoo_games.batched.search.alphazero import BatchedSearch, root_plan
from zoo_games.batched.search.evaluators import uniform_evaluator
from zoo_games.batched.search.selection import gumbel_root_children
from zoo_games.batched.search.tree import NODE


def test_the_plan_of_rounds_worked_out_by_hand():
    """Four actions, eight simulations: 0,0,0,0 then 1,1 then 2,2 (the schedule's rounds).

    One at a time that is eight steps of one simulation; in waves, three steps: the four
    actions once each, then the better two, then those two again.
    """
    targets, widths = root_plan(4, 8, waves=True)
    assert targets.shape == widths.shape == (5, 8)  # one row per considered count, 0 to 4
    assert widths[4].tolist() == [4, 2, 2, 0, 0, 0, 0, 0]
    assert targets[4, :3].tolist() == [0, 1, 2]
    assert widths[1].tolist() == [1] * 8  # one action takes every visit, one at a time
    assert targets[1].tolist() == list(range(8))
    assert widths[2].tolist() == [2, 2, 2, 2, 0, 0, 0, 0]
    targets, widths = root_plan(4, 8, waves=False)
    assert targets[4].tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    assert (widths == 1).all()
    # 16 actions and 512 simulations, the players' largest plan: 120 rounds.
    _, widths = root_plan(16, 512, waves=True)
    assert (widths[16] > 0).sum() == 120 and widths[16].sum() == 512


def root_with_children(visits, totals):
    """A root (``player_0`` to move) whose children have these visits and value totals."""
    count = len(visits)
    nodes = np.zeros(1 + count, dtype=NODE)
    nodes[0]["first"], nodes[0]["count"] = 1, count
    nodes[0]["visits"] = 1 + sum(visits)
    for i in range(count):
        nodes[1 + i]["action"] = i
        nodes[1 + i]["visits"], nodes[1 + i]["total"] = visits[i], totals[i]
    priors = np.full(1 + count, math.log(1 / count), dtype=np.float32)
    return nodes, priors, np.zeros(1 + count, dtype=np.float32)


def test_a_round_takes_the_best_children_with_the_visits_asked_for():
    """Equal priors, no noise: among the children visited once, the best Q first.

    Children 0, 1, 3 have one visit each, with Q 0.5, -0.5 and 0; child 2 none. Sigma is
    increasing in Q, so a round of two asks for 0 then 3; a round of four also takes the
    one child left with one visit (1), then, as nothing else has one visit, the best other (2).
    """
    nodes, priors, raw_values = root_with_children([1, 1, 0, 1], [0.5, -0.5, 0.0, 0.0])
    gumbel = np.zeros(4)
    scratch = np.zeros(4)
    out = np.full(4, -1, dtype=np.int64)
    gumbel_root_children(nodes, 1, 2, gumbel, priors, raw_values, scratch, out)
    assert (nodes[out[:2]]["action"]).tolist() == [0, 3]
    gumbel_root_children(nodes, 1, 4, gumbel, priors, raw_values, scratch, out)
    assert (nodes[out]["action"]).tolist() == [0, 3, 1, 2]
    # Gumbel noise counts as much as the logits: enough of it on child 1 puts it first.
    gumbel[1] = 10.0
    gumbel_root_children(nodes, 1, 1, gumbel, priors, raw_values, scratch, out)
    assert nodes[out[0]]["action"] == 1


def counting(evaluator):
    sizes: list[int] = []

    def evaluate(observations, masks):
        sizes.append(len(masks))
        return evaluator(observations, masks)

    return evaluate, sizes


def test_each_round_is_one_call_of_the_evaluator():
    """Four considered actions, eight simulations: the root, then three rounds of 4, 2, 2."""
    rows, _ = played_rows("togyz-kumalak", 1, 4, seed=3)
    evaluate, sizes = counting(observation_evaluator)
    BatchedSearch("togyz-kumalak", 1, 8, considered=4, waves=True).run(rows, evaluate)
    assert sizes == [1, 4, 2, 2]
    evaluate, sizes = counting(observation_evaluator)
    BatchedSearch("togyz-kumalak", 1, 8, considered=4).run(rows, evaluate)
    assert sizes == [1] * 9


@pytest.mark.parametrize("label", LABELS)
def test_waves_give_the_root_the_visits_sequential_halving_asks_for(label):
    """The same counts as one simulation at a time, whichever actions survive the rounds."""
    rows, masks = played_rows(label, 6, 20, seed=7)
    waves = BatchedSearch(label, 6, 48, seed=1, waves=True).run(rows, observation_evaluator)
    single = BatchedSearch(label, 6, 48, seed=1).run(rows, observation_evaluator)
    check_result(waves, masks)
    assert (np.sort(waves.visits, axis=1) == np.sort(single.visits, axis=1)).all()
    assert (waves.visits.sum(axis=1) == 48).all()


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize(("considered", "simulations"), [(2, 30), (16, 3)])
def test_when_no_round_chooses_waves_are_exactly_one_at_a_time(label, considered, simulations):
    """Two considered actions are both visited in every round. Three simulations make one
    round of three unvisited actions (which share their completed Q, so the order of their
    picks cannot change), or rounds of one. Either way no round chooses among actions whose
    order the round itself could change, and the searches must agree to the last visit."""
    rows, masks = played_rows(label, 4, 12, seed=5)
    results = [
        BatchedSearch(label, 4, simulations, considered=considered, seed=3, waves=waves).run(
            rows, observation_evaluator
        )
        for waves in (True, False)
    ]
    check_result(results[0], masks)
    assert (results[0].visits == results[1].visits).all()
    assert (results[0].actions == results[1].actions).all()
    np.testing.assert_allclose(results[0].policy, results[1].policy, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(results[0].root_values, results[1].root_values, atol=1e-6)


@pytest.mark.parametrize("label", LABELS)
def test_with_waves_a_game_does_not_depend_on_the_others_searched(label):
    rows, masks = played_rows(label, 5, 30, seed=2)
    together = BatchedSearch(label, 5, 40, seed=5, waves=True).run(rows, observation_evaluator)
    check_result(together, masks)
    for k in range(5):
        search = BatchedSearch(label, 5, 40, seed=5, waves=True)
        alone = search.run(rows[k : k + 1], observation_evaluator, games=np.array([k]))
        assert alone.actions[0] == together.actions[k]
        assert (alone.visits[0] == together.visits[k]).all()
        assert alone.policy[0] == pytest.approx(together.policy[k])


@pytest.mark.parametrize(
    ("label", "position", "good"),
    [
        ("togyz-kumalak", TOGYZ_WIN, {8}),
        ("santorini-fixed", SANTORINI_WIN, set(range(32, 40))),
        ("santorini-fixed", SANTORINI_ONLY_BLOCK, {90}),
    ],
)
def test_waves_take_a_win_in_one_and_block_a_loss_in_one(label, position, good):
    search = BatchedSearch(label, 1, 400, seed=0, waves=True)
    result = search.run(rows_of(label, position), uniform_evaluator, explore=False)
    assert result.actions[0] in good


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"waves": "yes"}, "waves must be True or False"),
        ({"waves": True, "selection": "puct"}, "it needs selection='gumbel'"),
    ],
)
def test_bad_waves_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        BatchedSearch("togyz-kumalak", 2, 8, **options)
