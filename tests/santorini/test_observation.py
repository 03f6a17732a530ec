"""The Santorini observation, plane by plane, against its documented layout.

The observer assembles the planes as bytes, a cell at a time; the reference here fills a
zero array channel by channel straight from the table in the observer's docstring.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.santorini.observation import SantoriniObserver
from zoo_games.santorini.rules import SIZE, UNPLACED, SantoriniGame, SantoriniState


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


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(["fixed", "placement"]), seed=st.integers(0, 2**32 - 1))
def test_observation_equals_the_documented_planes_all_game(setup, seed):
    rng = random.Random(seed)
    observer = SantoriniObserver()
    state = SantoriniGame(setup).new_initial_state()
    while True:
        for player in (0, 1):
            observed = observer.observe(state, player)
            np.testing.assert_array_equal(observed, planes_by_the_table(state, player))
            assert observer.space.contains(observed)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
