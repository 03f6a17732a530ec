"""One game at the terminal: people type moves, agents answer, the board is drawn after each.

The game runs in the variant's environment (``render_mode="ansi"``, reset with the seed, so
the environment throws Senet's sticks from it). Every decision is recorded; ``undo`` resets
the environment with the same seed and replays the record up to the human player's previous
decision, which gives back exactly the position and the throws of that moment. Agents are
not rewound: after an undo an agent's random choices go on from where they were.

Lines are read from standard input one at a time (a pipe works as well as a keyboard), and
everything is printed to standard output.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from zoo_games.agents import Agent
from zoo_games.catalog import Variant
from zoo_games.core.game import GameState
from zoo_games.play.language import (
    MoveLanguage,
    language_of,
    move_line,
    result_line,
    seat_label,
)
from zoo_games.play.menu import COMMAND_HELP, COMMANDS, Command, Move, MoveMenu


@dataclass(frozen=True)
class Decision:
    """A decision played: by whom, which action, and its name as listed."""

    player: int
    action: int
    name: str


def undo_point(players: Sequence[int], agents: Collection[int]) -> int | None:
    """Where an undo goes back to: the index of the last decision a person made, or ``None``.

    ``players`` is who made each decision so far; ``agents`` the seats agents play. Going back
    there takes back the person's last move and the agents' replies to it (with two people,
    the last decision).
    """
    people = [player for player in (0, 1) if player not in agents]
    return next((i for i in reversed(range(len(players))) if players[i] in people), None)


class Session:
    """A game of ``variant`` between people and the ``agents`` of some seats.

    ``agents`` maps a seat (0 for ``player_0``, 1 for ``player_1``) to the agent playing it;
    the other seats are people at this terminal. Their entries are read, a line at a time,
    from ``entries`` (standard input by default); entries that do not come from a terminal
    are echoed after the prompt, so that a scripted game reads like a typed one. ``names``
    gives an agent the name shown for it (default: the agent's kind, e.g. ``random``).
    """

    def __init__(
        self,
        variant: Variant,
        agents: Mapping[int, Agent],
        seed: int,
        entries: TextIO | None = None,
        names: Mapping[int, str] | None = None,
    ) -> None:
        self.variant = variant
        self.agents = dict(agents)
        self.names = {seat: agent.name for seat, agent in agents.items()} | dict(names or {})
        self.seed = seed
        self._entries = entries
        self.env = variant.raw_env(render_mode="ansi")
        self.env.reset(seed=seed)
        self.language: MoveLanguage = language_of(self.env.game)
        self.history: list[Decision] = []

    @property
    def state(self) -> GameState:
        """The position now (a decision node or the end: the environment resolves chance)."""
        state = self.env.game_state
        assert state is not None
        return state

    def label(self, player: int) -> str:
        """``"player_0 (spools)"``."""
        return seat_label(self.language, player)

    def run(self) -> int:
        """Play until the game ends, a player quits or the input ends; return the exit code 0."""
        print(self._heading())
        while not self.state.is_terminal():
            state = self.state
            player = state.current_player()
            print()
            print(self.env.render())
            print(f"{self.label(player)} {self.language.turn_note(state)}")
            agent = self.agents.get(player)
            if agent is not None:
                action = agent.act(state)
            else:
                choice = self._ask(MoveMenu(state, self.language))
                if choice is None:
                    return 0
                if isinstance(choice, Command):  # an undo, done: draw the position again
                    continue
                action = choice.action
            self._play(player, action)
        self._show_result()
        return 0

    def _heading(self) -> str:
        seats = ", ".join(
            f"{self.label(p)}: " + (f"agent {self.names[p]}" if p in self.agents else "human")
            for p in (0, 1)
        )
        return (
            f"{self.variant.label}, seed {self.seed}. {seats}.\n"
            f"Type a listed move or its number; {', '.join(COMMANDS)}."
        )

    def _play(self, player: int, action: int) -> None:
        before = self.state.clone()
        name = self.language.move_names(before, action)[0]
        print(move_line(self.language, before, action))
        self.env.step(action)
        self.history.append(Decision(player, action, name))
        news = self.language.announce(before, action, self.state)
        if news:
            print(news)

    def _ask(self, menu: MoveMenu) -> Move | Command | None:
        """The human's move, or ``Command("undo")`` once undone; ``None`` to end the session."""
        print(menu.heading())
        print("\n".join(menu.lines()))
        prompt = f"{self.label(self.state.current_player())}> "
        while True:
            line = self._read_entry(prompt)
            if line is None:
                print("end of input: the game is left unfinished")
                return None
            choice = menu.read(line)
            if isinstance(choice, Move):
                return choice
            if not isinstance(choice, Command):
                print(f"? {choice.message}")
            elif choice.word == "help":
                self._show_help(menu)
            elif choice.word == "quit":
                print("quit: the game is left unfinished")
                return None
            elif self._undo():
                return choice

    def _read_entry(self, prompt: str) -> str | None:
        """The next line typed after ``prompt``, or ``None`` at the end of the input.

        At a terminal, :func:`input` reads it, with line editing. Otherwise the line is read
        as it is and echoed after the prompt, so that a scripted game reads like a typed one.
        """
        entries = sys.stdin if self._entries is None else self._entries
        if entries is sys.stdin and entries.isatty():
            try:
                return input(prompt)
            except EOFError:  # Ctrl-D
                print()
                return None
        print(prompt, end="", flush=True)
        line = entries.readline()
        if not entries.isatty():
            print(line.rstrip("\n"))  # a piped entry, shown as if typed; a newline at the end
        return line or None

    def _show_help(self, menu: MoveMenu) -> None:
        print(f"moves: {self.language.HELP}")
        print(f"here: {menu.allowed()}")
        for word, meaning in COMMAND_HELP.items():
            print(f"  {word:<5} {meaning}")

    def _undo(self) -> bool:
        """Go back to the human's previous decision; say so, or say there is none."""
        last = undo_point([decision.player for decision in self.history], self.agents)
        if last is None:
            print("nothing to undo: no move of yours has been played yet")
            return False
        undone = self.history[last:]
        self.history = self.history[:last]
        self.env.reset(seed=self.seed)
        for decision in self.history:
            self.env.step(decision.action)
        taken = ", ".join(f"{self.label(d.player)} {d.name}" for d in undone)
        print(f"undone: {taken}")
        return True

    def _show_result(self) -> None:
        print()
        print(self.env.render())
        print(f"game over: {result_line(self.language, self.state)}")
