"""Which policy plays which seat, and where a checkpoint keeps each policy's module.

Training (:mod:`zoo_games.rllib.train`) and the ``rllib`` agent (:mod:`zoo_games.rllib.agent`)
both need these: training to build its policies, the agent to find the one trained for the
seat it plays. They live here, with nothing heavy imported, so that the agent need not import
the training code.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from zoo_games.core.adapter import AGENTS

#: The id of the one policy that plays both seats in shared self-play.
SHARED_POLICY = "shared"
#: Where an algorithm checkpoint keeps its modules, one folder per policy id (RLlib's layout).
MODULES_FOLDER = Path("learner_group", "learner", "rl_module")


def policy_ids(shared: bool) -> list[str]:
    """The policies trained: one shared by both seats, or one per seat."""
    return [SHARED_POLICY] if shared else list(AGENTS)


def policy_mapping(shared: bool) -> Callable[..., str]:
    """Agent id -> policy id, as RLlib's ``policy_mapping_fn`` takes it."""
    if shared:
        return lambda agent_id, episode=None, **kwargs: SHARED_POLICY
    return lambda agent_id, episode=None, **kwargs: agent_id


def module_folder(checkpoint: Path, seat: str, shared: bool) -> Path:
    """The folder of ``checkpoint`` holding the module trained to play ``seat``."""
    return checkpoint / MODULES_FOLDER / policy_mapping(shared)(seat)
