"""The rules core of Stones: no PettingZoo, no numpy."""

from __future__ import annotations

from typing import Self

from zoo_games.core.game import TERMINAL, Game, GameState, winner_returns
from zoo_games.stones.position import format_position, parse_position

#: Stones one turn may take; action ``a`` takes ``a + 1``.
MOST_TAKEN = 3


class StonesGame(Game):
    """A pile of ``stones`` stones (the variant's option)."""

    name = "stones"
    num_actions = MOST_TAKEN

    def __init__(self, stones: int = 10) -> None:
        self.stones = stones
        self.max_game_length = stones

    def new_initial_state(self) -> StonesState:
        return StonesState(self, self.stones, mover=0)

    def state_from_position(self, position: str) -> StonesState:
        return StonesState(self, *parse_position(self, position))

    def options(self) -> dict[str, object]:
        return {"stones": self.stones}


class StonesState(GameState):
    """The stones left and the player to take."""

    game: StonesGame

    def __init__(self, game: StonesGame, stones: int, mover: int) -> None:
        self.game = game
        self.stones = stones
        self.mover = mover

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.mover

    def legal_actions(self) -> list[int]:
        return list(range(min(MOST_TAKEN, self.stones)))

    def apply_action(self, action: int) -> None:
        self.stones -= action + 1
        self.mover = 1 - self.mover  # after the last stone: the winner is the other one

    def winner(self) -> int:
        """The player who took the last stone, or -1 while stones are left."""
        return 1 - self.mover if self.stones == 0 else -1

    def returns(self) -> tuple[float, float]:
        return winner_returns(self.winner())

    def clone(self) -> Self:
        return type(self)(self.game, self.stones, self.mover)

    def position(self) -> str:
        return format_position(self)

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"
