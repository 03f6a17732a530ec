"""A time per move turned into simulations: the ladder of budgets and the pace they follow.

The budgets are worked out by hand from the paces recorded: the largest rung whose expected
time (rung x median seconds per simulation) fits the time per move.
"""

from __future__ import annotations

import itertools
import types

import pytest

from zoo_games.alphazero import player as player_module
from zoo_games.alphazero.pace import (
    LADDER,
    MOST_SIMULATIONS,
    REMEMBERED_MOVES,
    Pace,
    shared_paces,
)
from zoo_games.catalog import find_variant


def test_the_ladder_climbs_by_a_half_or_a_third_from_16_to_the_most():
    assert LADDER[:6] == (16, 24, 32, 48, 64, 96)
    assert LADDER[-1] == MOST_SIMULATIONS == 32_768
    steps = {round(high / low, 3) for low, high in itertools.pairwise(LADDER)}
    assert steps == {1.5, 1.333}


def test_the_first_move_spends_the_first_budget_then_the_pace_decides():
    pace = Pace(seconds=0.1, first=64)
    assert pace.budget() == 64
    pace.record(64, 0.064)  # 1 ms a simulation: 96 fit in 0.1 s, 128 would take 0.128
    assert pace.budget() == 96
    pace.record(96, 0.048)  # 0.5 ms: median of 1 and 0.5 ms is 0.75 ms, 128 x 0.75 = 96 ms
    assert pace.budget() == 128


def test_one_slow_move_does_not_cut_the_budget_but_a_slow_machine_does():
    pace = Pace(seconds=0.1, first=64)
    for _ in range(2):
        pace.record(100, 0.1)  # 1 ms a simulation
    pace.record(100, 5.0)  # numba compiling, say: 50 ms a simulation
    assert pace.budget() == 96  # the median is still 1 ms
    for _ in range(REMEMBERED_MOVES):
        pace.record(10, 0.1)  # 10 ms a simulation, five moves in a row: the old ones are gone
    assert pace.budget() == LADDER[0]  # none fits (16 x 10 ms = 0.16 s): the smallest rung
    for _ in range(REMEMBERED_MOVES):
        pace.record(1000, 0.001)
    assert pace.budget() == MOST_SIMULATIONS  # worth far more: the ladder's top


def test_paces_shared_from_elsewhere_decide_the_first_move():
    paces = shared_paces(object(), "Evaluator", waves=False)
    assert Pace(0.1, first=64, paces=paces).budget() == 64
    Pace(0.1, first=64, paces=paces).record(100, 0.1)  # 1 ms a simulation, by another player
    assert Pace(0.1, first=64, paces=paces).budget() == 96


@pytest.mark.parametrize(
    ("seconds", "first", "says"),
    [(0, 64, "seconds per move must be positive, not 0"), (0.1, 0, "at least 1, not 0")],
)
def test_a_pace_needs_time_and_a_first_budget(seconds, first, says):
    with pytest.raises(ValueError, match=says):
        Pace(seconds, first)


def test_the_player_searches_each_move_with_the_budget_its_pace_gives(monkeypatch):
    pytest.importorskip("numba")
    from tests.alphazero.test_symmetric import random_network

    # A machine of 10,000 simulations a second, by a clock that only the searches move.
    clock = types.SimpleNamespace(now=0.0)
    real_make_search = player_module.make_search

    def timed_search(variant, games, simulations, seed, waves):
        search = real_make_search(variant, games, simulations, seed, waves)

        def run(*arguments, **options):
            clock.now += simulations / 10_000
            return search.run(*arguments, **options)

        return types.SimpleNamespace(run=run)

    monkeypatch.setattr(player_module, "make_search", timed_search)
    monkeypatch.setattr(
        player_module, "time", types.SimpleNamespace(perf_counter=lambda: clock.now)
    )
    network = random_network(0, "togyz-kumalak")
    player = player_module.NetworkPlayer(network, 64, seed=1, seconds=0.05)
    budgets = budgets_of_opening_moves(player, player, "togyz-kumalak", 4)
    # 64 first; then 0.1 ms a simulation: 384 take 38.4 ms, 512 would take 51.2
    assert budgets == [64, 384, 384, 384]
    assert clock.now == pytest.approx((64 + 3 * 384) / 10_000)
    # The next game's player of the same network starts at the pace; another network's does not.
    again = player_module.NetworkPlayer(network, 64, seed=2, seconds=0.05)
    assert budgets_of_opening_moves(again, again, "togyz-kumalak", 1) == [384]
    other = player_module.NetworkPlayer(random_network(1, "togyz-kumalak"), 64, seconds=0.05)
    assert budgets_of_opening_moves(other, other, "togyz-kumalak", 1) == [64]


def budgets_of_opening_moves(agent, player, label: str, moves: int) -> list[int]:
    """``agent`` plays the first ``moves`` moves of a game of ``label`` (legal ones, checked);
    the simulations ``player``, the network player behind it, searched for each."""
    state = find_variant(label).game.new_initial_state()
    budgets = []
    for _ in range(moves):
        action = agent.act(state)
        assert action in state.legal_actions()
        budgets.append(player.last_simulations)
        state.apply_action(action)
    return budgets


def test_seconds_need_a_search():
    from tests.alphazero.test_symmetric import random_network

    with pytest.raises(ValueError, match="with simulations=0 there is none to budget"):
        player_module.NetworkPlayer(random_network(0, "togyz-kumalak"), 0, seconds=0.1)
