"""The batch loops shared by every game, compiled once per game against its kernels.

A game module (``senet.py``, ``togyz_kumalak.py``, ``santorini.py``) holds these numba
functions over ONE game, which read like the rules:

* ``play(row, action, config, rngs, game) -> outcome``: the mover plays a legal ``action``;
  the outcome is the rules core's ``winner``: ``NO_WINNER`` while the game goes on, else the
  winner 0 or 1, or ``DRAW`` (:mod:`zoo_games.core.game`);
* ``begin_turn(row, config, rngs, game)``: resolve chance before the mover decides (Senet
  throws its sticks; :func:`no_chance` for the other games);
* ``legal_mask(row, config, mask) -> count``: write the mover's legal actions, count them;
* ``outcome_without_moves(row, config) -> outcome``: how the game ends when ``legal_mask``
  finds no legal action for the mover (Santorini: the mover loses);
  :func:`always_an_action` for a game whose rules always leave the mover one (Senet's pass;
  Togyz Kumalak, whose ``play`` ends the game when the next mover has no ball), which never
  ends a game there;
* ``observe(row, config, out)``: write the mover's observation as bytes;
* ``kth_legal(row, mask, k)``: the ``k``-th of the mover's legal actions in increasing order
  (from 0), right after ``legal_mask``: :func:`kth_legal_in_mask` reads it off the mask; a game
  whose ``legal_mask`` lists its legal actions in the row reads the list (Senet),

and a :class:`GameKernels` describing its state row. Everything else is here and serves
every game alike: stepping a batch (apply the actions, resolve chance, find the legal
actions, end and restart finished games, write the observations, draw the next random legal
action), making freshly set games ready, sampling random legal actions, and checking a batch
of actions before anything is applied.

The next random legal action of every game is drawn inside the step, while the game's mask is
still in the cache, so that random play costs one threaded loop per step rather than two (a
threaded loop has a fixed cost per call: docs/batched.md, "Threads and compilation").

One game's state is one row of a ``uint8`` array; column :data:`MOVER` is the player to act
in every game. The observation is written as raw bytes into a ``uint8`` row and read by the
user through a view of the right dtype and shape (``int8``, ``uint8`` or ``float32``).

How the loops reach a game's functions: numba inlines calls to functions it finds as
globals, but a function passed as an argument is either called through a pointer (far
slower: docs/batched.md, "How it is built") or makes the caller uncacheable. So the loops
below are written once, as plain Python, against the global name ``game_kernels``, and
:func:`compile_loops` compiles a copy of them for each game module with ``game_kernels``
bound to it (cached on disk next to that module, under names prefixed with the game's).
The kernels and helpers are compiled with ``inline="always"``: inlined at numba's level, their
array arguments need no reference counting per call, which made the step faster
(docs/batched.md, "How it is built").

The batch loops themselves are compiled without numba's reference counting
(:data:`UNCOUNTED`). Every view a loop takes (``states[game]``, a kernel's ``row[BOARD:]``)
otherwise increments and decrements its array's reference count, an atomic operation through a
function call, several times per game: a large part of Senet's ``legal_mask``
(docs/batched.md). The loops allocate nothing and return no array, and the engine holds every
array they touch for the whole call, so the counts have nothing to protect. (``_nrt`` is
numba's own switch for its runtime, used by its test suite; a caller compiling its own loops
over the kernels, such as a search, gains the same by passing it.)
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from zoo_games.batched.rng import Integer, below
from zoo_games.batched.words import BYTE_ONES, byte_sum, bytes_at_most, read_at_most_eight
from zoo_games.core import game as core_game
from zoo_games.core.game import NO_WINNER, Game, GameState

#: Column of a state row holding the player to act (0 or 1), in every game.
MOVER = 0
#: Options of the batch loops: numba's reference counting off (see the module docstring).
UNCOUNTED: dict[str, Any] = {"_nrt": False}

#: The game module whose kernels a compiled copy of the loops below calls; each copy made
#: by :func:`compile_loops` binds it (the template itself is never compiled).
game_kernels: Any = None


@njit(cache=True, inline="always")
def no_chance(row: np.ndarray, config: np.ndarray, rngs: np.ndarray, game: Integer) -> None:
    """``begin_turn`` of a game without chance: the mover decides at once."""


@njit(cache=True, inline="always")
def always_an_action(row: np.ndarray, config: np.ndarray) -> int:
    """``outcome_without_moves`` of a game whose rules always leave the mover an action.

    ``legal_mask`` never finds none in such a game, and this path makes up no result: the
    game goes on (:data:`NO_WINNER`), so that only ``play`` ends it.
    """
    return NO_WINNER


@dataclass(frozen=True)
class GameKernels:
    """One game as the batched engine needs it.

    ``module`` holds the kernels (``play``, ``begin_turn``, ``legal_mask``,
    ``outcome_without_moves``, ``observe``, ``kth_legal``: see the module docstring);
    ``row_length`` is the number of ``uint8`` columns of a state row; ``config`` turns the
    rules core's game (and the variant's keyword options) into the ``int64`` options the
    kernels read; ``row_from_state`` and ``state_from_row`` convert between a
    state row and the rules core's state, exactly.
    """

    module: types.ModuleType
    row_length: int
    config: Callable[[Game, dict[str, Any]], list[int]]
    row_from_state: Callable[[GameState], np.ndarray]
    state_from_row: Callable[[Game, np.ndarray], GameState]


#: The rules core's :func:`~zoo_games.core.game.winner_returns`, compiled.
winner_returns = njit(cache=True, inline="always")(core_game.winner_returns)


def prepare_turn(
    config: np.ndarray, states: np.ndarray, rngs: np.ndarray, masks: np.ndarray, game: Integer
) -> int:
    """Resolve chance and write the mover's legal actions; return how many there are."""
    row = states[game]
    game_kernels.begin_turn(row, config, rngs, game)
    return game_kernels.legal_mask(row, config, masks[game])


def step_one(
    initial: np.ndarray,
    config: np.ndarray,
    states: np.ndarray,
    actions: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    sampled: np.ndarray,
    game: Integer,
) -> None:
    """Play one game's action; a finished game hands out its returns and starts again.

    Then write the observation of the player to move and draw its next random legal action.
    A game also ends when its next mover has no legal action, as the game's
    ``outcome_without_moves`` says.
    """
    row = states[game]
    outcome = game_kernels.play(row, actions[game], config, rngs, game)
    legal = 0
    if outcome == NO_WINNER:
        legal = prepare_turn(config, states, rngs, masks, game)
        if legal == 0:
            outcome = game_kernels.outcome_without_moves(row, config)
    if outcome == NO_WINNER:
        rewards[game, 0] = 0.0
        rewards[game, 1] = 0.0
        terminated[game] = False
    else:
        rewards[game, 0], rewards[game, 1] = winner_returns(outcome)
        terminated[game] = True
        for column in range(row.shape[0]):  # (``row[:] = initial`` would need numba's runtime)
            row[column] = initial[column]
        legal = prepare_turn(config, states, rngs, masks, game)
    game_kernels.observe(row, config, observations[game])
    sample_one(states, masks, rngs, sampled, game, legal)


def step_all(
    initial: np.ndarray,
    config: np.ndarray,
    states: np.ndarray,
    actions: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    sampled: np.ndarray,
) -> None:
    """Step every game of the batch: one after the other, or on numba's threads.

    Compiled twice (:func:`compile_loops`): ``prange`` is ``range`` in a copy compiled
    without ``parallel=True`` (small batches) and spreads the games over the threads in the
    other (large batches).
    """
    for game in prange(states.shape[0]):
        step_one(
            initial,
            config,
            states,
            actions,
            rngs,
            masks,
            observations,
            rewards,
            terminated,
            sampled,
            np.int64(game),
        )


def prepare_games(
    config: np.ndarray,
    states: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    sampled: np.ndarray,
    games: np.ndarray,
) -> None:
    """Make freshly set games ready: chance resolved, legal actions and observation written.

    The positions set into the engine are never finished ones (the rules cores' parsers
    refuse those), so the mover always has a legal action here.
    """
    for game in games:
        legal = prepare_turn(config, states, rngs, masks, game)
        game_kernels.observe(states[game], config, observations[game])
        sample_one(states, masks, rngs, sampled, game, legal)


class Loops(NamedTuple):
    """The batch loops compiled for one game."""

    step_serial: Any
    step_parallel: Any
    prepare_games: Any
    sample_serial: Any
    sample_parallel: Any


@cache
def compile_loops(module: types.ModuleType) -> Loops:
    """The loops of this module with ``game_kernels`` bound to the game ``module``.

    Each copy is a new function over the same bytecode, whose globals are this module's
    with ``game_kernels`` (and the copied helpers) replaced, whose name starts with the
    game's, and whose file is the game module's: numba caches it next to that module, and
    recompiles it when any file it may compile from changes (:mod:`zoo_games.batched.cache`).
    """
    namespace = dict(globals(), game_kernels=module)

    def copy(function: Any, suffix: str = "", **options: Any) -> Any:
        return compile_for_game(function, module, namespace, suffix, **options)

    copy(prepare_turn, inline="always")
    copy(sample_one, inline="always")
    copy(step_one, inline="always")
    return Loops(
        step_serial=copy(step_all, suffix="serial", **UNCOUNTED),
        step_parallel=copy(step_all, suffix="parallel", parallel=True, **UNCOUNTED),
        prepare_games=copy(prepare_games, **UNCOUNTED),
        sample_serial=copy(sample_all, suffix="serial", **UNCOUNTED),
        sample_parallel=copy(sample_all, suffix="parallel", parallel=True, **UNCOUNTED),
    )


def compile_for_game(
    function: Any,
    module: types.ModuleType,
    namespace: dict[str, Any],
    suffix: str = "",
    **options: Any,
) -> Any:
    """Compile a copy of template ``function`` for the game ``module``, over ``namespace``.

    The copy runs the same bytecode with ``namespace`` as its globals (where the caller binds
    ``game_kernels`` to ``module``); its name is prefixed with the game's and its file is the
    game module's, so that numba caches it next to that module. The compiled copy replaces
    the template in ``namespace``, so that later copies calling it inline the game's version.
    A template compiled twice with other ``options`` (serial and parallel) takes a ``suffix``
    for each copy's name: numba's cache tells its entries apart by name and line.
    """
    name = f"{module.__name__.rsplit('.', 1)[-1]}_{function.__name__}"
    if suffix:
        name += f"_{suffix}"
    code = function.__code__.replace(co_filename=module.__file__ or "", co_name=name)
    clone = types.FunctionType(code, namespace, name)
    clone.__qualname__ = name
    clone.__module__ = module.__name__
    clone.__doc__ = function.__doc__
    compiled = njit(cache=True, **options)(clone)
    namespace[function.__name__] = compiled
    return compiled


def compile_rule(function: Any, **compiled: Any) -> Any:
    """A plain rules function of a game package compiled as a kernel (inlined where called).

    The rules functions it calls are bound to their ``compiled`` versions, by name: numba
    runs compiled functions only, and the rules core's module stays free of numba.
    """
    clone = types.FunctionType(
        function.__code__, {**function.__globals__, **compiled}, function.__name__
    )
    clone.__qualname__ = function.__qualname__
    clone.__module__ = function.__module__
    clone.__doc__ = function.__doc__
    return njit(cache=True, inline="always")(clone)


@njit(cache=True, inline="always")
def count_legal(mask: np.ndarray) -> int:
    """How many actions a mask of 0/1 bytes allows, counted eight bytes at a time."""
    count = 0
    for first in range(0, mask.shape[0], 8):
        count += byte_sum(read_at_most_eight(mask, first))
    return count


@njit(cache=True, inline="always")
def kth_legal_in_mask(row: np.ndarray, mask: np.ndarray, k: Integer) -> int:
    """The ``k``-th legal action of a mask (counting from 0; the mask allows more than ``k``).

    The ``kth_legal`` of a game that keeps nothing but the mask (``row`` is not read).
    Eight bytes at a time: the legal actions of each word are counted (:func:`byte_sum`) until
    the word holding the ``k``-th one. Within that word, multiplying by ``BYTE_ONES`` turns
    each byte into the number of legal actions up to it, and the action's place is the number
    of bytes where that is at most the ``remaining`` legal actions to skip: the bytes before
    it. No branch per action, where a scan a byte at a time mispredicted at the action.
    """
    remaining = k
    first = 0
    while True:
        word = read_at_most_eight(mask, first)
        legal = byte_sum(word)
        if remaining < legal:
            return first + bytes_at_most(word * BYTE_ONES, remaining)
        remaining -= legal
        first += 8


def sample_one(
    states: np.ndarray,
    masks: np.ndarray,
    rngs: np.ndarray,
    actions: np.ndarray,
    game: Integer,
    count: Integer,
) -> None:
    """A uniformly random legal action of one game, which has ``count``: the k-th, k uniform."""
    actions[game] = game_kernels.kth_legal(states[game], masks[game], below(rngs, game, count))


def sample_all(
    states: np.ndarray, masks: np.ndarray, rngs: np.ndarray, actions: np.ndarray
) -> None:
    """One uniformly random legal action per game; compiled twice, as :func:`step_all`."""
    for game in prange(masks.shape[0]):
        sample_one(states, masks, rngs, actions, np.int64(game), count_legal(masks[game]))


@njit(cache=True)
def first_illegal(masks: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is out of range or not legal, or -1 if all are legal."""
    num_actions = masks.shape[1]
    for game in range(masks.shape[0]):
        action = actions[game]
        if action < 0 or action >= num_actions or not masks[game, action]:
            return game
    return -1
