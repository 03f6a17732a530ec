"""The root guard: a win in one alone, and no move that lets the opponent win at once."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games import batched
from zoo_games.agents.evaluation import winning_actions
from zoo_games.alphazero.guard import RootGuard
from zoo_games.alphazero.replay import ReplayBuffer
from zoo_games.alphazero.selfplay import SelfPlay
from zoo_games.batched import kernels_of
from zoo_games.catalog import find_variant

#: White sows hole 9 (2 balls): the second ball makes Black's hole 1 even, 2 balls, 80 -> 82.
TOGYZ_WIN = "1,1,1,1,1,1,1,1,2/1,1,1,1,1,1,1,1,1 80 63 W"
#: player_1's worker on cell 18 stands on level 2 beside cell 13, also level 2: a build on 13
#: gives it a climb. player_0 has no level 3 to climb.
SANTORINI_GIFT = "00000/02000/00020/00020/00000 6,24;18,20 0 19,15,14,18"
#: player_1's worker on 18 (level 2) has two level-3 cells beside it, 12 and 24, out of
#: reach of player_0's workers in the corners 0 and 4: every move lets it win.
SANTORINI_LOST = "00000/00000/00300/00020/00003 0,4;18,20 0 19,15,12,18"


def row_of(label: str, position: str) -> np.ndarray:
    variant = find_variant(label)
    return kernels_of(variant.game).row_from_state(variant.game.state_from_position(position))


def test_a_win_in_one_is_the_only_action_left() -> None:
    win, allowed = RootGuard("togyz-kumalak").allowed(row_of("togyz-kumalak", TOGYZ_WIN))
    assert win == 8 and allowed.tolist() == [0] * 8 + [1]


def test_the_moves_after_which_the_opponent_wins_at_once_are_left_out() -> None:
    state = find_variant("santorini-fixed").game.state_from_position(SANTORINI_GIFT)
    losing = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if winning_actions(child):
            losing.add(action)
    assert losing  # the builds on cell 13
    win, allowed = RootGuard("santorini-fixed").allowed(row_of("santorini-fixed", SANTORINI_GIFT))
    assert win == -1
    assert set(np.flatnonzero(allowed)) == set(state.legal_actions()) - losing


def test_when_every_move_loses_every_legal_move_is_left() -> None:
    state = find_variant("santorini-fixed").game.state_from_position(SANTORINI_LOST)
    win, allowed = RootGuard("santorini-fixed").allowed(row_of("santorini-fixed", SANTORINI_LOST))
    assert win == -1 and set(np.flatnonzero(allowed)) == set(state.legal_actions())


def test_guarded_self_play_searches_only_the_win(make_scripted_search) -> None:
    label = "togyz-kumalak"
    engine = batched.make(label, batch_size=4, seed=0)
    engine.set_positions([TOGYZ_WIN] * 4)
    search = make_scripted_search(label, 4, 1, 0)
    buffer = ReplayBuffer(100, engine.observation.shape[1:], np.dtype(np.uint8), 9)
    selfplay = SelfPlay(engine, search, buffer.add, RootGuard(label))
    counts = selfplay.play(lambda observations, masks: (np.zeros(masks.shape), np.zeros(4)), 1)
    assert counts.games == 4 and search.calls[0][1].tolist() == [8] * 4
    kept = buffer.sample(4, np.random.default_rng(0))
    assert (kept.policies[:, 8] == 1).all() and (kept.returns == 1).all()
