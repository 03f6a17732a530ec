"""What a Togyz Kumalak player sees, in three encodings.

``"captures"`` (default): the board, then what sowing each hole of either player would take
now.
``"board"``: the board from the observer's side, as ``uint8`` counts (a hole or a kazan can
hold up to 162 balls, more than ``int8`` holds; ``uint8`` holds them exactly).
``"tesauro"``: the 128-value encoding of the earlier single-agent gym, built from its
formulas, from White's side for both players.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from zoo_games.togyz_kumalak.holes import (
    HOLES_PER_SIDE,
    NO_TUZDUK,
    NUM_HOLES,
    TOTAL_BALLS,
    WINNING_KAZAN,
)
from zoo_games.togyz_kumalak.rules import (
    TogyzKumalakState,
    balls_sown_into,
    sowing_plan,
    tuzduk_allowed,
)

ENCODINGS = ("board", "tesauro", "captures")
#: What a network learns from fastest (docs/training.md measures it): where each sowing ends
#: and what it takes is what decides this game, and it is costly to learn from counts alone.
DEFAULT_ENCODING = "captures"
BOARD_LENGTH = 4 * HOLES_PER_SIDE + 3  # 39
TESAURO_LENGTH = 128
#: Per player: for each of its holes, its kazan's gain, the other kazan's, a tuzduk made.
EFFECTS_PER_SIDE = 3 * HOLES_PER_SIDE
CAPTURES_LENGTH = BOARD_LENGTH + 2 * EFFECTS_PER_SIDE  # 93
_BOARD_SHAPE = (BOARD_LENGTH,)
_UINT8 = np.dtype(np.uint8)
_TESAURO_SHAPE = (TESAURO_LENGTH,)
_FLOAT32 = np.dtype(np.float32)
_CAPTURES_SHAPE = (CAPTURES_LENGTH,)


class BoardObserver:
    """The board from the observer's side: 39 ``uint8`` values.

    ======= ==========================================================================
    index   meaning
    ======= ==========================================================================
    0-8     balls in the observer's holes 1-9
    9-17    balls in the opponent's holes 1-9
    18      the observer's kazan
    19      the opponent's kazan
    20-28   1 at the opponent's hole that is the observer's tuzduk
    29-37   1 at the observer's hole that is the opponent's tuzduk
    38      1 if the observer is to move
    ======= ==========================================================================
    """

    def __init__(self) -> None:
        high = np.full(BOARD_LENGTH, TOTAL_BALLS, dtype=np.uint8)
        high[20:] = 1
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.uint8)
        # The last 19 values (both tuzduks and the flag to move) as bytes, by the board holes
        # of the observer's and the opponent's tuzduks, each shifted by one so that
        # NO_TUZDUK (-1) indexes 0, then by whether the observer is to move.
        self._tails = [
            [
                (plane + b"\0", plane + b"\1")
                for plane in (
                    self._tuzduk_plane(own, theirs) for theirs in range(NO_TUZDUK, NUM_HOLES)
                )
            ]
            for own in range(NO_TUZDUK, NUM_HOLES)
        ]

    @staticmethod
    def _tuzduk_plane(own: int, theirs: int) -> bytes:
        plane = bytearray(2 * HOLES_PER_SIDE)
        if own != NO_TUZDUK:
            plane[own % HOLES_PER_SIDE] = 1
        if theirs != NO_TUZDUK:
            plane[HOLES_PER_SIDE + theirs % HOLES_PER_SIDE] = 1
        return bytes(plane)

    def observe(self, state: TogyzKumalakState, player: int) -> np.ndarray:
        """The 39 values described in the class docstring."""
        # Every value fits a byte (at most 162), so the vector is assembled as bytes.
        holes = state.holes
        white_kazan, black_kazan = state.kazans
        tail = self._tails[state.tuzduk[player] + 1][state.tuzduk[1 - player] + 1][
            state.mover == player and state.winner < 0
        ]
        if player:
            values = bytearray().join(
                (
                    holes[HOLES_PER_SIDE:],
                    holes[:HOLES_PER_SIDE],
                    bytes((black_kazan, white_kazan)),
                    tail,
                )
            )
        else:
            values = holes + bytes((white_kazan, black_kazan)) + tail
        # np.ndarray over the bytearray: no copy, and cheaper than np.frombuffer (more so with
        # a shape tuple and a dtype object, which it need not convert).
        return np.ndarray(_BOARD_SHAPE, _UINT8, values)


class CapturesObserver:
    """The ``"board"`` values, then what sowing each hole would do now: 93 ``uint8`` values.

    A network reading raw counts must learn where a sowing ends (the count modulo 18) and
    whether it leaves an even count there before it can see a capture; a greedy player reads
    that off the rules. This encoding hands it over: for every hole of both players, as if
    its owner were to move, what the sowing would put in each kazan and whether it would make
    a tuzduk. The opponent's half is the threats the observer faces.

    ======= ==========================================================================
    index   meaning
    ======= ==========================================================================
    0-38    the ``"board"`` encoding (:class:`BoardObserver`)
    39-47   sowing the observer's hole 1-9: balls the observer's kazan gains
    48-56   the same sowing: balls the opponent's kazan gains (sown into its tuzduk)
    57-65   the same sowing: 1 if it makes the observer a tuzduk
    66-74   sowing the opponent's hole 1-9: balls the opponent's kazan gains
    75-83   the same sowing: balls the observer's kazan gains
    84-92   the same sowing: 1 if it makes the opponent a tuzduk
    ======= ==========================================================================

    An empty hole (or a tuzduk) sows nothing: its values are 0. The effects are those of the
    sowing alone; a move that ends the game by leaving the opponent without a ball
    (atsis kalu) also settles the rows, which is not shown.
    """

    def __init__(self) -> None:
        self._board = BoardObserver()
        per_side = [TOTAL_BALLS] * (2 * HOLES_PER_SIDE) + [1] * HOLES_PER_SIDE
        high = np.concatenate([self._board.space.high, np.array(2 * per_side, dtype=np.uint8)])
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.uint8)

    def observe(self, state: TogyzKumalakState, player: int) -> np.ndarray:
        """The 93 values described in the class docstring."""
        holes, (white_tuzduk, black_tuzduk) = state.holes, state.tuzduk
        mine, theirs = (white_tuzduk, black_tuzduk) if player == 0 else (black_tuzduk, white_tuzduk)
        values = bytearray(self._board.observe(state, player).tobytes())
        values += bytes(2 * EFFECTS_PER_SIDE)
        index = write_sowing_effects(values, BOARD_LENGTH, holes, player, mine, theirs, *_TABLES)
        write_sowing_effects(values, index, holes, 1 - player, theirs, mine, *_TABLES)
        return np.ndarray(_CAPTURES_SHAPE, _UINT8, values)


#: The last ball of a sowing lands in its sower's own row, where it captures nothing.
NO_LANDING = -1


def sowing_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`write_sowing_effects` reads instead of counting each sowing again.

    ``landings[start, balls]``: the hole of the other row where the last of ``balls`` sown
    from board hole ``start`` lands, or :data:`NO_LANDING`; ``sown[start, balls, hole]``: the
    balls that sowing drops into each board hole (:func:`rules.sowing_plan`,
    :func:`rules.balls_sown_into`); ``may_make[made, theirs, number]``: whether a player who
    has (1) or has not (0) made a tuzduk may make one of the opponent's hole ``number`` (0-8)
    while the opponent's tuzduk is board hole ``theirs`` (-1, the last index, for none).
    """
    landings = np.full((NUM_HOLES, TOTAL_BALLS + 1), NO_LANDING, dtype=np.int16)
    sown = np.zeros((NUM_HOLES, TOTAL_BALLS + 1, NUM_HOLES), dtype=np.uint8)
    for start in range(NUM_HOLES):
        for balls in range(1, TOTAL_BALLS + 1):
            first, end, laps, last = sowing_plan(start, balls)
            if last // HOLES_PER_SIDE != start // HOLES_PER_SIDE:
                landings[start, balls] = last
            for hole in range(NUM_HOLES):
                sown[start, balls, hole] = balls_sown_into(hole, first, end, laps)
    may_make = np.zeros((2, NUM_HOLES + 1, HOLES_PER_SIDE), dtype=np.uint8)
    for made in (0, 1):
        for theirs in (*range(NUM_HOLES), NO_TUZDUK):
            for number in range(HOLES_PER_SIDE):
                may_make[made, theirs, number] = tuzduk_allowed(
                    number, bool(made), theirs != NO_TUZDUK, theirs % HOLES_PER_SIDE
                )
    return landings, sown, may_make


def write_sowing_effects(
    out: MutableSequence[int] | np.ndarray,
    index: int,
    holes: Sequence[int] | np.ndarray,
    side: int,
    mine: int,
    theirs: int,
    landings: Any,
    sown: Any,
    may_make: Any,
) -> int:
    """Write what sowing each hole of ``side`` would do from ``out[index]``; the next index.

    For holes 1-9 of ``side`` as if it were to move: the balls its kazan would gain, those the
    other kazan would gain, 1 if it would make a tuzduk (the layout of
    :class:`CapturesObserver`); the same as :func:`rules.sowing_effect`, read off the tables
    of :func:`sowing_tables` (``landings``, ``sown``, ``may_make``, as nested sequences or
    arrays), since an observation asks it of 18 holes at every step. ``mine`` and ``theirs``
    are the board holes of ``side``'s and the opponent's tuzduks (``NO_TUZDUK`` for none).
    Plain Python over ints: the batched kernels compile this very function.
    """
    first_hole = side * HOLES_PER_SIDE
    allowed = may_make[int(mine != NO_TUZDUK)][theirs]
    for number in range(HOLES_PER_SIDE):
        hole = first_hole + number
        balls = holes[hole]
        gain = other = made = 0
        if balls:
            dropped = sown[hole][balls]
            if mine != NO_TUZDUK:
                gain = dropped[mine]
            if theirs != NO_TUZDUK:
                other = dropped[theirs]
            last = landings[hole][balls]
            if last != NO_LANDING and last != mine:
                # The last ball is in the opponent's row, which the sowing did not start from.
                count = holes[last] + dropped[last]
                if count % 2 == 0:
                    gain += count
                elif count == 3 and allowed[last % HOLES_PER_SIDE]:
                    gain += count
                    made = 1
        out[index + number] = gain
        out[index + HOLES_PER_SIDE + number] = other
        out[index + 2 * HOLES_PER_SIDE + number] = made
    return index + EFFECTS_PER_SIDE


#: The tables of :func:`sowing_tables`, built once: as arrays for the batched kernels, and as
#: nested lists, which plain Python indexes fastest, for :class:`CapturesObserver`.
SOWING_TABLES = sowing_tables()
_TABLES = tuple(table.tolist() for table in SOWING_TABLES)


class TesauroObserver:
    """128 ``float32`` features in the style of Tesauro's backgammon encoding.

    For White's row then Black's: holes 1-8 give 7 values each (``n >= 1``, ``n >= 2``,
    ``n mod 2``, ``(n mod 9) / 8``, ``(n mod 18) / 17``, ``n / 9``, tuzduk), hole 9 gives 5
    (``n >= 1``, ``n mod 2``, ``(n mod 9) / 8``, ``(n mod 18) / 17``, ``n / 9``), then the
    kazan (``min(k, 82) / 82``) and whether it holds more than the other kazan. The last two
    values are ``[1, 0]`` when White acts next and ``[0, 1]`` when Black does (both zero once
    the game is over). Both players see the same vector. ``n / 9`` reaches 18 for 162 balls,
    which is the space's bound.
    """

    def __init__(self) -> None:
        high = np.ones(TESAURO_LENGTH, dtype=np.float32)
        for side in (0, 1):
            base = side * 63
            for number in range(8):
                high[base + 7 * number + 5] = TOTAL_BALLS / 9
            high[base + 56 + 4] = TOTAL_BALLS / 9
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32)

    def observe(self, state: TogyzKumalakState, player: int) -> np.ndarray:
        """The 128 values described in the class docstring (the same for both players)."""
        # Each hole's values depend only on its count (and on being a tuzduk, which always
        # holds 0 balls): they are looked up as float32 bytes, not computed.
        holes = state.holes
        parts = list(map(tuple.__getitem__, _HOLE_VALUES, holes))
        for hole in state.tuzduk:
            if hole != NO_TUZDUK:
                parts[hole] = _TUZDUK_VALUES
        white, black = state.kazans
        parts.insert(HOLES_PER_SIDE, _KAZAN_VALUES[min(white, WINNING_KAZAN)][white > black])
        parts.append(_KAZAN_VALUES[min(black, WINNING_KAZAN)][black > white])
        parts.append(_TO_ACT[state.mover if state.winner < 0 else 2])
        return np.ndarray(_TESAURO_SHAPE, _FLOAT32, bytearray().join(parts))


def _float32_bytes(values: list[float]) -> bytes:
    return np.array(values, dtype=np.float32).tobytes()


def write_tesauro_hole(
    out: MutableSequence[float] | np.ndarray, index: int, n: int, number: int, tuzduk: bool
) -> int:
    """Write the Tesauro values of a hole holding ``n`` balls from ``out[index]``; the next index.

    ``number`` is the hole's (0-8) in its row, ``tuzduk`` whether it is a tuzduk. Holes 1-8
    give ``n >= 1``, ``n >= 2``, ``n mod 2``, ``(n mod 9) / 8``, ``(n mod 18) / 17``, ``n / 9``
    and the tuzduk flag, hole 9 the same without ``n >= 2`` and the flag. Plain Python over a
    list or an array: the batched kernels compile this very function.
    """
    ninth = number == HOLES_PER_SIDE - 1
    out[index] = n >= 1
    if not ninth:
        out[index + 1] = n >= 2
        index += 1
    out[index + 1] = n % 2
    out[index + 2] = (n % 9) / 8
    out[index + 3] = (n % 18) / 17
    out[index + 4] = n / 9
    index += 5
    if not ninth:
        out[index] = tuzduk
        index += 1
    return index


def write_tesauro_kazan(
    out: MutableSequence[float] | np.ndarray, index: int, kazan: int, ahead: bool
) -> int:
    """Write the Tesauro values of a kazan from ``out[index]``; the next index.

    ``min(kazan, 82) / 82`` and whether it holds more than the other kazan (``ahead``). Plain
    Python over a list or an array: the batched kernels compile this very function.
    """
    out[index] = min(kazan, WINNING_KAZAN) / WINNING_KAZAN
    out[index + 1] = ahead
    return index + 2


def _tesauro_hole(n: int, number: int, tuzduk: bool) -> list[float]:
    """The Tesauro values of a hole holding ``n`` balls (``number`` 0-8 in its row)."""
    values = [0.0] * 7
    return values[: write_tesauro_hole(values, 0, n, number, tuzduk)]


def _tesauro_kazan(kazan: int, ahead: bool) -> list[float]:
    """The Tesauro values of a kazan."""
    values = [0.0] * 2
    write_tesauro_kazan(values, 0, kazan, ahead)
    return values


#: ``_HOLE_VALUES[hole][n]``: the float32 bytes of board hole ``hole`` holding ``n`` balls.
_HOLE_VALUES = tuple(
    tuple(
        _float32_bytes(_tesauro_hole(n, hole % HOLES_PER_SIDE, False))
        for n in range(TOTAL_BALLS + 1)
    )
    for hole in range(NUM_HOLES)
)
#: A tuzduk (never a ninth hole, always empty).
_TUZDUK_VALUES = _float32_bytes(_tesauro_hole(0, 0, True))
#: ``_KAZAN_VALUES[min(k, 82)][k > other]``.
_KAZAN_VALUES = tuple(
    (_float32_bytes(_tesauro_kazan(k, False)), _float32_bytes(_tesauro_kazan(k, True)))
    for k in range(WINNING_KAZAN + 1)
)
#: The last two values, by the side to act (2: nobody, the game is over).
_TO_ACT = (_float32_bytes([1, 0]), _float32_bytes([0, 1]), _float32_bytes([0, 0]))
