"""A run killed at any moment resumes from its last complete checkpoint, with its metrics;
a resume with settings the checkpoint cannot continue is refused before Ray starts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

from ray.rllib.algorithms.algorithm import Algorithm

from tests.killed_runs import kill_while_checkpointing_then_resume, start_script
from zoo_games.rllib.train import EPOCHS, FINAL_LR_FRACTION, UNRECORDED, TrainSettings
from zoo_games.training.checkpoints import CHECKPOINT, RUN, read_metrics, recover, save

COLUMNS = ["iteration", "minutes"]
#: The file of a PPO checkpoint that a resume looks for first (RLlib's algorithm state).
ALGORITHM_STATE = Algorithm.STATE_FILE_NAME + ".pkl"


def folder_with(path: Path, text: str) -> None:
    path.mkdir(parents=True)
    (path / "state").write_text(text)


@pytest.mark.parametrize(
    ("present", "kept"),
    [
        # killed while writing the new checkpoint: the old one stays
        ({"checkpoint": "old", "checkpoint.new": "half"}, "old"),
        # killed between the two renames: the new one is complete
        ({"checkpoint.old": "old", "checkpoint.new": "new"}, "new"),
        # killed before the old one was removed
        ({"checkpoint": "new", "checkpoint.old": "old"}, "new"),
        ({"checkpoint": "new"}, "new"),
    ],
)
def test_recover_leaves_the_last_complete_checkpoint(tmp_path, present, kept):
    for name, text in present.items():
        folder_with(tmp_path / name, text)
    recover(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == [CHECKPOINT]
    assert (tmp_path / CHECKPOINT / "state").read_text() == kept


def test_save_swaps_in_a_whole_checkpoint_with_its_settings_and_metrics(tmp_path):
    folder_with(tmp_path / CHECKPOINT, "old")
    rows = [{"iteration": 0, "minutes": 0.0}, {"iteration": 1, "minutes": 0.5}]

    def write(folder: Path) -> None:
        assert (tmp_path / CHECKPOINT / "state").read_text() == "old"  # kept meanwhile
        folder_with(folder, "new")

    save(tmp_path, write, {"variant": "togyz-kumalak"}, rows, COLUMNS)
    assert sorted(path.name for path in tmp_path.iterdir()) == [CHECKPOINT]
    assert (tmp_path / CHECKPOINT / "state").read_text() == "new"
    assert json.loads((tmp_path / CHECKPOINT / RUN).read_text()) == {"variant": "togyz-kumalak"}
    assert read_metrics(tmp_path / CHECKPOINT / "metrics.csv") == [
        {"iteration": "0", "minutes": "0.0"},
        {"iteration": "1", "minutes": "0.5"},
    ]


def saved_run(tmp_path: Path, **run) -> Path:
    checkpoint = tmp_path / "run" / CHECKPOINT
    checkpoint.mkdir(parents=True)
    (checkpoint / ALGORITHM_STATE).write_bytes(b"")
    saved = {"variant": "togyz-kumalak", "engine": "env", "shared_policy": True}
    (checkpoint / RUN).write_text(json.dumps({**saved, "hidden": [64, 64], **run}))
    (checkpoint / "metrics.csv").write_text("iteration,minutes\n0,0.0\n2,1.0\n")
    return checkpoint.parent


def test_a_resume_of_a_checkpoint_without_its_algorithm_state_is_refused(tmp_path):
    run = saved_run(tmp_path)
    settings = TrainSettings(variant="togyz-kumalak", engine="env", hidden=[64, 64])
    resumed = replace(settings, output_dir=str(run), resume=True, iterations=4)
    resumed.checked()  # the stand-in is there
    (run / CHECKPOINT / ALGORITHM_STATE).unlink()
    with pytest.raises(ValueError, match=r"nothing to resume: .* holds no algorithm state"):
        resumed.checked()


def test_a_resume_of_a_checkpoint_without_a_record_of_its_run_is_refused(tmp_path):
    (tmp_path / CHECKPOINT).mkdir()
    settings = TrainSettings(variant="togyz-kumalak", output_dir=str(tmp_path), resume=True)
    with pytest.raises(ValueError, match=r"nothing to resume: .* holds no record of its run"):
        settings.checked()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"variant": "togyz-kumalak-tesauro"}, "with variant 'togyz-kumalak-tesauro': it was "),
        ({"engine": "batched"}, "with engine 'batched': it was trained with engine 'env'"),
        ({"hidden": [256, 256]}, "with hidden [256, 256]: it was trained with hidden [64, 64]"),
        ({"shared_policy": False}, "with shared_policy False: it was trained with"),
    ],
)
def test_a_resume_the_checkpoint_cannot_continue_is_refused(tmp_path, overrides, message):
    run = saved_run(tmp_path)
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5, **overrides}
    with pytest.raises(
        ValueError, match="cannot resume the run in .*" + message.replace("[", r"\[")
    ):
        TrainSettings(output_dir=str(run), resume=True, **asked).checked()


def test_a_resume_is_refused_where_the_variant_now_observes_another_shape(tmp_path):
    # A run of togyz-kumalak from before its default observation became the captures.
    run = saved_run(tmp_path, observation_shape=[39])
    with pytest.raises(
        ValueError,
        match=r"with observation_shape \[93\]: it was trained with observation_shape \[39\]",
    ):
        TrainSettings(
            output_dir=str(run), resume=True, variant="togyz-kumalak", hidden=[64, 64], iterations=5
        ).checked()


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"lr": 0.001}, "with lr 0.001: it was trained with lr 0.0003"),
        ({"entropy_coeff": 0.03}, "with entropy_coeff 0.03: it was trained with entropy_coeff"),
        ({"lambda_": 0.8}, "with lambda_ 0.8: it was trained with lambda_ 0.95"),
        ({"vf_loss_coeff": 0.5}, "with vf_loss_coeff 0.5: it was trained with vf_loss_coeff 1.0"),
        ({"gamma": 0.99}, "with gamma 0.99: it was trained with gamma 1.0"),
    ],
)
def test_a_resume_keeps_the_runs_loss_and_optimizer_settings(tmp_path, changed, message):
    # lambda, value weight and discount unrecorded
    run = saved_run(tmp_path, lr=0.0003, entropy_coeff=0.01)
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5}
    TrainSettings(output_dir=str(run), resume=True, **asked).checked()  # the defaults: the same
    with pytest.raises(ValueError, match="cannot resume the run in .*" + message):
        TrainSettings(output_dir=str(run), resume=True, **asked, **changed).checked()


def test_a_resume_keeps_the_runs_epochs(tmp_path):
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5}
    fresh = TrainSettings(output_dir=str(tmp_path / "fresh"), **asked).checked()
    assert fresh.epochs == EPOCHS and fresh.run_settings()["epochs"] == EPOCHS
    older = saved_run(tmp_path / "older")  # saved before runs recorded their epochs
    resumed = TrainSettings(output_dir=str(older), resume=True, **asked).checked()
    assert resumed.epochs == UNRECORDED["epochs"] == 2
    run = saved_run(tmp_path / "newer", epochs=3)
    assert TrainSettings(output_dir=str(run), resume=True, **asked).checked().epochs == 3
    assert TrainSettings(output_dir=str(run), resume=True, epochs=3, **asked).checked().epochs == 3
    with pytest.raises(ValueError, match="with epochs 1: it was trained with epochs 3"):
        TrainSettings(output_dir=str(run), resume=True, epochs=1, **asked).checked()


def test_a_resume_keeps_the_runs_learning_rate_schedule(tmp_path):
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5}
    fresh = TrainSettings(output_dir=str(tmp_path / "fresh"), **asked).checked()
    assert fresh.final_lr_fraction == FINAL_LR_FRACTION
    assert fresh.run_settings()["final_lr_fraction"] == FINAL_LR_FRACTION
    older = saved_run(tmp_path / "older")  # saved before runs recorded it: a constant rate
    resumed = TrainSettings(output_dir=str(older), resume=True, **asked).checked()
    assert resumed.final_lr_fraction == 1.0
    run = saved_run(tmp_path / "newer", final_lr_fraction=0.25)
    resumed = TrainSettings(output_dir=str(run), resume=True, **asked).checked()
    assert resumed.final_lr_fraction == 0.25
    message = r"with final_lr_fraction 0\.5: it was trained with final_lr_fraction 0\.25"
    with pytest.raises(ValueError, match=message):
        TrainSettings(output_dir=str(run), resume=True, final_lr_fraction=0.5, **asked).checked()


def test_a_resume_keeps_the_runs_share_of_games_against_greedy(tmp_path):
    pytest.importorskip("numba")
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5, "engine": "batched"}
    older = saved_run(tmp_path / "older", engine="batched")  # saved before the share was
    assert TrainSettings(output_dir=str(older), resume=True, **asked).checked().greedy_share == 0
    run = saved_run(tmp_path / "newer", engine="batched", greedy_share=0.5)
    assert TrainSettings(output_dir=str(run), resume=True, **asked).checked().greedy_share == 0.5
    with pytest.raises(ValueError, match=r"with greedy_share 0\.25: it was trained with greedy_sh"):
        TrainSettings(output_dir=str(run), resume=True, greedy_share=0.25, **asked).checked()


def test_a_resume_keeps_the_runs_share_of_games_against_random_play(tmp_path):
    pytest.importorskip("numba")
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5, "engine": "batched"}
    older = saved_run(tmp_path / "older", engine="batched", greedy_share=0.5)  # before the share
    assert TrainSettings(output_dir=str(older), resume=True, **asked).checked().random_share == 0
    run = saved_run(tmp_path / "newer", engine="batched", greedy_share=0.0, random_share=1.0)
    resumed = TrainSettings(output_dir=str(run), resume=True, **asked).checked()
    assert (resumed.greedy_share, resumed.random_share) == (0.0, 1.0)
    with pytest.raises(ValueError, match=r"with random_share 0\.5: it was trained with random_sh"):
        TrainSettings(output_dir=str(run), resume=True, random_share=0.5, **asked).checked()


def test_a_resume_keeps_the_runs_reward_shaping(tmp_path):
    asked = {"variant": "togyz-kumalak", "hidden": [64, 64], "iterations": 5}
    fresh = TrainSettings(output_dir=str(tmp_path / "fresh"), **asked).checked()
    assert fresh.run_settings()["shaping"] is True  # Togyz Kumalak has a potential
    older = saved_run(tmp_path / "older")  # saved before runs recorded it: shaped, the default
    TrainSettings(output_dir=str(older), resume=True, **asked).checked()
    with pytest.raises(ValueError, match="with shaping False: it was trained with shaping True"):
        TrainSettings(output_dir=str(older), resume=True, shaping=False, **asked).checked()
    plain = saved_run(tmp_path / "plain", shaping=False)
    TrainSettings(output_dir=str(plain), resume=True, shaping=False, **asked).checked()
    with pytest.raises(ValueError, match="with shaping True: it was trained with shaping False"):
        TrainSettings(output_dir=str(plain), resume=True, **asked).checked()


@pytest.mark.parametrize("recorded", [{}, {"shaping": False}], ids=["older", "recorded"])
def test_shaping_asked_or_not_in_a_game_without_a_potential_resumes_either_way(tmp_path, recorded):
    # Senet has no shaping potential: the flag changes nothing, so it blocks no resume.
    asked = {"variant": "senet-kendall-5", "hidden": [64, 64], "iterations": 5}
    run = saved_run(tmp_path, variant="senet-kendall-5", **recorded)
    for shaping in (True, False):
        settings = TrainSettings(output_dir=str(run), resume=True, shaping=shaping, **asked)
        assert settings.checked().run_settings()["shaping"] is False


def test_an_alphazero_run_is_not_resumed_with_ppo(tmp_path):
    run = saved_run(tmp_path, algorithm="alphazero")
    with pytest.raises(ValueError, match="trained with --algorithm alphazero; resume it with"):
        TrainSettings(
            output_dir=str(run), resume=True, variant="togyz-kumalak", hidden=[64, 64], iterations=5
        ).checked()


def test_a_resume_continues_with_the_runs_engine_and_trained_rows(tmp_path):
    run = saved_run(tmp_path)
    (run / "metrics.csv").write_text("iteration,minutes\n0,0.0\n2,1.0\n4,2.0\n")  # ahead: killed
    settings = TrainSettings(
        output_dir=str(run), resume=True, variant="togyz-kumalak", hidden=[64, 64], iterations=3
    ).checked()
    assert (settings.engine, settings.envs_per_env_runner) == ("env", 8)
    # The checkpoint trained 2 iterations (its own metrics), whatever metrics.csv says.
    with pytest.raises(ValueError, match="trained 2 iterations already"):
        TrainSettings(
            output_dir=str(run), resume=True, variant="togyz-kumalak", hidden=[64, 64], iterations=2
        ).checked()


TRAIN = """
import sys
from zoo_games.rllib.train import TrainSettings, train
settings = TrainSettings(
    variant="santorini-fixed", output_dir=sys.argv[1], iterations=int(sys.argv[2]),
    resume=sys.argv[3] == "resume", envs_per_env_runner=8, hidden=[16], train_batch_size=128,
    minibatch_size=64, epochs=1, eval_every=1, eval_games=2, final_eval_games=2,
    eval_opponents=("random",),
)
train(settings, progress=lambda line: print(line, flush=True))
"""


def test_a_run_killed_while_checkpointing_resumes_with_metrics_that_agree(tmp_path):
    run = tmp_path / "run"
    kill_while_checkpointing_then_resume(
        run,
        lambda iterations, resume: start_script(
            TRAIN, str(run), str(iterations), "resume" if resume else ""
        ),
    )


def test_a_run_from_before_run_json_is_checked_against_its_settings_file(tmp_path):
    run = tmp_path / "run"
    (run / CHECKPOINT).mkdir(parents=True)
    (run / CHECKPOINT / ALGORITHM_STATE).write_bytes(b"")
    (run / "metrics.csv").write_text("iteration,minutes\n0,0.0\n2,1.0\n")
    lines = [
        "variant = 'togyz-kumalak'",
        "shared_policy = True",
        "hidden = [256, 256]",
        "lr = 0.0003",
    ]
    (run / "settings.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"with hidden \[128, 128\]: it was trained with hidden"):
        TrainSettings(output_dir=str(run), resume=True, variant="togyz-kumalak").checked()
    settings = TrainSettings(
        output_dir=str(run), resume=True, variant="togyz-kumalak", hidden=[256, 256]
    ).checked()
    assert settings.engine == "env"  # such a run sampled through the environment
    # and, on it, on the driver: the overlap is decided on the engine the run resumes with
    assert (settings.overlap, settings.env_runners) == (False, 0)


def test_an_older_runs_shaping_flag_counts_as_it_applied(tmp_path):
    # settings.txt holds the flag as asked; in Senet, which has no potential, it shaped nothing.
    run = tmp_path / "run"
    (run / CHECKPOINT).mkdir(parents=True)
    (run / CHECKPOINT / ALGORITHM_STATE).write_bytes(b"")
    (run / "metrics.csv").write_text("iteration,minutes\n0,0.0\n2,1.0\n")
    lines = ["variant = 'senet-kendall-5'", "hidden = [64, 64]", "shaping = True"]
    (run / "settings.txt").write_text("\n".join(lines) + "\n")
    asked = {"variant": "senet-kendall-5", "hidden": [64, 64], "iterations": 5}
    assert TrainSettings(output_dir=str(run), resume=True, **asked).checked().engine == "env"
