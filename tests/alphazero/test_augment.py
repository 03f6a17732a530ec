"""Training positions shown in a random symmetry of their board.

Each augmented row must be what the turned position itself gives: its observation, its legal
actions, and the same policy over the turned actions, with the outcome unchanged.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from zoo_games.alphazero.augment import Augmenter
from zoo_games.alphazero.replay import Positions
from zoo_games.catalog import find_variant
from zoo_games.core.symmetry import Symmetry, symmetries_of
from zoo_games.santorini import symmetry

VARIANT = find_variant("santorini-fixed-workers")


def random_positions(count: int, seed: int) -> tuple[list, Positions]:
    """States met in random games, as training rows with a random policy over legal moves."""
    rng = random.Random(seed)
    states, masks = [], []
    state = VARIANT.game.new_initial_state()
    while len(states) < count:
        if state.is_terminal():
            state = VARIANT.game.new_initial_state()
        states.append(state.clone())
        masks.append(np.frombuffer(state.legal_actions_mask(), dtype=np.int8))
        state.apply_action(rng.choice(state.legal_actions()))
    masks_array = np.array(masks)
    policies = np.random.default_rng(seed).random(masks_array.shape) * masks_array
    batch = Positions(
        observations=np.array([VARIANT.observer.observe(s, s.current_player()) for s in states]),
        masks=masks_array,
        policies=(policies / policies.sum(axis=1, keepdims=True)).astype(np.float32),
        returns=np.arange(count, dtype=np.float32),
        search_values=-np.arange(count, dtype=np.float32),
    )
    return states, batch


def test_each_row_is_what_its_turned_position_gives():
    states, batch = random_positions(300, seed=3)
    augmenter = Augmenter(symmetries_of(VARIANT.observer, VARIANT.game.num_actions))
    augmented = augmenter.augmented(batch, np.random.default_rng(0))
    turns_used = set()
    for row, state in enumerate(states):
        # The turn this row was given: the one whose turned position it shows.
        candidates = [
            turn
            for turn in range(symmetry.COUNT)
            if np.array_equal(
                VARIANT.observer.observe(symmetry.turned(state, turn), state.current_player()),
                augmented.observations[row],
            )
        ]
        assert candidates, f"row {row} shows no turn of its position"
        turn = candidates[0]
        turns_used.add(turn)
        turned = symmetry.turned(state, turn)
        mask = np.frombuffer(turned.legal_actions_mask(), dtype=np.int8)
        np.testing.assert_array_equal(augmented.masks[row], mask)
        for action in np.flatnonzero(batch.masks[row]):
            turned_action = symmetry.action_image(turn, int(action))
            assert augmented.policies[row, turned_action] == batch.policies[row, action]
    assert turns_used == set(range(symmetry.COUNT))  # every turn is drawn
    np.testing.assert_array_equal(augmented.returns, batch.returns)
    np.testing.assert_array_equal(augmented.search_values, batch.search_values)


def test_the_same_generator_seed_turns_the_same_way():
    _, batch = random_positions(50, seed=4)
    augmenter = Augmenter(symmetries_of(VARIANT.observer, VARIANT.game.num_actions))
    first, second, other = (
        augmenter.augmented(batch, np.random.default_rng(seed)) for seed in (7, 7, 8)
    )
    np.testing.assert_array_equal(first.observations, second.observations)
    np.testing.assert_array_equal(first.policies, second.policies)
    assert not np.array_equal(first.observations, other.observations)


def test_the_identity_alone_changes_nothing_and_no_symmetry_is_refused():
    _, batch = random_positions(20, seed=5)
    identity = Symmetry(np.arange(batch.observations.shape[1]), np.arange(batch.masks.shape[1]))
    same = Augmenter([identity]).augmented(batch, np.random.default_rng(0))
    np.testing.assert_array_equal(same.observations, batch.observations)
    np.testing.assert_array_equal(same.policies, batch.policies)
    with pytest.raises(ValueError, match="at least one symmetry"):
        Augmenter([])


def test_only_santorini_offers_symmetries():
    from zoo_games.catalog import variants

    offering = [v.label for v in variants() if symmetries_of(v.observer, v.game.num_actions)]
    assert offering == [v.label for v in variants() if v.label.startswith("santorini")]
