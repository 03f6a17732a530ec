"""Every environment of zoo-games and its variants, in one list.

The shared tests, the golden playthroughs, the benchmark and the command line all walk this
list, so a new game is covered by all of them as soon as its module is named here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pettingzoo import AECEnv

#: The environment modules, each with ``ENV_ID``, ``VARIANTS``, ``env()`` and ``raw_env()``.
GAME_MODULES = (
    "zoo_games.senet_v0",
    "zoo_games.togyz_kumalak_v0",
    "zoo_games.santorini_v0",
)


@dataclass(frozen=True)
class Variant:
    """One configuration of one game, e.g. Senet with Skyruk's rules and 7 dancers."""

    label: str
    env_id: str
    module_name: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def module(self) -> ModuleType:
        """The game's ``*_v0`` module."""
        return importlib.import_module(self.module_name)

    def raw_env(self, **overrides: Any) -> AECEnv:
        """The bare environment of this variant."""
        return self.module.raw_env(**{**self.kwargs, **overrides})

    def env(self, **overrides: Any) -> AECEnv:
        """The environment with PettingZoo's standard wrappers."""
        return self.module.env(**{**self.kwargs, **overrides})


def variants() -> list[Variant]:
    """Every variant of every game, in a stable order."""
    found = []
    for module_name in GAME_MODULES:
        module = importlib.import_module(module_name)
        for label, kwargs in module.VARIANTS.items():
            found.append(Variant(label, module.ENV_ID, module_name, dict(kwargs)))
    return found


def variant(label: str) -> Variant:
    """The variant called ``label`` (see :func:`variants`)."""
    for candidate in variants():
        if candidate.label == label:
            return candidate
    known = ", ".join(v.label for v in variants())
    raise ValueError(f"unknown variant {label!r}; known variants: {known}")
