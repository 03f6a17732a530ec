"""Togyz Kumalak kernels over one game's state row, every observation encoding.

Each function reads like the rule it implements, quoted in its docstring; they are tested
move for move against the rules core ``zoo_games/togyz_kumalak/rules.py`` and against the
plain statement of the rules, ``zoo_games/togyz_kumalak/reference.py``.

State row (``uint8``): ``[mover, White's kazan, Black's kazan, White's tuzduk, Black's tuzduk,
hole 0 .. hole 17]``. Holes are numbered as in the rules core: 0-8 White's holes 1-9, 9-17
Black's, so sowing walks the indices upwards modulo 18. A tuzduk is the board hole a player
owns, :data:`NONE` (255) before it makes one. Every count fits a byte: a game has 162 balls.
Options: ``[stop_at_majority, encoding]``, the encoding's index in ``ENCODINGS``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import (
    MOVER,
    GameKernels,
    always_an_action,
    compile_rule,
    kth_legal_in_mask,
    no_chance,
)
from zoo_games.batched.rng import Integer
from zoo_games.core.game import NO_WINNER
from zoo_games.togyz_kumalak import evaluation, observation, rules
from zoo_games.togyz_kumalak.holes import HOLES_PER_SIDE, NO_TUZDUK, NUM_HOLES, WINNING_KAZAN
from zoo_games.togyz_kumalak.observation import (
    BOARD_LENGTH,
    DEFAULT_ENCODING,
    ENCODINGS,
)
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame, TogyzKumalakState

KAZAN = 1
TUZDUK = 3
HOLES = 5
ROW_LENGTH = HOLES + NUM_HOLES
#: A player without a tuzduk (the rules core's ``NO_TUZDUK``, as a byte).
NONE = 255
#: Options.
STOP_AT_MAJORITY, ENCODING = 0, 1
#: The encodings, by their index in ``ENCODINGS``.
TESAURO, CAPTURES = ENCODINGS.index("tesauro"), ENCODINGS.index("captures")

#: No chance in this game: the mover decides at once.
begin_turn = no_chance
kth_legal = kth_legal_in_mask


@njit(cache=True, inline="always")
def legal_mask(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """Rule: "A player sows from any of its holes that holds balls" (a tuzduk never does)."""
    first = HOLES + HOLES_PER_SIDE * row[MOVER]
    count = 0
    for action in range(HOLES_PER_SIDE):
        legal = row[first + action] > 0
        mask[action] = legal
        count += legal
    return count


#: The observer's Tesauro values of a hole and of a kazan, compiled.
write_tesauro_hole = compile_rule(observation.write_tesauro_hole)
write_tesauro_kazan = compile_rule(observation.write_tesauro_kazan)
#: The rules core's rules of where a tuzduk may be made and of who wins by atsis kalu, compiled.
tuzduk_allowed = compile_rule(rules.tuzduk_allowed)
winner_by_kazans = compile_rule(rules.winner_by_kazans)


@njit(cache=True, inline="always")
def may_make_tuzduk(row: np.ndarray, player: Integer, hole: Integer) -> bool:
    """Whether ``player`` may turn the opponent's board hole ``hole`` into its tuzduk.

    Rule: "A player makes one tuzduk per game, never on the opponent's ninth hole, and never
    on the hole with the number of the opponent's tuzduk" (:func:`tuzduk_allowed`).
    """
    mine, theirs = row[TUZDUK + player], row[TUZDUK + 1 - player]
    return tuzduk_allowed(
        hole % HOLES_PER_SIDE, mine != NONE, theirs != NONE, theirs % HOLES_PER_SIDE
    )


@njit(cache=True, inline="always")
def sow(row: np.ndarray, mover: Integer, start: Integer) -> None:
    """Sow the balls of board hole ``start`` for the mover, then capture.

    Rule: "Take all the balls of a hole and sow them one by one counterclockwise, the first
    back into the hole they came from (a lone ball goes to the next hole). A ball falling into
    a tuzduk goes to its owner's kazan. If the last ball makes an opponent's hole even, the
    mover captures it; if it makes it three, the hole may become the mover's tuzduk."
    """
    holes = row[HOLES:]
    balls = holes[start]
    holes[start] = 0
    hole = start if balls > 1 else (start + 1) % NUM_HOLES
    for _ in range(balls):
        holes[hole] += 1
        hole = hole + 1 if hole < NUM_HOLES - 1 else 0
    last = hole - 1 if hole > 0 else NUM_HOLES - 1
    # A tuzduk is empty between moves: what fell into it during the sowing goes to its owner.
    for player in range(2):
        tuzduk = row[TUZDUK + player]
        if tuzduk != NONE:
            row[KAZAN + player] += holes[tuzduk]
            holes[tuzduk] = 0
    if last // HOLES_PER_SIDE == mover or last == row[TUZDUK] or last == row[TUZDUK + 1]:
        return
    count = holes[last]
    if count % 2 == 0:
        row[KAZAN + mover] += count
        holes[last] = 0
    elif count == 3 and may_make_tuzduk(row, mover, last):
        row[KAZAN + mover] += count
        holes[last] = 0
        row[TUZDUK + mover] = last


@njit(cache=True, inline="always")
def play(
    row: np.ndarray, action: Integer, config: np.ndarray, rngs: np.ndarray, game: Integer
) -> int:
    """Sow the mover's hole ``action + 1``, hand over the move, and check for the end.

    Rule: "A kazan of 82 balls wins (unless every game is played out). A player who has no
    ball to sow on its turn cannot move (atsis kalu): the opponent keeps the balls of its own
    row, and the larger kazan wins; 81-81 is a draw."
    """
    mover = row[MOVER]
    sow(row, mover, HOLES_PER_SIDE * mover + action)
    row[MOVER] = 1 - mover
    white, black = row[KAZAN], row[KAZAN + 1]
    if config[STOP_AT_MAJORITY] == 1 and (white >= WINNING_KAZAN or black >= WINNING_KAZAN):
        return 0 if white >= WINNING_KAZAN else 1
    to_move = HOLES + HOLES_PER_SIDE * row[MOVER]
    for hole in range(to_move, to_move + HOLES_PER_SIDE):
        if row[hole]:
            return NO_WINNER
    other = 1 - row[MOVER]
    theirs = HOLES + HOLES_PER_SIDE * other
    for hole in range(theirs, theirs + HOLES_PER_SIDE):
        row[KAZAN + other] += row[hole]
        row[hole] = 0
    return winner_by_kazans(row[KAZAN], row[KAZAN + 1])


#: ``play`` ends the game as soon as the next mover has no ball to sow (atsis kalu), so a
#: mover always has a legal action.
outcome_without_moves = always_an_action


@njit(cache=True, inline="always")
def observe_board(row: np.ndarray, out: np.ndarray) -> None:
    """The mover's ``"board"`` view, as ``BoardObserver`` makes it.

    Its holes, the opponent's, its kazan, the opponent's, its tuzduk one-hot over the
    opponent's holes, the opponent's over its own, and 1 (it is to move).
    """
    player = row[MOVER]
    opponent = 1 - player
    mine, theirs = HOLES + HOLES_PER_SIDE * player, HOLES + HOLES_PER_SIDE * opponent
    for number in range(HOLES_PER_SIDE):
        out[number] = row[mine + number]
        out[HOLES_PER_SIDE + number] = row[theirs + number]
        out[20 + number] = row[TUZDUK + player] == theirs - HOLES + number
        out[29 + number] = row[TUZDUK + opponent] == mine - HOLES + number
    out[18] = row[KAZAN + player]
    out[19] = row[KAZAN + opponent]
    out[BOARD_LENGTH - 1] = 1


@njit(cache=True, inline="always")
def observe_tesauro(row: np.ndarray, out: np.ndarray) -> None:
    """The ``"tesauro"`` view (``TesauroObserver``), the same for both players, as float32.

    For White's row then Black's: holes 1-8 give ``n >= 1``, ``n >= 2``, ``n mod 2``,
    ``(n mod 9) / 8``, ``(n mod 18) / 17``, ``n / 9`` and whether the hole is a tuzduk; hole 9
    the same without ``n >= 2`` and the tuzduk flag; then the kazan ``min(k, 82) / 82`` and
    whether it holds more than the other; last, ``[1, 0]`` if White is to move, else ``[0, 1]``.
    The values of a hole and of a kazan are the observer's own functions, compiled.
    """
    values = out.view(np.float32)
    index = 0
    for side in range(2):
        for number in range(HOLES_PER_SIDE):
            hole = HOLES_PER_SIDE * side + number
            tuzduk = hole == row[TUZDUK] or hole == row[TUZDUK + 1]
            index = write_tesauro_hole(values, index, row[HOLES + hole], number, tuzduk)
        kazan, other = row[KAZAN + side], row[KAZAN + 1 - side]
        index = write_tesauro_kazan(values, index, kazan, kazan > other)
    values[index] = row[MOVER] == 0
    values[index + 1] = row[MOVER] == 1


#: The observer's sowing effects, compiled, and the tables they are read off.
write_sowing_effects = compile_rule(observation.write_sowing_effects)
LANDINGS, SOWN, MAY_MAKE_TUZDUK = observation.SOWING_TABLES


@njit(cache=True, inline="always")
def tuzduk_of(row: np.ndarray, player: Integer) -> int:
    """The board hole of ``player``'s tuzduk, the rules core's ``NO_TUZDUK`` for none."""
    hole = row[TUZDUK + player]
    return NO_TUZDUK if hole == NONE else int(hole)


@njit(cache=True, inline="always")
def observe_captures(row: np.ndarray, out: np.ndarray) -> None:
    """The ``"captures"`` view (``CapturesObserver``): the board, then each sowing's effect.

    For the mover's holes 1-9, then the opponent's, as if each hole's owner were to move: the
    balls its kazan would gain, the balls the other kazan would gain, whether it would make a
    tuzduk; 0 for an empty hole.
    """
    observe_board(row, out)
    holes = row[HOLES:]
    player = row[MOVER]
    mine, theirs = tuzduk_of(row, player), tuzduk_of(row, 1 - player)
    index = write_sowing_effects(
        out, BOARD_LENGTH, holes, player, mine, theirs, LANDINGS, SOWN, MAY_MAKE_TUZDUK
    )
    write_sowing_effects(
        out, index, holes, 1 - player, theirs, mine, LANDINGS, SOWN, MAY_MAKE_TUZDUK
    )


@njit(cache=True, inline="always")
def observe(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """The mover's observation in the variant's encoding."""
    if config[ENCODING] == TESAURO:
        observe_tesauro(row, out)
    elif config[ENCODING] == CAPTURES:
        observe_captures(row, out)
    else:
        observe_board(row, out)


def config(game: Any, options: dict[str, Any]) -> list[int]:
    """``[stop_at_majority, encoding]`` of a :class:`TogyzKumalakGame` and its encoding."""
    assert isinstance(game, TogyzKumalakGame)
    encoding = ENCODINGS.index(options.get("observation", DEFAULT_ENCODING))
    return [int(game.stop_at_majority), encoding]


def row_from_state(state: Any) -> np.ndarray:
    """The state row of a rules-core :class:`TogyzKumalakState`."""
    assert isinstance(state, TogyzKumalakState)
    row = np.zeros(ROW_LENGTH, dtype=np.uint8)
    row[MOVER] = state.mover
    row[KAZAN : KAZAN + 2] = state.kazans
    row[TUZDUK : TUZDUK + 2] = [NONE if t == NO_TUZDUK else t for t in state.tuzduk]
    row[HOLES:] = np.frombuffer(bytes(state.holes), dtype=np.uint8)
    return row


def state_from_row(game: Any, row: np.ndarray) -> TogyzKumalakState:
    """The rules-core :class:`TogyzKumalakState` of a state row."""
    tuzduk = [NO_TUZDUK if t == NONE else int(t) for t in row[TUZDUK : TUZDUK + 2]]
    kazans = [int(row[KAZAN]), int(row[KAZAN + 1])]
    return TogyzKumalakState(game, bytes(row[HOLES:]), kazans, tuzduk, int(row[MOVER]))


KERNELS = GameKernels(
    module=sys.modules[__name__],
    row_length=ROW_LENGTH,
    config=config,
    row_from_state=row_from_state,
    state_from_row=state_from_row,
)


# ---------------------------------------------------------------------- for tree search
#: The rules core's count that rules out a win in one, compiled.
may_win_at_once = compile_rule(evaluation.may_win_at_once)


@njit(cache=True, inline="always")
def winning_action(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """A move of the mover (legal in ``mask``) that wins at once, or -1.

    As ``zoo_games.togyz_kumalak.evaluation.winning_actions``: the moves are tried on a copy
    only when counting cannot rule a win out
    (:func:`zoo_games.togyz_kumalak.evaluation.may_win_at_once`, compiled). Cheap enough for
    tree search to ask at every move of a rollout.
    """
    mover = row[MOVER]
    own = HOLES + HOLES_PER_SIDE * mover
    theirs = HOLES + HOLES_PER_SIDE * (1 - mover)
    most_own, most_theirs, total_theirs = 0, 0, 0
    for number in range(HOLES_PER_SIDE):
        most_own = max(most_own, int(row[own + number]))
        most_theirs = max(most_theirs, int(row[theirs + number]))
        total_theirs += row[theirs + number]
    kazan = np.int64(row[KAZAN + mover])
    stop_at_majority = config[STOP_AT_MAJORITY] == 1
    if not may_win_at_once(kazan, most_own, most_theirs, total_theirs, stop_at_majority):
        return -1
    copy = np.empty_like(row)
    for action in range(HOLES_PER_SIDE):
        if mask[action]:
            copy[:] = row
            if play(copy, action, config, rngs, 0) == mover:
                return action
    return -1


#: The rules core's evaluation of a game in progress, compiled.
score = compile_rule(evaluation.score)


@njit(cache=True, inline="always")
def evaluate(row: np.ndarray, config: np.ndarray, player: Integer) -> float:
    """``zoo_games.togyz_kumalak.evaluation.evaluate`` of the row's position, for ``player``.

    The return once the game is over (a kazan of 82 where that ends the game, or a mover
    without balls, whose opponent's balls ``play`` has already collected), else the rules
    core's :func:`~zoo_games.togyz_kumalak.evaluation.score` of the player's leads in balls
    and tuzduks, compiled (so the same float).
    """
    own, other = np.int64(row[KAZAN + player]), np.int64(row[KAZAN + 1 - player])
    if config[STOP_AT_MAJORITY] == 1 and (own >= WINNING_KAZAN or other >= WINNING_KAZAN):
        return 1.0 if own >= WINNING_KAZAN else -1.0
    to_move = HOLES + HOLES_PER_SIDE * row[MOVER]
    stuck = True
    for hole in range(to_move, to_move + HOLES_PER_SIDE):
        if row[hole]:
            stuck = False
            break
    if stuck:
        return 0.0 if own == other else (1.0 if own > other else -1.0)
    made = np.int64(row[TUZDUK + player] != NONE) - np.int64(row[TUZDUK + 1 - player] != NONE)
    return score(own - other, made)
