"""How the searches' compiled code reaches one game's kernels: templates bound per game.

As the batch loops (:func:`zoo_games.batched.batch.compile_loops`), the searches' functions
that call a game's kernels are templates written once against global names, and each search
compiles a copy of them per game module with those names bound (numba inlines a function it
finds as a global, where one passed as an argument would be called through a pointer):

* ``game_kernels``: the game module;
* ``chance_outcome(row)``: the game module's function of that name if it has one (Senet: the
  throw, 0 while the sticks are still to be thrown), else :func:`no_chance_outcome`;
* ``set_chance_outcome(row, outcome)``: the game module's function of that name if it has one
  (Senet: makes ``outcome`` the throw), else :func:`no_set_chance_outcome`;
* ``OUTCOME_PROBABILITY``: the game module's array of that name, indexed by outcome.

:func:`game_namespace` makes those bindings and compiles the kernel calls below, once per
game; a search adds its own templates to a copy of it (:func:`search_namespace`). The
copies are cached by numba next to the game module and recompiled when any file they may
compile from changes (:mod:`zoo_games.batched.cache`).
"""

from __future__ import annotations

import types
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import compile_for_game
from zoo_games.batched.rng import Integer

#: Bound per game module by :func:`game_namespace` (the templates are never compiled).
game_kernels: Any = None
OUTCOME_PROBABILITY = np.zeros(1)


@njit(cache=True, inline="always")
def no_chance_outcome(row: np.ndarray) -> int:
    """``chance_outcome`` of a game without chance: never 0, so no node is a chance node."""
    return -1


def chance_outcome(row: np.ndarray) -> int:
    """Template: bound to the game's ``chance_outcome`` or to :func:`no_chance_outcome`."""
    raise NotImplementedError


@njit(cache=True, inline="always")
def no_set_chance_outcome(row: np.ndarray, outcome: Integer) -> None:
    """``set_chance_outcome`` of a game without chance: it has no outcome to set."""


def set_chance_outcome(row: np.ndarray, outcome: Integer) -> None:
    """Template: bound to the game's ``set_chance_outcome`` or to :func:`no_set_chance_outcome`."""
    raise NotImplementedError


def play_move(
    row: np.ndarray, action: Integer, config: np.ndarray, rngs: np.ndarray, game: Integer
) -> int:
    """The game's ``play``, compiled once (the kernels are inlined where they are called)."""
    return int(game_kernels.play(row, action, config, rngs, game))


def find_legal(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """The game's ``legal_mask``, compiled once."""
    return int(game_kernels.legal_mask(row, config, mask))


def resolve_chance(row: np.ndarray, config: np.ndarray, rngs: np.ndarray, game: Integer) -> None:
    """The game's ``begin_turn`` with generator ``game`` of ``rngs``, compiled once."""
    game_kernels.begin_turn(row, config, rngs, game)


@cache
def game_namespace(module: types.ModuleType) -> dict[str, Any]:
    """The bindings of ``module`` (see the module docstring) and its kernel calls, compiled."""
    namespace = dict(globals(), game_kernels=module)
    namespace["chance_outcome"] = getattr(module, "chance_outcome", no_chance_outcome)
    namespace["set_chance_outcome"] = getattr(module, "set_chance_outcome", no_set_chance_outcome)
    namespace["OUTCOME_PROBABILITY"] = getattr(module, "OUTCOME_PROBABILITY", np.zeros(1))
    for function in (play_move, find_legal, resolve_chance):
        compile_for_game(function, module, namespace)
    return namespace


def search_namespace(module: types.ModuleType, *search_globals: dict[str, Any]) -> dict[str, Any]:
    """The globals a search's templates are compiled over for the game ``module``.

    The search modules' globals (``search_globals``), with the game's bindings and compiled
    kernel calls (:func:`game_namespace`) in place of the templates of the same names. The
    search compiles its templates into it with :func:`~zoo_games.batched.batch.compile_for_game`,
    callees first or not: numba resolves a compiled copy's globals when it is first called.
    """
    namespace: dict[str, Any] = {}
    for names in search_globals:
        namespace.update(names)
    namespace.update(game_namespace(module))
    return namespace
