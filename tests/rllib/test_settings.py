"""Training settings refuse what would train nothing or replace a run, before Ray starts."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

from zoo_games.alphazero.settings import AlphaZeroSettings
from zoo_games.rllib.train import TrainSettings
from zoo_games.training.budget import Budget


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"minutes": 0}, "minutes must be more than 0"),
        ({"minutes": -1}, "minutes must be more than 0"),
        ({"minutes": float("nan")}, "minutes must be more than 0"),
        ({"iterations": 0}, "iterations must be 1 or more"),
        ({"env_runners": -2}, "env_runners must be 0 or more"),
        ({"envs_per_env_runner": 0}, "envs_per_env_runner must be 1 or more"),
        ({"eval_games": 1}, "eval_games must be a positive even number"),
        ({"eval_games": 7}, "eval_games must be a positive even number"),
        ({"final_eval_games": 0}, "final_eval_games must be a positive even number"),
        ({"eval_opponents": ("random", "nobody")}, "unknown agent 'nobody'"),
        ({"seed": -1}, "seed must be a whole number from 0 to 4294967295, got -1"),
        # RLlib seeds numpy's global generator, which takes no more
        ({"seed": 2**32}, "seed must be a whole number from 0 to 4294967295, got 4294967296"),
        # a Ray of the run's own has a slot per core: runners beyond them would wait for ever
        ({"env_runners": 10**6}, "env_runners 1000000 is more than this machine's"),
        ({"eval_every": -1}, "eval_every must be 0 or more"),
        ({"overlap": True, "env_runners": 0}, "overlap needs remote runners to sample while"),
        ({"variant": "chess"}, "unknown variant 'chess'"),
        ({"resume": True}, "nothing to resume"),
        ({"engine": "gpu"}, "unknown engine 'gpu': choose one of batched, env"),
        ({"hidden": []}, r"hidden must be one or more layer sizes of 1 or more, got \[\]"),
        ({"hidden": [64, 0]}, "hidden must be one or more layer sizes"),
        ({"lr": 0.0}, "lr must be more than 0"),
        ({"lr": float("inf")}, "lr must be more than 0"),
        ({"entropy_coeff": -0.01}, "entropy_coeff must be 0 or more"),
        ({"vf_loss_coeff": -0.5}, "vf_loss_coeff must be 0 or more, got -0.5"),
        ({"epochs": 0}, "epochs must be 1 or more, got 0"),
        ({"final_lr_fraction": 0.0}, "final_lr_fraction must be more than 0 and at most 1"),
        ({"final_lr_fraction": 1.5}, "final_lr_fraction must be more than 0 and at most 1"),
        ({"lambda_": 1.2}, "lambda_ must be from 0 to 1, got 1.2"),
        ({"gamma": 1.01}, "gamma must be from 0 to 1, got 1.01"),
        ({"gamma": -0.5}, "gamma must be from 0 to 1, got -0.5"),
        ({"greedy_share": 1.5}, "greedy_share must be from 0 to 1, got 1.5"),
        ({"greedy_share": float("nan")}, "greedy_share must be from 0 to 1"),
        ({"greedy_share": 0.5, "engine": "env"}, "greedy_share 0.5 needs the batched engine"),
        ({"random_share": 1.5}, "random_share must be from 0 to 1, got 1.5"),
        ({"random_share": 0.25, "engine": "env"}, "random_share 0.25 needs the batched engine"),
        ({"random_share": 0.75}, r"greedy_share 0\.5 \(the default\) and random_share 0\.75"),
    ],
)
def test_settings_that_train_nothing_are_refused(tmp_path, overrides, message):
    with pytest.raises(ValueError, match=message):
        TrainSettings(output_dir=str(tmp_path / "run"), **overrides).checked()


def test_a_named_folder_holding_a_run_is_refused(tmp_path):
    (tmp_path / "metrics.csv").write_text("iteration,minutes\n1,0.5\n")
    with pytest.raises(ValueError, match="already holds a run; use --resume"):
        TrainSettings(output_dir=str(tmp_path)).checked()


def test_the_default_folder_moves_on_to_a_fresh_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = TrainSettings(variant="santorini-fixed").checked()
    assert first.output_dir == str(Path("runs/santorini-fixed"))
    Path(first.output_dir).mkdir(parents=True)
    (Path(first.output_dir) / "metrics.csv").write_text("")
    assert TrainSettings(variant="santorini-fixed").checked().output_dir == str(
        Path("runs/santorini-fixed-2")
    )


def test_resuming_needs_a_budget_beyond_what_was_trained(tmp_path):
    (tmp_path / "checkpoint").mkdir()
    (tmp_path / "checkpoint" / "run.json").write_text("{}")  # recorded nothing to hold it to
    (tmp_path / "checkpoint" / "algorithm_state.pkl").write_bytes(b"")  # a stand-in
    (tmp_path / "metrics.csv").write_text("iteration,minutes\n0,0.0\n3,2.5\n")
    resumed = TrainSettings(output_dir=str(tmp_path), resume=True)
    with pytest.raises(ValueError, match="trained 3 iterations already"):
        TrainSettings(output_dir=str(tmp_path), resume=True, iterations=3).checked()
    with pytest.raises(ValueError, match=r"trained 2\.5 minutes already"):
        TrainSettings(output_dir=str(tmp_path), resume=True, minutes=2).checked()
    assert resumed.checked().output_dir == str(tmp_path)


def test_the_engine_and_games_per_runner_default_to_the_batched_engine(tmp_path):
    pytest.importorskip("numba")
    batched = TrainSettings(output_dir=str(tmp_path / "run")).checked()
    assert (batched.engine, batched.envs_per_env_runner, batched.eval_every) == ("batched", 64, 100)
    assert batched.greedy_share == 0.5  # half of the games against greedy
    assert batched.random_share == 0.0  # none against random play
    env = TrainSettings(output_dir=str(tmp_path / "run"), engine="env").checked()
    assert (env.engine, env.envs_per_env_runner, env.eval_every) == ("env", 8, 10)
    assert env.greedy_share == env.random_share == 0.0  # self-play alone: no sparring seat
    chosen = TrainSettings(output_dir=str(tmp_path / "run"), envs_per_env_runner=64).checked()
    assert chosen.envs_per_env_runner == 64


def test_the_batched_engine_without_numba_is_refused(tmp_path, monkeypatch):
    import zoo_games.rllib.train as training

    monkeypatch.setattr(training, "numba_installed", lambda: False)
    assert TrainSettings(output_dir=str(tmp_path / "run")).checked().engine == "env"
    with pytest.raises(ValueError, match="the batched engine needs numba"):
        TrainSettings(output_dir=str(tmp_path / "run"), engine="batched").checked()


def test_the_train_command_takes_an_engine_and_refuses_an_unknown_one(tmp_path, capsys):
    from zoo_games.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["train", "togyz-kumalak", "--engine", "gpu", "--output", str(tmp_path / "r")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "argument --engine: invalid choice: 'gpu'" in error
    assert "batched" in error and "env" in error
    assert not (tmp_path / "r").exists()


def test_a_budget_is_spent_by_its_iterations_when_it_has_them_else_by_its_minutes():
    counted = Budget(iterations=8, minutes=1.0)
    assert counted.share_spent(2, 50.0) == 0.25  # minutes do not count beside iterations
    assert counted.share_spent(8, 0.1) == 1.0
    timed = Budget(iterations=None, minutes=20.0)
    assert timed.share_spent(10_000, 5.0) == 0.25
    assert timed.spent_text(3, 5.0) == "5.0 minutes"
    assert counted.spent_text(3, 5.0) == "3 iterations"
    # Both training loops and both resume checks ask the same question of their settings.
    assert TrainSettings(iterations=8).budget == Budget(8, 20.0)
    assert AlphaZeroSettings(minutes=20.0).budget == timed
