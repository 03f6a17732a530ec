"""Togyz Kumalak's rules stated plainly: the one statement of the rules.

Read it next to ``docs/togyz_kumalak.md`` ("The rules as implemented", "Readings we chose"):
this module is the oracle that the fast paths are tested against, the rules core
(:mod:`zoo_games.togyz_kumalak.rules`, which sows a stretch of holes at a time with
``bytes.translate`` tables) and the batched kernels (:mod:`zoo_games.batched.togyz_kumalak`).
It is slow on purpose: balls are sown one by one, one small function per rule.

A position is a :class:`TogyzKumalakPosition`: each player's row of nine holes (numbered 1 to
9 from the player's own left), the two kazans, each player's tuzduk (the number of the
opponent's hole it owns, or ``None``), the side to move, and the variant's
``stop_at_majority``. :func:`from_position` reads a position string, :func:`from_state`
converts a rules-core state, :func:`position_string` writes one back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from zoo_games.core.game import TERMINAL

if TYPE_CHECKING:
    from zoo_games.togyz_kumalak.rules import TogyzKumalakState

WHITE, BLACK = 0, 1
SIDE_LETTERS = ("W", "B")
HOLES_PER_ROW = 9
BALLS_PER_HOLE = 9
#: More than half of the 162 balls: a kazan with this many has won.
MAJORITY = 82
DRAW = "draw"

#: A hole: ``(the player whose row it is in, its number 1-9 in that row)``.
Hole = tuple[int, int]


@dataclass(frozen=True)
class TogyzKumalakPosition:
    """A Togyz Kumalak position.

    ``rows[p][n - 1]`` is the number of balls in player ``p``'s hole ``n``; ``tuzduks[p]`` is
    the number of the hole of the opponent's row that player ``p`` owns, or ``None``.
    """

    rows: tuple[tuple[int, ...], tuple[int, ...]]
    kazans: tuple[int, int]
    tuzduks: tuple[int | None, int | None]
    mover: int
    stop_at_majority: bool = True

    def balls(self, hole: Hole) -> int:
        """The balls in ``hole``."""
        player, number = hole
        return self.rows[player][number - 1]

    def tuzduk_owner(self, hole: Hole) -> int | None:
        """The player whose tuzduk ``hole`` is, or ``None``."""
        row_player, number = hole
        owner = 1 - row_player
        return owner if self.tuzduks[owner] == number else None


# ---------------------------------------------------------------------- the position


def initial_position(stop_at_majority: bool = True) -> TogyzKumalakPosition:
    """Set-up: nine balls in each of the 18 holes, both kazans empty, White to move."""
    row = (BALLS_PER_HOLE,) * HOLES_PER_ROW
    return TogyzKumalakPosition((row, row), (0, 0), (None, None), WHITE, stop_at_majority)


def from_position(text: str, stop_at_majority: bool = True) -> TogyzKumalakPosition:
    """Read ``"<white holes>/<black holes> <white kazan> <black kazan> <mover>"``.

    ``X`` marks a tuzduk: a hole of that row owned by the other player. The rules core's
    parser checks the string; this one trusts it.
    """
    rows_text, white_kazan, black_kazan, mover = text.split()
    rows: list[tuple[int, ...]] = []
    tuzduks: list[int | None] = [None, None]
    for player, row_text in enumerate(rows_text.split("/")):
        entries = row_text.split(",")
        for number, entry in enumerate(entries, start=1):
            if entry == "X":
                tuzduks[1 - player] = number
        rows.append(tuple(0 if entry == "X" else int(entry) for entry in entries))
    return TogyzKumalakPosition(
        (rows[0], rows[1]),
        (int(white_kazan), int(black_kazan)),
        (tuzduks[0], tuzduks[1]),
        SIDE_LETTERS.index(mover),
        stop_at_majority,
    )


def from_state(state: TogyzKumalakState) -> TogyzKumalakPosition:
    """The position of a rules-core state."""
    return from_position(state.position(), state.game.stop_at_majority)


def position_string(position: TogyzKumalakPosition) -> str:
    """The position string, as the rules core writes it."""
    rows = [
        ",".join(
            "X" if position.tuzduk_owner((player, number)) is not None else str(count)
            for number, count in enumerate(position.rows[player], start=1)
        )
        for player in (WHITE, BLACK)
    ]
    white_kazan, black_kazan = position.kazans
    return f"{rows[0]}/{rows[1]} {white_kazan} {black_kazan} {SIDE_LETTERS[position.mover]}"


# ---------------------------------------------------------------------- the legal moves


def legal_actions(position: TogyzKumalakPosition) -> list[int]:
    """The mover's holes holding balls: action ``a`` sows hole ``a + 1``.

    Reading 1: a tuzduk never holds a ball, so it is never sown from. Nothing is legal once the
    game is over.
    """
    if is_over(position):
        return []
    return [
        number - 1
        for number in range(1, HOLES_PER_ROW + 1)
        if position.balls((position.mover, number)) > 0
    ]


# ---------------------------------------------------------------------- sowing


def next_hole(hole: Hole) -> Hole:
    """The hole after ``hole``, counterclockwise: along a row, then hole 1 of the other row."""
    player, number = hole
    return (player, number + 1) if number < HOLES_PER_ROW else (1 - player, 1)


def sow(position: TogyzKumalakPosition, number: int) -> tuple[list[list[int]], list[int], Hole]:
    """Sow all the balls of the mover's hole ``number``, one by one.

    The first ball goes back into the hole it came from (a lone ball goes to the next hole),
    then one ball into each next hole, for as many laps as the balls last. A ball falling into
    a tuzduk goes to the kazan of the tuzduk's owner, whoever sows it. Returns the rows and the
    kazans after sowing (as lists, to be judged by the last ball) and the hole of the last ball.
    """
    rows = [list(row) for row in position.rows]
    kazans = list(position.kazans)
    hole: Hole = (position.mover, number)
    balls = rows[position.mover][number - 1]
    rows[position.mover][number - 1] = 0
    if balls == 1:
        hole = next_hole(hole)
    for sown in range(balls):
        if sown > 0:
            hole = next_hole(hole)
        owner = position.tuzduk_owner(hole)
        if owner is not None:
            kazans[owner] += 1
        else:
            rows[hole[0]][hole[1] - 1] += 1
    return rows, kazans, hole


def may_make_tuzduk(position: TogyzKumalakPosition, hole: Hole) -> bool:
    """Whether the mover may turn the opponent's ``hole`` into its tuzduk.

    Not when the mover already has one (one per game), not the opponent's ninth hole, and not
    the hole with the same number as the opponent's tuzduk in the mover's row.
    """
    _, number = hole
    theirs = position.tuzduks[1 - position.mover]
    return position.tuzduks[position.mover] is None and number != HOLES_PER_ROW and theirs != number


def after_action(position: TogyzKumalakPosition, action: int) -> TogyzKumalakPosition:
    """The position after the mover sows its hole ``action + 1``.

    Then the last ball decides. In an opponent's hole that is not a tuzduk (reading 4: a last
    ball into a tuzduk captures nothing): an even count is captured into the mover's kazan; a
    count of exactly three makes the hole the mover's tuzduk, if allowed, and its three balls
    go to the mover's kazan; otherwise the balls stay. Then the game may end (:func:`ended`).
    """
    mover = position.mover
    rows, kazans, last = sow(position, action + 1)
    tuzduks = list(position.tuzduks)
    owner_of_row, number = last
    if owner_of_row != mover and position.tuzduk_owner(last) is None:
        count = rows[owner_of_row][number - 1]
        if count % 2 == 0:
            kazans[mover] += count
            rows[owner_of_row][number - 1] = 0
        elif count == 3 and may_make_tuzduk(position, last):
            kazans[mover] += count
            rows[owner_of_row][number - 1] = 0
            tuzduks[mover] = number
    after = TogyzKumalakPosition(
        (tuple(rows[0]), tuple(rows[1])),
        (kazans[0], kazans[1]),
        (tuzduks[0], tuzduks[1]),
        1 - mover,
        position.stop_at_majority,
    )
    return ended(after)


# ---------------------------------------------------------------------- the end


def has_majority(position: TogyzKumalakPosition) -> bool:
    """Whether a kazan holds 82 balls or more and the variant stops there.

    Reading 3: by default the game ends as soon as a kazan holds 82, checked after every move.
    """
    return position.stop_at_majority and max(position.kazans) >= MAJORITY


def cannot_move(position: TogyzKumalakPosition) -> bool:
    """Atsis kalu: the side to move has no ball in any of its holes."""
    return not any(position.rows[position.mover])


def ended(position: TogyzKumalakPosition) -> TogyzKumalakPosition:
    """The position once the end of the game, if it has come, is settled.

    If a kazan holds the majority (default mode), the game is over as it stands. Otherwise,
    at atsis kalu the other player adds the balls left in its own holes to its kazan
    (reading 2: the balls belong to the player who still has them).
    """
    if has_majority(position) or not cannot_move(position):
        return position
    other = 1 - position.mover
    kazans = list(position.kazans)
    kazans[other] += sum(position.rows[other])
    rows = list(position.rows)
    rows[other] = (0,) * HOLES_PER_ROW
    return replace(position, rows=(rows[0], rows[1]), kazans=(kazans[0], kazans[1]))


def current_player(position: TogyzKumalakPosition) -> int:
    """The side to move (White moves first, then the players alternate), or :data:`TERMINAL`."""
    return TERMINAL if is_over(position) else position.mover


def is_over(position: TogyzKumalakPosition) -> bool:
    """Whether the game is over: a majority (default mode), or the side to move cannot move."""
    return has_majority(position) or cannot_move(position)


def result(position: TogyzKumalakPosition) -> int | str | None:
    """The winner (0 White, 1 Black), :data:`DRAW` for 81-81, or ``None`` before the end.

    82 balls or more win; at the end of a played-out game all 162 balls are in the kazans,
    so one of them holds 82 or more unless they are level at 81.
    """
    if not is_over(position):
        return None
    white, black = position.kazans
    if white >= MAJORITY:
        return WHITE
    if black >= MAJORITY:
        return BLACK
    return DRAW


def returns(position: TogyzKumalakPosition) -> tuple[float, float]:
    """+1/-1 to the winner and loser, 0/0 for 81-81 (reading 6) and before the end."""
    winner = result(position)
    if winner == WHITE:
        return (1.0, -1.0)
    if winner == BLACK:
        return (-1.0, 1.0)
    return (0.0, 0.0)
