"""The board's eight symmetries: worked out by hand, a group, and faithful to the rules.

A turned position must be the same game: its legal actions are the old ones turned, playing a
turned action from it gives the turned result, and every observation of it is the old one
with its values moved as :class:`~zoo_games.core.symmetry.Symmetry` says.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.core.symmetry import symmetries_of
from zoo_games.santorini import symmetry
from zoo_games.santorini.cells import NUM_CELLS
from zoo_games.santorini.observation import SantoriniObserver, TacticsObserver, WorkersObserver
from zoo_games.santorini.rules import (
    DIRECTION_NAMES,
    PLACEMENT_OFFSET,
    SantoriniGame,
    play_action,
)

QUARTER_TURN = 1  # (row, column) offsets from the centre go to (-column, row)
N, E, W, S = (DIRECTION_NAMES.index(name) for name in ("N", "E", "W", "S"))


def test_a_quarter_turn_worked_out_by_hand():
    # The top-left corner (offset -2, -2) goes to offset (2, -2): the bottom-left corner.
    assert symmetry.cell_image(QUARTER_TURN, 0) == 20
    assert symmetry.cell_image(QUARTER_TURN, 12) == 12  # the centre stays
    assert symmetry.cell_image(QUARTER_TURN, 2) == 10  # top middle -> left middle
    assert symmetry.direction_image(QUARTER_TURN, N) == W
    assert symmetry.direction_image(QUARTER_TURN, E) == N
    # Worker 1 steps north and builds east; turned, it steps west and builds north.
    turned = symmetry.action_image(QUARTER_TURN, play_action(1, N, E))
    assert turned == play_action(1, W, N)
    # Placing a worker on the top-left corner becomes placing it on the bottom-left one.
    assert symmetry.action_image(QUARTER_TURN, PLACEMENT_OFFSET) == PLACEMENT_OFFSET + 20


def test_the_fixed_start_turned_by_a_quarter_turn():
    # Workers on 2 and 22 (top and bottom middle) and 10 and 14 (left and right middle):
    # a quarter turn moves each to the next middle, counterclockwise.
    state = SantoriniGame().new_initial_state()
    turned = symmetry.turned(state, QUARTER_TURN)
    assert turned.workers == [10, 14, 22, 2]
    assert turned.mover == state.mover and turned.parts == state.parts


def test_the_eight_symmetries_form_the_group_of_the_square():
    maps = [tuple(symmetry.cell_gather(turn)) for turn in range(symmetry.COUNT)]
    assert maps[0] == tuple(range(NUM_CELLS))  # the identity first
    assert len(set(maps)) == 8
    for a in maps:
        for b in maps:
            assert tuple(np.asarray(a)[list(b)]) in maps  # closed under composition
    for turn in range(symmetry.COUNT):
        directions = symmetry.direction_gather(turn)
        assert sorted(directions) == list(range(8))
        actions = symmetry.action_gather(turn, PLACEMENT_OFFSET + NUM_CELLS)
        assert sorted(actions) == list(range(PLACEMENT_OFFSET + NUM_CELLS))


OBSERVERS = [SantoriniObserver(), TacticsObserver(), WorkersObserver()]


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(["fixed", "placement"]), seed=st.integers(0, 2**32 - 1))
def test_a_turned_game_is_the_same_game_all_game(setup, seed):
    rng = random.Random(seed)
    game = SantoriniGame(setup)
    by_observer = [symmetries_of(observer, game.num_actions) for observer in OBSERVERS]
    state = game.new_initial_state()
    while not state.is_terminal():
        mask = np.frombuffer(state.legal_actions_mask(), dtype=np.uint8)
        action = rng.choice(state.legal_actions())
        child = state.clone()
        child.apply_action(action)
        turn = rng.randrange(symmetry.COUNT)
        turned = symmetry.turned(state, turn)
        turned_mask = np.frombuffer(turned.legal_actions_mask(), dtype=np.uint8)
        np.testing.assert_array_equal(turned_mask, mask[symmetry.action_gather(turn, len(mask))])
        for observer, symmetries in zip(OBSERVERS, by_observer, strict=True):
            for player in (0, 1):
                seen = observer.observe(state, player).reshape(-1)
                turned_seen = observer.observe(turned, player).reshape(-1)
                np.testing.assert_array_equal(turned_seen, seen[symmetries[turn].observation])
        turned.apply_action(symmetry.action_image(turn, action))
        assert turned.position() == symmetry.turned(child, turn).position()
        assert turned.winner == child.winner
        state = child


@pytest.mark.parametrize("observer", OBSERVERS, ids=["planes", "tactics", "workers"])
def test_each_observer_offers_eight_permutations_identity_first(observer):
    symmetries = symmetries_of(observer, PLACEMENT_OFFSET)
    assert len(symmetries) == 8
    length = int(np.prod(observer.space.shape))
    np.testing.assert_array_equal(symmetries[0].observation, np.arange(length))
    for turned in symmetries:
        assert sorted(turned.observation) == list(range(length))
