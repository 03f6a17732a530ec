"""What every game's kernels look like, and the batch loops that run them, shared by all games.

A game module (``senet.py``, ``togyz_kumalak.py``, ``santorini.py``) describes one game as a
:class:`GameKernels`: four numba functions over ONE game, each with the fixed signature below,
and the conversions between its state row and the rules core's state. Everything else is here
and serves every game alike: stepping a batch (apply the actions, resolve chance, find the
legal actions, end and restart finished games, write the observations), sampling random legal
actions, and checking a batch of actions before anything is applied.

One game's state is one row of a ``uint8`` array: column :data:`MOVER` is the player to act in
every game, the other columns are the game's own (see each game module). The observation is
written as raw bytes into a ``uint8`` row and read by the user through a view of the right
dtype and shape (``int8``, ``uint8`` or ``float32``), so that one compiled loop serves every
encoding.

The game functions are passed to the loops as numba first-class functions with explicit
signatures: the loops are compiled once, cached on disk (``cache=True``), and call each game's
code through a function pointer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange, types

from zoo_games.batched.rng import below
from zoo_games.core.game import Game, GameState

#: Column of a state row holding the player to act (0 or 1), in every game.
MOVER = 0
#: What :attr:`GameKernels.play` returns while the game goes on; otherwise the winner 0 or
#: 1, or :data:`DRAW`.
ONGOING = -1
DRAW = 2

_ROW = types.Array(types.uint8, 1, "C")
_CONFIG = types.Array(types.int64, 1, "C")
_RNG = types.Array(types.uint64, 1, "C")
_MASK = types.Array(types.int8, 1, "C")
_OBSERVATION = types.Array(types.uint8, 1, "C")

#: ``play(row, action, config, rngs, game) -> outcome``: the mover plays a legal ``action``.
PLAY = types.int64(_ROW, types.int64, _CONFIG, _RNG, types.int64)
#: ``begin_turn(row, config, rngs, game)``: resolve chance before the mover decides.
BEGIN_TURN = types.void(_ROW, _CONFIG, _RNG, types.int64)
#: ``legal_mask(row, config, mask) -> count``: write the mover's legal actions, count them.
LEGAL_MASK = types.int64(_ROW, _CONFIG, _MASK)
#: ``observe(row, config, out)``: write the mover's observation bytes.
OBSERVE = types.void(_ROW, _CONFIG, _OBSERVATION)

_PLAY_F = types.FunctionType(PLAY)
_BEGIN_TURN_F = types.FunctionType(BEGIN_TURN)
_LEGAL_MASK_F = types.FunctionType(LEGAL_MASK)
_OBSERVE_F = types.FunctionType(OBSERVE)
_STATES = types.Array(types.uint8, 2, "C")
_MASKS = types.Array(types.int8, 2, "C")
_OBSERVATIONS = types.Array(types.uint8, 2, "C")
_GAME_FUNCTIONS = (_PLAY_F, _BEGIN_TURN_F, _LEGAL_MASK_F, _OBSERVE_F)


@njit(BEGIN_TURN, cache=True)
def no_chance(row: np.ndarray, config: np.ndarray, rngs: np.ndarray, game: int) -> None:
    """``begin_turn`` of a game without chance: the mover decides at once."""


@dataclass(frozen=True)
class GameKernels:
    """One game as the batched engine needs it.

    ``play``, ``begin_turn``, ``legal_mask`` and ``observe`` are numba functions compiled with
    the signatures :data:`PLAY`, :data:`BEGIN_TURN`, :data:`LEGAL_MASK` and :data:`OBSERVE`.
    ``row_length`` is the number of ``uint8`` columns of a state row; ``config`` turns the
    rules core's game (and the variant's keyword options) into the ``int64`` options the
    kernels read; ``row_from_state`` and ``state_from_row`` convert between a state row and
    the rules core's state, exactly.
    """

    play: Any
    begin_turn: Any
    legal_mask: Any
    observe: Any
    row_length: int
    config: Callable[[Game, dict[str, Any]], list[int]]
    row_from_state: Callable[[GameState], np.ndarray]
    state_from_row: Callable[[Game, np.ndarray], GameState]


@njit(cache=True)
def _returns(winner: int) -> tuple[float, float]:
    """Zero-sum returns of a finished game: +1/-1 by the winner, 0/0 for a draw."""
    if winner == 0:
        return 1.0, -1.0
    if winner == 1:
        return -1.0, 1.0
    return 0.0, 0.0


@njit(cache=True)
def _prepare_turn(
    begin_turn: Any,
    legal_mask: Any,
    states: np.ndarray,
    config: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    game: int,
) -> int:
    """Resolve chance and write the mover's legal actions; ``ONGOING``, or the winner.

    A player who has no legal action on its turn loses (the only way Santorini ends besides
    climbing; the other games always leave the mover an action, if only a pass).
    """
    row = states[game]
    begin_turn(row, config, rngs, game)
    if legal_mask(row, config, masks[game]) == 0:
        return 1 - row[MOVER]
    return ONGOING


@njit(cache=True)
def _step_one(
    play: Any,
    begin_turn: Any,
    legal_mask: Any,
    observe: Any,
    initial: np.ndarray,
    config: np.ndarray,
    states: np.ndarray,
    actions: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    game: int,
) -> None:
    """Play one game's action; a finished game hands out its returns and starts again."""
    row = states[game]
    outcome = play(row, actions[game], config, rngs, game)
    if outcome == ONGOING:
        outcome = _prepare_turn(begin_turn, legal_mask, states, config, rngs, masks, game)
    if outcome == ONGOING:
        rewards[game, 0] = 0.0
        rewards[game, 1] = 0.0
        terminated[game] = False
    else:
        rewards[game, 0], rewards[game, 1] = _returns(outcome)
        terminated[game] = True
        row[:] = initial
        _prepare_turn(begin_turn, legal_mask, states, config, rngs, masks, game)
    observe(row, config, observations[game])


_STEP_SIGNATURE = types.void(
    *_GAME_FUNCTIONS,
    _ROW,
    _CONFIG,
    _STATES,
    types.Array(types.int64, 1, "C"),
    _RNG,
    _MASKS,
    _OBSERVATIONS,
    types.Array(types.float32, 2, "C"),
    types.Array(types.boolean, 1, "C"),
)


@njit(_STEP_SIGNATURE, cache=True)
def step_serial(
    play: Any,
    begin_turn: Any,
    legal_mask: Any,
    observe: Any,
    initial: np.ndarray,
    config: np.ndarray,
    states: np.ndarray,
    actions: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
) -> None:
    """Step every game of the batch, one after the other (small batches)."""
    for game in range(states.shape[0]):
        _step_one(
            play, begin_turn, legal_mask, observe, initial, config, states, actions,
            rngs, masks, observations, rewards, terminated, game,
        )  # fmt: skip


@njit(_STEP_SIGNATURE, cache=True, parallel=True)
def step_parallel(
    play: Any,
    begin_turn: Any,
    legal_mask: Any,
    observe: Any,
    initial: np.ndarray,
    config: np.ndarray,
    states: np.ndarray,
    actions: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
) -> None:
    """Step every game of the batch on numba's threads (large batches)."""
    for game in prange(states.shape[0]):
        _step_one(
            play, begin_turn, legal_mask, observe, initial, config, states, actions,
            rngs, masks, observations, rewards, terminated, np.int64(game),
        )  # fmt: skip


@njit(
    types.void(*_GAME_FUNCTIONS[1:], _CONFIG, _STATES, _RNG, _MASKS, _OBSERVATIONS,
               types.Array(types.int64, 1, "C")),
    cache=True,
)  # fmt: skip
def prepare_games(
    begin_turn: Any,
    legal_mask: Any,
    observe: Any,
    config: np.ndarray,
    states: np.ndarray,
    rngs: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    games: np.ndarray,
) -> None:
    """Make freshly set games ready: chance resolved, legal actions and observation written.

    The positions set into the engine are never finished ones (the rules cores' parsers
    refuse those), so the mover always has a legal action here.
    """
    for game in games:
        _prepare_turn(begin_turn, legal_mask, states, config, rngs, masks, game)
        observe(states[game], config, observations[game])


@njit(cache=True)
def _sample_one(masks: np.ndarray, rngs: np.ndarray, actions: np.ndarray, game: int) -> None:
    """A uniformly random legal action of one game: the k-th legal one, k uniform."""
    mask = masks[game]
    count = 0
    for action in range(mask.shape[0]):
        count += mask[action]
    chosen = below(rngs, game, count)
    for action in range(mask.shape[0]):
        if mask[action]:
            if chosen == 0:
                actions[game] = action
                return
            chosen -= 1


_SAMPLE_SIGNATURE = types.void(_MASKS, _RNG, types.Array(types.int64, 1, "C"))


@njit(_SAMPLE_SIGNATURE, cache=True)
def sample_serial(masks: np.ndarray, rngs: np.ndarray, actions: np.ndarray) -> None:
    """One uniformly random legal action per game, one game after the other."""
    for game in range(masks.shape[0]):
        _sample_one(masks, rngs, actions, game)


@njit(_SAMPLE_SIGNATURE, cache=True, parallel=True)
def sample_parallel(masks: np.ndarray, rngs: np.ndarray, actions: np.ndarray) -> None:
    """One uniformly random legal action per game, on numba's threads."""
    for game in prange(masks.shape[0]):
        _sample_one(masks, rngs, actions, np.int64(game))


@njit(types.int64(_MASKS, types.Array(types.int64, 1, "C")), cache=True)
def first_illegal(masks: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is out of range or not legal, or -1 if all are legal."""
    num_actions = masks.shape[1]
    for game in range(masks.shape[0]):
        action = actions[game]
        if action < 0 or action >= num_actions or not masks[game, action]:
            return game
    return -1
