"""The legal moves of one decision as a numbered list, and what a typed entry means in it.

Every legal move is listed with a number, the name a player types and what it does. A typed
entry is a command (``help``, ``undo``, ``quit``), a move's name (in any of the game's
spellings, see :func:`~zoo_games.play.language.normalise`), or a move's number; anything
else is a :class:`Mistake` whose message says in one line what was wrong and what is allowed.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from zoo_games.core.game import GameState
from zoo_games.play.language import MoveLanguage, normalise

#: The commands a player may type instead of a move, and what each does (for ``help``).
COMMAND_HELP = {
    "help": "show this help",
    "undo": "take back your last move (and the opponent's replies to it)",
    "quit": "leave the game",
}
COMMANDS = tuple(COMMAND_HELP)
#: A number with a sign, which no move has (not even Togyz Kumalak's holes, 1 to 9).
SIGNED_NUMBER = re.compile(r"[-+]\s*\d+")
#: The most moves listed one per line; longer lists are grouped in columns (MoveMenu.lines).
LONGEST_LIST = 12
#: The width of a terminal the listing must fit, and the space between its columns.
WIDTH = 80
COLUMN_GAP = 3


@dataclass(frozen=True)
class MenuEntry:
    """One legal move as listed: its number, the name shown, and what it does."""

    number: int
    name: str
    description: str
    action: int


@dataclass(frozen=True)
class Move:
    """The entry chose this action."""

    action: int


@dataclass(frozen=True)
class Command:
    """The entry was one of :data:`COMMANDS`."""

    word: str


@dataclass(frozen=True)
class Mistake:
    """The entry was not understood or not allowed; ``message`` says why, in one line."""

    message: str


class MoveMenu:
    """The legal moves of ``state`` in ``language``'s words.

    Moves are numbered 1, 2, ... in action order, except that a move whose shown name is
    itself a number (Togyz Kumalak's holes) is listed under that number, so that typing
    ``7`` means hole 7 either way. Legal actions with the same shown name (Santorini's
    winning climbs, whatever the build) are one move.
    """

    def __init__(self, state: GameState, language: MoveLanguage) -> None:
        self.entries: list[MenuEntry] = []
        self._by_name: dict[str, int] = {}
        self._by_number: dict[int, int] = {}
        shown: set[str] = set()
        for action in state.legal_actions():
            names = language.move_names(state, action)
            for name in names:
                self._by_name.setdefault(normalise(name), action)
            if names[0] in shown:
                continue
            shown.add(names[0])
            number = int(names[0]) if names[0].isdecimal() else len(self.entries) + 1
            self.entries.append(
                MenuEntry(number, names[0], language.describe(state, action), action)
            )
            self._by_number[number] = action
        self._language = language

    def lines(self) -> list[str]:
        """The listing: one line per move, or, for a long list, groups in columns.

        Up to :data:`LONGEST_LIST` moves get a line each, ``"  3. 14-17    dancer 1: 14->17"``.
        More (Santorini's up to 64 turns, its 25 cells to place on) would push the board off
        a 24-line terminal, so they are listed compactly: moves whose names differ only in
        their last part are one group, ``"1-5. w0-W: W E SW S SE"`` (the moves ``w0-W-W``,
        ``w0-W-E``, ... numbered 1 to 5), and the groups are laid out in columns.
        """
        if len(self.entries) <= LONGEST_LIST:
            width = max(len(entry.name) for entry in self.entries)
            return [
                f"  {entry.number:>2}. {entry.name:<{width}}  {entry.description}"
                for entry in self.entries
            ]
        return _columns([_group_text(group) for group in self._groups()])

    def heading(self) -> str:
        """The line above the listing: what a compact listing's groups mean."""
        if len(self.entries) <= LONGEST_LIST:
            return "legal moves:"
        example = next((group for group in self._groups() if len(group) > 1), None)
        if example is None:
            return "legal moves:"
        stem = _stem(example[0].name)
        first, second = (entry.name[len(stem) + 1 :] for entry in example[:2])
        return (
            f"legal moves ('{stem}: {first} {second}' is {stem}-{first}, {stem}-{second}, "
            "numbered in that order):"
        )

    def _groups(self) -> list[list[MenuEntry]]:
        """Runs of entries whose names differ only in their last ``-`` part."""
        return [
            list(run) for _, run in itertools.groupby(self.entries, key=lambda e: _stem(e.name))
        ]

    def allowed(self) -> str:
        """What may be typed, in a few words."""
        numbers = _ranges(sorted(self._by_number))
        return (
            f"type a listed move such as '{self.entries[0].name}' or its number ({numbers}), "
            f"or {', '.join(COMMANDS)}"
        )

    def read(self, text: str) -> Move | Command | Mistake:
        """What the typed ``text`` means here."""
        entry = normalise(text)
        if not entry:
            return Mistake(f"empty entry: {self.allowed()}")
        shown = _echoed(text)
        if SIGNED_NUMBER.fullmatch(text.strip()):  # normalise() would read "-1" as "1"
            return Mistake(f"there is no move number {shown}: {self.allowed()}")
        if entry in COMMANDS:
            return Command(entry)
        if entry in self._by_name:
            return Move(self._by_name[entry])
        number = _number(entry) if entry.isdecimal() else -1
        if number in self._by_number:
            return Move(self._by_number[number])
        if self._language.is_move_syntax(entry):
            return Mistake(f"{shown!r} is not a legal move now: {self.allowed()}")
        if entry.isdecimal():
            return Mistake(f"there is no move number {shown}: {self.allowed()}")
        return Mistake(f"unknown entry {shown!r}: {self.allowed()}")


#: The most characters of a typed entry that a mistake repeats back.
ECHOED = 40


def _echoed(text: str) -> str:
    """``text`` as a mistake repeats it: stripped, and cut to ``ECHOED`` characters."""
    shown = text.strip()
    return shown if len(shown) <= ECHOED else shown[: ECHOED - 3] + "..."


def _number(digits: str) -> int:
    """The number ``digits`` write; -1 (no move's) past the digits Python converts (4,300)."""
    try:
        return int(digits)
    except ValueError:
        return -1


def _stem(name: str) -> str:
    """``"w0-N-S"`` -> ``"w0-N"``: a name of three parts or more without its last one.

    A shorter name is its own stem (a group of one): ``"14-17"``, Santorini's climb ``"w0-E"``.
    """
    stem, dash, _ = name.rpartition("-")
    return stem if dash and "-" in stem else name


def _group_text(group: list[MenuEntry]) -> str:
    """``"1-5. w0-W: W E SW S SE"``, or ``"7. w0-E"`` for a group of one."""
    if len(group) == 1:
        return f"{group[0].number}. {group[0].name}"
    stem = _stem(group[0].name)
    lasts = " ".join(entry.name[len(stem) + 1 :] for entry in group)
    return f"{group[0].number}-{group[-1].number}. {stem}: {lasts}"


def _columns(cells: list[str]) -> list[str]:
    """``cells`` in as many columns as fit :data:`WIDTH` characters, filled down first."""
    width = max(len(cell) for cell in cells) + COLUMN_GAP
    count = max(1, (WIDTH - 2 + COLUMN_GAP) // width)
    rows = -(-len(cells) // count)
    return [
        ("  " + "".join(f"{cell:<{width}}" for cell in cells[row::rows])).rstrip()
        for row in range(rows)
    ]


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 5, 7, 8]`` -> ``"1-3, 5, 7-8"``."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
