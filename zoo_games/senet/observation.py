"""What a Senet player sees: the board from its own side, the dancers borne off, its throw.

Two encodings (the ``observation`` option of ``senet_v0``): ``"moves"`` (default,
:class:`MovesObserver`), the board followed by what each of the mover's dancers would do with the
throw, and ``"board"`` (:class:`SenetObserver`) alone.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence

import numpy as np
from gymnasium import spaces

from zoo_games.senet.houses import EMPTY, NUM_HOUSES, OFF
from zoo_games.senet.rules import (
    Board,
    SenetGame,
    SenetState,
    decode_action,
    is_safe_house,
    protected,
)

#: The observation encodings.
ENCODINGS = ("board", "moves")
#: What a network learns from best (docs/training.md measures it): which dancer a throw can
#: move, and whether the move beats, bears off or leaves it exposed, is what a player decides
#: on, and a network is slow to work it out from the houses alone.
DEFAULT_ENCODING = "moves"

#: Index of the first throw entry (one-hot, throws 1..5), of the borne-off counts and of the
#: per-dancer planes.
THROW_OFFSET = 2 * NUM_HOUSES
BORNE_OFF_OFFSET = THROW_OFFSET + 5
DANCERS_OFFSET = BORNE_OFF_OFFSET + 2


def observation_length(num_pieces: int) -> int:
    """67 values for the board, throw and counts, and 30 for each of the observer's dancers."""
    return DANCERS_OFFSET + NUM_HOUSES * num_pieces


class SenetObserver:
    """Encodes a state as a flat ``int8`` vector, from the observer's side.

    ============ =================================================================
    index        meaning
    ============ =================================================================
    0-29         1 where the observer has a dancer on house 1..30
    30-59        1 where the opponent has a dancer on house 1..30
    60-64        one-hot throw 1..5 of the observer, all 0 unless it is the one to act
    65           the observer's dancers borne off (0..num_pieces)
    66           the opponent's dancers borne off (0..num_pieces)
    67 + 30 i    the house (one-hot over 1..30) of the observer's dancer ``i``, counted
    ... + 29     from the rear as the actions count them; all 0 once fewer dancers are left
    ============ =================================================================

    Both sides walk the same path, so the board needs no flipping, only the swap of "mine"
    and "theirs". The per-dancer planes repeat what the board shows, in the order the actions
    use: an action names "dancer i", and without them a network would first have to learn to
    count dancers along the path. Small integers fit ``int8`` exactly, like PettingZoo's
    classic games.
    """

    def __init__(self, game: SenetGame) -> None:
        high = np.ones(observation_length(game.num_pieces), dtype=np.int8)
        high[BORNE_OFF_OFFSET:DANCERS_OFFSET] = game.num_pieces
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.int8)
        # Byte translation tables turn the board codes (0 empty, 1 spool, 2 con) into the
        # observer's plane and the opponent's plane without a Python loop.
        self._mine = (bytes([0, 1, 0]).ljust(256, b"\0"), bytes([0, 0, 1]).ljust(256, b"\0"))
        self._theirs = (self._mine[1], self._mine[0])
        self._no_throw = bytes(5)
        self._throw_one_hot = [bytes(5)] + [bytes(i == t for i in range(1, 6)) for t in range(1, 6)]
        # A dancer's plane is the one-hot string of its house; missing dancers are zeros.
        self._house_plane = [bytes(NUM_HOUSES)] + [
            bytes(h == house for h in range(1, NUM_HOUSES + 1))
            for house in range(1, NUM_HOUSES + 1)
        ]
        self._missing_planes = [bytes(NUM_HOUSES * k) for k in range(game.num_pieces + 1)]
        self._num_pieces = game.num_pieces
        self._length = observation_length(game.num_pieces)

    def observe(self, state: SenetState, player: int) -> np.ndarray:
        """The values described in the class docstring."""
        # np.ndarray over the bytearray: no copy, and cheaper than np.frombuffer.
        return np.ndarray(self._length, np.int8, bytearray().join(self.parts(state, player)))

    def parts(self, state: SenetState, player: int) -> list[bytes | bytearray | array[int]]:
        """The values of :meth:`observe` as byte strings, to be joined (the moves add theirs)."""
        board = state.board[1:]
        acting = state.mover == player and state.winner < 0
        houses = state.dancer_houses(player)
        parts: list[bytes | bytearray | array[int]] = [
            board.translate(self._mine[player]),
            board.translate(self._theirs[player]),
            self._throw_one_hot[state.throw] if acting else self._no_throw,
            bytes((state.borne_off[player], state.borne_off[1 - player])),
        ]
        parts += map(self._house_plane.__getitem__, houses)
        parts.append(self._missing_planes[self._num_pieces - len(houses)])
        return parts


#: Values per dancer in the ``"moves"`` encoding: moves, advance, beats, bears off, safe,
#: attackers.
MOVE_VALUES = 6
#: The longest throw: an opponent's dancer at most this far behind a dancer may reach it.
REACH = 5
#: Bounds of the per-dancer values. The advance is negative for a backward move (at most 5
#: houses) and for a fall into the Water, reborn on house 15 or before (at worst house 1).
_MOVE_LOW = (0, -(OFF - 1), 0, 0, 0, 0)
_MOVE_HIGH = (1, REACH, 1, 1, 1, REACH)


def move_effect(
    board: Board, source: int, destination: int, skyruk: bool
) -> tuple[int, int, int, int]:
    """What moving the mover's dancer from ``source`` to ``destination`` does, unplayed.

    ``(advance, beats, safe, attackers)``: the houses gained (:data:`~zoo_games.senet.rules.OFF`,
    31, for a dancer borne off; negative backward or into the Water), 1 if it beats the
    opponent's dancer there, 1 if the dancer then cannot be beaten (borne off, on a safe
    house, or protected by its neighbours once the move is made), and, when it can, how many
    of the opponent's dancers stand one throw or less behind it (the beaten dancer, now on
    ``source``, included). ``destination`` is a legal move's, as the rules give it; the
    attackers count ignores blockades in between, a rough measure of the risk. Plain Python
    over ints and a board indexed by house: the batched kernels compile this very function.
    """
    mine = board[source]
    theirs = 3 - mine  # board codes: 1 a spool, 2 a con
    beats = 0
    if destination <= NUM_HOUSES and destination != source and board[destination] == theirs:
        beats = 1
    if is_safe_house(destination):
        return destination - source, beats, 1, 0
    # After the move the house left is empty, or holds the beaten dancer.
    left = theirs if beats == 1 else EMPTY
    before = destination > 1 and destination - 1 != source and board[destination - 1] == mine
    after = destination + 1 != source and board[destination + 1] == mine
    if protected(before, after, skyruk):
        return destination - source, beats, 1, 0
    attackers = 0
    for house in range(max(1, destination - REACH), destination):
        occupant = left if house == source else board[house]
        if occupant == theirs:
            attackers += 1
    return destination - source, beats, 0, attackers


def write_move_effect(
    board: Board,
    source: int,
    destination: int,
    skyruk: bool,
    out: MutableSequence[int] | np.ndarray,
    at: int,
) -> None:
    """Write a legal move's :data:`MOVE_VALUES` values of the ``"moves"`` view at ``out[at:]``.

    ``1`` (a move), then :func:`move_effect`'s gain, beat, whether the dancer is borne off,
    safety and attackers: the one statement of the layout, which the kernels compile too
    (over an array of the batch; the observer writes into a Python ``array`` of signed bytes).
    """
    advance, beats, safe, attackers = move_effect(board, source, destination, skyruk)
    out[at] = 1
    out[at + 1] = advance
    out[at + 2] = beats
    out[at + 3] = destination == OFF
    out[at + 4] = safe
    out[at + 5] = attackers


class MovesObserver:
    """The ``"board"`` values, then what each of the mover's dancers would do with its throw.

    A network reading the board and the throw must learn where each dancer would land and
    what it meets there before it can tell a move that beats a dancer or runs into danger
    from one that does not; a greedy player reads that off the rules. This encoding hands it
    over. After the ``"board"`` values (:class:`SenetObserver`), ``6`` values for each dancer
    ``i`` of the observer (counted from the rear, as the actions and the dancer planes count
    them), from index ``67 + 30 * num_pieces``:

    ===== ==================================================================================
    value meaning (the move of dancer ``i`` with the throw, forward or backward as legal)
    ===== ==================================================================================
    0     1 if the dancer has a legal move
    1     the houses it gains: its house reached minus its house (31 for borne off),
          negative backward or into the Water
    2     1 if it beats the opponent's dancer it lands on
    3     1 if it is borne off
    4     1 if it then cannot be beaten: borne off, on a safe house, or protected
    5     when it can be beaten: how many of the opponent's dancers stand 1 to 5 houses behind
          it after the move (blockades ignored)
    ===== ==================================================================================

    All six are 0 for a dancer without a legal move, for dancers the observer no longer has,
    and whenever the observer is not the one to act (it has no throw then). Written by
    :func:`write_move_effect` for the rules' own legal moves.
    """

    def __init__(self, game: SenetGame) -> None:
        self._board = SenetObserver(game)
        board_space = self._board.space
        pieces = game.num_pieces
        self._skyruk = game.skyruk
        low = np.concatenate([board_space.low, np.tile(np.array(_MOVE_LOW, np.int8), pieces)])
        high = np.concatenate([board_space.high, np.tile(np.array(_MOVE_HIGH, np.int8), pieces)])
        self.space = spaces.Box(low=low, high=high, dtype=np.int8)
        self._length = self.space.shape[0]
        self._no_moves = bytes(MOVE_VALUES * pieces)

    def observe(self, state: SenetState, player: int) -> np.ndarray:
        """The values described in the class docstring."""
        parts = self._board.parts(state, player)
        if state.mover == player and state.winner < 0 and state.throw:
            # Signed bytes (a backward gain is negative), joined with the board's as they are.
            moves = array("b", self._no_moves)
            for action, (source, destination) in state.legal_moves().items():
                at = MOVE_VALUES * decode_action(action)[0]
                write_move_effect(state.board, source, destination, self._skyruk, moves, at)
            parts.append(moves)
        else:
            parts.append(self._no_moves)
        return np.ndarray(self._length, np.int8, bytearray().join(parts))
