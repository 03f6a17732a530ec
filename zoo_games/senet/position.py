"""Senet position strings: ``"<board> <mover> [<throw>]"``, read and written.

``<board>`` has one character per house 1..30 (``S`` a spool, ``C`` a con, ``.`` empty);
dancers missing from the board have been borne off. The throw may be left out, in which
case the sticks are still to be thrown (a chance node).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from zoo_games.core.errors import PositionError, position_fields
from zoo_games.senet.houses import EMPTY, HAPPINESS, NUM_HOUSES, PIECE_OF, WATER

#: Position letters of the two sides, in player order (player_0 = spools).
SIDE_LETTERS = ("S", "C")
SIDE_NAMES = ("spools", "cons")
_CELL_OF_LETTER = {".": EMPTY, "S": PIECE_OF[0], "C": PIECE_OF[1]}
_LETTER_OF_CELL = {cell: letter for letter, cell in _CELL_OF_LETTER.items()}


class SenetOptions(Protocol):
    """What a position is checked against: the variant's dancers and rule set."""

    @property
    def num_pieces(self) -> int:
        """Dancers a side has."""

    @property
    def skyruk(self) -> bool:
        """Whether Skyruk's rules are played (else Kendall's)."""


class Position(Protocol):
    """What a position string shows of a state."""

    @property
    def board(self) -> Sequence[int]:
        """The houses' codes, indexed by house (index 0 unused)."""

    @property
    def mover(self) -> int:
        """The player to move."""

    @property
    def throw(self) -> int:
        """The mover's throw, or 0 while the sticks are still to be thrown."""


class PositionFields(NamedTuple):
    """A position read from its string: the rules core makes its state of these, in order."""

    board: list[int]
    borne_off: list[int]
    mover: int
    throw: int


def format_position(state: Position) -> str:
    """The position string of ``state``; the throw is left out at a chance node."""
    board = "".join(_LETTER_OF_CELL[state.board[house]] for house in range(1, NUM_HOUSES + 1))
    text = f"{board} {SIDE_LETTERS[state.mover]}"
    return f"{text} {state.throw}" if state.throw else text


def parse_position(game: SenetOptions, text: str) -> PositionFields:
    """The position ``text`` describes, or a :class:`PositionError` saying what is wrong."""
    fields = position_fields(text, "<board> <mover> [<throw>]", (2, 3))
    board_text, mover_text = fields[0], fields[1]
    if len(board_text) != NUM_HOUSES:
        raise PositionError(
            f"the board must have {NUM_HOUSES} characters (houses 1 to 30), "
            f"got {len(board_text)} in {board_text!r}"
        )
    unknown = sorted(set(board_text) - set(_CELL_OF_LETTER))
    if unknown:
        raise PositionError(
            f"unknown board character(s) {unknown} in {board_text!r}; "
            "use 'S' (spool), 'C' (con) or '.' (empty)"
        )
    if mover_text not in SIDE_LETTERS:
        raise PositionError(f"the mover must be 'S' or 'C', got {mover_text!r}")
    mover = SIDE_LETTERS.index(mover_text)
    throw = 0
    if len(fields) == 3:
        if fields[2] not in ("1", "2", "3", "4", "5"):
            raise PositionError(f"the throw must be 1 to 5, got {fields[2]!r}")
        throw = int(fields[2])
    board = [EMPTY] + [_CELL_OF_LETTER[letter] for letter in board_text]
    borne_off = [0, 0]
    for player, letter in enumerate(SIDE_LETTERS):
        on_board = board_text.count(letter)
        if on_board > game.num_pieces:
            raise PositionError(
                f"{on_board} {SIDE_NAMES[player]} on the board, but each side has only "
                f"{game.num_pieces} dancers in this game"
            )
        if on_board == 0:
            raise PositionError(
                f"the {SIDE_NAMES[player]} have borne off all their dancers: "
                "the game is already over"
            )
        borne_off[player] = game.num_pieces - on_board
    _check_special_houses(game, board, mover)
    return PositionFields(board, borne_off, mover, throw)


def _check_special_houses(game: SenetOptions, board: list[int], mover: int) -> None:
    """Reject dancers on houses where the rules never leave one at a player's turn."""
    if not game.skyruk and board[WATER] != EMPTY:
        raise PositionError(
            "a dancer on the House of Water (27): under Kendall's rules a dancer that falls "
            "in is reborn at once and never stays there"
        )
    if game.skyruk and board[HAPPINESS] not in (EMPTY, PIECE_OF[mover]):
        raise PositionError(
            "the opponent of the mover has a dancer on the House of Happiness (26): under "
            "Skyruk's rules a dancer arriving there moves on at once with a new throw, so only "
            "the mover can have one there"
        )
