"""The ``rllib`` agent: the masked policy of a ``zoo-games train`` run, playing from a state.

A training run (:func:`zoo_games.rllib.train.train`) writes into its folder ``settings.txt``
(the variant and whether one policy plays both seats) and ``checkpoint/``, whose
``learner_group/learner/rl_module/<policy>`` holds each trained module. The agent loads the
module of the seat it is asked to play, shows it the observation that the environment would
show that seat (the variant's own observer), and plays the legal action with the highest
logit, or, with ``sample=True``, one drawn from the masked softmax with a seeded generator.

Needs the ``rllib`` extra: ``pip install "zoo-games[rllib]"``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.catalog import find_variant
from zoo_games.core.adapter import AGENTS, BoardGameEnv
from zoo_games.core.game import GameState

try:
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    from zoo_games.rllib.evaluation import masked_logits
    from zoo_games.rllib.train import policy_mapping
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f'the rllib agent needs Ray and torch ({error}): pip install "zoo-games[rllib]"'
    ) from error

#: Where a run's checkpoint keeps its modules, one folder per policy id.
MODULES_FOLDER = Path("learner_group", "learner", "rl_module")


class RLlibAgent(Agent):
    """Plays the policy trained by ``zoo-games train``; ``checkpoint`` is the run's folder.

    ``checkpoint`` may also be the run's ``checkpoint/`` subfolder. ``sample=False`` (the
    default) plays the legal action with the highest logit; ``sample=True`` draws one with
    the masked policy's probabilities, from a generator seeded by ``seed``.
    """

    name = "rllib"

    def __init__(
        self, checkpoint: str | None = None, sample: bool = False, seed: int | None = None
    ) -> None:
        super().__init__(seed)
        if not checkpoint:
            raise ValueError("the rllib agent needs checkpoint=PATH, a zoo-games train run folder")
        self.run_folder, checkpoint_folder = _run_folders(Path(checkpoint))
        settings = read_settings(self.run_folder)
        self.variant = str(settings["variant"])
        mapping = policy_mapping(bool(settings.get("shared_policy", True)))
        self.modules = {
            seat: _load_module(checkpoint_folder / MODULES_FOLDER / mapping(seat))
            for seat in AGENTS
        }
        self.sample = sample
        self._env: BoardGameEnv = find_variant(self.variant).raw_env()
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"RLlibAgent(checkpoint={str(self.run_folder)!r}, sample={self.sample})"

    def act(self, state: GameState) -> int:
        """The trained policy's action for the player to act in ``state``."""
        check_decision_node(state)
        game = self._env.game
        if state.game.name != game.name or state.game.options() != game.options():
            raise ValueError(
                f"this rllib agent was trained on {self.variant!r}, not on {state.game!r}"
            )
        player = state.current_player()
        logits = masked_logits(self.modules[AGENTS[player]], observation_of(self._env, state))
        if not self.sample:
            return int(torch.argmax(logits))
        probabilities = torch.softmax(logits, dim=-1).double().numpy()
        return int(self._rng.choice(len(probabilities), p=probabilities / probabilities.sum()))


def observation_of(env: BoardGameEnv, state: GameState) -> dict[str, np.ndarray]:
    """What ``env`` would return from ``observe`` for the player to act in ``state``.

    The environment's observer turns any state into a seat's observation; the adapter keeps
    it private, so this is the one place outside the adapter that reaches it.
    """
    observer = env._observer
    return {
        "observation": observer.observe(state, state.current_player()),
        "action_mask": np.frombuffer(state.legal_actions_mask(), dtype=np.int8).copy(),
    }


def read_settings(run_folder: Path) -> dict[str, Any]:
    """The ``key = value`` lines of a run's ``settings.txt``, values as Python literals."""
    path = run_folder / "settings.txt"
    if not path.is_file():
        raise ValueError(f"{run_folder} is not a zoo-games train run: it has no settings.txt")
    settings: dict[str, Any] = {}
    for line in path.read_text().splitlines():
        key, equals, value = line.partition(" = ")
        if equals:
            try:
                settings[key.strip()] = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                settings[key.strip()] = value.strip()
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


def _load_module(path: Path) -> Any:
    """The RLModule saved in ``path``; ``ValueError`` if there is none."""
    if not path.is_dir():
        raise ValueError(f"the checkpoint has no trained module at {path}")
    module = RLModule.from_checkpoint(str(path))
    if isinstance(module, torch.nn.Module):
        module.eval()  # inference mode for any layer that trains differently
    return module
