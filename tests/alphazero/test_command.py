"""``zoo-games train --algorithm alphazero`` end to end, with the batched search itself."""

from __future__ import annotations

import csv

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
    argv += ["--final-eval-games", "2", "--output", str(run)]
    assert main(argv) == 0
    out = capsys.readouterr().out
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
