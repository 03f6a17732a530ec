"""Senet's rules stated plainly: the one statement of the rules, read next to ``docs/senet.md``.

This module is the oracle that the fast paths are tested against: the rules core
(:mod:`zoo_games.senet.rules`, which keeps each player's dancer houses sorted and caches the
legal moves) and the batched kernels (:mod:`zoo_games.batched.senet`). It is written to be
read, not to be fast: one small function per rule, the names of the rule text, no tables. The
numbered "readings" are the readings we chose in ``docs/senet.md`` ("Readings we chose").

A position is a :class:`SenetPosition`: the variant (rule set and dancers per side), the 30
houses as the letters of the position string, the side to act and its throw (0 while the
sticks are still to be thrown). :func:`from_position` reads a position string and
:func:`from_state` converts a rules-core state; :func:`position_string` writes one back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING

from zoo_games.core.game import CHANCE, TERMINAL

if TYPE_CHECKING:
    from zoo_games.senet.rules import SenetState

#: The letters of the two sides on the board and in position strings: player 0 plays the
#: spools, player 1 the cons.
SIDES = ("S", "C")
EMPTY = "."
FIRST_HOUSE, LAST_HOUSE = 1, 30
HOUSE_OF_REBIRTH = 15
HOUSE_OF_HAPPINESS = 26
HOUSE_OF_WATER = 27
HOUSE_OF_THREE_TRUTHS = 28
HOUSE_OF_RE_ATUM = 29
HOUSE_OF_RE_HORAKHTY = 30
#: "Bearing off": where a dancer that leaves the board goes.
OFF = "off"
#: All six special houses are safe: a dancer standing on one cannot be beaten.
SAFE_HOUSES = (
    HOUSE_OF_REBIRTH,
    HOUSE_OF_HAPPINESS,
    HOUSE_OF_WATER,
    HOUSE_OF_THREE_TRUTHS,
    HOUSE_OF_RE_ATUM,
    HOUSE_OF_RE_HORAKHTY,
)
#: After a move made with one of these throws the same player throws again.
EXTRA_TURN_THROWS = (1, 4, 5)
PASS = 0


@dataclass(frozen=True)
class SenetPosition:
    """A Senet position: the variant, the houses, the side to act and its throw.

    ``board[house - 1]`` is ``"S"``, ``"C"`` or ``"."`` for houses 1 to 30. Dancers that are not
    on the board have been borne off. ``throw`` is 0 while the sticks are still to be thrown.
    """

    rules: str
    num_pieces: int
    board: str
    mover: int
    throw: int

    def occupant(self, house: int) -> str:
        """The letter of the dancer on ``house`` (``"."`` for an empty house)."""
        return self.board[house - 1]


# ---------------------------------------------------------------------- the position


def initial_position(rules: str = "kendall", num_pieces: int = 5) -> SenetPosition:
    """The dancers alternate on houses 1 to 2n, a con on house 1; the spools throw first."""
    board = "CS" * num_pieces + EMPTY * (LAST_HOUSE - 2 * num_pieces)
    return SenetPosition(rules, num_pieces, board, mover=0, throw=0)


def from_position(text: str, rules: str = "kendall", num_pieces: int = 5) -> SenetPosition:
    """Read ``"<board> <mover> [<throw>]"`` (checked by the rules core's parser, not here)."""
    board, mover, *throw = text.split()
    return SenetPosition(
        rules, num_pieces, board, SIDES.index(mover), int(throw[0]) if throw else 0
    )


def from_state(state: SenetState) -> SenetPosition:
    """The position of a rules-core state."""
    return from_position(state.position(), state.game.rules, state.game.num_pieces)


def position_string(position: SenetPosition) -> str:
    """``"<board> <mover> <throw>"``, the throw left out while it is still to be thrown."""
    text = f"{position.board} {SIDES[position.mover]}"
    return f"{text} {position.throw}" if position.throw else text


# ---------------------------------------------------------------------- the throw


def throw_outcomes() -> list[tuple[int, Fraction]]:
    """The throws of the four two-sided sticks, with their probabilities.

    Each stick falls with its coloured side up or down, all 16 ways equally likely. The number
    of coloured sides up is the number of steps, and no coloured side up counts 5.
    """
    counts = dict.fromkeys(range(1, 6), 0)
    for sticks in product((0, 1), repeat=4):
        coloured = sum(sticks)
        counts[coloured if coloured else 5] += 1
    return [(throw, Fraction(count, 16)) for throw, count in counts.items()]


def chance_outcomes(position: SenetPosition) -> list[tuple[int, Fraction]]:
    """The throws the mover may get, with their probabilities (while the throw is unknown)."""
    assert position.throw == 0, "the throw is already known"
    return throw_outcomes()


def after_throw(position: SenetPosition, throw: int) -> SenetPosition:
    """The same position, with the mover's throw known."""
    return replace(position, throw=throw)


# ---------------------------------------------------------------------- the board


def dancer_houses(position: SenetPosition, player: int) -> list[int]:
    """The houses of ``player``'s dancers, counted from the start of the path.

    An action names a dancer by its place in this list: dancer 0 is the rearmost.
    """
    return [
        house
        for house in range(FIRST_HOUSE, LAST_HOUSE + 1)
        if position.occupant(house) == SIDES[player]
    ]


def row_around(position: SenetPosition, house: int) -> list[int]:
    """The row of the dancer on ``house``: the dancers of its side next to each other.

    Reading 1: "in a row" follows the path, so houses 10 and 11 (and 20 and 21) are neighbours.
    """
    side = position.occupant(house)
    first = house
    while first > FIRST_HOUSE and position.occupant(first - 1) == side:
        first -= 1
    last = house
    while last < LAST_HOUSE and position.occupant(last + 1) == side:
        last += 1
    return list(range(first, last + 1))


def is_protected(position: SenetPosition, house: int) -> bool:
    """Whether the dancer on ``house`` cannot be beaten because of its row.

    Kendall: every dancer of a row of two or more is protected. Skyruk: only the first and the
    last dancer of a row; the inner dancers of a row of three or more can be beaten.
    """
    row = row_around(position, house)
    if len(row) < 2:
        return False
    if position.rules == "kendall":
        return True
    return house in (row[0], row[-1])


def blockade_length(position: SenetPosition) -> int:
    """How many opponent dancers in a row make a blockade: three (Kendall) or two (Skyruk)."""
    return 3 if position.rules == "kendall" else 2


def jumps_a_blockade(position: SenetPosition, source: int, target: int) -> bool:
    """Whether a move from ``source`` to ``target`` jumps over a blockade.

    Reading 2: a blockade is jumped only when its whole row lies between the two houses; a row
    that runs into the landing house is not jumped (landing there is decided by protection).
    """
    opponent = SIDES[1 - SIDES.index(position.occupant(source))]
    low, high = min(source, target), max(source, target)
    for house in range(low + 1, high):
        if position.occupant(house) == opponent:
            row = row_around(position, house)
            if len(row) >= blockade_length(position) and low < row[0] and row[-1] < high:
                return True
    return False


def may_land(position: SenetPosition, source: int, target: int) -> bool:
    """Whether the dancer on ``source`` may land on ``target`` (a house below 27).

    Never on a dancer of its own side; an opponent's dancer may be beaten unless it stands on a
    safe house or is protected; and no move may jump over a blockade. Reading 3: these rules
    apply to backward moves exactly as to forward ones.
    """
    mine = position.occupant(source)
    there = position.occupant(target)
    if there == mine:
        return False
    if there != EMPTY and (target in SAFE_HOUSES or is_protected(position, target)):
        return False
    return not jumps_a_blockade(position, source, target)


def house_of_rebirth(position: SenetPosition) -> int:
    """Rebirth: house 15, or the first empty house before it if 15 is taken."""
    house = HOUSE_OF_REBIRTH
    while position.occupant(house) != EMPTY:
        house -= 1
    return house


# ---------------------------------------------------------------------- where a dancer goes


def forward_destination(position: SenetPosition, source: int, steps: int) -> int | str | None:
    """Where the mover's dancer on ``source`` ends moving ``steps`` forward, or ``None``.

    No dancer may move past the House of Happiness without stopping on it. Kendall: it must be
    reached with the exact throw. Skyruk (reading 5): a move that would pass it stops on it,
    from any house. Beyond it the rule set's own table applies.
    """
    if source >= HOUSE_OF_HAPPINESS:
        if position.rules == "kendall":
            return kendall_beyond_happiness(position, source, steps)
        return skyruk_beyond_happiness(position, source, steps)
    target = source + steps
    if target > HOUSE_OF_HAPPINESS:
        if position.rules == "kendall":
            return None
        target = HOUSE_OF_HAPPINESS
    return target if may_land(position, source, target) else None


def kendall_beyond_happiness(position: SenetPosition, source: int, steps: int) -> int | str | None:
    """Kendall's moves from the House of Happiness and the houses after it.

    From 26: 5 bears off; 4, 3, 2 go to 30, 29, 28 if that house is free (reading 9: with a
    dancer of either side there, the dancer has no move, as an opponent there stands on a safe
    house); 1 goes to the House of Water, where the dancer drowns and is reborn at once. From
    28 only a 3 bears off, from 29 only a 2, from 30 only a 1. (No blockade can stand
    between 26 and 30: the House of Water is never occupied under Kendall's rules.)
    """
    if source == HOUSE_OF_HAPPINESS:
        if steps == 5:
            return OFF
        if steps == 1:
            return house_of_rebirth(position)
        target = source + steps
        return target if position.occupant(target) == EMPTY else None
    bearing_off_throw = {HOUSE_OF_THREE_TRUTHS: 3, HOUSE_OF_RE_ATUM: 2, HOUSE_OF_RE_HORAKHTY: 1}
    return OFF if steps == bearing_off_throw[source] else None


def skyruk_beyond_happiness(position: SenetPosition, source: int, steps: int) -> int | str | None:
    """Skyruk's moves from the House of Happiness and the houses after it.

    From 26 (the extra move on a new throw, always possible; reading 8: it ignores blockades
    and protection): 5 bears off; 2, 3, 4 go to 28, 29, 30, or to the House of Water if that
    house is taken, or to Rebirth if the Water is taken too; 1 goes to the House of Water, or
    to Rebirth if it is taken ("taken": by a dancer of either side, reading 7). From the House
    of Water: 1, 2 or 3 sends the dancer to Rebirth, 4 bears it off, and 5 leaves it there (it
    stays on its house: the turn then passes). From 28 only a 3 bears off, from 29 only a 2,
    and from 30 any throw bears off.
    """
    if source == HOUSE_OF_HAPPINESS:
        if steps == 5:
            return OFF
        if steps in (2, 3, 4) and position.occupant(source + steps) == EMPTY:
            return source + steps
        if position.occupant(HOUSE_OF_WATER) == EMPTY:
            return HOUSE_OF_WATER
        return house_of_rebirth(position)
    if source == HOUSE_OF_WATER:
        if steps == 4:
            return OFF
        if steps == 5:
            return HOUSE_OF_WATER
        return house_of_rebirth(position)
    if source == HOUSE_OF_RE_HORAKHTY:
        return OFF
    bearing_off_throw = {HOUSE_OF_THREE_TRUTHS: 3, HOUSE_OF_RE_ATUM: 2}
    return OFF if steps == bearing_off_throw[source] else None


def backward_destination(position: SenetPosition, source: int, steps: int) -> int | None:
    """Where the dancer on ``source`` lands moving ``steps`` backward, or ``None``.

    A dancer that has reached the House of Happiness never moves backward again, and no dancer
    moves back beyond house 1.
    """
    target = source - steps
    if source >= HOUSE_OF_HAPPINESS or target < FIRST_HOUSE:
        return None
    return target if may_land(position, source, target) else None


# ---------------------------------------------------------------------- the legal moves


def forward_action(dancer: int, steps: int) -> int:
    """Moving the mover's ``dancer``-th dancer forward by ``steps``: ``10 * dancer + steps``."""
    return 10 * dancer + steps


def backward_action(dancer: int, steps: int) -> int:
    """Moving it backward by ``steps``: ``10 * dancer + 11 - steps``."""
    return 10 * dancer + 11 - steps


def rethrow_is_due(position: SenetPosition) -> bool:
    """Skyruk: the mover's dancer rests on the House of Happiness, so it moves on at once.

    Reading 6: a dancer arriving there makes its extra move on a new throw, so only the mover
    can have a dancer on 26 when a decision is due, and only that dancer may move.
    """
    return (
        position.rules == "skyruk"
        and position.occupant(HOUSE_OF_HAPPINESS) == SIDES[position.mover]
    )


def legal_moves(position: SenetPosition) -> dict[int, tuple[int, int | str]]:
    """Each legal move of the mover: action -> (house left, where the dancer ends).

    A dancer moves forward if any dancer can; otherwise backward if any can; otherwise
    nothing moves (the pass, reading 4). A Skyruk re-throw from Happiness moves only the
    dancer there.
    """
    houses = dancer_houses(position, position.mover)
    steps = position.throw
    if rethrow_is_due(position):
        dancer = houses.index(HOUSE_OF_HAPPINESS)
        destination = skyruk_beyond_happiness(position, HOUSE_OF_HAPPINESS, steps)
        assert destination is not None  # the extra move from Happiness is always possible
        return {forward_action(dancer, steps): (HOUSE_OF_HAPPINESS, destination)}
    forward = {
        forward_action(dancer, steps): (house, destination)
        for dancer, house in enumerate(houses)
        if (destination := forward_destination(position, house, steps)) is not None
    }
    if forward:
        return forward
    return {
        backward_action(dancer, steps): (house, destination)
        for dancer, house in enumerate(houses)
        if (destination := backward_destination(position, house, steps)) is not None
    }


def legal_actions(position: SenetPosition) -> list[int]:
    """The legal actions of the mover once its throw is known, ascending.

    The pass (action 0) is legal only when no dancer can move; nothing is legal once the game
    is over.
    """
    if is_over(position):
        return []
    return sorted(legal_moves(position)) or [PASS]


# ---------------------------------------------------------------------- playing a move


def moved(position: SenetPosition, source: int, destination: int | str) -> str:
    """The board after the dancer on ``source`` goes to ``destination``.

    Landing on an opponent's dancer beats it: the two swap houses. A dancer borne off leaves
    the board; one that stays in the House of Water does not move.
    """
    houses = list(position.board)
    mover_letter = houses[source - 1]
    if destination == OFF:
        houses[source - 1] = EMPTY
    elif destination != source:
        assert isinstance(destination, int)
        houses[source - 1] = houses[destination - 1]  # the beaten dancer, or an empty house
        houses[destination - 1] = mover_letter
    return "".join(houses)


def throws_again(position: SenetPosition, source: int, destination: int | str) -> bool:
    """Whether the mover throws again after moving from ``source`` to ``destination``.

    After a throw of 1, 4 or 5 the same player throws again, after 2 or 3 the turn passes,
    whichever the direction of the move. Skyruk: a dancer arriving on the House of Happiness
    makes its extra move at once on a new throw, which replaces the throw that brought it
    there (reading 6); a dancer left in the House of Water passes the turn (reading 7).
    """
    if position.rules == "skyruk" and destination == HOUSE_OF_HAPPINESS:
        return True
    if destination == source:
        return False
    return position.throw in EXTRA_TURN_THROWS


def after_move(position: SenetPosition, action: int) -> SenetPosition:
    """The position after the mover plays the legal ``action`` with its throw.

    A pass always hands the turn over, whatever the throw (reading 4). A side that bears off
    its last dancer has won and the game stops there (the position keeps it as the mover).
    """
    if action == PASS:
        assert not legal_moves(position), "the pass is legal only when no dancer can move"
        return replace(position, mover=1 - position.mover, throw=0)
    source, destination = legal_moves(position)[action]
    after = replace(position, board=moved(position, source, destination), throw=0)
    if is_over(after) or throws_again(position, source, destination):
        return after
    return replace(after, mover=1 - position.mover)


def after_action(position: SenetPosition, action: int) -> SenetPosition:
    """The position after a throw (while the throw is unknown) or after the mover's move."""
    if position.throw == 0:
        return after_throw(position, action)
    return after_move(position, action)


# ---------------------------------------------------------------------- the end


def current_player(position: SenetPosition) -> int:
    """The mover once its throw is known, :data:`CHANCE` before it, :data:`TERMINAL` at the end.

    The spools (player 0) throw first; an extra turn is the same player throwing again.
    """
    if is_over(position):
        return TERMINAL
    return position.mover if position.throw else CHANCE


def winner(position: SenetPosition) -> int | None:
    """The side that has borne off all its dancers, if any: the first to do so wins."""
    for player in (0, 1):
        if not dancer_houses(position, player):
            return player
    return None


def is_over(position: SenetPosition) -> bool:
    """Whether a side has won."""
    return winner(position) is not None


def returns(position: SenetPosition) -> tuple[float, float]:
    """+1 to the winner, -1 to the loser (reading 11); 0 to both before the end."""
    side = winner(position)
    if side is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if side == 0 else (-1.0, 1.0)
