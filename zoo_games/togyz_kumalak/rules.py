"""Togyz Kumalak rules as a pure game core.

Vocabulary: each player has nine holes (*otau*) in a row and a store (*kazan*); the balls are
*kumalak*. White (``player_0``) moves first. A *tuzduk* is a hole of the opponent's row that a
player has claimed: every ball that falls into it goes to its owner's kazan. The readings we
chose where the rules are unclear are listed in ``docs/togyz_kumalak.md`` and tested in
``tests/togyz_kumalak/``.

This core is written for speed; the rules are stated plainly in
:mod:`zoo_games.togyz_kumalak.reference`, and ``tests/togyz_kumalak/test_reference.py``
checks this core against it move for move.

The 18 holes are numbered 0 to 17 around the board in the direction of sowing: 0-8 are
White's holes 1-9, 9-17 Black's holes 1-9, so sowing from any hole simply walks the indices
upwards, modulo 18.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import Self

from zoo_games.core.errors import PositionError, check_option
from zoo_games.core.game import DRAW, NO_WINNER, TERMINAL, Game, GameState, winner_returns
from zoo_games.togyz_kumalak.holes import (
    BALLS_PER_HOLE,
    HOLES_PER_SIDE,
    NO_TUZDUK,
    NUM_HOLES,
    TOTAL_BALLS,
    WINNING_KAZAN,
    hole_number,
)
from zoo_games.togyz_kumalak.position import SIDE_NAMES, format_position, parse_position

#: ``bytes.translate`` tables adding ``n`` balls to every hole of a stretch of ``holes``.
ADD = tuple(
    bytes((count + n) % 256 for count in range(256)) for n in range(TOTAL_BALLS // NUM_HOLES + 1)
)
ADD_ONE = ADD[1]
#: A player's actions: sowing its hole 1 to 9.
ACTIONS = tuple(range(HOLES_PER_SIDE))
#: A row of holes without a ball; and the mask of a finished game.
EMPTY_ROW = NO_ACTIONS = bytes(HOLES_PER_SIDE)
#: ``bytes.translate`` table: a hole's count -> 1 if it holds balls (a legal action).
HOLDS_BALLS = bytes([0] + [1] * 255)


def tuzduk_allowed(number: int, made: bool, theirs_made: bool, their_number: int) -> bool:
    """Whether a player may make a tuzduk of the opponent's hole numbered ``number`` (0-8).

    Rule: "A player makes one tuzduk per game, never on the opponent's ninth hole, and never
    on the hole with the number of the opponent's tuzduk" (the two may not face each other).
    ``made``: whether the player has made one; ``theirs_made`` and ``their_number``: whether
    the opponent has, and its number (0-8). Plain Python over ints: the batched kernels
    compile this very function.
    """
    if made or number == HOLES_PER_SIDE - 1:
        return False
    return not theirs_made or their_number != number


def balls_sown_into(hole: int, first: int, end: int, laps: int) -> int:
    """The balls a sowing of plan ``(first, end, laps)`` (:func:`sowing_plan`) drops in ``hole``.

    A ball per whole lap, and one more if ``hole`` is in the stretch ``first .. end - 1``
    (modulo 18).
    """
    return laps + int((hole - first) % NUM_HOLES < end - first)


def sowing_effect(
    holes: Sequence[int], start: int, white_tuzduk: int, black_tuzduk: int
) -> tuple[int, int, bool]:
    """What sowing board hole ``start`` for its owner would do, the board left as it is.

    ``(owner's gain, other's gain, makes a tuzduk)``: the balls each kazan would gain (a
    capture or a new tuzduk's three for the owner, and for either player the balls sown into
    its tuzduk), and whether the last ball would make the owner a tuzduk. ``holes`` are the
    18 board holes; a tuzduk is the board hole its owner holds, any other number for none.
    Counted, not played, on :func:`sowing_plan`, the plan :meth:`sow` fills the holes by.
    The ``"captures"`` observation reads the same effects off tables built from
    :func:`sowing_plan` and :func:`balls_sown_into`, which the tests hold to this function.
    """
    owner = start // HOLES_PER_SIDE
    first, end, laps, last = sowing_plan(start, int(holes[start]))
    white_gain = black_gain = 0
    if 0 <= white_tuzduk < NUM_HOLES:
        white_gain = balls_sown_into(white_tuzduk, first, end, laps)
    if 0 <= black_tuzduk < NUM_HOLES:
        black_gain = balls_sown_into(black_tuzduk, first, end, laps)
    own, other = (white_gain, black_gain) if owner == 0 else (black_gain, white_gain)
    if last // HOLES_PER_SIDE == owner or last in (white_tuzduk, black_tuzduk):
        return own, other, False
    # The last ball is in the opponent's row, which the sowing did not start from.
    count = int(holes[last]) + balls_sown_into(last, first, end, laps)
    if count % 2 == 0:
        return own + count, other, False
    mine, theirs = (white_tuzduk, black_tuzduk) if owner == 0 else (black_tuzduk, white_tuzduk)
    made, theirs_made = 0 <= mine < NUM_HOLES, 0 <= theirs < NUM_HOLES
    if count == 3 and tuzduk_allowed(
        last % HOLES_PER_SIDE, made, theirs_made, theirs % HOLES_PER_SIDE
    ):
        return own + count, other, True
    return own, other, False


def winner_by_kazans(white: int, black: int) -> int:
    """The winner of a game that ends by atsis kalu: the larger kazan; 81-81 is a :data:`DRAW`.

    Plain Python over ints: the batched kernels compile this very function.
    """
    if white == black:
        return DRAW
    return 0 if white > black else 1


def sowing_plan(start: int, balls: int) -> tuple[int, int, int, int]:
    """Where ``balls`` sown from board hole ``start`` go: ``(first, end, laps, last)``.

    Every hole gets ``laps`` balls, the holes ``first .. end - 1`` (indices beyond 17 wrap
    around) one more, and the last ball lands in ``last``.
    """
    first = start if balls > 1 else (start + 1) % NUM_HOLES
    laps, rest = divmod(balls, NUM_HOLES)
    return first, first + rest, laps, (first + balls - 1) % NUM_HOLES


#: ``_SOWING[start][balls]``: :func:`sowing_plan`, for every hole and ball count.
_SOWING = tuple(
    tuple(sowing_plan(start, balls) for balls in range(TOTAL_BALLS + 1))
    for start in range(NUM_HOLES)
)

#: ``NOTATION[made_tuzduk][start][last]``: a move in tournament notation, e.g. ``"76"``, ``"36x"``.
NOTATION = tuple(
    tuple(
        tuple(
            f"{hole_number(start)}{hole_number(last)}" + ("x" if tuzduk else "")
            for last in range(NUM_HOLES)
        )
        for start in range(NUM_HOLES)
    )
    for tuzduk in (False, True)
)


#: A game record: ``None`` for no move yet, else ``(the record before, the last move)``.
Record = tuple["Record", str] | None


class TogyzKumalakGame(Game):
    """Togyz Kumalak; ``stop_at_majority=False`` plays every game out to the end."""

    name = "togyz_kumalak"
    num_actions = HOLES_PER_SIDE

    def __init__(self, stop_at_majority: bool = True) -> None:
        self.stop_at_majority = check_option("stop_at_majority", stop_at_majority, (True, False))

    def options(self) -> dict[str, object]:
        """The keyword options of this variant."""
        return {"stop_at_majority": self.stop_at_majority}

    def new_initial_state(self) -> TogyzKumalakState:
        """Nine balls in each of the 18 holes, empty kazans, White to move."""
        return TogyzKumalakState(self, [BALLS_PER_HOLE] * NUM_HOLES, [0, 0], [NO_TUZDUK] * 2, 0)

    def state_from_position(self, position: str) -> TogyzKumalakState:
        """Read a ``"<white>/<black> <white kazan> <black kazan> <mover>"`` position."""
        state = TogyzKumalakState(self, *parse_position(self, position))
        if not state.legal_actions():
            raise PositionError(
                f"{SIDE_NAMES[state.mover]} has no ball to sow (atsis kalu): the game is "
                "already over"
            )
        return state


class TogyzKumalakState(GameState):
    """A position: balls per hole, kazans, each player's tuzduk, the side to move.

    ``tuzduk[p]`` is the board hole (in the opponent's row) that player ``p`` owns, or
    ``NO_TUZDUK``. ``winner`` is ``NO_WINNER`` while the game goes on, then 0, 1, or ``DRAW``.
    :attr:`moves` is the game record so far in tournament notation (empty for a loaded
    position). It is kept as a chain of ``(earlier record, move)`` pairs, which a clone shares
    instead of copying: search clones states far more often than anyone reads a record.

    ``holes`` is kept as a ``bytearray`` (a hole never holds more than the 162 balls of the
    game): it reads and sums like a list of ints, and the observation is its bytes.
    """

    game: TogyzKumalakGame

    __slots__ = ("_record", "game", "holes", "kazans", "mover", "tuzduk", "winner")

    def __init__(
        self,
        game: TogyzKumalakGame,
        holes: Iterable[int],
        kazans: list[int],
        tuzduk: list[int],
        mover: int,
        winner: int = NO_WINNER,
        record: Record = None,
    ) -> None:
        self.game = game
        self.holes = bytearray(holes)  # always a copy
        self.kazans = kazans
        self.tuzduk = tuzduk
        self.mover = mover
        self.winner = winner
        self._record = record

    @property
    def moves(self) -> list[str]:
        """The moves played since the start or the loaded position, in tournament notation."""
        moves = []
        record = self._record
        while record is not None:
            record, move = record
            moves.append(move)
        return moves[::-1]

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The side to move, or :data:`TERMINAL`."""
        return TERMINAL if self.winner >= 0 else self.mover

    def legal_actions(self) -> list[int]:
        """The mover's holes (0-8) that hold balls; a tuzduk never holds any."""
        if self.winner >= 0:
            return []
        first = HOLES_PER_SIDE * self.mover
        return list(compress(ACTIONS, self.holes[first : first + HOLES_PER_SIDE]))

    def legal_actions_mask(self) -> bytes:
        """1 for each of the mover's holes that holds balls: one ``bytes.translate``."""
        if self.winner >= 0:
            return NO_ACTIONS
        first = HOLES_PER_SIDE * self.mover
        return bytes(self.holes[first : first + HOLES_PER_SIDE]).translate(HOLDS_BALLS)

    def apply_action(self, action: int) -> None:
        """Sow the mover's hole ``action + 1``, capture, and check for the end of the game."""
        mover = self.mover
        self._record = (self._record, self.sow(HOLES_PER_SIDE * mover + action))
        self.mover = 1 - mover
        self._check_end()

    def returns(self) -> tuple[float, float]:
        """+1/-1 by the winner, 0/0 for the 81-81 draw or before the end."""
        return winner_returns(self.winner)

    def clone(self) -> Self:
        """An independent copy."""
        return type(self)(
            self.game,
            self.holes,
            self.kazans[:],
            self.tuzduk[:],
            self.mover,
            self.winner,
            self._record,
        )

    def position(self) -> str:
        """The position string (see :mod:`zoo_games.togyz_kumalak.position`)."""
        return format_position(self)

    def action_to_string(self, action: int) -> str:
        """The move in tournament notation, e.g. ``"76"`` or ``"36x"``."""
        if action not in self.legal_actions():
            return f"sow hole {action + 1}, " + (
                "but the game is over" if self.winner >= 0 else "which is empty"
            )
        return self.notation(action)

    # ------------------------------------------------------------------ rules
    def notation(self, action: int) -> str:
        """Tournament notation of a legal ``action``: own hole, landing hole, ``x`` for a tuzduk."""
        probe = type(self)(self.game, self.holes, self.kazans[:], self.tuzduk[:], self.mover)
        return probe.sow(HOLES_PER_SIDE * self.mover + action)

    def sowing_effect(self, start: int) -> tuple[int, int, bool]:
        """What sowing board hole ``start`` would do now, for its owner, as if it were to move.

        See :func:`sowing_effect`; the position is not changed. It answers for either
        player's holes: the ``"captures"`` observation shows both.
        """
        return sowing_effect(self.holes, start, self.tuzduk[0], self.tuzduk[1])

    def sow(self, start: int) -> str:
        """Sow the balls of board hole ``start`` for the mover; return the move's notation.

        The first ball goes back into the hole it came from (a lone ball goes to the next
        hole); a ball falling into a tuzduk goes to the tuzduk owner's kazan. Then the last
        ball decides: an even count in an opponent's hole is captured; a count of exactly 3
        there makes the hole the mover's tuzduk if the rules allow.

        Ball ``k`` lands in hole ``first + k`` (modulo 18), so the holes are filled a stretch
        at a time rather than ball by ball: every whole lap adds one ball to every hole, the
        rest one ball to each hole of a stretch from ``first`` (one ``bytes.translate``). A
        tuzduk is always empty between moves, so whatever lands in it is then exactly what
        its owner collects.
        """
        holes, kazans, tuzduk = self.holes, self.kazans, self.tuzduk
        balls = holes[start]
        holes[start] = 0
        first, end, laps, last = _SOWING[start][balls]
        if laps:
            holes[:] = holes.translate(ADD[laps])
        if end <= NUM_HOLES:
            holes[first:end] = holes[first:end].translate(ADD_ONE)
        else:
            holes[first:] = holes[first:].translate(ADD_ONE)
            holes[: end - NUM_HOLES] = holes[: end - NUM_HOLES].translate(ADD_ONE)
        white_tuzduk, black_tuzduk = tuzduk
        if white_tuzduk != NO_TUZDUK and holes[white_tuzduk]:
            kazans[0] += holes[white_tuzduk]
            holes[white_tuzduk] = 0
        if black_tuzduk != NO_TUZDUK and holes[black_tuzduk]:
            kazans[1] += holes[black_tuzduk]
            holes[black_tuzduk] = 0
        mover = start // HOLES_PER_SIDE
        made_tuzduk = False
        if last // HOLES_PER_SIDE != mover and last != white_tuzduk and last != black_tuzduk:
            count = holes[last]
            if count % 2 == 0:
                kazans[mover] += count
                holes[last] = 0
            elif count == 3 and self.may_make_tuzduk(mover, last):
                kazans[mover] += count
                holes[last] = 0
                tuzduk[mover] = last
                made_tuzduk = True
        return NOTATION[made_tuzduk][start][last]

    def may_make_tuzduk(self, player: int, hole: int) -> bool:
        """Whether ``player`` may turn the opponent's board hole ``hole`` into its tuzduk.

        See :func:`tuzduk_allowed`.
        """
        mine, theirs = self.tuzduk[player], self.tuzduk[1 - player]
        return tuzduk_allowed(
            hole % HOLES_PER_SIDE,
            mine != NO_TUZDUK,
            theirs != NO_TUZDUK,
            theirs % HOLES_PER_SIDE,
        )

    def _check_end(self) -> None:
        """End the game at a majority (by default) or when the side to move cannot move."""
        kazans = self.kazans
        if self.game.stop_at_majority and (
            kazans[0] >= WINNING_KAZAN or kazans[1] >= WINNING_KAZAN
        ):
            self.winner = 0 if kazans[0] >= WINNING_KAZAN else 1
            return
        first = HOLES_PER_SIDE * self.mover
        if self.holes[first : first + HOLES_PER_SIDE] != EMPTY_ROW:
            return
        # Atsis kalu: the side to move has no ball left; the other side keeps its own balls.
        other = 1 - self.mover
        theirs = HOLES_PER_SIDE * other
        kazans[other] += sum(self.holes[theirs : theirs + HOLES_PER_SIDE])
        for hole in range(theirs, theirs + HOLES_PER_SIDE):
            self.holes[hole] = 0
        self.winner = winner_by_kazans(kazans[0], kazans[1])

    def __repr__(self) -> str:
        return f"TogyzKumalakState({self.position()!r})"
