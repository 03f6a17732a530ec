"""Santorini (base game, two players, two workers each) as a pure game core.

Vocabulary: the board has 25 *cells* (index ``5 * row + column``, row 0 at the top); each
holds a *height*: 0 to 3 building *levels*, or 4 for a *dome*. Each player has two *workers*
(worker 0 and worker 1, who keep their identity all game). A turn moves one worker to a
neighbouring cell and then builds with it on a cell next to where it arrived. The building
*parts* are limited: 22 level-1, 18 level-2, 14 level-3 pieces and 18 domes. The readings we
chose where the rule text is unclear are in ``docs/santorini.md`` and tested in
``tests/santorini/``.
"""

from __future__ import annotations

from typing import Self

from zoo_games.core.errors import check_option
from zoo_games.core.game import TERMINAL, Game, GameState, winner_returns

SIZE = 5
NUM_CELLS = SIZE * SIZE
DOME = 4
#: Parts at the start: level 1, level 2, level 3, dome.
INITIAL_PARTS = (22, 18, 14, 18)
#: The eight directions in SPEC.md order: NW, N, NE, W, E, SW, S, SE, as (row, column) steps.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
DIRECTION_NAMES = ("NW", "N", "NE", "W", "E", "SW", "S", "SE")
PLAY_ACTIONS = 2 * 8 * 8  # 128
PLACEMENT_OFFSET = PLAY_ACTIONS
SETUPS = ("fixed", "placement")
#: SPEC.md's fixed start: player_0's workers on cells 2 and 22, player_1's on 10 and 14.
FIXED_WORKERS = (2, 22, 10, 14)
UNPLACED = -1


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


def _level_table(allowed: set[int]) -> bytes:
    """A ``bytes.translate`` table: height byte -> ``b"1"`` if allowed, else ``b"0"``."""
    return bytes(ord("1") if height in allowed else ord("0") for height in range(256))


#: ``_WALKABLE[reach]``: heights a worker may step onto (at most ``reach``, never a dome).
_WALKABLE = {reach: _level_table({h for h in range(min(reach, 3) + 1)}) for reach in (1, 2, 3, 4)}
#: ``_BUILDABLE[flags]``: heights that can be built on, bit k of ``flags`` set when a part of
#: kind k (level 1, 2, 3, dome) is left.
_BUILDABLE = tuple(_level_table({k for k in range(4) if flags >> k & 1}) for flags in range(16))
#: Builds around a cell, by (action base, cell, mask of free neighbours): a few thousand keys
#: cover every position, so move generation is a dictionary lookup per move.
_BUILDS_AROUND: dict[tuple[int, int, int], tuple[int, ...]] = {}
_BUILDS_CACHE_SIZE = 500_000


def _cell_mask(encoded_heights: bytes, table: bytes) -> int:
    """The 25-bit mask of the cells whose height the table allows (bit c for cell c)."""
    return int(encoded_heights.translate(table)[::-1], 2)


def play_action(worker: int, move: int, build: int) -> int:
    """The action moving ``worker`` in direction ``move``, then building in ``build``."""
    return 64 * worker + 8 * move + build


def cell_name(cell: int) -> str:
    """A cell as ``"r2c4"`` (row, column from the top-left), for readable logs."""
    row, column = divmod(cell, SIZE)
    return f"r{row}c{column}"


class SantoriniGame(Game):
    """Santorini; ``setup="placement"`` lets the players place their workers first."""

    name = "santorini"

    def __init__(self, setup: str = "fixed") -> None:
        self.setup = check_option("setup", setup, SETUPS)
        self.num_actions = PLAY_ACTIONS + (NUM_CELLS if setup == "placement" else 0)

    def options(self) -> dict[str, object]:
        """The keyword options of this variant."""
        return {"setup": self.setup}

    def new_initial_state(self) -> SantoriniState:
        """An empty board; workers on SPEC.md's cells, or none yet with ``"placement"``."""
        workers = list(FIXED_WORKERS) if self.setup == "fixed" else [UNPLACED] * 4
        return SantoriniState(self, [0] * NUM_CELLS, workers, 0, list(INITIAL_PARTS))

    def state_from_position(self, position: str) -> SantoriniState:
        """Read a ``"<heights> <workers> <mover> <parts>"`` position (SPEC.md)."""
        from zoo_games.santorini.position import parse_position

        return parse_position(self, position)


class SantoriniState(GameState):
    """Heights, the four workers (``workers[2 * player + w]``), the mover, the parts left.

    ``winner`` is -1 while the game goes on. ``_legal`` caches the legal actions of this
    position; every ``apply_action`` recomputes it, because whether the next player can play
    at all decides the game.
    """

    __slots__ = ("_legal", "game", "heights", "mover", "parts", "winner", "workers")

    def __init__(
        self,
        game: SantoriniGame,
        heights: list[int],
        workers: list[int],
        mover: int,
        parts: list[int],
        winner: int = -1,
    ) -> None:
        self.game = game
        self.heights = heights
        self.workers = workers
        self.mover = mover
        self.parts = parts
        self.winner = winner
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The player to act, or :data:`TERMINAL`."""
        return TERMINAL if self.winner >= 0 else self.mover

    def in_placement(self) -> bool:
        """Whether workers are still to be placed (``setup="placement"`` only)."""
        return UNPLACED in self.workers

    def legal_actions(self) -> list[int]:
        """Placements while workers are unplaced, else every legal move-and-build."""
        if self.winner >= 0:
            return []
        if self._legal is None:
            self._legal = self._placement_actions() if self.in_placement() else self._play_actions()
        return self._legal

    def apply_action(self, action: int) -> None:
        """Place a worker, or move and build; then hand over the turn (or end the game)."""
        mover = self.mover
        if action >= PLACEMENT_OFFSET:
            slot = self.workers.index(UNPLACED)
            self.workers[slot] = action - PLACEMENT_OFFSET
            self._legal = None
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
        self._legal = None
        if heights[target] == 3 and heights[source] < 3:
            self.winner = mover  # moved up onto level 3: an immediate win, no build
            return
        built = NEIGHBOUR[target][build]
        level = heights[built]
        self.parts[level] -= 1  # parts index: level 0 -> 1 uses part 0; level 3 -> dome, part 3
        heights[built] = level + 1
        self.mover = 1 - mover
        self._end_if_stuck(winner_if_stuck=mover)

    def returns(self) -> tuple[float, float]:
        """+1 to the winner, -1 to the loser; zeros before the end."""
        return winner_returns(self.winner)

    def clone(self) -> Self:
        """An independent copy."""
        copy = type(self)(
            self.game, self.heights[:], self.workers[:], self.mover, self.parts[:], self.winner
        )
        copy._legal = self._legal
        return copy

    def position(self) -> str:
        """The SPEC.md position string."""
        from zoo_games.santorini.position import format_position

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
    def _placement_actions(self) -> list[int]:
        """Any cell without a worker or a dome."""
        taken = set(self.workers)
        heights = self.heights
        return [
            PLACEMENT_OFFSET + cell
            for cell in range(NUM_CELLS)
            if cell not in taken and heights[cell] != DOME
        ]

    def _play_actions(self) -> list[int]:
        """Every legal move-and-build of the mover, ascending.

        A move goes to a neighbouring cell with no worker and no dome, at most one level up.
        Moving up onto level 3 wins at once, so such a move is legal with every build
        direction (the build is never made). Otherwise the worker builds on a neighbouring
        cell of its new one with no worker and no dome (the cell it left counts as free) for
        which a part is left: the next level, or a dome on level 3.

        Cells are handled as 25-bit masks (bit ``c`` for cell ``c``), and the builds around
        a cell are looked up in :data:`_BUILDS_AROUND` by the mask of free neighbours.
        """
        heights = self.heights
        parts = self.parts
        workers = self.workers
        encoded = bytes(heights)
        buildable_levels = (parts[0] > 0) | (parts[1] > 0) << 1 | (parts[2] > 0) << 2
        buildable = _cell_mask(encoded, _BUILDABLE[buildable_levels | (parts[3] > 0) << 3])
        occupied = 0
        for cell in workers:
            occupied |= 1 << cell
        actions: list[int] = []
        for worker in (0, 1):
            source = workers[2 * self.mover + worker]
            reach = heights[source] + 1
            walkable = _cell_mask(encoded, _WALKABLE[reach]) & ~occupied
            free = buildable & ~(occupied ^ (1 << source))
            for move, target in NEIGHBOURS_ON_BOARD[source]:
                if not walkable >> target & 1:
                    continue
                base = 64 * worker + 8 * move
                if reach == 3 and heights[target] == 3:
                    actions.extend(range(base, base + 8))
                    continue
                key = (base, target, free & NEIGHBOUR_MASK[target])
                builds = _BUILDS_AROUND.get(key)
                if builds is None:
                    builds = tuple(
                        base + build
                        for build, cell in NEIGHBOURS_ON_BOARD[target]
                        if key[2] >> cell & 1
                    )
                    if len(_BUILDS_AROUND) < _BUILDS_CACHE_SIZE:
                        _BUILDS_AROUND[key] = builds
                actions.extend(builds)
        return actions

    def _end_if_stuck(self, winner_if_stuck: int) -> None:
        """A player with no legal move-and-build on its turn loses."""
        if not self.legal_actions():
            self.winner = winner_if_stuck

    def __repr__(self) -> str:
        return f"SantoriniState({self.position()!r})"
