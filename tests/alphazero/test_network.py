"""The numpy policy-value network: its forward pass worked by hand, its files, its checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from zoo_games.alphazero import network
from zoo_games.alphazero.network import PolicyValueNetwork


def tiny() -> PolicyValueNetwork:
    """Two inputs, one hidden layer of two units, three actions."""
    return PolicyValueNetwork(
        variant="toy",
        observation_shape=(2,),
        num_actions=3,
        hidden=[(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([0.0, 0.5]))],
        policy=(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([0.0, 0.0, -1.0])),
        value=(np.array([[0.5, -0.5]]), np.array([0.0])),
    )


def test_the_forward_pass_is_relu_layers_then_logits_and_tanh_value() -> None:
    # Input (2, 1): hidden = relu([2, -1 + 0.5]) = [2, 0]; logits = [2, 0, 2 - 1];
    # value = tanh(0.5 * 2) = tanh(1).
    logits, values = tiny()(np.array([[2, 1]], dtype=np.int8), np.ones((1, 3), np.int8))
    assert logits.dtype == np.float32 and values.dtype == np.float32
    np.testing.assert_allclose(logits, [[2.0, 0.0, 1.0]])
    np.testing.assert_allclose(values, [np.tanh(1.0)], rtol=1e-6)


def test_a_batch_is_evaluated_as_its_rows_one_at_a_time() -> None:
    rng = np.random.default_rng(0)
    observations = rng.integers(-3, 4, size=(5, 2)).astype(np.int8)
    masks = np.ones((5, 3), np.int8)
    logits, values = tiny()(observations, masks)
    for row in range(5):
        one_logits, one_value = tiny()(observations[row : row + 1], masks[row : row + 1])
        np.testing.assert_allclose(logits[row], one_logits[0])
        np.testing.assert_allclose(values[row], one_value[0])


def test_a_saved_network_loads_equal(tmp_path: Path) -> None:
    saved = tiny()
    saved.trained = {"command": "zoo-games train toy", "seconds": 1.5}
    saved.save(tmp_path / "run")
    loaded = network.load(tmp_path / "run")
    assert (loaded.variant, loaded.observation_shape, loaded.num_actions) == ("toy", (2,), 3)
    assert loaded.hidden_sizes == [2] and loaded.trained == saved.trained
    observations = np.array([[1, -2], [0, 3]], dtype=np.int8)
    masks = np.ones((2, 3), np.int8)
    for got, expected in zip(loaded(observations, masks), saved(observations, masks), strict=True):
        np.testing.assert_allclose(got, expected)


def test_a_folder_without_a_network_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="holds no saved network"):
        network.load(tmp_path)


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        (network.DESCRIPTION, b"[1, 2]", "'list' object has no attribute"),  # not an object
        (network.ARRAYS, b"PK\x03\x04cut short", "File is not a zip file"),
    ],
)
def test_damaged_files_are_refused_by_name(tmp_path: Path, name, content, says) -> None:
    tiny().save(tmp_path)
    (tmp_path / name).write_bytes(content)
    with pytest.raises(ValueError, match=f"not a network this version can read .*{says}"):
        network.load(tmp_path)


def test_a_file_of_another_format_is_refused(tmp_path: Path) -> None:
    tiny().save(tmp_path)
    text = (tmp_path / network.DESCRIPTION).read_text()
    text = text.replace(f'"format": {network.FORMAT}', '"format": 99')
    (tmp_path / network.DESCRIPTION).write_text(text)
    with pytest.raises(ValueError, match="format 99"):
        network.load(tmp_path)


def test_layers_that_do_not_fit_together_are_refused() -> None:
    with pytest.raises(ValueError, match="reads 3 inputs"):
        PolicyValueNetwork(
            "toy",
            (2,),
            3,
            [(np.zeros((2, 3)), np.zeros(2))],
            (np.zeros((3, 2)), np.zeros(3)),
            (np.zeros((1, 2)), np.zeros(1)),
        )
    with pytest.raises(ValueError, match="3 logits and 1 value are needed"):
        PolicyValueNetwork(
            "toy", (2,), 3, [], (np.zeros((4, 2)), np.zeros(4)), (np.zeros((1, 2)), np.zeros(1))
        )


def test_a_network_of_another_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="trained on 'toy', it cannot play 'senet-kendall-5'"):
        network.check_plays(tiny(), "senet-kendall-5", (2,), 3)
    with pytest.raises(ValueError, match="reads observations"):
        network.check_plays(tiny(), "toy", (4,), 3)


def board_network() -> PolicyValueNetwork:
    """A 3 x 3 board of one channel, one convolution summing each cell's neighbourhood (and
    subtracting 1), a hidden layer copying its nine cells, two actions."""
    ones = np.ones((1, 1, 3, 3))
    return PolicyValueNetwork(
        variant="toy",
        observation_shape=(3, 3, 1),
        num_actions=2,
        convolutions=[(ones, np.array([-1.0]))],
        hidden=[(np.eye(9), np.zeros(9))],
        policy=(np.eye(9)[[0, 4]], np.zeros(2)),  # logits: the corner cell and the centre
        value=(np.zeros((1, 9)), np.zeros(1)),
    )


def test_a_convolution_reads_each_cell_with_its_neighbours_the_board_zero_padded() -> None:
    # Board (rows): [1 0 0], [0 2 0], [0 0 3]. The corner (0, 0) sees 1 + 2 = 3, minus 1: 2.
    # The centre sees every cell: 6 - 1 = 5.
    board = np.diag([1, 2, 3]).reshape(1, 3, 3, 1).astype(np.uint8)
    logits, values = board_network()(board, np.ones((1, 2), np.int8))
    np.testing.assert_allclose(logits, [[2.0, 5.0]])
    np.testing.assert_allclose(values, [0.0])


def test_a_network_with_convolutions_saves_and_loads_equal(tmp_path: Path) -> None:
    saved = board_network()
    saved.save(tmp_path)
    loaded = network.load(tmp_path)
    assert loaded.convolution_channels == [1] and loaded.hidden_sizes == [9]
    boards = np.random.default_rng(0).integers(0, 4, size=(4, 3, 3, 1)).astype(np.uint8)
    masks = np.ones((4, 2), np.int8)
    for got, expected in zip(loaded(boards, masks), saved(boards, masks), strict=True):
        np.testing.assert_allclose(got, expected)


def test_a_format_1_file_is_a_network_without_convolutions(tmp_path: Path) -> None:
    tiny().save(tmp_path)
    description = json.loads((tmp_path / network.DESCRIPTION).read_text())
    del description["convolutions"]
    (tmp_path / network.DESCRIPTION).write_text(json.dumps({**description, "format": 1}))
    loaded = network.load(tmp_path)
    assert loaded.convolutions == [] and loaded.hidden_sizes == [2]


def test_convolutions_need_a_board_of_planes_and_kernels_that_fit() -> None:
    flat = tiny()
    with pytest.raises(ValueError, match=r"board of planes .* shape \(2,\)"):
        PolicyValueNetwork(
            "toy",
            (2,),
            3,
            flat.hidden,
            flat.policy,
            flat.value,
            [(np.ones((1, 1, 3, 3)), np.ones(1))],
        )
    board = board_network()
    with pytest.raises(ValueError, match=r"convolution 0: weight \(1, 2, 3, 3\)"):
        PolicyValueNetwork(
            "toy",
            (3, 3, 1),
            2,
            board.hidden,
            board.policy,
            board.value,
            [(np.ones((1, 2, 3, 3)), np.ones(1))],
        )
