"""The settings of an AlphaZero training run, and their checks before any work starts."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from zoo_games.alphazero.network import ARRAYS, DESCRIPTION, check_board_of_planes
from zoo_games.catalog import find_variant, variants
from zoo_games.core.symmetry import symmetries_of
from zoo_games.training.budget import Budget
from zoo_games.training.checkpoints import (
    CHECKPOINT,
    RUN,
    check_budget_left,
    recover,
    saved_run,
)
from zoo_games.training.checks import (
    are_sizes,
    check_hidden,
    check_local_actors,
    check_non_negative,
    check_positive,
    check_seed,
    check_share,
)
from zoo_games.training.evaluation import check_evaluation
from zoo_games.training.folders import check_creatable, new_run_folder
from zoo_games.training.learning_rate import check_final_fraction

ALGORITHM = "alphazero"
#: What a checkpoint holds besides the network and the run's record: the learner's state, the
#: replay buffer and the counters (with the learner's generator).
LEARNER = "learner.pt"
REPLAY = "replay.npz"
COUNTERS = "counters.json"


@dataclass
class AlphaZeroSettings:
    """Everything an AlphaZero run depends on; the defaults suit a 2-core machine.

    One iteration plays ``moves`` moves in each of ``games`` games (every move searched with
    ``simulations`` simulations, all games at once), then takes as many gradient steps of
    ``batch_size`` positions as make ``replay_ratio`` positions sampled per new position.
    """

    variant: str = "togyz-kumalak"
    #: Where the run writes; ``None``: ``runs/<variant>-alphazero`` (or ``-2``, ``-3``, ...
    #: if that already holds a run; resuming: that folder).
    output_dir: str | None = None
    minutes: float = 20.0
    iterations: int | None = None
    #: Games played at once: the search evaluates one leaf of each per network call, so more
    #: games make larger, cheaper-per-position batches.
    games: int = 256
    simulations: int = 32
    moves: int = 16
    #: Self-play first settles what a read of the board settles, as the player does: a win
    #: in one is played, moves that let the opponent win at once are left out while others
    #: remain (:mod:`zoo_games.alphazero.guard`).
    guard: bool = False
    #: The learner shows each position in a random symmetry of its board, one per row of a
    #: batch (:mod:`zoo_games.alphazero.augment`); only for a variant whose board has them.
    symmetries: bool = False
    # Three layers of 128: evaluated nearly twice as fast as two of 256, with half the
    # weights and one layer more (docs/training.md, "Speed of the parts").
    hidden: list[int] = field(default_factory=lambda: [128, 128, 128])
    #: Channels of the 3 x 3 convolutions that read a board of planes before the hidden
    #: layers (:mod:`zoo_games.alphazero.network`); only for an observation of rows x
    #: columns x channels. Empty: none.
    convolutions: list[int] = field(default_factory=list)
    batch_size: int = 512
    #: Positions sampled by the learner per position self-play adds: each position is
    #: trained on about this many times while it is in the buffer (docs/training.md).
    replay_ratio: float = 4.0
    #: A million positions, a few minutes of self-play on the 2-core machine, where the
    #: 200,000 of earlier runs held 20-40 seconds (docs/training_results.md, "Trials").
    replay_capacity: int = 1_000_000
    lr: float = 1e-3
    #: The learning rate falls from ``lr`` to this share of it over the budget (a cosine;
    #: 1: constant): :func:`~zoo_games.training.learning_rate.decayed`.
    final_lr_fraction: float = 0.1
    weight_decay: float = 1e-4
    #: The λ of the value targets' returns: 1, the game's outcome (AlphaZero); below, the
    #: λ-return of the searches of the positions that followed
    #: (:mod:`zoo_games.alphazero.returns`).
    value_lambda: float = 1.0
    #: The value target's share of the search's root value (the rest: the return).
    search_value_weight: float = 0.0
    #: Iterations between evaluations and checkpoints, the first before the first iteration
    #: (0: only the final evaluation and checkpoint, at the end).
    #: An evaluation takes about a second; a checkpoint writes the replay buffer, about
    #: 1 GB for Santorini, so they come most of a minute apart, not more often.
    eval_every: int = 100
    eval_games: int = 40
    final_eval_games: int = 200
    #: Agent specs the network is evaluated against, each a ``win_rate_vs_<opponent>`` column.
    eval_opponents: tuple[str, ...] = ("greedy", "batched-mcts:simulations=200")
    #: Search simulations of the evaluated player (0: the network's policy alone).
    eval_simulations: int = 0
    seed: int = 0
    #: Self-play workers (Ray actors of ``games`` games each; the learner stays here), on a
    #: Ray of the run's own or on the cluster at ``address``; 0: self-play in this process.
    workers: int = 0
    address: str | None = None
    resume: bool = False
    #: The command that started the run, saved with the network (``trained``).
    command: str = ""

    @property
    def budget(self) -> Budget:
        """What the run may train: ``iterations`` when given, else ``minutes``."""
        return Budget(self.iterations, self.minutes)

    def checked(self) -> AlphaZeroSettings:
        """These settings with ``output_dir`` decided, or ``ValueError`` saying what is wrong.

        Refused: an unknown variant; a missing numba or torch (or Ray, with workers); a
        cluster address without workers to run there; a budget that trains nothing; counts
        below what they mean; evaluation games that cannot alternate seats or unknown
        opponents; resuming a run with no checkpoint, a spent budget, or settings its
        checkpoint cannot continue; writing into a folder that holds another run, or one that
        cannot be created.
        """
        variant = find_variant(self.variant)
        needed = ("numba", "torch", "ray") if self.workers else ("numba", "torch")
        missing = [name for name in needed if importlib.util.find_spec(name) is None]
        if missing:
            raise ValueError(
                f"alphazero training needs {' and '.join(missing)}: "
                'pip install "zoo-games[batched,rllib]"'
            )
        if self.address is not None and not self.workers:
            raise ValueError(
                "--address needs --workers 1 or more: the self-play workers are what runs on "
                "the cluster"
            )
        check_evaluation(
            self.eval_opponents, eval_games=self.eval_games, final_eval_games=self.final_eval_games
        )
        self.budget.check()
        for name, minimum in (
            ("games", 1),
            ("simulations", 1),
            ("moves", 1),
            ("batch_size", 1),
            ("replay_capacity", 1),
            ("eval_every", 0),
            ("eval_simulations", 0),
            ("workers", 0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise ValueError(f"{name} must be an integer, {minimum} or more, got {value!r}")
        check_seed(self.seed)
        check_local_actors("workers", self.workers, self.address)
        for name in ("replay_ratio", "lr"):
            check_positive(name, getattr(self, name))
        check_final_fraction(self.final_lr_fraction)
        check_share("search_value_weight", self.search_value_weight)
        check_share("value_lambda", self.value_lambda)
        check_non_negative("weight_decay", self.weight_decay)
        check_hidden(self.hidden)
        if not are_sizes(self.convolutions):
            raise ValueError(
                f"convolutions must be channel counts of 1 or more, got {self.convolutions}"
            )
        if self.symmetries and not symmetries_of(variant.observer, variant.game.num_actions):
            with_symmetries = ", ".join(
                other.label
                for other in variants()
                if symmetries_of(other.observer, other.game.num_actions)
            )
            raise ValueError(
                f"{self.variant} has no board symmetries to train with; --symmetries serves "
                f"{with_symmetries}"
            )
        if self.convolutions:
            check_board_of_planes(variant.observation_shape, f"{self.variant}'s")
        output = Path(self.output_dir or f"runs/{self.variant}-{ALGORITHM}")
        if self.resume:
            self._check_resumable(output)
        else:
            output = new_run_folder(output, chosen=self.output_dir is not None)
        check_creatable(output)
        return replace(self, output_dir=str(output))

    def run_settings(self) -> dict[str, Any]:
        """What a checkpoint of these settings can only be continued with."""
        return {
            "algorithm": ALGORITHM,
            "variant": self.variant,
            "observation_shape": list(find_variant(self.variant).observation_shape),
            "hidden": list(self.hidden),
            "convolutions": list(self.convolutions),
            "replay_capacity": self.replay_capacity,
        }

    def _check_resumable(self, output: Path) -> None:
        recover(output)
        if not (output / CHECKPOINT).is_dir():
            raise ValueError(f"nothing to resume: {output / CHECKPOINT} does not exist")
        # Every alphazero checkpoint records its run: without the record, it is none of theirs.
        recorded = (output / CHECKPOINT / RUN).is_file()
        saved = saved_run(output, list(self.run_settings())) if recorded else {}
        if recorded and saved.get("algorithm", "ppo") != ALGORITHM:
            raise ValueError(
                f"cannot resume the run in {output} with --algorithm {ALGORITHM}: it was "
                f"trained with {saved.get('algorithm', 'ppo')}"
            )
        missing = [
            name
            for name in (RUN, LEARNER, REPLAY, COUNTERS, DESCRIPTION, ARRAYS)
            if not (output / CHECKPOINT / name).is_file()
        ]
        if missing:
            raise ValueError(
                f"nothing to resume: {output / CHECKPOINT} lacks {', '.join(missing)}, which "
                "an alphazero run's checkpoint holds"
            )
        saved.setdefault("convolutions", [])  # a run saved before they existed had none
        if "observation_shape" not in saved:  # older runs: what their network reads
            described = json.loads((output / CHECKPOINT / DESCRIPTION).read_text())
            saved["observation_shape"] = described["observation_shape"]
        for name, value in self.run_settings().items():
            if saved.get(name) != value:
                raise ValueError(
                    f"cannot resume the run in {output} with {name} {value!r}: it was "
                    f"trained with {name} {saved.get(name)!r}"
                )
        check_budget_left(output, self.budget)
