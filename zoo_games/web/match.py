"""One game in the browser: the position, who plays each seat, the moves played, undo.

Like terminal play (:mod:`zoo_games.play.session`) the game runs in the variant's
environment, reset with the game's seed (and the pasted position, if any), so that the
environment throws Senet's sticks from the seed; every decision is recorded, and going back
resets the environment and replays the record, which gives back the very position and throws
of that moment. The legal moves are the play menu's (:class:`~zoo_games.play.menu.MoveMenu`):
the game's own move names, one entry per name, each with the clicks that choose it on the
board (:mod:`zoo_games.web.boards`). Nothing here waits for anything: the server decides
when an agent thinks, off its event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from zoo_games.agents import Agent
from zoo_games.catalog import Variant
from zoo_games.core.game import GameState
from zoo_games.play.language import MoveLanguage, language_of, result_line, seat_label
from zoo_games.play.menu import Command, Mistake, MoveMenu
from zoo_games.play.session import undo_point
from zoo_games.web.boards import WebBoard, board_of


@dataclass(frozen=True)
class Played:
    """A decision played, as the page shows it."""

    player: int
    action: int
    #: The move as the game record writes it (Togyz Kumalak: tournament notation).
    name: str
    description: str
    #: The targets that choose it on the board, marked after it is played.
    clicks: tuple[str, ...]
    #: An extra turn or re-throw it led to, in the game's words; else ``None``.
    note: str | None


@dataclass(frozen=True)
class Choice:
    """A legal move of the player to act: its name, what it does, the clicks that choose it."""

    name: str
    description: str
    action: int
    clicks: tuple[str, ...]


class Match:
    """A game of ``variant`` between the ``agents`` of some seats and people at one browser.

    ``agents`` maps a seat (0 for ``player_0``) to its agent; the other seats are people.
    ``position`` is a position string to start from (``None``: the initial position); a bad
    one raises ``ValueError`` with the game's own message.
    """

    def __init__(
        self, variant: Variant, agents: Mapping[int, Agent], seed: int, position: str | None
    ) -> None:
        self.variant = variant
        self.agents = dict(agents)
        self.seed = seed
        self.start = position
        self.env = variant.raw_env()
        self.history: list[Played] = []
        self._restart()
        self.language: MoveLanguage = language_of(self.env.game)
        self.board: WebBoard = board_of(self.env.game)

    @property
    def state(self) -> GameState:
        """The position now: a decision node or the end (the environment throws the sticks)."""
        state = self.env.game_state
        assert state is not None
        return state

    def label(self, player: int) -> str:
        """``"player_0 (spools)"``."""
        return seat_label(self.language, player)

    def agent_to_act(self) -> Agent | None:
        """The agent whose turn it is, or ``None`` at a person's turn or at the end."""
        state = self.state
        return None if state.is_terminal() else self.agents.get(state.current_player())

    def choices(self) -> list[Choice]:
        """The legal moves now, as the play menu lists them; none at the end."""
        state = self.state
        if state.is_terminal():
            return []
        menu = MoveMenu(state, self.language)
        return [
            Choice(
                entry.name, entry.description, entry.action, self.board.clicks(state, entry.action)
            )
            for entry in menu.entries
        ]

    def person_action(self, action: object = None, move: object = None) -> int:
        """The legal action a person asks for, by number (``action``) or by name (``move``).

        Raises ``ValueError`` saying what was wrong and what is allowed: at the end, at an
        agent's turn, a value of the wrong kind, an action or a name not legal now.
        """
        state = self.state
        if state.is_terminal():
            raise ValueError("the game is over: start a new game or undo")
        if self.agent_to_act() is not None:
            raise ValueError(f"it is the agent's turn ({self.label(state.current_player())})")
        menu = MoveMenu(state, self.language)
        if (action is None) == (move is None):
            raise ValueError("give either 'action' (a number) or 'move' (a move's name), not both")
        if move is not None:
            if not isinstance(move, str):
                raise ValueError(f"'move' must be a move's name, such as {menu.entries[0].name!r}")
            choice = menu.read(move)
            if isinstance(choice, Command):
                raise ValueError(f"{move!r} is a command at the terminal, not a move")
            if isinstance(choice, Mistake):
                raise ValueError(choice.message)
            return choice.action
        legal = state.legal_actions()
        if type(action) is not int or action not in legal:
            names = ", ".join(f"{entry.action} ({entry.name})" for entry in menu.entries)
            raise ValueError(f"action {action!r} is not a legal action now; legal actions: {names}")
        return action

    def play(self, action: int) -> None:
        """Play the legal ``action`` for the player to act and record it."""
        before = self.state.clone()
        self.env.step(action)
        self.history.append(
            Played(
                before.current_player(),
                action,
                self.board.record_name(before, action),
                self.language.describe(before, action),
                self.board.clicks(before, action),
                self.language.announce(before, action, self.state),
            )
        )

    def undo(self) -> list[Played]:
        """Take back the last person's decision and everything after it; return what was undone.

        With an agent, that is the person's last move and the agent's replies to it; with two
        people, the last decision. Raises ``ValueError`` when no person has played yet.
        """
        last = undo_point([played.player for played in self.history], self.agents)
        if last is None:
            raise ValueError("nothing to undo: no person has played a move yet")
        undone = self.history[last:]
        self.rewind(last)
        return undone

    def rewind(self, length: int) -> None:
        """Go back to the moment when ``length`` decisions had been played."""
        kept = self.history[:length]
        self._restart()
        for played in kept:
            self.env.step(played.action)
        self.history = kept

    def result(self) -> str | None:
        """``"player_0 (spools) wins; dancers borne off: ..."`` at the end, else ``None``."""
        state = self.state
        return result_line(self.language, state) if state.is_terminal() else None

    def _restart(self) -> None:
        options = None if self.start is None else {"position": self.start}
        self.env.reset(seed=self.seed, options=options)
