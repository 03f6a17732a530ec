"""Each game's board for the browser: the picture, and which clicks choose which move.

Every game has a module here named as the game (``zoo_games/web/boards/<game>.py``, like
its ``moves`` module beside the rules) with the functions :class:`WebBoard` lists. The
picture is an SVG whose clickable parts carry a ``data-target`` name; a legal action is
chosen by clicking the targets of :func:`WebBoard.clicks` in order (Senet: the dancer's house,
then the house it reaches; Santorini: the worker, the cell it moves to, the cell it builds on;
Togyz Kumalak: the hole). The clicks are worked out here from the legal actions, so the page
holds no rules: it only matches the clicks made so far against the lists it was sent.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, cast

from zoo_games.core.game import Game


class WebBoard(Protocol):
    """What a game's board module provides (states are that game's states)."""

    def clicks(self, state: Any, action: int) -> tuple[str, ...]:
        """The targets to click, in order, to play the legal ``action`` in ``state``."""

    def record_name(self, state: Any, action: int) -> str:
        """The legal ``action`` as the game record writes it."""

    def picture(self, state: Any) -> str:
        """The board of ``state`` as an ``<svg>`` element whose targets carry ``data-target``."""


def board_of(game: Game) -> WebBoard:
    """The board module of ``game``, e.g. :mod:`zoo_games.web.boards.senet`."""
    return cast(WebBoard, importlib.import_module(f"zoo_games.web.boards.{game.name}"))
