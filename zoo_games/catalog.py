"""Every game of zoo-games and its variants: the one list the rest of the package reads.

:data:`GAMES` names each game's registry id and module; the package registers the ids with
PettingZoo from it, and the shared tests, golden playthroughs, benchmarks, agents, arena and
command line walk :func:`variants`, so a new game is covered by all of them as soon as its
module is named here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zoo_games.core.adapter import BoardGameEnv, GameParts, Observer
    from zoo_games.core.game import Game

#: Registry id -> the module with ``VARIANTS``, ``parts()``, ``env()`` and ``raw_env()``.
GAMES = {
    "zoo_games/Senet-v0": "zoo_games.senet_v0",
    "zoo_games/TogyzKumalak-v0": "zoo_games.togyz_kumalak_v0",
    "zoo_games/Santorini-v0": "zoo_games.santorini_v0",
}


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

    @cached_property
    def parts(self) -> GameParts:
        """The variant's rules, observer and renderer, made once (no environment is built)."""
        parts: GameParts = self.module.parts(**self.kwargs)
        return parts

    @property
    def game(self) -> Game:
        """The variant's rules core (``game.new_initial_state()`` starts a game)."""
        return self.parts.game

    @property
    def observer(self) -> Observer[Any]:
        """How a player of this variant sees a state (the environment's observations)."""
        return self.parts.observer

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of a player's observation in this variant (what a network reads)."""
        return tuple(self.observer.space.shape)

    def raw_env(self, **overrides: Any) -> BoardGameEnv:
        """The bare environment of this variant."""
        env: BoardGameEnv = self.module.raw_env(**{**self.kwargs, **overrides})
        return env

    def env(self, **overrides: Any) -> Any:
        """The environment with PettingZoo's standard wrappers."""
        return self.module.env(**{**self.kwargs, **overrides})


def variants() -> list[Variant]:
    """Every variant of every game, in a stable order."""
    found = []
    for env_id, module_name in GAMES.items():
        module = importlib.import_module(module_name)
        for label, kwargs in module.VARIANTS.items():
            found.append(Variant(label, env_id, module_name, dict(kwargs)))
    return found


def labels() -> list[str]:
    """The labels of every variant (``zoo-games list`` shows them)."""
    return [candidate.label for candidate in variants()]


def find_variant(label: str) -> Variant:
    """The variant called ``label``; ``ValueError`` listing the labels if there is none."""
    for candidate in variants():
        if candidate.label == label:
            return candidate
    raise ValueError(f"unknown variant {label!r}; known variants: {', '.join(labels())}")


def variants_of(game: Game) -> list[Variant]:
    """The variants whose rules are ``game``'s (they may differ in what players observe).

    A network trained on one of them plays any of them, reading the observation it was
    trained on. ``ValueError`` if no variant of the catalog has these rules.
    """
    found = [
        variant
        for variant in variants()
        if variant.game.name == game.name and variant.game.options() == game.options()
    ]
    if not found:
        raise ValueError(f"no variant of the catalog plays {game!r}")
    return found
