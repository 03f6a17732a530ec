"""``zoo-games train --algorithm alphazero`` end to end, with the batched search itself."""

from __future__ import annotations

import csv

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

from zoo_games.alphazero import network
from zoo_games.alphazero.player import NetworkPlayer
from zoo_games.arena import run_arena
from zoo_games.cli import main
from zoo_games.training.checkpoints import CHECKPOINT


def test_the_command_trains_and_writes_every_output(tmp_path, capsys):
    run = tmp_path / "run"
    argv = ["train", "togyz-kumalak", "--algorithm", "alphazero", "--iterations", "2"]
    argv += ["--games", "16", "--simulations", "4", "--eval-every", "1", "--eval-games", "2"]
    argv += ["--final-eval-games", "2", "--guard", "--output", str(run)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "guard = True" in (run / "settings.txt").read_text()
    assert "final: " in out and "against batched-mcts:simulations=200" in out
    with (run / "metrics.csv").open() as handle:
        assert [row["iteration"] for row in csv.DictReader(handle)] == ["0", "1", "2"]
    for name in ("learning_curve.png", "settings.txt", "network.npz", "network.json"):
        assert (run / name).is_file()
    assert (run / CHECKPOINT / "replay.npz").is_file()
    saved = network.load(run)
    assert saved.trained["command"] == "zoo-games " + " ".join(argv)
    # The trained network plays with the search too.
    player = NetworkPlayer(saved, simulations=8, seed=0)
    result = run_arena("togyz-kumalak", {"network": player, "random": "random"}, games=2, seed=0)
    assert result.pairing("network", "random").games == 2


def test_the_same_seed_gives_the_same_network_with_the_batched_search(tmp_path):
    for name in ("a", "b"):
        argv = ["train", "togyz-kumalak", "--algorithm", "alphazero", "--iterations", "8"]
        argv += ["--games", "16", "--simulations", "4", "--eval-every", "0", "--seed", "5"]
        argv += ["--final-eval-games", "2", "--output", str(tmp_path / name)]
        assert main(argv) == 0
    a, b = network.load(tmp_path / "a"), network.load(tmp_path / "b")
    assert a.trained["positions"] == b.trained["positions"] > 0  # it learned from games
    for (weight_a, bias_a), (weight_b, bias_b) in zip(
        [*a.hidden, a.policy, a.value], [*b.hidden, b.policy, b.value], strict=True
    ):
        np.testing.assert_array_equal(weight_a, weight_b)
        np.testing.assert_array_equal(bias_a, bias_b)
