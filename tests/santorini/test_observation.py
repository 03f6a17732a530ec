"""The Santorini observations, value by value, against their documented layouts.

The observer assembles the planes as bytes, a cell at a time; the reference here fills a
zero array channel by channel straight from the table in the observer's docstring. The
workers encoding is checked on a position worked out by hand and, all game long, against the
planes cut around each worker.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games import santorini_v0
from zoo_games.santorini.cells import SIZE, UNPLACED
from zoo_games.santorini.observation import SantoriniObserver, TacticsObserver, WorkersObserver
from zoo_games.santorini.rules import NEIGHBOUR, SantoriniGame, SantoriniState


def planes_by_the_table(state: SantoriniState, player: int) -> np.ndarray:
    planes = np.zeros((SIZE, SIZE, 15), dtype=np.uint8)
    for cell, height in enumerate(state.heights):
        planes[cell // SIZE, cell % SIZE, height] = 1  # channels 0-4
    slots = [2 * player, 2 * player + 1, 2 * (1 - player), 2 * (1 - player) + 1]
    for channel, slot in enumerate(slots, start=5):  # channels 5-8
        cell = state.workers[slot]
        if cell != UNPLACED:
            planes[cell // SIZE, cell % SIZE, channel] = 1
    for channel, left in enumerate(state.parts, start=9):  # channels 9-12
        planes[:, :, channel] = left
    planes[:, :, 13] = state.in_placement()
    planes[:, :, 14] = state.mover == player and state.winner < 0
    return planes


def test_the_fixed_start_seen_by_each_player():
    state = SantoriniGame().new_initial_state()
    observer = SantoriniObserver()
    first, second = observer.observe(state, 0), observer.observe(state, 1)
    assert first.shape == (5, 5, 15) and first.dtype == np.uint8 and first.flags.writeable
    assert first[:, :, 0].all() and not first[:, :, 1:5].any()  # every cell at level 0
    assert first[0, 2, 5] == 1 and first[4, 2, 6] == 1  # player_0's workers on cells 2, 22
    assert first[2, 0, 7] == 1 and first[2, 4, 8] == 1  # player_1's on cells 10, 14
    assert second[2, 0, 5] == 1 and second[0, 2, 7] == 1  # the same board, seen by player_1
    assert (first[:, :, 9:13] == [22, 18, 14, 18]).all()
    assert first[:, :, 14].all() and not second[:, :, 14].any()


#: player_0's worker 0 stands on level 2 at cell 6, next to level 3 at cell 7 (east); its
#: worker 1 is on cell 24. player_1's worker 0 stands on level 2 at cell 18, below cell 13
#: (level 2): building on 13 would give it a climb. Four level-1, four level-2 and one
#: level-3 part are used.
TACTICS_POSITION = "00000/02300/00020/00020/00000 6,24;18,20 0 18,14,13,18"


def both_views(observation: str) -> tuple[np.ndarray, np.ndarray, object]:
    """player_0's and player_1's observations of TACTICS_POSITION, and the environment."""
    env = santorini_v0.raw_env(observation=observation)
    env.reset(options={"position": TACTICS_POSITION})
    return env.observe("player_0")["observation"], env.observe("player_1")["observation"], env


def test_tactics_show_the_climbs_and_the_builds_that_give_one_away():
    mine, theirs, env = both_views("tactics")
    assert mine.shape == (535,) and mine.dtype == np.uint8
    planes = santorini_v0.raw_env()
    planes.reset(options={"position": TACTICS_POSITION})
    assert (mine[:375] == planes.observe("player_0")["observation"].reshape(-1)).all()
    climbs, their_climbs, after = mine[375:391], mine[391:407], mine[407:]
    assert climbs.tolist() == [0, 0, 0, 0, 1] + [0] * 11  # worker 0 east: onto level 3
    assert not their_climbs.any()  # player_1's level-2 worker has no level 3 beside it
    # Worker 1 steps north (24 -> 19); building north-west raises 13 to level 3 next to
    # player_1's worker on 18: a climb given away. Building north (14) gives nothing.
    assert after[64 + 8 * 1 + 0] == 1 and after[64 + 8 * 1 + 1] == 0
    # Worker 1 steps west (24 -> 23) and builds north-east (19): nothing given away.
    assert after[64 + 8 * 3 + 2] == 0
    # Worker 0's climb east wins: its build is never made, so it gives nothing away.
    assert not after[8 * 4 : 8 * 5].any()
    # player_1 sees the same climbs from its side: player_0's are its opponent's.
    assert theirs[391:407].tolist() == climbs.tolist() and not theirs[375:391].any()
    assert env.observation_space("player_0")["observation"].contains(mine)


def climbs_of(state: SantoriniState, owner: int) -> list[int]:
    """Rule: a worker on level 2 wins by stepping onto a free level-3 cell beside it."""
    values = [0] * 16
    for worker in range(2):
        source = state.workers[2 * owner + worker]
        for direction, target in enumerate(NEIGHBOUR[source]):
            free = target >= 0 and target not in state.workers
            if state.heights[source] == 2 and free and state.heights[target] == 3:
                values[8 * worker + direction] = 1
    return values


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_tactics_equal_playing_each_move_on_a_copy_all_game(seed):
    # The threat of every legal move that is not a win equals whether, after playing it on a
    # copy, the opponent has a climb onto level 3.
    rng = random.Random(seed)
    observer = TacticsObserver()
    state = SantoriniGame().new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        values = observer.observe(state, player)
        assert values[375:391].tolist() == climbs_of(state, player)
        assert values[391:407].tolist() == climbs_of(state, 1 - player)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.winner < 0:
                assert values[407 + action] == any(climbs_of(child, 1 - player))
        state.apply_action(rng.choice(state.legal_actions()))


def test_workers_encoding_shows_the_board_around_each_worker():
    # TACTICS_POSITION: player_0's worker 0 on cell 6 (row 1, column 1) at level 2, with level 3
    # east of it on cell 7; its worker 1 in the corner, cell 24. player_1's on 18 and 20.
    mine, theirs, env = both_views("workers")
    assert mine.shape == (806,) and mine.dtype == np.uint8
    assert env.observation_space("player_0")["observation"].contains(mine)
    windows = mine[:800].reshape(4, 5, 5, 8)  # worker, row, column, value
    first = windows[0]
    assert first[2, 2].tolist() == [0, 0, 1, 0, 0, 0, 1, 0]  # itself: level 2, own worker
    assert first[2, 3].tolist() == [0, 0, 0, 1, 0, 0, 0, 0]  # east: cell 7, level 3
    assert first[0, :, 5].all() and first[:, 0, 5].all()  # row -1 and column -1: off board
    assert not first[1:, 1:, 5].any()  # the rest is on the board
    assert first[4, 4].tolist() == [0, 0, 1, 0, 0, 0, 0, 1]  # cell 18: level 2, player_1's
    corner = windows[1]  # cell 24: rows and columns 5 and 6 are off the board
    assert corner[3:, :, 5].all() and corner[:, 3:, 5].all() and not corner[:3, :3, 5].any()
    assert corner[2, 2].tolist() == [1, 0, 0, 0, 0, 0, 1, 0]  # itself on level 0
    assert corner[0, 1, 2] == 1  # cell 13 (row 2, column 3): level 2
    assert corner[1, 1].tolist() == [0, 0, 1, 0, 0, 0, 0, 1]  # cell 18: player_1's
    assert mine[800:].tolist() == [18, 14, 13, 18, 0, 1]
    # player_1 sees its own workers' windows first, owners swapped, and is not to move.
    theirs_first = theirs[:400].reshape(2, 5, 5, 8)
    swapped = windows[2:].copy()
    swapped[..., [6, 7]] = windows[2:][..., [7, 6]]
    np.testing.assert_array_equal(theirs_first, swapped)
    assert theirs[800:].tolist() == [18, 14, 13, 18, 0, 0]


def windows_cut_from_the_planes(state: SantoriniState, player: int) -> np.ndarray:
    """The workers encoding, read off the documented planes padded with off-board cells."""
    planes = planes_by_the_table(state, player)
    padded = np.zeros((SIZE + 4, SIZE + 4, 8), dtype=np.uint8)
    padded[:, :, 5] = 1
    padded[2:-2, 2:-2, 5] = 0
    padded[2:-2, 2:-2, :5] = planes[:, :, :5]
    padded[2:-2, 2:-2, 6] = planes[:, :, 5] | planes[:, :, 6]
    padded[2:-2, 2:-2, 7] = planes[:, :, 7] | planes[:, :, 8]
    values = np.zeros(806, dtype=np.uint8)
    for window, channel in enumerate(range(5, 9)):
        found = np.argwhere(planes[:, :, channel])
        if len(found):
            row, column = found[0]
            block = padded[row : row + 5, column : column + 5]
            values[200 * window : 200 * (window + 1)] = block.reshape(-1)
    values[800:] = planes[0, 0, 9:15]
    return values


@pytest.mark.parametrize(
    ("observer", "reference"),
    [
        (SantoriniObserver(), planes_by_the_table),
        (WorkersObserver(), windows_cut_from_the_planes),
    ],
    ids=["planes", "workers"],
)
@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(["fixed", "placement"]), seed=st.integers(0, 2**32 - 1))
def test_observation_equals_its_documented_layout_all_game(observer, reference, setup, seed):
    rng = random.Random(seed)
    state = SantoriniGame(setup).new_initial_state()
    while True:
        for player in (0, 1):
            observed = observer.observe(state, player)
            np.testing.assert_array_equal(observed, reference(state, player))
            assert observer.space.contains(observed)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
