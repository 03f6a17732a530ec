"""The games a server holds: in memory only, each under a random id, a bounded number of them.

A game is forgotten when it has had no request for ``idle_seconds``, when its page deletes it
(a new game started in the same tab), or when the server stops; nothing is written to disk.
Each game has a lock, so that two requests for one game (two clicks in flight, a reload)
never interleave, while requests for other games go on.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio

from zoo_games.web.match import Match


class GameGone(LookupError):
    """No game has this id: it never existed, was deleted, or expired."""


class TooManyGames(RuntimeError):
    """The server keeps as many games as it may."""


@dataclass
class Entry:
    """A game kept by the server, its lock and the time of its last request."""

    match: Match
    used: float
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    #: Set when a search abandoned for going over the time cap finishes; until then the
    #: agent is still busy and the game takes no move.
    search_done: threading.Event | None = None

    def searching(self) -> bool:
        """Whether an abandoned search of this game's agent is still running."""
        return self.search_done is not None and not self.search_done.is_set()


class GameStore:
    """At most ``most_games`` games, each dropped after ``idle_seconds`` without a request."""

    def __init__(
        self, most_games: int, idle_seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.most_games = most_games
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._entries: dict[str, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, match: Match) -> str:
        """Keep ``match`` under a new random id and return the id; ``TooManyGames`` if full."""
        self._drop_idle()
        if len(self._entries) >= self.most_games:
            raise TooManyGames(
                f"the server already keeps {self.most_games} games, the most it may; "
                f"a game is dropped after {self.idle_seconds / 60:g} minutes without a move"
            )
        game_id = secrets.token_urlsafe(12)
        self._entries[game_id] = Entry(match, self._clock())
        return game_id

    def get(self, game_id: str) -> Entry:
        """The game ``game_id``, marked as used now; ``GameGone`` if there is none."""
        self._drop_idle()
        entry = self._entries.get(game_id)
        if entry is None:
            raise GameGone(
                f"there is no game {game_id!r}: it was never started here, was replaced by a "
                f"new game, was left idle for over {self.idle_seconds / 60:g} minutes, or the "
                "server was restarted (games are kept in memory only)"
            )
        entry.used = self._clock()
        return entry

    def remove(self, game_id: str) -> None:
        """Forget the game ``game_id``; ``GameGone`` if there is none."""
        self.get(game_id)
        del self._entries[game_id]

    def _drop_idle(self) -> None:
        oldest = self._clock() - self.idle_seconds
        for game_id in [key for key, entry in self._entries.items() if entry.used < oldest]:
            del self._entries[game_id]
