"""PPO with sampling overlapped with the update (zoo_games.rllib.overlapped_ppo).

Checked: which settings overlap; that every batch is trained one update after the weights it
was sampled with (and taking turns, none); that the driver's module, which evaluations play,
holds the learner's latest weights after every iteration; and that a run trains, resumes
overlapped or in turn, and plays as the ``rllib`` agent. A run killed while checkpointing resumes
(tests/rllib/test_checkpoints.py) and training on a cluster (tests/rllib/test_cluster.py) run
overlapped too, as the defaults do.
"""

from __future__ import annotations

import csv
import os

import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")

from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME, TIMERS

import zoo_games.rllib.train
from tests.rllib.tiny import TRAIN_BATCH
from tests.rllib.tiny import tiny as tiny_settings
from zoo_games import agents
from zoo_games.arena import run_arena
from zoo_games.rllib.overlapped_ppo import WAITED_FOR_SAMPLES, OverlappedPPO
from zoo_games.rllib.policies import policy_ids
from zoo_games.rllib.train import TrainSettings, ppo_config, train

pytestmark = pytest.mark.usefixtures("local_ray")


def tiny(tmp_path, **overrides) -> TrainSettings:
    """The tiny run of Kendall in ``tmp_path / "run"``, sampled as the defaults sample."""
    changes = {"env_runners": None, "output_dir": str(tmp_path / "run"), **overrides}
    return tiny_settings("senet-kendall-5", tmp_path, **changes)


@pytest.mark.parametrize(
    ("overrides", "overlap", "env_runners"),
    [
        ({}, True, 1),  # the batched engine's default
        ({"env_runners": 2}, True, 2),
        ({"env_runners": 0}, False, 0),  # the driver samples: nothing to overlap with
        ({"overlap": False}, False, 0),
        ({"overlap": False, "env_runners": 1}, False, 1),
        ({"engine": "env"}, False, 0),
        ({"engine": "env", "overlap": True}, True, 1),
    ],
)
def test_the_batched_engine_overlaps_on_a_remote_runner_unless_told_otherwise(
    tmp_path, overrides, overlap, env_runners
):
    settings = tiny(tmp_path, **overrides).checked()
    assert (settings.overlap, settings.env_runners) == (overlap, env_runners)
    config = ppo_config(settings)
    assert (config.algo_class is OverlappedPPO) == overlap
    # Overlapped, a failed runner ends the run rather than being restarted mid-sample.
    assert config.restart_failed_env_runners == (not overlap)


def test_a_machine_of_one_core_samples_on_the_driver_unless_told_otherwise(tmp_path, monkeypatch):
    # The runner and the learner would only take turns at the one core.
    monkeypatch.setattr(zoo_games.rllib.train, "usable_cores", lambda: 1)
    settings = tiny(tmp_path).checked()
    assert (settings.overlap, settings.env_runners) == (False, 0)
    settings = tiny(tmp_path, overlap=True, output_dir=str(tmp_path / "asked")).checked()
    assert (settings.overlap, settings.env_runners) == (True, 1)
    # A cluster's cores are its own: the machine of the driver does not decide.
    clustered = tiny(tmp_path, address="127.0.0.1:1", output_dir=str(tmp_path / "cluster"))
    assert zoo_games.rllib.train.overlapping(clustered, "batched") == (True, 1)


def module_weights(state: dict) -> dict[str, np.ndarray]:
    return {name: np.asarray(value) for name, value in state.items()}


@pytest.mark.parametrize(
    ("overlap", "shared_policy", "sampled_with"),
    [
        # Iteration k trains on a batch sampled with the weights of update k - 2 (update 0:
        # the initial weights), started while update k - 1 ran.
        (True, True, [0, 0, 1, 2]),
        (True, False, [0, 0, 1, 2]),
        # Taking turns, iteration k samples with the weights of update k - 1.
        (False, True, [0, 1, 2, 3]),
    ],
)
def test_each_batch_is_one_update_old_and_evaluations_play_the_latest_weights(
    tmp_path, overlap, shared_policy, sampled_with
):
    settings = tiny(tmp_path, overlap=overlap, env_runners=1, shared_policy=shared_policy).checked()
    algo = ppo_config(settings).build_algo()
    seen = []
    try:
        for iteration in range(1, len(sampled_with) + 1):
            result = algo.train()
            runners = result[ENV_RUNNER_RESULTS]
            seen.append(runners["weights_seq_no"])
            assert runners[NUM_ENV_STEPS_SAMPLED_LIFETIME] == iteration * TRAIN_BATCH
            if overlap:  # the learner's wait for the runner is timed, per iteration
                assert result[TIMERS][WAITED_FOR_SAMPLES] >= 0
            for module_id in policy_ids(shared_policy):
                learned = algo.learner_group.get_state(
                    components=f"learner/rl_module/{module_id}", inference_only=True
                )["learner"]["rl_module"][module_id]
                played = algo.get_module(module_id).get_state(inference_only=True)
                assert played.keys() == learned.keys()
                for name, weights in module_weights(learned).items():
                    np.testing.assert_array_equal(np.asarray(played[name]), weights)
    finally:
        algo.stop()
    assert seen == sampled_with


def test_a_run_resumes_overlapped_or_in_turn_and_plays_as_the_rllib_agent(tmp_path):
    # How a run samples is not part of what it trained: a resume may change it either way.
    run = tmp_path / "run"
    for iterations, env_runners in ((1, None), (2, 0), (3, None)):  # None: overlapped
        settings = tiny(tmp_path, iterations=iterations, env_runners=env_runners)
        settings.resume = iterations > 1
        lines: list[str] = []
        train(settings, progress=lines.append)
        overlapped = env_runners is None
        assert f"overlap = {overlapped}" in (run / "settings.txt").read_text()
        assert lines[0].startswith("resumed") == settings.resume
    with (run / "metrics.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["iteration"] for row in rows] == ["0", "1", "2", "3"]
    # Steps count what was trained: a sample in flight when a run stopped is not.
    assert [float(row["env_steps"]) for row in rows[1:]] == [k * TRAIN_BATCH for k in (1, 2, 3)]
    player = agents.make("rllib", checkpoint=str(run))
    result = run_arena(settings.variant, {"trained": player, "random": "random"}, games=2, seed=0)
    assert result.pairing("trained", "random").games == 2
