"""AlphaZero training: batched self-play, a replay buffer and a torch learner, in one process.

:func:`train` (``zoo-games train VARIANT --algorithm alphazero``) alternates two halves, one
iteration each:

1. self-play (:mod:`~zoo_games.alphazero.selfplay`): ``moves`` moves in each of the batched
   engine's ``games`` games, every move searched, the search's leaves evaluated by the current
   model in torch (:class:`~zoo_games.alphazero.learner.TorchEvaluator`; self-play workers
   on Ray are sent its numpy copy);
2. learning (:mod:`~zoo_games.alphazero.learner`): gradient steps on positions drawn from
   the replay buffer, ``replay_ratio`` positions drawn per position self-play added.

Every ``eval_every`` iterations (and at the end) the network plays the evaluation opponents
in the arena and the run is checkpointed (swapped in whole, as PPO's:
:mod:`zoo_games.training.checkpoints`). The run's folder holds ``checkpoint/`` (the learner,
the replay buffer, the counters), ``metrics.csv``, ``learning_curve.png``, ``settings.txt``
and ``network.npz``/``network.json``, the latest network, whose ``trained`` says how.
The schedule (evaluating before the first iteration too, unless ``eval_every`` is 0) is PPO's:
:mod:`zoo_games.training.loop`.

The same seed gives the same network after the same iterations (torch on one thread). A
resumed run continues the network, the optimizer and the buffer; the games under way when it
stopped are lost (their outcome is unknown), and self-play continues with new games.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from zoo_games.alphazero.augment import Augmenter
from zoo_games.alphazero.learner import (
    Learner,
    Losses,
    PolicyValueModel,
    TorchEvaluator,
    to_numpy,
)
from zoo_games.alphazero.network import ARRAYS, DESCRIPTION, PolicyValueNetwork
from zoo_games.alphazero.player import NetworkPlayer
from zoo_games.alphazero.replay import ReplayBuffer
from zoo_games.alphazero.searching import SearchMaker, make_search
from zoo_games.alphazero.selfplay import SelfPlay, make_selfplay
from zoo_games.alphazero.settings import COUNTERS, LEARNER, REPLAY, AlphaZeroSettings
from zoo_games.arena.results import PairingResult
from zoo_games.catalog import find_variant
from zoo_games.core.symmetry import symmetries_of
from zoo_games.training.checkpoints import (
    CHECKPOINT,
    METRICS,
    SETTINGS,
    UnreadableCheckpoint,
    iterations_done,
    save,
    trained_rows,
    write_metrics,
)
from zoo_games.training.evaluation import (
    evaluate_against,
    win_rate_column,
    win_rates_text,
)
from zoo_games.training.learning_rate import decayed
from zoo_games.training.loop import Schedule, Steps, train_iterations
from zoo_games.training.plot import plot_learning_curve
from zoo_games.training.threads import training_threads

if TYPE_CHECKING:
    from zoo_games.alphazero.remote import RemoteSelfPlay


@dataclass
class Counters:
    """What a run has done so far (saved in its checkpoint, with the learner's generator)."""

    positions: int = 0
    games: int = 0
    learner_steps: int = 0
    #: Learner samples owed to the positions played (the fraction of a batch carried over).
    owed_samples: float = 0.0


class Run:
    """One training run's parts: self-play, replay buffer, learner, counters.

    Self-play runs in this process, or on ``settings.workers`` Ray actors.
    """

    def __init__(self, settings: AlphaZeroSettings, make: SearchMaker, seed: int) -> None:
        self.settings = settings
        variant = find_variant(settings.variant)
        self.observation_shape = variant.observation_shape
        num_actions = variant.game.num_actions
        self.buffer = ReplayBuffer(
            settings.replay_capacity,
            self.observation_shape,
            np.dtype(variant.observer.space.dtype),
            num_actions,
        )
        self.selfplay: SelfPlay | RemoteSelfPlay
        if settings.workers:
            from zoo_games.alphazero.remote import RemoteSelfPlay
            from zoo_games.training.cluster import start_ray

            start_ray(settings.address)
            self.selfplay = RemoteSelfPlay(
                variant.label,
                settings.games,
                settings.simulations,
                seed,
                settings.workers,
                make,
                self.buffer.add,
                settings.guard,
                settings.value_lambda,
            )
        else:
            self.selfplay = make_selfplay(
                variant.label,
                settings.games,
                settings.simulations,
                seed,
                make,
                self.buffer.add,
                settings.guard,
                settings.value_lambda,
            )
        torch.manual_seed(settings.seed)
        model = PolicyValueModel(
            self.observation_shape, settings.hidden, num_actions, settings.convolutions
        )
        self.learner = Learner(
            model, settings.lr, settings.weight_decay, settings.search_value_weight
        )
        self.rng = np.random.default_rng(settings.seed)
        self.augmenter = (
            Augmenter(symmetries_of(variant.observer, num_actions)) if settings.symmetries else None
        )
        self.counters = Counters()

    def network(self, trained: dict[str, Any] | None = None) -> PolicyValueNetwork:
        """The learner's current network as numpy arrays."""
        return to_numpy(self.learner.model, self.settings.variant, self.observation_shape, trained)

    def stop(self) -> None:
        """End the self-play workers, if any."""
        if not isinstance(self.selfplay, SelfPlay):
            self.selfplay.stop()

    def iterate(self) -> dict[str, Any]:
        """Self-play, then learning; the iteration's figures for ``metrics.csv``."""
        settings = self.settings
        if isinstance(self.selfplay, SelfPlay):  # here: torch, on this process's one thread
            played = self.selfplay.play(TorchEvaluator(self.learner.model), settings.moves)
        else:  # the workers are sent the numpy network
            played = self.selfplay.play(self.network(), settings.moves)
        self.counters.positions += played.positions
        self.counters.games += played.games
        self.counters.owed_samples += played.positions * settings.replay_ratio
        losses: list[Losses] = []
        while self.counters.owed_samples >= settings.batch_size and len(self.buffer):
            batch = self.buffer.sample(settings.batch_size, self.rng)
            if self.augmenter is not None:
                batch = self.augmenter.augmented(batch, self.rng)
            losses.append(self.learner.step(batch))
            self.counters.owed_samples -= settings.batch_size
        self.counters.learner_steps += len(losses)
        return {
            "positions": self.counters.positions,
            "games": self.counters.games,
            "learner_steps": self.counters.learner_steps,
            "policy_loss": _mean([loss.policy for loss in losses]),
            "value_loss": _mean([loss.value for loss in losses]),
        }

    # ------------------------------------------------------------------ checkpoints
    def write_checkpoint(self, folder: Path, trained: dict[str, Any]) -> None:
        """Everything a resume needs, and the network with ``trained``, into ``folder``."""
        folder.mkdir(parents=True)
        torch.save(self.learner.state_dict(), folder / LEARNER)
        self.buffer.save(folder / REPLAY)
        counters = {**asdict(self.counters), "rng": self.rng.bit_generator.state}
        (folder / COUNTERS).write_text(json.dumps(counters) + "\n")
        self.network(trained).save(folder)

    def read_checkpoint(self, folder: Path) -> None:
        """Continue from what :meth:`write_checkpoint` wrote into ``folder``.

        A file that cannot be read back (cut short, or not what this version writes) raises
        :class:`~zoo_games.training.checkpoints.UnreadableCheckpoint` naming it.
        """
        reading = folder / LEARNER
        try:
            self.learner.load_state_dict(torch.load(reading, weights_only=True))
            reading = folder / REPLAY
            self.buffer.load(reading)
            reading = folder / COUNTERS
            counters = json.loads(reading.read_text())
            self.rng.bit_generator.state = counters.pop("rng")
            self.counters = Counters(**counters)
        except MemoryError:
            raise
        except Exception as error:  # torch, numpy and json each fail in their own way
            first_line = (str(error).strip().splitlines() or [""])[0]
            raise UnreadableCheckpoint(
                f"cannot resume from {reading}: it is not what an alphazero run of these "
                f"settings writes ({type(error).__name__}: {first_line})"
            ) from error


def train(
    settings: AlphaZeroSettings,
    progress: Callable[[str], None] = print,
    make: SearchMaker = make_search,
) -> PairingResult:
    """Train until ``minutes`` or ``iterations`` run out; return the final evaluation.

    The evaluation returned is the final one against the first of ``eval_opponents`` (every
    opponent's is in ``metrics.csv``). ``make`` makes the batched search (tests give a
    scripted one).
    """
    settings = settings.checked()
    with training_threads():
        return _train(settings, progress, make)


def _train(
    settings: AlphaZeroSettings, progress: Callable[[str], None], make: SearchMaker
) -> PairingResult:
    assert settings.output_dir is not None
    output = Path(settings.output_dir).resolve()
    rows: list[dict[str, Any]] = []
    if settings.resume:
        rows = trained_rows(output)  # the rows the checkpoint trained, whatever a kill left
    iteration = iterations_done(rows)
    # A resumed run plays new games: its engine and search get a seed of their own.
    seed = (
        settings.seed
        if not iteration
        else int(np.random.SeedSequence([settings.seed, iteration]).generate_state(1)[0])
    )
    run = Run(settings, make, seed)  # before the folder is made: a cluster may refuse the run
    output.mkdir(parents=True, exist_ok=True)
    try:
        return _train_run(run, rows, output, settings, progress)
    finally:
        run.stop()


def _train_run(
    run: Run,
    rows: list[dict[str, Any]],
    output: Path,
    settings: AlphaZeroSettings,
    progress: Callable[[str], None],
) -> PairingResult:
    """Train ``run`` on from ``rows`` (its metrics so far), writing into ``output``."""
    columns = metrics_columns(settings.eval_opponents)
    iteration = iterations_done(rows)
    if settings.resume:
        run.read_checkpoint(output / CHECKPOINT)
        write_metrics(output / METRICS, rows, columns)
        progress(f"resumed from {output / CHECKPOINT} after {iteration} iterations")

    def iterate(spent: float) -> dict[str, Any]:
        run.learner.set_lr(settings.lr * decayed(spent, settings.final_lr_fraction))
        return run.iterate()

    steps = Steps(
        iterate=iterate,
        evaluate=lambda games, seed: _evaluate(run, settings, games, seed),
        save=lambda saved_rows: _save(run, saved_rows, output, settings),
    )
    schedule = Schedule(
        settings.budget,
        settings.eval_every,
        settings.eval_games,
        settings.final_eval_games,
        settings.seed,
    )
    finals = train_iterations(steps, schedule, rows, progress, _progress_line)
    progress(f"outputs in {output}")
    return finals[settings.eval_opponents[0]]


def _evaluate(
    run: Run, settings: AlphaZeroSettings, games: int, seed: int
) -> dict[str, PairingResult]:
    player = NetworkPlayer(run.network(), settings.eval_simulations, seed=settings.seed)
    return evaluate_against(player, settings.variant, settings.eval_opponents, games, seed)


def metrics_columns(opponents: tuple[str, ...]) -> list[str]:
    """The columns of ``metrics.csv``: training figures, then the evaluations."""
    win_rates = [win_rate_column(opponent) for opponent in opponents]
    return [
        "iteration",
        "minutes",
        "positions",
        "games",
        "learner_steps",
        "policy_loss",
        "value_loss",
        *win_rates,
        "eval_games",
        *("final_" + column for column in win_rates),
        "final_eval_games",
    ]


def _save(run: Run, rows: list[dict[str, Any]], output: Path, settings: AlphaZeroSettings) -> None:
    """The checkpoint (swapped in whole, with its metrics), then the run's outputs."""
    columns = metrics_columns(settings.eval_opponents)
    minutes = float(rows[-1]["minutes"])
    trained = {
        "command": settings.command or f"zoo-games train {settings.variant} --algorithm alphazero",
        "seconds": round(minutes * 60, 1),
        "games": run.counters.games,
        "positions": run.counters.positions,
        "iterations": int(rows[-1]["iteration"]),
    }

    save(
        output,
        lambda folder: run.write_checkpoint(folder, trained),
        settings.run_settings(),
        rows,
        columns,
    )
    write_metrics(output / METRICS, rows, columns)
    for name in (ARRAYS, DESCRIPTION):  # the latest network, each file swapped in whole
        temporary = output / (name + ".tmp")
        shutil.copyfile(output / CHECKPOINT / name, temporary)
        os.replace(temporary, output / name)
    (output / SETTINGS).write_text(
        "\n".join(f"{key} = {value!r}" for key, value in asdict(settings).items()) + "\n"
    )
    plot_learning_curve(
        rows,
        output / "learning_curve.png",
        title=f"{settings.variant} (AlphaZero)",
        opponents={opponent: win_rate_column(opponent) for opponent in settings.eval_opponents},
    )


def _mean(values: list[float]) -> float | str:
    return round(float(np.mean(values)), 5) if values else ""


def _progress_line(row: dict[str, Any]) -> str:
    text = f"iter {row['iteration']:>4}  {float(row['minutes']):6.2f} min"
    if "positions" in row:
        text += f"  positions {row['positions']}  games {row['games']}"
        if row["policy_loss"] != "":
            text += f"  loss {row['policy_loss']} + {row['value_loss']}"
    return text + win_rates_text(row)
