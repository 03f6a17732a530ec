"""The ``rllib`` agent: the masked policy of a ``zoo-games train`` run, playing from a state.

A training run (:func:`zoo_games.rllib.train.train`) writes into its folder ``settings.txt``
(the variant and whether one policy plays both seats) and ``checkpoint/``, whose
:data:`~zoo_games.rllib.policies.MODULES_FOLDER` holds each trained module. The agent loads the
module of the seat it is asked to play, shows it the observation that the environment would
show that seat (the variant's own observer), and plays the legal action with the highest
logit, or, with ``sample=True``, one drawn from the masked softmax with a seeded generator.

Needs the ``rllib`` extra: ``pip install "zoo-games[rllib]"``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import torch
from ray.rllib.core.rl_module.rl_module import RLModule

from zoo_games.agents.saved_folders import read_once_per_version
from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.policies import module_folder
from zoo_games.rllib.policy_agent import ModuleAgent
from zoo_games.training import checkpoints
from zoo_games.training.checkpoints import SETTINGS


class RLlibAgent(ModuleAgent):
    """Plays the policy trained by ``zoo-games train``; ``checkpoint`` is the run's folder.

    ``checkpoint`` may also be the run's ``checkpoint/`` subfolder. ``sample=False`` (the
    default) plays the legal action with the highest logit; ``sample=True`` draws one with
    the masked policy's probabilities, from a generator seeded by ``seed``. Each saved module
    is loaded once per process (:func:`load_module`).
    """

    name = "rllib"

    def __init__(
        self,
        checkpoint: str | os.PathLike[str] | None = None,
        sample: bool = False,
        seed: int | None = None,
    ) -> None:
        if not checkpoint:
            raise ValueError("the rllib agent needs checkpoint=PATH, a zoo-games train run folder")
        # Resolved here: RLlib reads a relative path as a URI without a scheme.
        self.run_folder, checkpoint_folder = _run_folders(Path(checkpoint).resolve())
        settings = read_settings(self.run_folder)
        shared = bool(settings.get("shared_policy", True))
        modules = {
            seat: load_module(module_folder(checkpoint_folder, seat, shared)) for seat in AGENTS
        }
        super().__init__(modules, str(settings["variant"]), sample=sample, seed=seed)

    def __repr__(self) -> str:
        return f"RLlibAgent(checkpoint={str(self.run_folder)!r}, sample={self.sample})"


def read_settings(run_folder: Path) -> dict[str, Any]:
    """The ``key = value`` lines of a run's ``settings.txt``, values as Python literals."""
    path = run_folder / SETTINGS
    if not path.is_file():
        raise ValueError(f"{run_folder} is not a zoo-games train run: it has no {SETTINGS}")
    settings = checkpoints.read_settings(path)
    if "variant" not in settings:
        raise ValueError(f"{path} names no variant")
    return settings


def _run_folders(path: Path) -> tuple[Path, Path]:
    """``(run folder, checkpoint folder)`` from either of them."""
    if not path.exists():
        raise ValueError(f"checkpoint {path} does not exist")
    if path.name == "checkpoint" and not (path / "checkpoint").is_dir():
        return path.parent, path
    if (path / "checkpoint").is_dir():
        return path, path / "checkpoint"
    raise ValueError(
        f"{path} is neither a zoo-games train run folder nor its checkpoint/ subfolder"
    )


def load_module(path: Path) -> Any:
    """The RLModule saved in ``path``; ``ValueError`` if there is none.

    Read once per process, and again once the checkpoint is saved anew
    (:func:`~zoo_games.agents.saved_folders.read_once_per_version`).
    """
    if not path.is_dir():
        raise ValueError(f"the checkpoint has no trained module at {path}")
    return _read_module(path)


@read_once_per_version
def _read_module(path: Path) -> Any:
    # RLlib warns, while loading its own checkpoints, about its own deprecated constructor:
    # nothing a user of this agent can act on.
    loggers = [logging.getLogger(name) for name in ("ray", "ray.rllib")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        module = RLModule.from_checkpoint(str(path))
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
    if isinstance(module, torch.nn.Module):
        module.eval()  # inference mode for any layer that trains differently
    return module
