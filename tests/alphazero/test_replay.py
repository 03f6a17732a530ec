"""The replay buffer: a ring that keeps the newest positions, saved and loaded whole."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from zoo_games.alphazero.replay import Positions, ReplayBuffer


def numbered(first: int, count: int) -> Positions:
    """``count`` positions whose every field holds its number (``first``, ``first + 1``...)."""
    numbers = np.arange(first, first + count)
    return Positions(
        observations=np.repeat(numbers[:, None], 3, axis=1).astype(np.uint8),
        masks=np.ones((count, 2), np.int8),
        policies=np.repeat(numbers[:, None], 2, axis=1).astype(np.float32),
        returns=numbers.astype(np.float32),
        search_values=-numbers.astype(np.float32),
    )


def test_a_full_buffer_keeps_the_newest_positions() -> None:
    buffer = ReplayBuffer(5, (3,), np.dtype(np.uint8), 2)
    buffer.add(numbered(0, 3))
    buffer.add(numbered(3, 4))  # 0 and 1 are overwritten
    assert (len(buffer), buffer.added) == (5, 7)
    np.testing.assert_array_equal(buffer.latest(5).returns, [2, 3, 4, 5, 6])
    drawn = buffer.sample(200, np.random.default_rng(0))
    assert set(drawn.returns.tolist()) == {2.0, 3.0, 4.0, 5.0, 6.0}
    np.testing.assert_array_equal(drawn.observations[:, 0], drawn.returns)
    np.testing.assert_array_equal(drawn.search_values, -drawn.returns)


def test_more_positions_than_the_capacity_keep_the_last() -> None:
    buffer = ReplayBuffer(3, (3,), np.dtype(np.uint8), 2)
    buffer.add(numbered(10, 7))
    np.testing.assert_array_equal(buffer.latest(3).returns, [14, 15, 16])


def test_a_saved_buffer_loads_the_same_and_goes_on(tmp_path: Path) -> None:
    buffer = ReplayBuffer(4, (3,), np.dtype(np.uint8), 2)
    buffer.add(numbered(0, 6))
    buffer.save(tmp_path / "replay.npz")
    loaded = ReplayBuffer(4, (3,), np.dtype(np.uint8), 2)
    loaded.load(tmp_path / "replay.npz")
    for buffer_ in (buffer, loaded):
        buffer_.add(numbered(6, 1))  # overwrites the oldest, 2
        np.testing.assert_array_equal(buffer_.latest(4).returns, [3, 4, 5, 6])
        np.testing.assert_array_equal(buffer_.latest(4).search_values, [-3, -4, -5, -6])


def test_an_empty_buffer_cannot_be_sampled() -> None:
    with pytest.raises(ValueError, match="empty"):
        ReplayBuffer(4, (3,), np.dtype(np.uint8), 2).sample(1, np.random.default_rng(0))


def test_a_buffer_saved_before_returns_and_search_values_loads_its_outcomes_as_both(
    tmp_path: Path,
) -> None:
    older = numbered(0, 3)
    np.savez(
        tmp_path / "replay.npz",
        observations=older.observations,
        masks=older.masks,
        policies=older.policies,
        outcomes=older.returns,
        added=np.int64(3),
    )
    loaded = ReplayBuffer(4, (3,), np.dtype(np.uint8), 2)
    loaded.load(tmp_path / "replay.npz")
    np.testing.assert_array_equal(loaded.latest(3).returns, [0, 1, 2])
    np.testing.assert_array_equal(loaded.latest(3).search_values, [0, 1, 2])
