"""The batched-mcts agent against the rules: legal moves, unchanged states, wins, blocks, chance."""

from __future__ import annotations

import hashlib
import importlib
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tests.agents.test_agents import (
    SANTORINI_BLOCK,
    SANTORINI_ONE_BLOCK,
    SANTORINI_WIN,
    TOGYZ_WIN,
    fingerprint,
    game_of,
    random_decision_state,
)
from zoo_games import agents
from zoo_games.agents.batched_mcts import BatchedMCTSAgent
from zoo_games.agents.evaluation import (
    evaluation_for,
    fast_winning_actions,
    opponent_wins_next,
    winning_actions,
)
from zoo_games.batched import KERNEL_MODULES
from zoo_games.batched.search.tree import OPEN
from zoo_games.catalog import find_variant, labels
from zoo_games.core.game import CHANCE


def batched_mcts(**options) -> BatchedMCTSAgent:
    agent = agents.make("batched-mcts", **options)
    assert isinstance(agent, BatchedMCTSAgent)
    return agent


def seeded_games(label: str, games: int):
    """Every state (chance nodes and finished games included) of seeded random games."""
    game = game_of(label)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        yield state.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            yield state.clone()


@pytest.mark.parametrize("label", labels())
def test_the_compiled_evaluation_is_the_rules_cores(label):
    variant = find_variant(label)
    game = game_of(label)
    module = importlib.import_module(KERNEL_MODULES[game.name])
    config = np.array(module.KERNELS.config(game, variant.kwargs), dtype=np.int64)
    evaluate = evaluation_for(game.name)
    results, stuck = set(), 0
    for state in seeded_games(label, 30):
        row = module.KERNELS.row_from_state(state)
        for player in (0, 1):
            expected = evaluate(state, player)
            assert module.evaluate(row, config, player) == expected, (state.position(), player)
        if state.is_terminal():
            results.add(state.returns()[0])
            # Santorini's other end: the loser is left without a move, not climbed past.
            stuck += game.name == "santorini" and 3 not in {state.heights[w] for w in state.workers}
    assert len(results) >= 2  # finished games of both winners were compared
    assert stuck > 0 or game.name != "santorini"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    label=st.sampled_from(labels()),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
)
def test_it_plays_legal_actions_and_leaves_the_state_alone(label, seed, plies):
    state = random_decision_state(label, seed, plies)
    before = fingerprint(state)
    agent = batched_mcts(simulations=60, seed=seed)
    action = agent.act(state)
    assert action in state.legal_actions()
    assert fingerprint(state) == before
    search = agent.last_search
    assert search is not None and search.action == action
    assert set(search.visit_counts) <= set(state.legal_actions())
    assert -1.0 <= search.value <= 1.0


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
@pytest.mark.parametrize("label", ["togyz-kumalak", "santorini-fixed", "senet-kendall-5"])
def test_the_same_seed_and_simulations_give_the_same_search(label, rollout):
    state = random_decision_state(label, seed=11, plies=12)
    searches = []
    for _ in range(2):
        agent = batched_mcts(simulations=800, seed=5, rollout=rollout)
        moves = [agent.act(state), agent.act(state)]  # the agent's generator moves on
        search = agent.last_search
        assert search is not None
        searches.append((moves, search.visit_counts, search.simulations))
    assert searches[0] == searches[1]
    (moves, visits, simulations) = searches[0]
    assert sum(visits.values()) == simulations


@pytest.mark.parametrize(
    ("label", "position", "winning"),
    [("togyz-kumalak", TOGYZ_WIN, {8}), ("santorini-fixed", SANTORINI_WIN, set(range(32, 40)))],
)
def test_a_win_in_one_is_played_at_once(label, position, winning):
    state = game_of(label).state_from_position(position)
    agent = batched_mcts(simulations=300, seed=0)
    assert agent.act(state) in winning
    assert agent.last_search is not None
    assert agent.last_search.simulations == 0 and agent.last_search.value == 1.0


@pytest.mark.parametrize(("position", "blocks"), [(SANTORINI_BLOCK, 2), (SANTORINI_ONE_BLOCK, 1)])
def test_it_blocks_the_opponents_win_in_one(position, blocks):
    state = game_of("santorini-fixed").state_from_position(position)
    blocking = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not opponent_wins_next(child, 0):
            blocking.add(action)
    assert len(blocking) == blocks
    agent = batched_mcts(simulations=300, seed=0)
    assert agent.act(state) in blocking
    # Only the blocking moves were searched: the others lose at once.
    assert agent.last_search is not None and set(agent.last_search.visit_counts) <= blocking


def wins_by_playing(state):
    """The mover's winning actions after which the game is over by its own move."""
    mover = state.current_player()
    wins = []
    for action in winning_actions(state):
        child = state.clone()
        child.apply_action(action)
        climbed = getattr(child, "heights", None) is None or (
            child.heights[child.workers[2 * mover + action // 64]] == 3
        )
        if climbed:
            wins.append(action)
    return wins


@pytest.mark.parametrize(
    "make_state",
    [
        pytest.param(lambda: random_decision_state("togyz-kumalak", seed=3, plies=110), id="togyz"),
        pytest.param(
            lambda: random_decision_state("santorini-fixed", seed=3, plies=25), id="santorini"
        ),
    ],
)
def test_every_node_of_the_tree_agrees_with_the_rules(make_state):
    # A node whose mover can win at once by playing (Santorini: a climb, not boxing the
    # opponent in) is solved as won, a finished game as its result; an open node was visited
    # once for its rollout plus once per visit of its children.
    state = make_state()
    agent = batched_mcts(simulations=3000, seed=2)
    agent.act(state)
    tree = agent.tree_search(state.game).nodes
    checked = 0
    stack = [(0, state)]
    while stack:
        index, node_state = stack.pop()
        node = tree[index]
        if node_state.is_terminal():
            assert node["solved"] == node_state.returns()[0]
            continue
        mover = node_state.current_player()
        if index > 0 and wins_by_playing(node_state):
            assert node["solved"] == (1.0 if mover == 0 else -1.0)
            checked += 1
        if node["first"] < 0 or node["solved"] != OPEN:
            continue
        children = tree[node["first"] : node["first"] + node["tried"]]
        assert node["visits"] == children["visits"].sum() + (index > 0)
        for offset, child in enumerate(children):
            child_state = node_state.clone()
            child_state.apply_action(int(child["action"]))
            stack.append((node["first"] + offset, child_state))
    assert checked > 0


def test_senet_throws_are_sampled_with_the_rules_probabilities():
    # As for mcts: the spools move with a 2 (no extra turn), so after any of the 5 moves the
    # next node is the cons' throw, sampled by every simulation through that move.
    state = game_of("senet-kendall-5").state_from_position("C.S.CS..C.S.C..S...C...S...... S 2")
    agent = batched_mcts(simulations=4000, seed=1)
    agent.act(state)
    tree = agent.tree_search(state.game).nodes
    root = tree[0]
    children = tree[root["first"] : root["first"] + root["tried"]]
    chance = children[children["visits"].argmax()]
    assert chance["player"] == CHANCE
    throws = tree[chance["first"] : chance["first"] + chance["count"]]
    visits = throws["visits"].sum()
    assert visits == chance["visits"] - 1  # the first visit only rolled out
    frequencies = {int(t["action"]): t["visits"] / visits for t in throws}
    for outcome, probability in state.chance_outcomes():
        assert frequencies[outcome] == pytest.approx(probability, abs=0.05), outcome


@pytest.mark.parametrize("label", ["togyz-kumalak", "santorini-fixed", "senet-skyruk-7"])
def test_a_heuristic_rollout_of_depth_0_is_the_evaluation_of_the_new_node(label):
    # One simulation per root action: each expands one child and scores it at once.
    state = random_decision_state(label, seed=7, plies=15)
    root_actions = len(state.legal_actions())
    agent = batched_mcts(simulations=root_actions, rollout_depth=0, seed=3)
    agent.act(state)
    tree = agent.tree_search(state.game).nodes
    root = tree[0]
    assert root["tried"] > 1
    evaluate = evaluation_for(state.game.name)
    for child in tree[root["first"] : root["first"] + root["tried"]]:
        child_state = state.clone()
        child_state.apply_action(int(child["action"]))
        if child["solved"] == OPEN:
            assert child["visits"] == 1
            assert child["total"] == evaluate(child_state, 0)


def test_a_time_budget_plays_and_counts_its_simulations():
    state = game_of("togyz-kumalak").new_initial_state()
    agent = agents.make_from_spec("batched-mcts:seconds=0.05", seed=0)
    assert agent.act(state) in state.legal_actions()
    assert agent.last_search is not None and agent.last_search.simulations > 0


@pytest.mark.parametrize(
    ("label", "rollout_wins"), [("senet-skyruk-5", True), ("santorini-placement", False)]
)
def test_rollouts_with_and_without_wins_in_one_play(label, rollout_wins):
    state = random_decision_state(label, seed=4, plies=20)
    agent = agents.make_from_spec(f"batched-mcts:simulations=300,rollout_wins={rollout_wins}")
    assert agent.act(state) in state.legal_actions()


@pytest.mark.parametrize("label", ["togyz-kumalak", "santorini-fixed", "senet-kendall-5"])
def test_heuristic_rollouts_take_wins_in_one_where_mcts_does(label):
    game = game_of(label)
    heuristic = batched_mcts().tree_search(game)
    assert heuristic.take_wins == (fast_winning_actions(game.name) is not None)
    assert heuristic.rollout_depth == 4
    assert batched_mcts(rollout="random").tree_search(game).rollout_depth == -1


def test_a_small_tree_stops_the_search_early():
    state = game_of("santorini-fixed").new_initial_state()
    agent = batched_mcts(simulations=100_000, max_nodes=4096, seed=0)
    assert agent.act(state) in state.legal_actions()
    assert agent.last_search is not None and 0 < agent.last_search.simulations < 100_000


@pytest.mark.parametrize(
    ("make_it", "message"),
    [
        (lambda: agents.make("batched-mcts", simulations=5, seconds=1.0), "not both"),
        (lambda: agents.make("batched-mcts", simulations=0), "at least 1"),
        (lambda: agents.make("batched-mcts", seconds=0.0), "positive"),
        (lambda: agents.make("batched-mcts", exploration=-1.0), "at least 0"),
        (lambda: agents.make("batched-mcts", max_nodes=10), "from 1024 to"),
        (lambda: agents.make("batched-mcts", max_nodes=2**31), "from 1024 to"),
        (lambda: agents.make("batched-mcts", rollout="greedy"), "one of random, heuristic"),
        (lambda: agents.make("batched-mcts", rollout_depth=-1), "at least 0, not -1"),
    ],
)
def test_bad_options_say_what_is_allowed(make_it, message):
    with pytest.raises(ValueError, match=message):
        make_it()


def test_it_refuses_chance_and_terminal_states():
    chance = game_of("senet-kendall-5").new_initial_state()
    over = game_of("togyz-kumalak").state_from_position(TOGYZ_WIN)
    over.apply_action(8)
    for state in (chance, over):
        with pytest.raises(ValueError):
            batched_mcts().act(state)


#: A hash of the moves and root visit counts of three seeded games per variant (14 moves
#: each, 150 simulations per move), recorded from the search before it moved onto the tree
#: shared with the AlphaZero search: the same seed still plays the same moves.
MOVES_OF_SEEDED_GAMES = {
    "senet-kendall-5": "e810bc10e63752ee",
    "senet-skyruk-7": "cbdd002f4fcef0a1",
    "togyz-kumalak": "b9cee9605ab0a667",
    "santorini-fixed": "9a47011afef85b66",
    "santorini-placement": "14f69607b253a560",
}


@pytest.mark.parametrize("label", list(MOVES_OF_SEEDED_GAMES))
def test_seeded_games_play_the_recorded_moves(label):
    game = game_of(label)
    moves = []
    for seed in range(3):
        rng = random.Random(seed)
        agent = batched_mcts(simulations=150, seed=seed)
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal() and plies < 14:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            action = agent.act(state)
            assert agent.last_search is not None
            moves.append(action)
            moves.append(sorted(agent.last_search.visit_counts.items()))
            state.apply_action(action)
            plies += 1
    digest = hashlib.sha256(repr(moves).encode()).hexdigest()[:16]
    assert digest == MOVES_OF_SEEDED_GAMES[label]
