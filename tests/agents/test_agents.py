"""Agents against the rules: legal moves, states left alone, wins and blocks, seeds, errors."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zoo_games import agents
from zoo_games.agents.evaluation import opponent_wins_next, winning_actions
from zoo_games.agents.mcts import Node, _solve
from zoo_games.catalog import find_variant, labels
from zoo_games.core.game import CHANCE, GameState


def game_of(label: str):
    return find_variant(label).game


def random_decision_state(label: str, seed: int, plies: int) -> GameState:
    """The last decision node of a seeded random game of ``plies`` moves (chance sampled)."""
    rng = random.Random(seed)
    state = game_of(label).new_initial_state()
    decision = None
    for _ in range(plies + 1):
        while state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
        if state.is_terminal():
            break
        decision = state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert decision is not None
    return decision


def fingerprint(state: GameState):
    return state.position(), state.legal_actions(), state.returns(), state.current_player()


AGENT_SPECS = ["random", "greedy", "mcts:simulations=20"]


@pytest.mark.parametrize("spec", AGENT_SPECS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    label=st.sampled_from(labels()),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 80),
)
def test_agents_play_legal_actions_and_leave_the_state_alone(spec, label, seed, plies):
    state = random_decision_state(label, seed, plies)
    before = fingerprint(state)
    action = agents.make_from_spec(spec, seed=seed).act(state)
    assert action in state.legal_actions()
    assert fingerprint(state) == before


# ---------------------------------------------------------------- decisive moves
# White sows its ninth hole (2 balls): the first goes back, the second into Black's hole 1,
# making 2 there, an even count: a capture of 2 that takes White's kazan from 80 to 82. Every
# other White hole holds 1 ball, which moves to the next White hole and captures nothing.
# White, 17 ahead with most of the balls left on its side, would likely win later anyway.
TOGYZ_WIN = "1,1,1,1,1,1,1,1,2/1,1,1,1,1,1,1,1,1 80 63 W"
# player_0's worker 0 on cell 0 (level 2) can climb E onto cell 1 (level 3) and win. player_1's
# worker on cell 12 (level 2) also threatens the level-3 cell 18, which player_0's worker 1
# (cell 24) could dome: a block that tempts, but winning at once is better.
# Parts: levels 1 and 2 on cells 0 and 12 and levels 1-3 on cells 1 and 18: 4, 4, 2 used.
SANTORINI_WIN = "23000/00000/00200/00030/00000 0,24;12,4 0 18,14,12,18"
# player_1's worker on cell 12 (level 2) threatens to climb onto cell 18 (level 3), and
# player_0, on level 0, cannot climb there first. Only a dome on 18 stops it; player_0 has 70
# legal moves (worker 0 from the open cell 6, worker 1 from cell 16). Worker 0 is too far to
# build on 18 after any move; worker 1 reaches it from cells 17 and 22, then domes: 2 of 70.
SANTORINI_BLOCK = "00000/00000/00200/00030/00000 6,16;12,24 0 20,16,13,18"
SANTORINI_BLOCKS = {
    "worker 1 E to r3c2, build a dome E on r3c3",
    "worker 1 SE to r4c2, build a dome NE on r3c3",
}
# The same threat with player_0's workers on 7 and 10: 70 legal moves, one of which blocks
# (worker 0 steps to 13, beside 18, and domes it).
SANTORINI_ONE_BLOCK = "00000/00000/00200/00030/00000 7,10;12,24 0 20,16,13,18"


def alphabeta() -> agents.Agent:
    """The ``alphabeta`` agent at its default depth; the test is skipped without numba."""
    pytest.importorskip("numba", reason="alphabeta needs the batched extra")
    return agents.make("alphabeta", seed=0)


DECIDING_AGENTS = [
    pytest.param(lambda: agents.make("greedy", seed=0), id="greedy"),
    pytest.param(lambda: agents.make("mcts", simulations=300, seed=0), id="mcts"),
    pytest.param(alphabeta, id="alphabeta"),
]


@pytest.mark.parametrize("make_agent", DECIDING_AGENTS)
@pytest.mark.parametrize(
    ("label", "position", "winning"),
    [("togyz-kumalak", TOGYZ_WIN, {8}), ("santorini-fixed", SANTORINI_WIN, set(range(32, 40)))],
)
def test_agents_take_a_win_in_one(make_agent, label, position, winning):
    state = game_of(label).state_from_position(position)
    assert set(winning_actions(state)) <= winning
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        assert (child.is_terminal() and child.returns()[0] == 1) == (action in winning)
    assert len(state.legal_actions()) > len(winning)
    assert make_agent().act(state) in winning


@pytest.mark.parametrize("make_agent", DECIDING_AGENTS)
@pytest.mark.parametrize(
    ("position", "blocks"),
    [
        (SANTORINI_BLOCK, SANTORINI_BLOCKS),
        (SANTORINI_ONE_BLOCK, {"worker 0 SE to r2c3, build a dome S on r3c3"}),
    ],
)
def test_agents_block_the_opponents_win_in_one(make_agent, position, blocks):
    state = game_of("santorini-fixed").state_from_position(position)
    legal = state.legal_actions()
    blocking = []
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        assert not child.is_terminal()  # player_0 cannot win here itself
        if not opponent_wins_next(child, 0):
            blocking.append(action)
    assert len(legal) == 70
    assert {state.action_to_string(a) for a in blocking} == blocks
    assert make_agent().act(state) in blocking


# ---------------------------------------------------------------- MCTS internals
def test_mcts_samples_senet_throws_with_the_rules_probabilities():
    # The spools to move with a 2 (no extra turn), with 5 legal moves: after any move the
    # next node is the cons' throw, which every simulation through that move samples.
    state = game_of("senet-kendall-5").state_from_position("C.S.CS..C.S.C..S...C...S...... S 2")
    assert len(state.legal_actions()) == 5
    agent = agents.make("mcts", simulations=3000, seed=1)
    agent.act(state)
    search = agent.last_search
    assert search is not None and search.root is not None
    chance = max(search.root.children.values(), key=lambda node: node.visits)
    assert chance.player == CHANCE
    visits = sum(child.visits for child in chance.children.values())
    for outcome, probability in state.chance_outcomes():
        frequency = chance.children[outcome].visits / visits
        assert frequency == pytest.approx(probability, abs=0.05), outcome


def test_a_chance_node_is_solved_to_the_probability_weighted_value():
    node = Node(CHANCE)
    node.outcomes = ((1, 0.25), (2, 0.75))
    for outcome, value in ((1, 1.0), (2, -1.0)):
        node.children[outcome] = Node(0)
        node.children[outcome].solved = value
    assert _solve(node) and node.solved == pytest.approx(0.25 - 0.75)


def solved_children(player: int, values: list[float], untried: list[int]) -> Node:
    node = Node(player)
    node.untried = untried
    for action, value in enumerate(values):
        node.children[action] = Node(1 - player)
        node.children[action].solved = value
    return node


def test_a_decision_node_is_solved_by_one_winning_child_or_by_all_children():
    # Values are player_0's: player_1 wins with a child worth -1.
    assert _solve(node := solved_children(1, [0.0, -1.0], untried=[5])) and node.solved == -1.0
    assert _solve(node := solved_children(0, [-1.0, 0.0], untried=[])) and node.solved == 0.0
    assert not _solve(solved_children(0, [-1.0, 0.0], untried=[5]))  # 5 might still win
    open_child = solved_children(0, [-1.0], untried=[])
    open_child.children[1] = Node(1)  # not solved yet
    assert not _solve(open_child)


def test_mcts_reports_visit_counts_as_a_policy():
    state = game_of("togyz-kumalak").new_initial_state()
    agent = agents.make("mcts", simulations=200, seed=3)
    action = agent.act(state)
    search = agent.last_search
    assert search is not None and search.action == action and search.simulations == 200
    assert sum(search.visit_counts.values()) == 200
    assert set(search.visit_counts) <= set(state.legal_actions())
    assert sum(search.policy().values()) == pytest.approx(1.0)
    assert search.visit_counts[action] == max(search.visit_counts.values())


def test_mcts_with_a_time_budget_and_random_rollouts_plays():
    state = game_of("santorini-fixed").new_initial_state()
    agent = agents.make_from_spec("mcts:seconds=0.05,rollout=random", seed=0)
    assert agent.act(state) in state.legal_actions()
    assert agent.last_search is not None and agent.last_search.simulations > 0


# ---------------------------------------------------------------- seeds and errors
def play_out(label: str, spec: str, seed: int, moves: int = 12) -> list[int]:
    rng = random.Random(0)
    state = game_of(label).new_initial_state()
    agent = agents.make_from_spec(spec, seed=seed)
    played = []
    while len(played) < moves and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
            continue
        played.append(agent.act(state))
        state.apply_action(played[-1])
    return played


@pytest.mark.parametrize("spec", AGENT_SPECS)
@pytest.mark.parametrize("label", ["senet-skyruk-5", "togyz-kumalak", "santorini-placement"])
def test_agents_are_reproducible_with_their_seed(spec, label):
    assert play_out(label, spec, seed=7) == play_out(label, spec, seed=7)


def test_seeds_matter():
    games = {tuple(play_out("santorini-fixed", "random", seed)) for seed in range(3)}
    assert len(games) > 1


@pytest.mark.parametrize(
    ("make_it", "message"),
    [
        (lambda: agents.make("nope"), "unknown agent 'nope'; known agents: random, greedy"),
        (lambda: agents.make("greedy", depth=2), "agent 'greedy' has no option depth"),
        (lambda: agents.make("mcts", simulations=5, seconds=1.0), "not both"),
        (lambda: agents.make("mcts", simulations=0), "at least 1"),
        (lambda: agents.make("mcts", seconds=0.0), "positive"),
        (lambda: agents.make("mcts", rollout="smart"), "random, heuristic"),
        (lambda: agents.make_from_spec("mcts:simulations=many"), "expected int or none"),
        (lambda: agents.make_from_spec("mcts:simulations"), "not of the form name=value"),
    ],
)
def test_bad_names_and_options_say_what_is_allowed(make_it, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_it()


#: Per agent: option -> values of the wrong type or range (each refused when the agent is
#: made, before any move), and the module its agent needs beyond the light ones.
BAD_OPTIONS = {
    "random": {"seed": ["x", True, 1.5, -1]},
    "greedy": {"seed": ["x", False, 2.0, -3]},
    "mcts": {
        "simulations": ["abc", 10.5, True, 0],
        "seconds": ["1", math.nan, math.inf, -1.0, False],
        "rollout": [3, "smart"],
        "rollout_depth": [2.5, "4", True, -1],
        "exploration": ["1.4", math.nan, True, -0.5],
        "seed": ["x", True],
    },
    "batched-mcts": {
        "simulations": ["abc", 10.5, True],
        "seconds": [math.inf, "2"],
        "rollout": [None],
        "rollout_depth": [1.5],
        "exploration": [math.nan],
        "rollout_wins": [1, "yes"],
        "max_nodes": [2048.0, True, 10],
        "seed": [-2, "x"],
    },
    "alphabeta": {"depth": ["4", 2.5, True, 0, 31], "seed": [-1, "x"]},
    "rllib": {"checkpoint": [3, True], "sample": [1, "yes"], "seed": [1.5, -1]},
    "alphazero": {
        "simulations": ["64", 2.0, True, -1],
        "seconds": ["1", math.nan, math.inf, 0.0, -1.0, False],
        "checkpoint": [3, False],
        "symmetries": [1, "yes"],
        "waves": [1, "yes"],
        "seed": [-1],
    },
}
NEEDS = {"batched-mcts": "numba", "alphabeta": "numba", "rllib": "ray.rllib"}


@pytest.mark.parametrize(
    ("name", "option", "value"),
    [
        (name, option, value)
        for name, options in BAD_OPTIONS.items()
        for option, values in options.items()
        for value in values
    ],
)
def test_every_option_of_every_agent_is_checked_when_the_agent_is_made(name, option, value):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    with pytest.raises(ValueError, match=option):
        agents.make(name, **{option: value})


@pytest.mark.parametrize("name", agents.names())
def test_every_option_of_every_agent_has_bad_values_tried(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    assert set(BAD_OPTIONS[name]) >= set(agents.registry.option_types(name)) - {"checkpoint"}


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "alphabeta"])
def test_agents_refuse_chance_and_terminal_states(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    chance = game_of("senet-kendall-5").new_initial_state()
    over = game_of("togyz-kumalak").state_from_position(TOGYZ_WIN)
    over.apply_action(8)
    for state in (chance, over):
        with pytest.raises(ValueError):
            agents.make(name).act(state)


#: Every agent, in the order of ``agents.names()`` (the web app offers them in it too).
AGENT_NAMES = ["random", "greedy", "mcts", "batched-mcts", "alphabeta", "rllib", "alphazero"]


def test_names_lists_every_agent():
    assert agents.names() == AGENT_NAMES


def test_an_agent_without_options_of_its_own_has_its_seed_checked():
    class FirstLegal(agents.Agent):
        name = "first-legal"

        def act(self, state: GameState) -> int:
            return state.legal_actions()[0]

    assert FirstLegal(seed=3).seed == 3
    with pytest.raises(ValueError, match="first-legal option seed='x' is not allowed"):
        FirstLegal(seed="x")  # type: ignore[arg-type]


def test_an_unannotated_option_of_a_users_agent_takes_any_value():
    # As tutorial 05's agent: a policy function passed in, no annotation to hold it to.
    class Playing(agents.Agent):
        name = "playing"

        def __init__(self, choose, seed=None):  # type: ignore[no-untyped-def]
            super().__init__(seed)
            self.choose = choose

        def act(self, state: GameState) -> int:
            return int(self.choose(state))

    def first(state: GameState) -> int:
        return state.legal_actions()[0]

    state = find_variant("togyz-kumalak").game.new_initial_state()
    assert Playing(first).act(state) == first(state)
    with pytest.raises(ValueError, match="playing option seed=-1"):
        Playing(first, seed=-1)
