"""Senet kernels (Kendall's and Skyruk's rules, 5 or 7 dancers) over one game's state row.

Each function applies the rule quoted in its docstring; ``zoo_games/senet/reference.py``, the
plain statement of the rules, and the rules core are what they are tested against, move for
move.

State row (``uint8``): ``[mover, throw, spools borne off, cons borne off, the mover's dancer
houses (8 columns), the legal actions (8 columns), 0, house 1 .. house 30, 0, 0]``;
``board = row[BOARD:]`` is indexed by house number like the rules core's board (0 empty,
1 a spool, 2 a con). The houses 0, 31 and 32 around the path stay empty: a dancer's
neighbours can be read without a bounds test, and the board is read eight houses at a time.
The throw is never 0 when a player decides: the sticks are thrown in ``begin_turn`` with the
game's own generator.

The rules of moving are applied to all of a side's dancers at once, on house masks: a
``uint64`` whose bit ``h`` is set when house ``h`` is in the set (:func:`side_houses` reads
one side's dancers off the board). Landing, protection and blockades then take a few shifts,
where testing each dancer in turn branched on the random board.

What ``legal_mask`` works out on every turn (it runs first) is kept in the row for the rest
of the turn: the mover's dancer houses (rearmost first), read by ``observe`` and ``play``,
and the legal actions in increasing order with their number (the pass not counted), so that
:func:`kth_legal` picks the k-th without scanning the mask and the ``"moves"`` observation
visits the moves. These columns say nothing about the position itself (positions in and out
ignore them). Options: ``[skyruk, num_pieces, blockade_length, encoding]``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched import batch
from zoo_games.batched.batch import MOVER, GameKernels, always_an_action
from zoo_games.batched.rng import Integer, next_uint64
from zoo_games.batched.words import (
    BYTE_ONES,
    count_bits,
    gather_bits,
    lowest_bit,
    read_eight,
    write_eight,
)
from zoo_games.core.game import NO_WINNER
from zoo_games.senet import evaluation, observation, rules
from zoo_games.senet.houses import EMPTY, HAPPINESS, NUM_HOUSES, OFF
from zoo_games.senet.observation import (
    BORNE_OFF_OFFSET,
    DANCERS_OFFSET,
    DEFAULT_ENCODING,
    ENCODINGS,
    MOVE_VALUES,
    THROW_OFFSET,
)
from zoo_games.senet.rules import (
    EXTRA_TURN_THROWS,
    NO_MOVE,
    PASS,
    SAFE_HOUSES,
    THROW_PROBABILITIES,
    SenetGame,
    SenetState,
)

THROW = 1
BORNE_OFF = 2
DANCERS = 4
#: Columns for the mover's dancer houses, and for its legal actions: up to 7 dancers (or the
#: pass), and their number.
DANCER_COLUMNS = 8
LEGAL = DANCERS + DANCER_COLUMNS
LEGAL_COUNT = LEGAL + DANCER_COLUMNS - 1
BOARD = LEGAL + DANCER_COLUMNS
#: House 0, houses 1-30 and two empty houses beyond the path (see the module docstring).
BOARD_COLUMNS = NUM_HOUSES + 3
ROW_LENGTH = BOARD + BOARD_COLUMNS
#: Options.
SKYRUK, NUM_PIECES, BLOCKADE_LENGTH, ENCODING = 0, 1, 2, 3
MOVES = ENCODINGS.index("moves")

#: The throw for each sixteenth of the unit interval, from the rules core's probabilities
#: (all sixteenths): ``[1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 5]``. See :func:`begin_turn`.
THROW_BY_SIXTEENTH = np.repeat(
    np.array([throw for throw, _ in THROW_PROBABILITIES], dtype=np.uint8),
    [round(16 * p) for _, p in THROW_PROBABILITIES],
)
assert THROW_BY_SIXTEENTH.shape == (16,)
#: The top four of a draw's 64 bits: its sixteenth of the unit interval.
SIXTEENTH_SHIFT = np.uint64(60)
#: ``GIVES_EXTRA_TURN[throw]``.
GIVES_EXTRA_TURN = np.array([t in EXTRA_TURN_THROWS for t in range(6)])
#: A house mask has bit ``h`` set when house ``h`` is in it: the safe houses, where no
#: dancer can be beaten.
SAFE = np.uint64(sum(1 << house for house in SAFE_HOUSES))
ONE = np.uint64(1)


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


#: The rules core's rules of the last five houses, compiled: a dancer's move from Happiness
#: on, under Kendall's and Skyruk's rules, and where a dancer falling in the Water is reborn.
rebirth_house = batch.compile_rule(rules.rebirth_house)
kendall_beyond_happiness = batch.compile_rule(
    rules.kendall_beyond_happiness, rebirth_house=rebirth_house
)
skyruk_beyond_happiness = batch.compile_rule(
    rules.skyruk_beyond_happiness, rebirth_house=rebirth_house
)
#: The rules core's protection of a dancer by its neighbours, compiled (for house masks).
protected = batch.compile_rule(rules.protected)
#: What a move does, as the ``"moves"`` observation shows it, compiled.
is_safe_house = batch.compile_rule(rules.is_safe_house)
move_effect = batch.compile_rule(
    observation.move_effect, protected=protected, is_safe_house=is_safe_house
)
write_move_effect = batch.compile_rule(observation.write_move_effect, move_effect=move_effect)


@njit(cache=True, inline="always")
def house_range(low: Integer, high: Integer) -> np.uint64:
    """The houses ``low`` to ``high`` as a house mask (empty when ``high < low``)."""
    if high < low:
        return np.uint64(0)
    return ((ONE << np.uint64(high + 1)) - ONE) & ~((ONE << np.uint64(low)) - ONE)


@njit(cache=True, inline="always")
def side_houses(board: np.ndarray, side: Integer) -> np.uint64:
    """The house mask of ``side``'s dancers (0 the spools, 1 the cons), houses 0 to 31.

    Read eight houses at a time: the side's bit of each house's code (see :func:`observe`),
    gathered from eight bytes into one.
    """
    houses = np.uint64(0)
    for first in range(0, NUM_HOUSES + 2, 8):
        byte = gather_bits((read_eight(board, first) >> np.uint64(side)) & BYTE_ONES)
        houses |= np.uint64(byte) << np.uint64(first)
    return houses


@njit(cache=True, inline="always")
def list_dancers(row: np.ndarray, mine: np.uint64) -> None:
    """Write the mover's dancer houses, rearmost first, into the row.

    ``mine`` is the mover's house mask (:func:`side_houses`).
    """
    houses = row[DANCERS : DANCERS + DANCER_COLUMNS]
    count = 0
    while mine:
        houses[count] = lowest_bit(mine)
        mine &= mine - ONE
        count += 1


@njit(cache=True, inline="always")
def protected_houses(houses: np.uint64, skyruk: bool) -> np.uint64:
    """The dancers of ``houses`` (one side's house mask) that are protected (:func:`protected`).

    Bit ``h`` of ``houses << 1`` tells whether house ``h - 1``, before ``h``, holds one of
    the side, and of ``houses >> 1`` whether house ``h + 1`` does. (Houses 0 and 31 are
    always empty, so the ends of the path need no test.)
    """
    return houses & protected(houses << ONE, houses >> ONE, skyruk)


@njit(cache=True, inline="always")
def closed_houses(mine: np.uint64, theirs: np.uint64, skyruk: bool) -> np.uint64:
    """The houses a dancer of the mover's may not land on (house masks in and out).

    "A dancer may not land on one of its own side; landing on an opponent beats it unless it
    stands on a safe house or is protected."
    """
    return mine | (theirs & (SAFE | protected_houses(theirs, skyruk)))


@njit(cache=True, inline="always")
def ahead(houses: np.uint64, distance: Integer, forward: bool) -> np.uint64:
    """``houses`` as seen from ``distance`` houses back, in the direction of a move.

    Bit ``x`` of the result is set when house ``x + distance`` (moving forward;
    ``x - distance`` moving backward) is in ``houses``.
    """
    if forward:
        return houses >> np.uint64(distance)
    return houses << np.uint64(distance)


@njit(cache=True, inline="always")
def blockade_jumpers(theirs: np.uint64, steps: Integer, forward: bool, need: Integer) -> np.uint64:
    """The houses from which a move of ``steps`` jumps a blockade (a house mask).

    "No move jumps a blockade: a row of ``need`` or more opponents lying entirely between the
    dancer and where it lands; a row running into that house is not jumped." A row ends,
    in the direction of the move, on the first house after it: a house that is not the
    opponent's, the ``need`` houses before it being the opponent's. A move from ``x`` jumps
    the row when that end lies from ``x + need + 1`` (the row starts after ``x``) up to the
    landing house ``x + steps`` itself. (Houses after Happiness are left out: no move runs
    past it onto the path beyond.)
    """
    ends = ~theirs & house_range(0, HAPPINESS)
    for back in range(1, need + 1):
        ends &= ahead(theirs, back, not forward)
    jumpers = np.uint64(0)
    # Distances 3 to 5 (``need`` is 2 or 3, a throw at most 5), each kept or not by a mask:
    # no loop whose length follows the throw, so no branch to mispredict.
    for distance in range(3, 6):
        wanted = (distance > need) & (distance <= steps)
        jumpers |= ahead(ends, distance, forward) & (np.uint64(0) - np.uint64(wanted))
    return jumpers


@njit(cache=True, inline="always")
def movable_dancers(
    mine: np.uint64, theirs: np.uint64, steps: Integer, forward: bool, config: np.ndarray
) -> np.uint64:
    """The houses before Happiness whose dancer may move ``steps`` houses (a house mask).

    Forward, a dancer "must stop on the House of Happiness (26)": Kendall's rules require
    the exact throw to reach it, Skyruk's stop a longer throw there. Backward, no move goes
    before house 1. (From Happiness on, the rules of the last houses apply:
    :func:`kendall_beyond_happiness`, :func:`skyruk_beyond_happiness`.)
    """
    skyruk = config[SKYRUK] == 1
    closed = closed_houses(mine, theirs, skyruk)
    if forward:
        lands = ~ahead(closed, steps, True) & house_range(1, HAPPINESS - steps)
        if skyruk and not (closed >> np.uint64(HAPPINESS)) & ONE:
            lands |= house_range(HAPPINESS + 1 - steps, HAPPINESS - 1)
    else:
        lands = ~ahead(closed, steps, False) & house_range(steps + 1, HAPPINESS - 1)
    return mine & lands & ~blockade_jumpers(theirs, steps, forward, config[BLOCKADE_LENGTH])


@njit(cache=True, inline="always")
def forward_end(board: np.ndarray, source: Integer, steps: Integer, skyruk: bool) -> Integer:
    """Where a dancer moving ``steps`` forward from ``source`` ends, or ``NO_MOVE``.

    Before Happiness, a move :func:`movable_dancers` allows: Skyruk's rules stop a longer
    throw on Happiness. From Happiness on, the rules of the last houses.
    """
    if source < HAPPINESS:
        return HAPPINESS if source + steps > HAPPINESS else source + steps
    if skyruk:
        return skyruk_beyond_happiness(board, source, steps)
    return kendall_beyond_happiness(board, source, steps)


@njit(cache=True, inline="always")
def movable_beyond_happiness(
    board: np.ndarray, mine: np.uint64, steps: Integer, skyruk: bool
) -> np.uint64:
    """The houses from Happiness on whose dancer may move ``steps`` forward (a house mask)."""
    movable = np.uint64(0)
    rest = mine & house_range(HAPPINESS, NUM_HOUSES)
    while rest:
        house = lowest_bit(rest)
        rest &= rest - ONE
        if forward_end(board, house, steps, skyruk) != NO_MOVE:
            movable |= ONE << np.uint64(house)
    return movable


@njit(cache=True, inline="always")
def legal_mask(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """Forward moves; else backward moves; else the pass.

    Dancer ``i`` is the mover's ``i``-th dancer from the rear: forward by the throw ``s`` is
    action ``10 i + s``, backward ``10 i + 11 - s``. Under Skyruk's rules a dancer resting on
    the House of Happiness moves on with this re-throw: it is the only legal move.

    The board is read as two house masks (bit ``h`` for house ``h``), the mover's dancers and
    the opponent's, and the rules are applied to every dancer before Happiness at once
    (:func:`movable_dancers`): a few shifts, where testing each dancer in turn branched on the
    random board. Only the dancers that may move are then visited. Also kept in the row, for
    ``observe``, ``play`` and :func:`kth_legal`: the dancers' houses, and the legal actions
    in increasing order.
    """
    board = row[BOARD:]
    throw = np.int64(row[THROW])
    skyruk = config[SKYRUK] == 1
    mine, theirs = side_houses(board, row[MOVER]), side_houses(board, 1 - row[MOVER])
    list_dancers(row, mine)
    mask[:] = 0
    happiness = ONE << np.uint64(HAPPINESS)
    if skyruk and mine & happiness:
        return keep_moves(row, mask, mine, happiness, throw)
    movable = movable_dancers(mine, theirs, throw, True, config)
    movable |= movable_beyond_happiness(board, mine, throw, skyruk)
    if movable:
        return keep_moves(row, mask, mine, movable, throw)
    movable = movable_dancers(mine, theirs, throw, False, config)
    if movable:
        return keep_moves(row, mask, mine, movable, 11 - throw)
    mask[PASS] = 1
    row[LEGAL] = PASS
    row[LEGAL_COUNT] = 0
    return 1


#: A mover without a move passes (``legal_mask`` allows the pass), so no game ends for want of
#: a legal action.
outcome_without_moves = always_an_action


@njit(cache=True, inline="always")
def keep_moves(
    row: np.ndarray, mask: np.ndarray, mine: np.uint64, movable: np.uint64, step_action: Integer
) -> int:
    """Allow the move ``10 i + step_action`` of each dancer ``i`` on the ``movable`` houses.

    A dancer's number ``i`` is the count of the mover's dancers behind it. Each action is
    also listed in the row, in increasing order; returns how many there are.
    """
    count = 0
    while movable:
        house = np.uint64(lowest_bit(movable))
        movable &= movable - ONE
        action = 10 * count_bits(mine & ((ONE << house) - ONE)) + step_action
        mask[action] = 1
        row[LEGAL + count] = action
        count += 1
    row[LEGAL_COUNT] = count
    return count


@njit(cache=True, inline="always")
def kth_legal(row: np.ndarray, mask: np.ndarray, k: Integer) -> int:
    """The ``k``-th legal action (from 0), as ``legal_mask`` listed them."""
    return int(row[LEGAL + k])


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
    skyruk = config[SKYRUK] == 1
    row[THROW] = 0
    if action == PASS:
        row[MOVER] = 1 - mover
        return NO_WINNER
    piece = mover + 1
    _, source, destination = move_of(row, action, throw, skyruk)
    if destination == OFF:
        board[source] = EMPTY
        row[BORNE_OFF + mover] += 1
        if row[BORNE_OFF + mover] == config[NUM_PIECES]:
            return mover
    elif destination != source:
        board[source] = board[destination]
        board[destination] = piece
    if skyruk and destination == HAPPINESS:
        return NO_WINNER
    if not GIVES_EXTRA_TURN[throw] or destination == source:
        row[MOVER] = 1 - mover
    return NO_WINNER


@njit(cache=True, inline="always")
def move_of(
    row: np.ndarray, action: Integer, throw: Integer, skyruk: bool
) -> tuple[Integer, Integer, Integer]:
    """``(dancer, house left, house reached)`` of the mover's legal ``action`` (not the pass).

    Forward by the ``throw`` is ``10 i + s``, backward ``10 i + 11 - s``; the house reached may
    be ``OFF``, or the house left (Skyruk: waiting in the Water).
    """
    dancer, step = divmod(action - 1, 10)
    source = np.int64(row[DANCERS + dancer])
    if step < 5:
        return dancer, source, forward_end(row[BOARD:], source, throw, skyruk)
    return dancer, source, source - throw


@njit(cache=True, inline="always")
def observe(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """The mover's view in the variant's encoding: the board, then for ``"moves"`` each move."""
    observe_board(row, config, out)
    if config[ENCODING] == MOVES:
        observe_moves(row, config, out)


@njit(cache=True, inline="always")
def observe_moves(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """What each legal move of the mover does, as ``MovesObserver`` shows it after the board.

    The moves are the row's list of legal actions (``legal_mask`` ran first); each is counted by
    the rules core's :func:`~zoo_games.senet.observation.write_move_effect`, compiled.
    """
    skyruk = config[SKYRUK] == 1
    offset = DANCERS_OFFSET + NUM_HOUSES * config[NUM_PIECES]
    out[offset:] = 0
    board = row[BOARD:]
    throw = np.int64(row[THROW])
    for k in range(row[LEGAL_COUNT]):
        dancer, source, destination = move_of(row, row[LEGAL + k], throw, skyruk)
        write_move_effect(board, source, destination, skyruk, out, offset + MOVE_VALUES * dancer)


@njit(cache=True, inline="always")
def observe_board(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """The mover's view, as ``SenetObserver`` makes it.

    Its board, the opponent's, its throw one-hot, both borne-off counts, then one one-hot
    house plane per dancer of its, rearmost first.

    The two board planes are made eight houses at a time: a spool (1) is bit 0 of its house's
    code and a con (2) bit 1, so a player's plane is its bit of each house byte. A house at a
    time would cost a read and a write per byte, since numba cannot tell that ``out`` and the
    row do not overlap. Houses 25-32 spill two bytes past each plane: into the opponent's
    plane, written next, and into the throw, written after it.
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
    """``[skyruk, num_pieces, blockade_length, encoding]`` of a :class:`SenetGame`."""
    assert isinstance(game, SenetGame)
    encoding = ENCODINGS.index(options.get("observation", DEFAULT_ENCODING))
    return [int(game.skyruk), game.num_pieces, game.blockade_length, encoding]


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
#: chance node's outcomes in :mod:`zoo_games.batched.search.tree`.
OUTCOME_PROBABILITY = np.array([dict(THROW_PROBABILITIES).get(t, 0.0) for t in range(6)])


@njit(cache=True, inline="always")
def chance_outcome(row: np.ndarray) -> int:
    """The throw the mover decides with, 0 while the sticks are still to be thrown.

    Tree search keys the children of a chance node by it.
    """
    return int(row[THROW])


@njit(cache=True, inline="always")
def set_chance_outcome(row: np.ndarray, outcome: Integer) -> None:
    """Make ``outcome`` the throw, as if the sticks had given it.

    The AlphaZero search chooses the outcome of each chance node it passes instead of drawing it.
    """
    row[THROW] = outcome


#: The rules core's evaluation of a game in progress, compiled.
score = batch.compile_rule(evaluation.score)


@njit(cache=True, inline="always")
def evaluate(row: np.ndarray, config: np.ndarray, player: Integer) -> float:
    """``zoo_games.senet.evaluation.evaluate`` of the row's position, for ``player``.

    The return once a side has borne off all its dancers, else the rules core's
    :func:`~zoo_games.senet.evaluation.score` (compiled: the same float) of the player's leads
    in progress (31 per dancer borne off plus the houses of those on the board), safe dancers
    and blockading dancers (:func:`side_terms`). The throw is not read: a chance node scores
    as its decision nodes do.
    """
    pieces = config[NUM_PIECES]
    for side in range(2):
        if row[BORNE_OFF + side] == pieces:
            return 1.0 if side == player else -1.0
    board = row[BOARD:]
    progress_0, safe_0, blockading_0 = side_terms(row, config, side_houses(board, 0), 0)
    progress_1, safe_1, blockading_1 = side_terms(row, config, side_houses(board, 1), 1)
    sign = 1 if player == 0 else -1
    return score(
        sign * (progress_0 - progress_1),
        sign * (safe_0 - safe_1),
        sign * (blockading_0 - blockading_1),
        pieces,
    )


@njit(cache=True, inline="always")
def side_terms(
    row: np.ndarray, config: np.ndarray, houses: np.uint64, side: Integer
) -> tuple[int, int, int]:
    """One side's progress, safe dancers and blockading dancers; ``houses``: its house mask.

    Safe: on a safe house or protected (:func:`protected_houses`). Blockading: in a row of
    the side's dancers at least ``blockade_length`` long, that is, within ``need``
    consecutive houses of the side's counted from some house.
    """
    need = config[BLOCKADE_LENGTH]
    progress = OFF * int(row[BORNE_OFF + side])
    rest = houses
    while rest:
        progress += lowest_bit(rest)
        rest &= rest - ONE
    safe = count_bits(houses & (SAFE | protected_houses(houses, config[SKYRUK] == 1)))
    row_starts = houses
    for later in range(1, need):
        row_starts &= houses >> np.uint64(later)
    in_rows = np.uint64(0)
    for later in range(need):
        in_rows |= row_starts << np.uint64(later)
    return progress, safe, count_bits(in_rows)
