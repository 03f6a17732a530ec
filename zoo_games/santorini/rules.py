"""Santorini (base game, two players, two workers each) as a pure game core.

Vocabulary: the board has 25 *cells* (index ``5 * row + column``, row 0 at the top); each
holds a *height*: 0 to 3 building *levels*, or 4 for a *dome*. Each player has two *workers*
(worker 0 and worker 1, who keep their identity all game). A turn moves one worker to a
neighbouring cell and then builds with it on a cell next to where it arrived. The building
*parts* are limited: 22 level-1, 18 level-2, 14 level-3 pieces and 18 domes. The readings we
chose where the rules are unclear are in ``docs/santorini.md`` and tested in
``tests/santorini/``.

This core is written for speed; the rules are stated plainly in
:mod:`zoo_games.santorini.reference`, and ``tests/santorini/test_reference.py`` checks this core
against it move for move.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from itertools import compress
from typing import Self

from zoo_games.core.errors import PositionError, check_option
from zoo_games.core.game import TERMINAL, Game, GameState, winner_returns
from zoo_games.santorini.cells import (
    DOME,
    INITIAL_PARTS,
    NUM_CELLS,
    SIZE,
    UNPLACED,
    cell_name,
)
from zoo_games.santorini.position import format_position, parse_position

#: The eight directions in action order: NW, N, NE, W, E, SW, S, SE, as (row, column) steps.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
DIRECTION_NAMES = ("NW", "N", "NE", "W", "E", "SW", "S", "SE")
PLAY_ACTIONS = 2 * 8 * 8  # 128
PLACEMENT_OFFSET = PLAY_ACTIONS
SETUPS = ("fixed", "placement")
#: The fixed start: player_0's workers on cells 2 and 22, player_1's on 10 and 14.
FIXED_WORKERS = (2, 22, 10, 14)


def _neighbour(cell: int, direction: int) -> int:
    row, column = divmod(cell, SIZE)
    d_row, d_column = DIRECTIONS[direction]
    row, column = row + d_row, column + d_column
    return row * SIZE + column if 0 <= row < SIZE and 0 <= column < SIZE else -1


#: ``NEIGHBOUR[cell][direction]``: the cell one step away, or -1 off the board.
NEIGHBOUR = tuple(tuple(_neighbour(cell, d) for d in range(8)) for cell in range(NUM_CELLS))
#: ``NEIGHBOURS_ON_BOARD[cell]``: ``(direction, cell)`` pairs that stay on the board.
NEIGHBOURS_ON_BOARD = tuple(
    tuple((d, target) for d, target in enumerate(NEIGHBOUR[cell]) if target >= 0)
    for cell in range(NUM_CELLS)
)


#: ``NEIGHBOUR_MASK[cell]``: the 25-bit mask of the cell's neighbours.
NEIGHBOUR_MASK = tuple(
    sum(1 << target for _, target in NEIGHBOURS_ON_BOARD[cell]) for cell in range(NUM_CELLS)
)


def _cell_mask(heights: Sequence[int], allowed: Container[int]) -> int:
    """The 25-bit mask (bit c for cell c) of the cells whose height is in ``allowed``."""
    return sum(1 << cell for cell, height in enumerate(heights) if height in allowed)


#: ``_MOVES[worker][source]``: for each move of that worker from that cell, the target's bit,
#: the mask of the target's neighbours, the target, and the move's 8-byte slot in the mask.
_MOVES = tuple(
    tuple(
        tuple(
            (1 << target, NEIGHBOUR_MASK[target], target, 8 * worker + move)
            for move, target in NEIGHBOURS_ON_BOARD[source]
        )
        for source in range(NUM_CELLS)
    )
    for worker in (0, 1)
)
#: The 8 bytes of a move's builds when all 8 directions are legal (a winning move).
ALL_BUILDS = b"\1" * 8
#: The 8 bytes of a move that is not legal.
NO_BUILDS = bytes(8)


def _subsets(mask: int) -> list[int]:
    """Every mask whose bits are a subset of ``mask``'s (``mask`` and 0 included)."""
    found, subset = [], mask
    while True:
        found.append(subset)
        if not subset:
            return found
        subset = (subset - 1) & mask


#: The builds after a move onto a cell, by ``target | free << 5`` (free: the mask of the
#: target's neighbours a part can go on, any subset of them): the 8 bytes of the move's part
#: of the legal-action mask. At most 25 x 2^8 keys, made at import, so move generation is
#: one dictionary lookup per move.
_BUILDS_AROUND: dict[int, bytes] = {
    target | free << 5: bytes(int(cell >= 0 and free >> cell & 1) for cell in NEIGHBOUR[target])
    for target in range(NUM_CELLS)
    for free in _subsets(NEIGHBOUR_MASK[target])
}


def play_action(worker: int, move: int, build: int) -> int:
    """The action moving ``worker`` in direction ``move``, then building in ``build``."""
    return 64 * worker + 8 * move + build


class SantoriniGame(Game):
    """Santorini; ``setup="placement"`` lets the players place their workers first."""

    name = "santorini"

    def __init__(self, setup: str = "fixed") -> None:
        self.setup = check_option("setup", setup, SETUPS)
        self.num_actions = PLAY_ACTIONS + (NUM_CELLS if setup == "placement" else 0)
        # Every turn but a winning climb builds one of the 72 parts, and a player who cannot
        # build has no legal turn and loses: at most 72 building turns, one climb, and the
        # four placements.
        self.max_game_length = sum(INITIAL_PARTS) + 1 + (4 if setup == "placement" else 0)
        self._start: SantoriniState | None = None

    def options(self) -> dict[str, object]:
        """The keyword options of this variant."""
        return {"setup": self.setup}

    def new_initial_state(self) -> SantoriniState:
        """An empty board; workers on the fixed cells, or none yet with ``"placement"``.

        Every game starts alike, so the start and its legal actions are made once and
        cloned (a clone shares the legal actions, which are never changed in place).
        """
        if self._start is None:
            workers = list(FIXED_WORKERS) if self.setup == "fixed" else [UNPLACED] * 4
            self._start = SantoriniState(self, bytes(NUM_CELLS), workers, 0, list(INITIAL_PARTS))
            self._start.legal_actions()
        return self._start.clone()

    def state_from_position(self, position: str) -> SantoriniState:
        """Read a position string (its format: :mod:`zoo_games.santorini.position`)."""
        state = SantoriniState(self, *parse_position(self, position))
        if not state.legal_actions():
            raise PositionError(
                f"player_{state.mover} has no legal move and build: the game is already over"
            )
        return state


class SantoriniState(GameState):
    """Heights, the four workers (``workers[2 * player + w]``), the mover, the parts left.

    ``winner`` is -1 while the game goes on. ``heights`` is a ``bytearray`` (it indexes like
    a list and gives the observation its bytes), and ``levels[h]`` is the 25-bit mask of the
    cells of height ``h``, kept up to date by every build so that move generation works on
    masks. ``_mask`` caches the legal-action mask of this position; every ``apply_action``
    recomputes it, because whether the next player can play at all decides the game.
    """

    game: SantoriniGame

    __slots__ = (
        "_mask",
        "game",
        "heights",
        "levels",
        "mover",
        "parts",
        "winner",
        "workers",
    )

    def __init__(
        self,
        game: SantoriniGame,
        heights: Iterable[int],
        workers: list[int],
        mover: int,
        parts: list[int],
        winner: int = -1,
        levels: list[int] | None = None,
    ) -> None:
        self.game = game
        self.heights = bytearray(heights)  # always a copy
        self.workers = workers
        self.mover = mover
        self.parts = parts
        self.winner = winner
        self.levels = levels or [_cell_mask(self.heights, (h,)) for h in range(DOME + 1)]
        self._mask: bytes | None = None

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The player to act, or :data:`TERMINAL`."""
        return TERMINAL if self.winner >= 0 else self.mover

    def in_placement(self) -> bool:
        """Whether workers are still to be placed (``setup="placement"`` only)."""
        return UNPLACED in self.workers

    def legal_actions(self) -> list[int]:
        """Placements while workers are unplaced, else every legal move-and-build."""
        return list(compress(range(self.game.num_actions), self.legal_actions_mask()))

    def legal_actions_mask(self) -> bytes:
        """One byte per action, 1 where legal: what the move generator makes."""
        if self.winner >= 0:
            return bytes(self.game.num_actions)
        if self._mask is None:
            self._mask = self._generate()
        return self._mask

    def apply_action(self, action: int) -> None:
        """Place a worker, or move and build; then hand over the turn (or end the game)."""
        mover = self.mover
        self._mask = None
        if action >= PLACEMENT_OFFSET:
            slot = self.workers.index(UNPLACED)
            self.workers[slot] = action - PLACEMENT_OFFSET
            if self.in_placement():
                self.mover = self.workers.index(UNPLACED) // 2
            else:
                self.mover = 0
                self._end_if_stuck(winner_if_stuck=1)
            return
        worker, rest = divmod(action, 64)
        move, build = divmod(rest, 8)
        slot = 2 * mover + worker
        heights = self.heights
        source = self.workers[slot]
        target = NEIGHBOUR[source][move]
        self.workers[slot] = target
        if heights[target] == 3 and heights[source] < 3:
            self.winner = mover  # moved up onto level 3: an immediate win, no build
            return
        built = NEIGHBOUR[target][build]
        level = heights[built]
        self.parts[level] -= 1  # parts index: level 0 -> 1 uses part 0; level 3 -> dome, part 3
        heights[built] = level + 1
        levels = self.levels
        levels[level] ^= 1 << built
        levels[level + 1] |= 1 << built
        self.mover = 1 - mover
        self._end_if_stuck(winner_if_stuck=mover)

    def returns(self) -> tuple[float, float]:
        """+1 to the winner, -1 to the loser; zeros before the end."""
        return winner_returns(self.winner)

    def clone(self) -> Self:
        """An independent copy."""
        copy = type(self)(
            self.game,
            self.heights,
            self.workers[:],
            self.mover,
            self.parts[:],
            self.winner,
            self.levels[:],
        )
        copy._mask = self._mask  # bytes: shared safely
        return copy

    def position(self) -> str:
        """The position string (see :mod:`zoo_games.santorini.position`)."""
        return format_position(self)

    def action_to_string(self, action: int) -> str:
        """E.g. ``"place worker 1 on r2c3"`` or ``"worker 0 NE to r1c3, build S on r2c3"``."""
        if action >= PLACEMENT_OFFSET:
            cell = action - PLACEMENT_OFFSET
            return f"place a worker on {cell_name(cell)}"
        worker, rest = divmod(action, 64)
        move, build = divmod(rest, 8)
        source = self.workers[2 * self.mover + worker] if not self.in_placement() else -1
        target = NEIGHBOUR[source][move] if source >= 0 else -1
        if target < 0:
            return f"worker {worker} {DIRECTION_NAMES[move]} (off the board)"
        text = f"worker {worker} {DIRECTION_NAMES[move]} to {cell_name(target)}"
        if self.heights[target] == 3 and self.heights[source] < 3:
            return text + " (climbs to level 3 and wins)"
        built = NEIGHBOUR[target][build]
        if built < 0:
            return text + f", build {DIRECTION_NAMES[build]} (off the board)"
        what = "a dome" if self.heights[built] == 3 else f"level {self.heights[built] + 1}"
        return text + f", build {what} {DIRECTION_NAMES[build]} on {cell_name(built)}"

    # ------------------------------------------------------------------ rules
    def _generate(self) -> bytes:
        """The legal-action mask: placements, or moves and builds."""
        if not self.in_placement():
            return self._generate_play()
        mask = bytearray(self.game.num_actions)
        taken = set(self.workers)
        for cell in range(NUM_CELLS):
            if cell not in taken and self.heights[cell] != DOME:
                mask[PLACEMENT_OFFSET + cell] = 1
        return bytes(mask)

    def _generate_play(self) -> bytes:
        """The mask of every legal move-and-build of the mover.

        A move goes to a neighbouring cell with no worker and no dome, at most one level up.
        Moving up onto level 3 wins at once, so such a move is legal with every build
        direction (the build is never made). Otherwise the worker builds on a neighbouring
        cell of its new one with no worker and no dome (the cell it left counts as free) for
        which a part is left: the next level, or a dome on level 3.

        Cells are handled as 25-bit masks (bit ``c`` for cell ``c``); the builds of each
        move are looked up in :data:`_BUILDS_AROUND`, and the mask is the join of 8 bytes
        per (worker, move).
        """
        heights = self.heights
        parts = self.parts
        workers = self.workers
        level_0, level_1, level_2, level_3, _ = self.levels
        buildable = (
            (level_0 if parts[0] else 0)
            | (level_1 if parts[1] else 0)
            | (level_2 if parts[2] else 0)
            | (level_3 if parts[3] else 0)
        )
        # Cells a worker standing at height h may step onto (at most h + 1, never a dome).
        reachable = (
            level_0 | level_1,
            level_0 | level_1 | level_2,
            level_0 | level_1 | level_2 | level_3,
            level_0 | level_1 | level_2 | level_3,
        )
        occupied = 1 << workers[0] | 1 << workers[1] | 1 << workers[2] | 1 << workers[3]
        slots = [NO_BUILDS] * 16
        cache = _BUILDS_AROUND
        for worker in (0, 1):
            source = workers[2 * self.mover + worker]
            climbing = heights[source] == 2
            walkable = reachable[heights[source]] & ~occupied
            free = buildable & ~(occupied ^ (1 << source))
            for bit, around, target, slot in _MOVES[worker][source]:
                if not walkable & bit:
                    continue
                if climbing and level_3 & bit:
                    slots[slot] = ALL_BUILDS
                    continue
                slots[slot] = cache[target | (free & around) << 5]
        return b"".join(slots).ljust(self.game.num_actions, b"\0")

    def _end_if_stuck(self, winner_if_stuck: int) -> None:
        """A player with no legal move-and-build on its turn loses."""
        if b"\1" not in self.legal_actions_mask():
            self.winner = winner_if_stuck

    def __repr__(self) -> str:
        return f"SantoriniState({self.position()!r})"
