"""AlphaZero training runs: what a run writes, its seed, its checks, and a resume after SIGKILL.

The runs here play with the scripted search of ``conftest.py``: the loop is what is tested.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

from tests.alphazero.tiny import TINY
from tests.killed_runs import kill_while_checkpointing_then_resume, start_script
from zoo_games.alphazero import network
from zoo_games.alphazero.settings import COUNTERS, LEARNER, REPLAY, AlphaZeroSettings
from zoo_games.alphazero.train import train
from zoo_games.training.checkpoints import CHECKPOINT, UnreadableCheckpoint
from zoo_games.training.learning_rate import decayed


def tiny_run(output: Path, make_search: Any, **changes: Any) -> AlphaZeroSettings:
    settings = AlphaZeroSettings(output_dir=str(output), **{**TINY, "iterations": 3, **changes})
    train(settings, progress=lambda line: None, make=make_search)
    return settings


def test_a_tiny_run_writes_metrics_checkpoint_curve_and_network(tmp_path, make_scripted_search):
    tiny_run(tmp_path / "run", make_scripted_search, command="zoo-games train togyz-kumalak")
    run = tmp_path / "run"
    with (run / "metrics.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["iteration"] for row in rows] == ["0", "1", "2", "3"]
    assert rows[0]["win_rate_vs_random"] != "" and rows[2]["win_rate_vs_random"] != ""
    assert rows[-1]["final_win_rate_vs_random"] != "" and rows[-1]["final_eval_games"] == "2"
    positions = [int(row["positions"]) for row in rows[1:]]
    assert positions == sorted(positions) and positions[-1] > 0  # games ended and were kept
    assert int(rows[-1]["learner_steps"]) > 0 and float(rows[-1]["policy_loss"]) > 0
    assert (run / "learning_curve.png").stat().st_size > 0
    assert (run / "metrics.csv").read_text() == (run / CHECKPOINT / "metrics.csv").read_text()
    saved = network.load(run)
    assert saved.variant == "togyz-kumalak" and saved.hidden_sizes == [16]
    assert saved.trained["command"] == "zoo-games train togyz-kumalak"
    assert saved.trained["positions"] == positions[-1] and saved.trained["games"] > 0
    assert saved.trained["iterations"] == 3 and saved.trained["seconds"] > 0
    assert json.loads((run / CHECKPOINT / "run.json").read_text())["algorithm"] == "alphazero"


def test_a_run_steps_with_the_rate_of_the_budget_it_has_spent(tmp_path, make_scripted_search):
    import torch

    settings = tiny_run(tmp_path / "run", make_scripted_search, lr=0.01, final_lr_fraction=0.2)
    state = torch.load(tmp_path / "run" / CHECKPOINT / LEARNER, weights_only=True)
    (group,) = state["optimizer"]["param_groups"]
    # The third and last iteration began with two of its three iterations spent.
    assert group["lr"] == pytest.approx(settings.lr * decayed(2 / 3, 0.2))


def test_the_same_seed_gives_the_same_network(tmp_path, make_scripted_search):
    for name in ("a", "b", "c"):
        tiny_run(tmp_path / name, make_scripted_search, seed=1 if name == "c" else 0, eval_every=0)
    a, b, c = (network.load(tmp_path / name) for name in "abc")
    assert a.trained["positions"] > 0  # it learned: games ended and went to the learner
    for (weight_a, _), (weight_b, _) in zip(a.hidden, b.hidden, strict=True):
        np.testing.assert_array_equal(weight_a, weight_b)
    np.testing.assert_array_equal(a.policy[0], b.policy[0])
    assert not np.array_equal(a.policy[0], c.policy[0])


def test_a_run_with_symmetries_learns_from_turned_positions(tmp_path, make_scripted_search):
    # One iteration: both play the same games with the same first network, then learn.
    changes = {"variant": "santorini-fixed-workers", "moves": 40, "eval_every": 0, "iterations": 1}
    plain = tiny_run(tmp_path / "plain", make_scripted_search, **changes)
    turned = tiny_run(tmp_path / "turned", make_scripted_search, **changes, symmetries=True)
    assert turned.symmetries and not plain.symmetries
    a, b = network.load(tmp_path / "plain"), network.load(tmp_path / "turned")
    assert a.trained["positions"] == b.trained["positions"] > 0
    assert not np.array_equal(a.policy[0], b.policy[0])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"variant": "chess"}, "unknown variant"),
        ({"iterations": 0}, "iterations must be 1 or more"),
        ({"minutes": 0.0, "iterations": None}, "minutes must be more than 0"),
        ({"games": 0}, "games must be an integer, 1 or more"),
        ({"simulations": 0}, "simulations must be an integer, 1 or more"),
        ({"replay_ratio": 0.0}, "replay_ratio must be more than 0"),
        ({"final_lr_fraction": 0.0}, "final_lr_fraction must be more than 0 and at most 1"),
        ({"search_value_weight": 1.5}, "search_value_weight must be from 0 to 1"),
        ({"search_value_weight": float("nan")}, "search_value_weight must be from 0 to 1"),
        ({"value_lambda": 1.5}, "value_lambda must be from 0 to 1"),
        ({"hidden": []}, "hidden must be one or more layer sizes"),
        ({"convolutions": [0]}, "convolutions must be channel counts of 1 or more"),
        ({"convolutions": [8]}, r"convolutions read a board of planes .* shape \(93,\)"),
        ({"eval_games": 3}, "eval_games must be a positive even number"),
        ({"eval_opponents": ("nobody",)}, "unknown agent 'nobody'"),
        ({"address": "127.0.0.1:6379"}, "--address needs --workers 1 or more"),
        ({"workers": -1}, "workers must be an integer, 0 or more"),
        # each self-play worker holds a core of a Ray of the run's own: the rest would wait
        ({"workers": 10**6}, "workers 1000000 is more than this machine's"),
        ({"seed": 2**32}, "seed must be a whole number from 0 to 4294967295, got 4294967296"),
        ({"resume": True}, "nothing to resume"),
        ({"symmetries": True}, "togyz-kumalak has no board symmetries to train with"),
    ],
)
def test_bad_settings_are_refused_before_any_work(tmp_path, changes, message):
    settings = AlphaZeroSettings(output_dir=str(tmp_path / "run"), **{**TINY, **changes})
    with pytest.raises(ValueError, match=message):
        settings.checked()
    assert not (tmp_path / "run").exists()


def test_a_resume_its_checkpoint_cannot_continue_is_refused(tmp_path, make_scripted_search):
    run = tmp_path / "run"
    tiny_run(run, make_scripted_search, iterations=1, eval_every=0)
    asked = {**TINY, "output_dir": str(run), "resume": True, "iterations": 2}
    with pytest.raises(ValueError, match=r"with hidden \[32\]: it was trained with hidden \[16\]"):
        AlphaZeroSettings(**{**asked, "hidden": [32]}).checked()
    with pytest.raises(ValueError, match="trained 1 iterations already"):
        AlphaZeroSettings(**{**asked, "iterations": 1}).checked()
    with pytest.raises(ValueError, match="already holds a run"):
        AlphaZeroSettings(**{**asked, "resume": False}).checked()


@pytest.mark.parametrize(
    ("damaged", "says"),
    [
        (LEARNER, "PytorchStreamReader"),  # torch's reader of a file cut short
        (REPLAY, "BadZipFile"),
        (COUNTERS, "JSONDecodeError"),
    ],
)
def test_a_checkpoint_file_that_cannot_be_read_back_is_named(
    tmp_path, make_scripted_search, damaged, says
):
    run = tmp_path / "run"
    tiny_run(run, make_scripted_search, iterations=1, eval_every=0)
    path = run / CHECKPOINT / damaged
    path.write_bytes(path.read_bytes()[:20])  # cut short, as a full disk would leave it
    settings = AlphaZeroSettings(
        **{**TINY, "output_dir": str(run), "resume": True, "iterations": 2}
    )
    with pytest.raises(UnreadableCheckpoint, match=f"cannot resume from {path}: .*{says}"):
        train(settings, progress=lambda line: None, make=make_scripted_search)


def with_stand_ins(checkpoint: Path) -> None:
    """Empty files for what an alphazero checkpoint holds besides its record, where missing."""
    for name in (LEARNER, REPLAY, COUNTERS, network.DESCRIPTION, network.ARRAYS):
        if not (checkpoint / name).exists():
            (checkpoint / name).write_bytes(b"")


def test_a_resume_of_what_is_not_a_whole_checkpoint_is_refused_by_name(tmp_path):
    checkpoint = tmp_path / "run" / CHECKPOINT
    checkpoint.mkdir(parents=True)
    (tmp_path / "run" / "settings.txt").write_text("variant = 'togyz-kumalak'\n")
    settings = AlphaZeroSettings(**{**TINY, "output_dir": str(tmp_path / "run"), "resume": True})
    # An empty checkpoint (a run killed before its first one, a folder made by hand) is no
    # run of any algorithm: not taken for PPO's.
    with pytest.raises(ValueError, match=r"nothing to resume: .*checkpoint lacks run\.json, "):
        settings.checked()
    (checkpoint / "run.json").write_text(json.dumps(AlphaZeroSettings(**TINY).run_settings()))
    with_stand_ins(checkpoint)
    (checkpoint / LEARNER).unlink()
    with pytest.raises(ValueError, match=r"checkpoint lacks learner\.pt, which an alphazero"):
        settings.checked()
    with_stand_ins(checkpoint)
    (checkpoint / "metrics.csv").write_text("foo,bar\n1,2\n")
    with pytest.raises(ValueError, match=r"metrics\.csv is not a run's metrics"):
        settings.checked()
    (checkpoint / "run.json").write_text("[1]")
    with pytest.raises(ValueError, match=r"run\.json is not a run record"):
        settings.checked()
    (checkpoint / "run.json").write_text("{bad")
    with pytest.raises(ValueError, match=r"run\.json is not a run record this version reads"):
        settings.checked()


def test_a_resume_with_other_convolutions_is_refused(tmp_path):
    checkpoint = tmp_path / "run" / CHECKPOINT
    checkpoint.mkdir(parents=True)
    saved = AlphaZeroSettings(
        variant="santorini-fixed", hidden=[16], convolutions=[4]
    ).run_settings()
    (checkpoint / "run.json").write_text(json.dumps(saved))
    with_stand_ins(checkpoint)
    asked = {**TINY, "variant": "santorini-fixed", "output_dir": str(checkpoint.parent)}
    settings = AlphaZeroSettings(**{**asked, "resume": True, "convolutions": [8]})
    with pytest.raises(ValueError, match=r"with convolutions \[8\]: it was trained with .*\[4\]"):
        settings.checked()
    # A run saved before convolutions existed had none: resuming it without is not refused.
    del saved["convolutions"]
    (checkpoint / "run.json").write_text(json.dumps(saved))
    assert AlphaZeroSettings(**{**asked, "resume": True}).checked().convolutions == []


def test_a_resume_is_refused_where_the_variant_now_observes_another_shape(tmp_path):
    # A togyz-kumalak run from before the captures became its default, saved before runs
    # recorded their observation's shape: its network's description says what it reads.
    checkpoint = tmp_path / "run" / CHECKPOINT
    checkpoint.mkdir(parents=True)
    saved = AlphaZeroSettings(**TINY).run_settings()
    del saved["observation_shape"]
    (checkpoint / "run.json").write_text(json.dumps(saved))
    (checkpoint / network.DESCRIPTION).write_text(json.dumps({"observation_shape": [39]}))
    with_stand_ins(checkpoint)
    settings = AlphaZeroSettings(**{**TINY, "output_dir": str(checkpoint.parent), "resume": True})
    with pytest.raises(
        ValueError, match=r"observation_shape \[93\]: it was trained with observation_shape \[39\]"
    ):
        settings.checked()


def test_a_ppo_run_is_not_resumed_with_alphazero(tmp_path):
    checkpoint = tmp_path / "run" / CHECKPOINT
    checkpoint.mkdir(parents=True)
    ppo = {"variant": "togyz-kumalak", "engine": "batched", "shared_policy": True, "hidden": [16]}
    (checkpoint / "run.json").write_text(json.dumps(ppo))
    settings = AlphaZeroSettings(**{**TINY, "output_dir": str(checkpoint.parent), "resume": True})
    with pytest.raises(ValueError, match="with --algorithm alphazero: it was trained with ppo"):
        settings.checked()


TRAIN = """
import runpy, sys
from zoo_games.alphazero.settings import AlphaZeroSettings
from zoo_games.alphazero.train import train
search = runpy.run_path(sys.argv[4])["scripted_search"]
settings = AlphaZeroSettings(
    output_dir=sys.argv[1], iterations=int(sys.argv[2]), resume=sys.argv[3] == "resume",
    eval_every=1, **{tiny}
)
train(settings, progress=lambda line: print(line, flush=True), make=search)
"""


def test_a_run_killed_while_checkpointing_resumes_with_metrics_that_agree(tmp_path):
    run = tmp_path / "run"
    tiny = {key: value for key, value in TINY.items() if key != "eval_every"}
    script = TRAIN.replace("{tiny}", repr(tiny))
    conftest = str(Path(__file__).with_name("conftest.py"))
    kill_while_checkpointing_then_resume(
        run,
        lambda iterations, resume: start_script(
            script, str(run), str(iterations), "resume" if resume else "-", conftest
        ),
    )
    assert network.load(run).trained["iterations"] == 4
