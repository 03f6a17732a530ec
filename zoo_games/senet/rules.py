"""Senet rules, both rule sets (Kendall and Skyruk), as a pure game core.

Vocabulary: the 30 squares are *houses*, numbered 1 to 30 along the S-shaped path; the
pieces are *dancers*; ``player_0`` plays the *spools*, ``player_1`` the *cons*; a *throw*
is the number of steps the four sticks give (1 to 5). Houses 26 to 30 are the House of
Happiness, of Water, of Three Truths, of Re-Atum and of Re-Horakhty; 15 is the House of
Rebirth. Every reading we chose where the rules leave things open is listed in
``docs/senet.md`` and tested in ``tests/senet/``.

This core is written for speed; the rules are stated plainly in
:mod:`zoo_games.senet.reference`, and ``tests/senet/test_reference.py`` checks this core
against it move for move.

The state is a chance node while the sticks are to be thrown (``throw == 0``) and a
decision node once the throw is known, so the acting player always sees its throw. An
extra turn (a throw of 1, 4 or 5) and Skyruk's re-throw from the House of Happiness are
just the same player throwing again.

The rules that the batched kernels (:mod:`zoo_games.batched.senet`) apply as they are, the
protection of a dancer and the moves from the last five houses, are plain functions of this
module over ints and a board, which the kernels compile: one statement of each rule.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Sequence
from typing import Protocol, Self, TypeVar

from zoo_games.core.errors import check_option
from zoo_games.core.game import CHANCE, TERMINAL, Game, GameState, winner_returns
from zoo_games.senet.houses import (
    EMPTY,
    HAPPINESS,
    NUM_HOUSES,
    OFF,
    PIECE_OF,
    RE_HORAKHTY,
    REBIRTH,
    THREE_TRUTHS,
    WATER,
)
from zoo_games.senet.position import format_position, parse_position


def is_safe_house(house: int) -> bool:
    """Whether no dancer on ``house`` can be beaten, whatever stands around it.

    Rebirth and the houses from Happiness on (Happiness, the Water and the three last), and
    :data:`OFF`, a dancer borne off. Plain Python over an int: the batched kernels compile
    this very function.
    """
    return house >= HAPPINESS or house == REBIRTH


#: The houses of the board where no dancer can be beaten.
SAFE_HOUSES = frozenset(house for house in range(1, NUM_HOUSES + 1) if is_safe_house(house))

RULE_SETS = ("kendall", "skyruk")
DANCER_COUNTS = (5, 7)

#: The four two-sided sticks: k coloured sides up give k steps, none gives 5.
#: P(k coloured) = C(4, k) / 16.
THROW_PROBABILITIES: tuple[tuple[int, float], ...] = (
    (1, 4 / 16),
    (2, 6 / 16),
    (3, 4 / 16),
    (4, 1 / 16),
    (5, 1 / 16),
)
#: Throws after which the same player throws again.
EXTRA_TURN_THROWS = frozenset({1, 4, 5})

PASS = 0
#: Where a move from the last houses goes when it is not legal.
NO_MOVE = -1


class Board(Protocol):
    """A board indexed by house: the rules core's ``bytearray``, or a kernel's byte row."""

    def __getitem__(self, house: int, /) -> int: ...


#: Whether houses hold a dancer of one side: a bool for one house, or a house mask (an int
#: whose bit ``h`` stands for house ``h``) for many at once.
Neighbours = TypeVar("Neighbours", bool, int)


def protected(before: Neighbours, after: Neighbours, skyruk: bool) -> Neighbours:
    """Whether a dancer cannot be beaten, from the dancers of its side beside it.

    Rule: "A dancer next to one of its side is protected": under Kendall's rules with such a
    neighbour on either hand, under Skyruk's on one hand only (the first and the last
    dancers of a row; the inner dancers of a longer row can be beaten). ``before`` and
    ``after`` say whether the house before and the house after hold one of its side: bools
    for one dancer, or house masks for all of a side's dancers at once (the kernels').
    """
    return (before ^ after) if skyruk else (before | after)


def rebirth_house(board: Board) -> int:
    """Where a dancer is reborn: the House of Rebirth (15), or the first empty house before it.

    Rule: "A dancer falling into the Water is reborn on the House of Rebirth."
    """
    house = REBIRTH
    while board[house] != EMPTY:
        house -= 1
    return house


def kendall_beyond_happiness(board: Board, source: int, steps: int) -> int:
    """Where Kendall's rules take a dancer moving ``steps`` from ``source`` (26 to 30).

    Rule: "Bear off with 26+5, 28+3, 29+2, 30+1 exactly; from Happiness a 1 falls in the Water
    (rebirth), a 2, 3 or 4 goes to an empty house; Three Truths, Re-Atum and Re-Horakhty only
    bear off." A house, :data:`OFF`, or :data:`NO_MOVE`.
    """
    target = source + steps
    if target == OFF:
        return OFF
    if source != HAPPINESS or target > NUM_HOUSES or board[target] != EMPTY:
        return NO_MOVE
    return rebirth_house(board) if target == WATER else target


def skyruk_beyond_happiness(board: Board, source: int, steps: int) -> int:
    """Where Skyruk's rules take a dancer moving ``steps`` from ``source`` (26 to 30).

    From Happiness: "5 bears off; 2, 3, 4 reach Three Truths, Re-Atum, Re-Horakhty if empty;
    otherwise the dancer falls in the Water (or is reborn if the Water is taken)". From the
    Water: "4 bears off, 5 waits there (the turn passes), anything else is rebirth". From
    Re-Horakhty any throw bears off; from Three Truths a 3, from Re-Atum a 2. A house,
    :data:`OFF`, ``source`` itself (waiting in the Water), or :data:`NO_MOVE`.
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


def forward_action(dancer: int, steps: int) -> int:
    """The action that moves the mover's ``dancer``-th dancer (0 = rearmost) forward."""
    return 10 * dancer + steps


def backward_action(dancer: int, steps: int) -> int:
    """The action that moves the mover's ``dancer``-th dancer backward."""
    return 10 * dancer + 11 - steps


def decode_action(action: int) -> tuple[int, int]:
    """``(dancer, signed steps)`` of a non-pass action: steps < 0 means backward."""
    dancer, rest = divmod(action - 1, 10)
    steps = rest + 1
    return (dancer, steps) if steps <= 5 else (dancer, steps - 11)


class SenetGame(Game):
    """A Senet variant: ``rules`` is ``"kendall"`` or ``"skyruk"``, ``num_pieces`` 5 or 7."""

    name = "senet"
    has_chance = True

    def __init__(self, rules: str = "kendall", num_pieces: int = 5) -> None:
        self.rules = check_option("rules", rules, RULE_SETS)
        self.num_pieces = check_option("num_pieces", num_pieces, DANCER_COUNTS)
        self.skyruk = rules == "skyruk"
        self.blockade_length = 2 if self.skyruk else 3
        self.num_actions = 10 * num_pieces + 1

    def options(self) -> dict[str, object]:
        """The keyword options of this variant."""
        return {"rules": self.rules, "num_pieces": self.num_pieces}

    def new_initial_state(self) -> SenetState:
        """Dancers alternate on houses 1 to 2n, cons first; the spools throw first."""
        board = [EMPTY] * (NUM_HOUSES + 1)
        for house in range(1, 2 * self.num_pieces + 1):
            board[house] = PIECE_OF[1] if house % 2 else PIECE_OF[0]
        return SenetState(self, board, [0, 0], mover=0, throw=0)

    def state_from_position(self, position: str) -> SenetState:
        """Read a ``"<board> <mover> [<throw>]"`` position (see :mod:`zoo_games.senet.position`)."""
        return SenetState(self, *parse_position(self, position))


class SenetState(GameState):
    """A Senet position: the board, dancers borne off, the side to act and its throw.

    ``board[h]`` for houses ``h`` 1..30 (index 0 unused) holds ``EMPTY`` or ``player + 1``;
    it is a ``bytearray``, which indexes like a list and gives the observation its bytes.
    ``throw`` is 0 while the mover's sticks are still to be thrown (a chance node).
    """

    game: SenetGame

    __slots__ = ("_houses", "_moves", "board", "borne_off", "game", "mover", "throw", "winner")

    def __init__(
        self,
        game: SenetGame,
        board: Iterable[int],
        borne_off: list[int],
        mover: int,
        throw: int,
        winner: int = -1,
        houses: tuple[list[int], list[int]] | None = None,
    ) -> None:
        self.game = game
        self.board = bytearray(board)  # always a copy
        self.borne_off = borne_off
        self.mover = mover
        self.throw = throw
        self.winner = winner
        # The legal moves of this state once computed; every apply_action clears it.
        self._moves: dict[int, tuple[int, int]] | None = None
        # Each player's dancer houses, ascending: the legal moves and the observation both
        # need them, so every move updates them rather than searching the board again.
        self._houses = houses or (self._find_houses(0), self._find_houses(1))

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The mover, :data:`CHANCE` before its throw, :data:`TERMINAL` once someone won."""
        if self.winner >= 0:
            return TERMINAL
        return self.mover if self.throw else CHANCE

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """The five throws of the sticks with their probabilities."""
        return THROW_PROBABILITIES

    def legal_actions(self) -> list[int]:
        """Forward moves; else backward moves; else the pass.

        Under Skyruk's rules a dancer resting on the House of Happiness has just arrived and
        makes its extra move on this (re-)throw: it is the only legal move.
        """
        if self.winner >= 0:
            return []
        if not self.throw:
            return [outcome for outcome, _ in THROW_PROBABILITIES]
        return list(self.legal_moves()) or [PASS]

    def legal_moves(self) -> dict[int, tuple[int, int]]:
        """Each legal move: action -> (house left, house reached); empty when only a pass is left.

        The house reached may be :data:`OFF`, or the house left itself (Skyruk: waiting in
        the House of Water). Computed once per state: ``apply_action`` reuses it.
        """
        if self._moves is not None:
            return self._moves
        throw = self.throw
        houses = self.dancer_houses(self.mover)
        moves: dict[int, tuple[int, int]] = {}
        if self.game.skyruk and self.board[HAPPINESS] == PIECE_OF[self.mover]:
            onwards = skyruk_beyond_happiness(self.board, HAPPINESS, throw)
            assert onwards != NO_MOVE  # every re-throw moves the dancer on
            moves[forward_action(houses.index(HAPPINESS), throw)] = (HAPPINESS, onwards)
        else:
            landing = self._landing
            for dancer, house in enumerate(houses):
                if house + throw < HAPPINESS:  # most moves: a plain landing on the path
                    destination = landing(house, house + throw)
                else:
                    destination = self.forward_destination(house, throw)
                if destination is not None:
                    moves[forward_action(dancer, throw)] = (house, destination)
            if not moves:
                for dancer, house in enumerate(houses):
                    if house < HAPPINESS:
                        destination = self._backward_destination(house, throw)
                        if destination is not None:
                            moves[backward_action(dancer, throw)] = (house, destination)
        self._moves = moves
        return moves

    def apply_action(self, action: int) -> None:
        """Throw the sticks (at a chance node) or move a dancer (or pass), then hand on the turn."""
        if not self.throw:
            self.throw = action
            self._moves = None
            return
        throw, mover = self.throw, self.mover
        move = self.legal_moves().get(action)
        assert move is not None or action == PASS, f"illegal action {action} in {self.position()}"
        self.throw = 0
        self._moves = None
        if move is None:  # the pass
            self.mover = 1 - mover
            return
        source, destination = move
        board = self.board
        if destination != source:
            houses = self._houses[mover]
            houses.remove(source)
            if destination != OFF:
                insort(houses, destination)
                if board[destination] != EMPTY:  # a beaten dancer takes the mover's house
                    beaten = self._houses[1 - mover]
                    beaten.remove(destination)
                    insort(beaten, source)
        board[source] = board[destination] if destination <= NUM_HOUSES else EMPTY
        if destination == OFF:
            self.borne_off[mover] += 1
            if self.borne_off[mover] == self.game.num_pieces:
                self.winner = mover
                return
        elif destination != source:
            board[destination] = PIECE_OF[mover]
        if self.game.skyruk and destination == HAPPINESS:
            return  # re-throw: the same mover throws for the dancer's extra move
        if throw not in EXTRA_TURN_THROWS or destination == source:
            self.mover = 1 - mover

    def returns(self) -> tuple[float, float]:
        """+1 to the side that bore off all its dancers, -1 to the other."""
        return winner_returns(self.winner)

    def clone(self) -> Self:
        """A copy sharing only the (immutable) game."""
        return type(self)(
            self.game,
            self.board,
            self.borne_off[:],
            self.mover,
            self.throw,
            self.winner,
            (self._houses[0][:], self._houses[1][:]),
        )

    def position(self) -> str:
        """``"<board> <mover> <throw>"``, the throw left out while it is still to be thrown."""
        return format_position(self)

    def action_to_string(self, action: int) -> str:
        """E.g. ``"pass"``, ``"dancer 1: 14->17"``, ``"dancer 4: 26->water->15"``."""
        if self.winner >= 0:
            return f"action {action} (the game is over)"
        if not self.throw:
            return f"throw {action}"
        if action == PASS:
            return "pass"
        dancer, steps = decode_action(action)
        move = self.legal_moves().get(action)
        if move is None:
            direction = "forward" if steps > 0 else "backward"
            return f"dancer {dancer} {direction} {abs(steps)}"
        source, destination = move
        return f"dancer {dancer}: {source}->{self._describe_landing(source, destination)}"

    # ------------------------------------------------------------------ rules
    def dancer_houses(self, player: int) -> list[int]:
        """The houses of ``player``'s dancers on the board, rearmost first (read-only)."""
        return self._houses[player]

    def _find_houses(self, player: int) -> list[int]:
        """``player``'s dancer houses, searched on the board."""
        piece = PIECE_OF[player]
        board = self.board
        houses = []
        house = 0
        # As many C-level searches as dancers on the board, instead of a loop over 30 houses.
        for _ in range(self.game.num_pieces - self.borne_off[player]):
            house = board.index(piece, house + 1)
            houses.append(house)
        return houses

    def forward_destination(self, source: int, steps: int) -> int | None:
        """Where the mover's dancer on ``source`` ends after moving ``steps`` forward.

        Returns a house, :data:`OFF`, ``source`` itself (Skyruk: waiting in the House of
        Water on a 5), or ``None`` when the move is illegal.
        """
        if source < HAPPINESS:
            target = source + steps
            if target > HAPPINESS:
                if not self.game.skyruk:
                    return None  # Kendall: the House of Happiness must be reached exactly
                target = HAPPINESS  # Skyruk: the House of Happiness stops every dancer
            return self._landing(source, target)
        beyond = skyruk_beyond_happiness if self.game.skyruk else kendall_beyond_happiness
        destination = beyond(self.board, source, steps)
        return None if destination == NO_MOVE else destination

    def _backward_destination(self, source: int, steps: int) -> int | None:
        target = source - steps
        return self._landing(source, target) if target >= 1 else None

    def _landing(self, source: int, target: int) -> int | None:
        """``target`` if a dancer on ``source`` may land there (below the House of Happiness).

        The house must not hold one of the mover's own dancers; an opponent's dancer there is
        beaten (the two swap houses) unless the house is safe or the dancer protected; and the
        path must not jump over a blockade.
        """
        board = self.board
        occupant = board[target]
        mine = board[source]
        if occupant == mine:
            return None
        if occupant != EMPTY and (target in SAFE_HOUSES or self._is_protected(target)):
            return None
        # Only a jump longer than a blockade can clear one: most moves skip the scan.
        if abs(target - source) > self.game.blockade_length and self._jumps_blockade(
            source, target
        ):
            return None
        return target

    def _is_protected(self, house: int) -> bool:
        """Whether the dancer on ``house`` cannot be beaten because of its neighbours."""
        board = self.board
        piece = board[house]
        return protected(
            house > 1 and board[house - 1] == piece,
            house < NUM_HOUSES and board[house + 1] == piece,
            self.game.skyruk,
        )

    def _jumps_blockade(self, source: int, target: int) -> bool:
        """Whether the move jumps over a whole row of blockading opponents.

        A row is a maximal run of the opponent's dancers on consecutive houses; it blocks
        when it is at least ``blockade_length`` long and lies entirely between ``source``
        and ``target``. A row that runs into the target house is not jumped over: landing
        in it is a matter of protection (which is what lets Skyruk's inner dancers be beaten).
        """
        need = self.game.blockade_length
        board = self.board
        opponent = PIECE_OF[0] + PIECE_OF[1] - board[source]
        step = 1 if target > source else -1
        run = 0
        for house in range(source + step, target, step):
            if board[house] == opponent:
                run += 1
            elif run >= need:
                return True
            else:
                run = 0
        return run >= need and board[target] != opponent

    def _describe_landing(self, source: int, destination: int) -> str:
        if destination == OFF:
            return "off"
        if destination == source:
            return f"{source} (waits in the water; the turn passes)"
        text = (
            f"water->{destination}"
            if source == HAPPINESS and destination <= REBIRTH
            else str(destination)
        )
        if self.board[destination] not in (EMPTY, self.board[source]):
            text += " (beats the dancer there)"
        return text

    def __repr__(self) -> str:
        return f"SenetState({self.position()!r}, {self.game!r})"
