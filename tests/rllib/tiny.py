"""The PPO run of seconds that the RLlib tests start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zoo_games.rllib.train import TrainSettings

#: Steps per iteration of a tiny run.
TRAIN_BATCH = 256


def tiny(label: str, tmp_path: Path, **overrides: Any) -> TrainSettings:
    """Two iterations of ``label`` into ``tmp_path / label``, evaluated against random play.

    Sampled on the driver, in turn with the update: a remote runner costs each run seconds to
    start (tests/rllib/test_overlap.py runs the overlapped default).
    """
    settings: dict[str, Any] = dict(
        variant=label,
        output_dir=str(tmp_path / label),
        iterations=2,
        env_runners=0,
        envs_per_env_runner=2,
        hidden=[32],
        train_batch_size=TRAIN_BATCH,
        minibatch_size=64,
        epochs=1,
        eval_every=1,
        eval_games=4,
        final_eval_games=4,
        # Random play alone: the tests check that evaluation runs, not how strong a tiny run is.
        eval_opponents=("random",),
    )
    settings.update(overrides)
    return TrainSettings(**settings)
