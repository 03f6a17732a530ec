"""Senet kernels (Kendall's and Skyruk's rules, 5 or 7 dancers) over one game's state row.

Each function reads like the rule it implements, quoted in its docstring; the rules core
``zoo_games/senet/rules.py`` is the reference they are tested against move for move.

State row (``uint8``): ``[mover, throw, spools borne off, cons borne off, the mover's dancer
houses (8 columns), 0, house 1 .. house 30, 0, 0]``; ``board = row[BOARD:]`` is indexed by
house number like the rules core's board (0 empty, 1 a spool, 2 a con). The houses 0, 31 and
32 around the path stay empty: a dancer's neighbours can be read without a bounds test, and the
board is read eight houses at a time by :func:`observe`. The throw is never 0 when a
player decides: the sticks are thrown in ``begin_turn`` with the game's own generator. The
mover's dancer houses (rearmost first) are derived from the board by ``legal_mask``, which
runs first on every turn, and read by ``observe`` and ``play``: one scan of the board per
turn instead of three. Options: ``[skyruk, num_pieces, blockade_length]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import MOVER, ONGOING, GameKernels
from zoo_games.batched.rng import Integer, next_uint64
from zoo_games.batched.words import BYTE_ONES, gather_bits, lowest_bit, read_eight, write_eight
from zoo_games.senet.evaluation import BLOCKADE_WEIGHT, LIMIT, PROGRESS_WEIGHT, SAFETY_WEIGHT
from zoo_games.senet.observation import BORNE_OFF_OFFSET, DANCERS_OFFSET, THROW_OFFSET
from zoo_games.senet.rules import (
    EMPTY,
    EXTRA_TURN_THROWS,
    HAPPINESS,
    NUM_HOUSES,
    OFF,
    PASS,
    RE_HORAKHTY,
    REBIRTH,
    SAFE_HOUSES,
    THREE_TRUTHS,
    THROW_PROBABILITIES,
    WATER,
    SenetGame,
    SenetState,
)

THROW = 1
BORNE_OFF = 2
DANCERS = 4
#: Columns for the mover's dancer houses: up to 7 dancers, and one spare.
DANCER_COLUMNS = 8
BOARD = DANCERS + DANCER_COLUMNS
#: House 0, houses 1-30 and two empty houses beyond the path (see the module docstring).
BOARD_COLUMNS = NUM_HOUSES + 3
ROW_LENGTH = BOARD + BOARD_COLUMNS
#: A destination meaning "this move is not legal".
NO_MOVE = -1
#: Options.
SKYRUK, NUM_PIECES, BLOCKADE_LENGTH = 0, 1, 2

#: The throw for each sixteenth of the unit interval, from the rules core's probabilities
#: (all sixteenths): ``[1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 5]``. See :func:`begin_turn`.
THROW_BY_SIXTEENTH = np.repeat(
    np.array([throw for throw, _ in THROW_PROBABILITIES], dtype=np.uint8),
    [round(16 * p) for _, p in THROW_PROBABILITIES],
)
assert THROW_BY_SIXTEENTH.shape == (16,)
#: The top four of a draw's 64 bits: its sixteenth of the unit interval.
SIXTEENTH_SHIFT = np.uint64(60)
#: ``IS_SAFE[house]``: no dancer can be beaten there. ``GIVES_EXTRA_TURN[throw]``.
IS_SAFE = np.array([h in SAFE_HOUSES for h in range(OFF + 1)])
GIVES_EXTRA_TURN = np.array([t in EXTRA_TURN_THROWS for t in range(6)])


@njit(cache=True, inline="always")
def begin_turn(row: np.ndarray, config: np.ndarray, rngs: np.ndarray, game: Integer) -> None:
    """Rule: "The four sticks give throws 1 to 5": drawn with P = 4, 6, 4, 1, 1 sixteenths.

    The outcome is the first throw whose cumulative probability exceeds a uniform draw ``u``,
    as the environment's sampler does. The cumulative probabilities being sixteenths, that is
    the throw of the sixteenth ``floor(16 u)`` the draw falls in, which is the top four bits
    of the draw: one table read, where a search had an unpredictable branch per throw.
    """
    if row[THROW] == 0:
        row[THROW] = THROW_BY_SIXTEENTH[next_uint64(rngs, game) >> SIXTEENTH_SHIFT]


@njit(cache=True, inline="always")
def is_protected(board: np.ndarray, house: Integer, skyruk: bool) -> bool:
    """Whether the dancer on ``house`` is protected: "next to one of its side, it is safe".

    Kendall: any dancer with a neighbour of its own side. Skyruk: only the first and last
    dancers of a row, that is dancers with exactly one neighbour of their side. (Houses 0 and
    31 are always empty, so the ends of the path need no test.)
    """
    piece = board[house]
    friends = int(board[house - 1] == piece) + int(board[house + 1] == piece)
    return friends == 1 if skyruk else friends >= 1


@njit(cache=True, inline="always")
def jumps_blockade(board: np.ndarray, source: Integer, target: Integer, need: Integer) -> bool:
    """Whether the move jumps a blockade: "a row of ``need`` or more opponents blocks".

    A row is a maximal run of the opponent's dancers on consecutive houses lying entirely
    between ``source`` and ``target``; a row running into the target house is not jumped.
    """
    opponent = 3 - board[source]
    step = 1 if target > source else -1
    run = 0
    for house in range(source + step, target, step):
        if board[house] == opponent:
            run += 1
        elif run >= need:
            return True
        else:
            run = 0
    return bool(run >= need and board[target] != opponent)


@njit(cache=True, inline="always")
def landing(
    board: np.ndarray, source: Integer, target: Integer, skyruk: bool, need: Integer
) -> Integer:
    """``target`` if a dancer on ``source`` may land there, else ``NO_MOVE``.

    "A dancer may not land on one of its own side; landing on an opponent beats it (the two
    swap houses) unless it stands on a safe house or is protected; no move jumps a blockade."
    """
    occupant = board[target]
    # Evaluated whole (``|``, ``&``) rather than tested in turn: these outcomes follow the
    # random board, and unpredictable branches cost more than the few reads.
    guarded = (occupant != EMPTY) & (IS_SAFE[target] | is_protected(board, target, skyruk))
    if (occupant == board[source]) | guarded:
        return NO_MOVE
    if abs(target - source) > need and jumps_blockade(board, source, target, need):
        return NO_MOVE
    return target


@njit(cache=True, inline="always")
def rebirth_house(board: np.ndarray) -> Integer:
    """Where a dancer is reborn: the House of Rebirth (15), or the first empty house before it.

    Rule: "A dancer falling into the Water is reborn on the House of Rebirth."
    """
    house = REBIRTH
    while board[house] != EMPTY:
        house -= 1
    return house


@njit(cache=True, inline="always")
def kendall_beyond_happiness(board: np.ndarray, source: Integer, steps: Integer) -> Integer:
    """Kendall's moves from the last five houses.

    Rule: "Bear off with 26+5, 28+3, 29+2, 30+1 exactly; from Happiness a 1 falls in the Water
    (rebirth), a 2, 3 or 4 goes to an empty house; Three Truths, Re-Atum and Re-Horakhty only
    bear off."
    """
    target = source + steps
    if target == OFF:
        return OFF
    if source != HAPPINESS or target > NUM_HOUSES or board[target] != EMPTY:
        return NO_MOVE
    return rebirth_house(board) if target == WATER else target


@njit(cache=True, inline="always")
def skyruk_beyond_happiness(board: np.ndarray, source: Integer, steps: Integer) -> Integer:
    """Skyruk's moves from the last five houses.

    From Happiness: "5 bears off; 2, 3, 4 reach Three Truths, Re-Atum, Re-Horakhty if empty;
    otherwise the dancer falls in the Water (or is reborn if the Water is taken)". From the
    Water: "4 bears off, 5 waits there (the turn passes), anything else is rebirth". From
    Re-Horakhty any throw bears off; from Three Truths a 3, from Re-Atum a 2.
    """
    if source == HAPPINESS:
        if steps == 5:
            return OFF
        if steps > 1 and board[HAPPINESS + steps] == EMPTY:
            return HAPPINESS + steps
        return WATER if board[WATER] == EMPTY else rebirth_house(board)
    if source == WATER:
        if steps == 4:
            return OFF
        return source if steps == 5 else rebirth_house(board)
    if source == RE_HORAKHTY:
        return OFF
    bearing_throw = 3 if source == THREE_TRUTHS else 2
    return OFF if steps == bearing_throw else NO_MOVE


@njit(cache=True, inline="always")
def forward_destination(
    board: np.ndarray, source: Integer, steps: Integer, config: np.ndarray
) -> Integer:
    """Where a dancer moving ``steps`` forward from ``source`` ends, or ``NO_MOVE``.

    The end is a house, OFF, or ``source`` itself (waiting in the Water). Rule: "Every dancer
    must stop on the House of Happiness (26)": Kendall requires the exact throw, Skyruk stops
    a longer throw there.
    """
    skyruk = config[SKYRUK] == 1
    if source < HAPPINESS:
        target = source + steps
        if target > HAPPINESS:
            if not skyruk:
                return NO_MOVE
            target = HAPPINESS
        return landing(board, source, target, skyruk, config[BLOCKADE_LENGTH])
    if skyruk:
        return skyruk_beyond_happiness(board, source, steps)
    return kendall_beyond_happiness(board, source, steps)


@njit(cache=True, inline="always")
def backward_destination(
    board: np.ndarray, source: Integer, steps: Integer, config: np.ndarray
) -> Integer:
    """Rule: "A player who cannot move forward must move backward", never before house 1."""
    target = source - steps
    if target < 1:
        return NO_MOVE
    return landing(board, source, target, config[SKYRUK] == 1, config[BLOCKADE_LENGTH])


@njit(cache=True, inline="always")
def find_dancers(row: np.ndarray) -> int:
    """Write the mover's dancer houses, rearmost first, into the row; return their count.

    The board is read eight houses at a time (houses 0 and 31 are empty): the mover's bit of
    each house's code (see :func:`observe`) gathered into a byte gives one bit per house, and
    the houses are those bits, found lowest first: five or seven steps instead of thirty.
    """
    board = row[BOARD:]
    houses = row[DANCERS : DANCERS + DANCER_COLUMNS]
    mine = np.uint64(row[MOVER])
    occupied = np.uint64(0)  # bit h: a dancer of the mover's on house h
    for first in range(0, NUM_HOUSES + 2, 8):
        bits = gather_bits((read_eight(board, first) >> mine) & BYTE_ONES)
        occupied |= np.uint64(bits) << np.uint64(first)
    count = 0
    while occupied:
        houses[count] = lowest_bit(occupied)
        occupied &= occupied - np.uint64(1)
        count += 1
    return count


@njit(cache=True, inline="always")
def legal_mask(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """Forward moves; else backward moves; else the pass.

    Dancer ``i`` is the mover's ``i``-th dancer from the rear: forward by the throw ``s`` is
    action ``10 i + s``, backward ``10 i + 11 - s``. Under Skyruk's rules a dancer resting on
    the House of Happiness moves on with this re-throw: it is the only legal move.
    """
    board = row[BOARD:]
    houses = row[DANCERS:]
    throw = np.int64(row[THROW])
    dancers = find_dancers(row)
    mask[:] = 0
    if config[SKYRUK] == 1 and board[HAPPINESS] == row[MOVER] + 1:
        for dancer in range(dancers):
            if houses[dancer] == HAPPINESS:
                mask[10 * dancer + throw] = 1
        return 1
    count = 0
    for dancer in range(dancers):
        # Stored whether legal or not (the mask is 0 there already): no branch to mispredict.
        legal = forward_destination(board, np.int64(houses[dancer]), throw, config) != NO_MOVE
        mask[10 * dancer + throw] = legal
        count += legal
    if count == 0:
        for dancer in range(dancers):
            if houses[dancer] >= HAPPINESS:
                break
            if backward_destination(board, np.int64(houses[dancer]), throw, config) != NO_MOVE:
                mask[10 * dancer + 11 - throw] = 1
                count += 1
    if count == 0:
        mask[PASS] = 1
        count = 1
    return count


@njit(cache=True, inline="always")
def play(
    row: np.ndarray, action: Integer, config: np.ndarray, rngs: np.ndarray, game: Integer
) -> int:
    """Move a dancer (or pass), then hand on the turn; the winner once all are borne off.

    "A beaten dancer takes the house its attacker left. A throw of 1, 4 or 5 gives another
    throw, except to a dancer waiting in the Water. Under Skyruk's rules a dancer reaching
    the House of Happiness moves on at once with a new throw."
    """
    board = row[BOARD:]
    throw = np.int64(row[THROW])
    mover = row[MOVER]
    row[THROW] = 0
    if action == PASS:
        row[MOVER] = 1 - mover
        return ONGOING
    dancer, rest = divmod(action - 1, 10)
    piece = mover + 1
    source = np.int64(row[DANCERS + dancer])
    if rest < 5:
        destination = forward_destination(board, source, throw, config)
    else:
        destination = backward_destination(board, source, throw, config)
    if destination == OFF:
        board[source] = EMPTY
        row[BORNE_OFF + mover] += 1
        if row[BORNE_OFF + mover] == config[NUM_PIECES]:
            return mover
    elif destination != source:
        board[source] = board[destination]
        board[destination] = piece
    if config[SKYRUK] == 1 and destination == HAPPINESS:
        return ONGOING
    if not GIVES_EXTRA_TURN[throw] or destination == source:
        row[MOVER] = 1 - mover
    return ONGOING


@njit(cache=True, inline="always")
def observe(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """The mover's view, as ``SenetObserver`` makes it.

    Its board, the opponent's, its throw one-hot, both borne-off counts, then one one-hot
    house plane per dancer of its, rearmost first.

    The two board planes are made eight houses at a time: a spool (1) is bit 0 of its house's
    code and a con (2) bit 1, so a player's plane is its bit of each house byte. Written a
    house at a time they took a quarter of the step, 40 ns a game (numba cannot tell that
    ``out`` and the row do not overlap, so it read and wrote byte after byte); eight at a
    time, observe takes 14 ns in all. Houses 25-32 spill two bytes
    past each plane: into the opponent's plane, written next, and into the throw, written
    after it.
    """
    board = row[BOARD:]
    player = row[MOVER]
    mine, theirs = np.uint64(player), np.uint64(1 - player)
    for first in range(1, NUM_HOUSES + 1, 8):
        write_eight(out, first - 1, (read_eight(board, first) >> mine) & BYTE_ONES)
    for first in range(1, NUM_HOUSES + 1, 8):
        write_eight(out, NUM_HOUSES + first - 1, (read_eight(board, first) >> theirs) & BYTE_ONES)
    out[THROW_OFFSET:] = 0
    out[THROW_OFFSET + row[THROW] - 1] = 1
    out[BORNE_OFF_OFFSET] = row[BORNE_OFF + player]
    out[BORNE_OFF_OFFSET + 1] = row[BORNE_OFF + 1 - player]
    for dancer in range(config[NUM_PIECES] - row[BORNE_OFF + player]):
        out[DANCERS_OFFSET + NUM_HOUSES * dancer + row[DANCERS + dancer] - 1] = 1


def config(game: Any, options: dict[str, Any]) -> list[int]:
    """``[skyruk, num_pieces, blockade_length]`` of a :class:`SenetGame`."""
    assert isinstance(game, SenetGame)
    return [int(game.skyruk), game.num_pieces, game.blockade_length]


def row_from_state(state: Any) -> np.ndarray:
    """The state row of a rules-core :class:`SenetState`."""
    assert isinstance(state, SenetState)
    row = np.zeros(ROW_LENGTH, dtype=np.uint8)
    row[MOVER] = state.mover
    row[THROW] = state.throw
    row[BORNE_OFF : BORNE_OFF + 2] = state.borne_off
    row[BOARD : BOARD + NUM_HOUSES + 1] = np.frombuffer(bytes(state.board), dtype=np.uint8)
    return row


def state_from_row(game: Any, row: np.ndarray) -> SenetState:
    """The rules-core :class:`SenetState` of a state row."""
    return SenetState(
        game,
        bytes(row[BOARD : BOARD + NUM_HOUSES + 1]),
        [int(row[BORNE_OFF]), int(row[BORNE_OFF + 1])],
        int(row[MOVER]),
        int(row[THROW]),
    )


KERNELS = GameKernels(
    module=sys.modules[__name__],
    row_length=ROW_LENGTH,
    config=config,
    row_from_state=row_from_state,
    state_from_row=state_from_row,
)


# ---------------------------------------------------------------------- for tree search
#: Each throw's probability, indexed by the throw (0 never comes up): the weights of a
#: chance node's outcomes in :mod:`zoo_games.batched.search`.
OUTCOME_PROBABILITY = np.array([dict(THROW_PROBABILITIES).get(t, 0.0) for t in range(6)])


@njit(cache=True, inline="always")
def chance_outcome(row: np.ndarray) -> int:
    """The throw the mover decides with, 0 while the sticks are still to be thrown.

    Tree search keys the children of a chance node by it.
    """
    return int(row[THROW])


@njit(cache=True, inline="always")
def evaluate(row: np.ndarray, config: np.ndarray, player: Integer) -> float:
    """``zoo_games.senet.evaluation.evaluate`` of the row's position, for ``player``.

    The same terms, weights and clipping, summed in the same order (so the same float): the
    return once a side has borne off all its dancers, else progress (31 per dancer borne off
    plus the houses of those on the board), safe dancers and blockading dancers, own minus
    the opponent's. The throw is not read: a chance node scores as its decision nodes do.
    """
    pieces = config[NUM_PIECES]
    for side in range(2):
        if row[BORNE_OFF + side] == pieces:
            return 1.0 if side == player else -1.0
    board = row[BOARD:]
    skyruk = config[SKYRUK] == 1
    need = config[BLOCKADE_LENGTH]
    # Per side (spools, cons): scalars, not arrays, so that nothing is allocated.
    progress_0, progress_1 = OFF * np.int64(row[BORNE_OFF]), OFF * np.int64(row[BORNE_OFF + 1])
    safe_0, safe_1, blockading_0, blockading_1 = 0, 0, 0, 0
    run_piece, run = 0, 0
    # House 31 is always empty: it ends the last row of dancers.
    for house in range(1, NUM_HOUSES + 2):
        piece = int(board[house])
        if piece != run_piece:
            if run_piece and run >= need:
                if run_piece == 1:
                    blockading_0 += run
                else:
                    blockading_1 += run
            run_piece, run = piece, 0
        if not piece:
            continue
        run += 1
        is_safe = IS_SAFE[house] or is_protected(board, house, skyruk)
        if piece == 1:
            progress_0 += house
            safe_0 += is_safe
        else:
            progress_1 += house
            safe_1 += is_safe
    sign = 1 if player == 0 else -1
    score = (
        PROGRESS_WEIGHT * (sign * (progress_0 - progress_1)) / (OFF * pieces)
        + SAFETY_WEIGHT * (sign * (safe_0 - safe_1)) / pieces
        + BLOCKADE_WEIGHT * (sign * (blockading_0 - blockading_1)) / pieces
    )
    return max(-LIMIT, min(LIMIT, score))
