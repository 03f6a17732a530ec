"""How each game's moves are named and told to people: the ``moves`` module beside its rules.

Every game package has a ``moves`` module (``zoo_games/<game>/moves.py``) with the same few
names, listed by :class:`MoveLanguage`; terminal play finds it by the game's name, so a new
game in :mod:`zoo_games.catalog` only needs its own ``moves`` module to be playable.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Protocol, cast

from zoo_games.core.game import Game


class MoveLanguage(Protocol):
    """What a game's ``moves`` module provides (states are that game's states)."""

    #: The two sides as the game calls them, player_0's first (e.g. spools, cons).
    SIDE_NAMES: tuple[str, str]
    #: One or two sentences: what a player types to move.
    HELP: str

    def move_names(self, state: Any, action: int) -> tuple[str, ...]:
        """The names a player may type for a legal ``action``; the first is the one shown."""

    def describe(self, state: Any, action: int) -> str:
        """What the legal ``action`` does, in a few words."""

    def is_move_syntax(self, entry: str) -> bool:
        """Whether a :func:`normalise`-d entry is shaped like a move (legal or not)."""

    def turn_note(self, state: Any) -> str:
        """What the player to act does now: ``"to move"``, Senet's ``"to move, throw 3"``."""

    def announce(self, before: Any, action: int, after: Any) -> str | None:
        """An extra turn or re-throw that ``action`` led to, else ``None``."""

    def score(self, state: Any) -> str:
        """The score at the end (kazans, dancers borne off, who climbed or was stuck)."""


def language_of(game: Game) -> MoveLanguage:
    """The ``moves`` module of ``game``'s package, e.g. :mod:`zoo_games.senet.moves`."""
    return cast(MoveLanguage, importlib.import_module(f"zoo_games.{game.name}.moves"))


def normalise(entry: str) -> str:
    """Lower case, with runs of spaces, ``-`` and ``,`` as one space: ``W0-N-S`` -> ``w0 n s``.

    Typed entries and move names are compared in this form, so ``w0-N-S``, ``0 n s`` and
    ``14 17`` match the names ``w0-N-S``, ``0 N S`` and ``14-17``.
    """
    return " ".join(part for part in re.split(r"[\s,\-]+", entry.strip().lower()) if part)


def seat_label(language: MoveLanguage, player: int) -> str:
    """``"player_0 (spools)"``: the seat, with the game's name for its side."""
    return f"player_{player} ({language.SIDE_NAMES[player]})"


def move_line(language: MoveLanguage, state: Any, action: int) -> str:
    """``"player_0 (spools) plays 14-17: dancer 1: 14->17"``: a move, named as players type it.

    ``state`` is the position before the move (the player to act in it plays ``action``).
    """
    name = language.move_names(state, action)[0]
    player = seat_label(language, state.current_player())
    return f"{player} plays {name}: {language.describe(state, action)}"


def result_line(language: MoveLanguage, state: Any) -> str:
    """``"player_0 (spools) wins; dancers borne off: ..."``: the outcome of an ended game."""
    first, second = state.returns()
    winner = 0 if first > second else 1
    outcome = "a draw" if first == second else f"{seat_label(language, winner)} wins"
    return f"{outcome}; {language.score(state)}"
