"""What a Senet player sees: the board from its own side, the dancers borne off, its throw."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from zoo_games.senet.rules import NUM_HOUSES, SenetGame, SenetState

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
        board = state.board[1:]
        acting = state.mover == player and state.winner < 0
        houses = state.dancer_houses(player)
        parts: list[bytes | bytearray] = [
            board.translate(self._mine[player]),
            board.translate(self._theirs[player]),
            self._throw_one_hot[state.throw] if acting else self._no_throw,
            bytes((state.borne_off[player], state.borne_off[1 - player])),
        ]
        parts += map(self._house_plane.__getitem__, houses)
        parts.append(self._missing_planes[self._num_pieces - len(houses)])
        # np.ndarray over the bytearray: no copy, and cheaper than np.frombuffer.
        return np.ndarray(self._length, np.int8, bytearray().join(parts))
