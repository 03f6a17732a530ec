"""What one server allows: how many games it keeps, for how long, how long an agent may think.

The defaults are documented in ``docs/play.md`` and are the ``zoo-games serve`` defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Games kept in memory at once: a new game beyond it is refused until one is left idle.
MOST_GAMES = 200
#: Minutes a game is kept after its last request.
IDLE_MINUTES = 60.0
#: Seconds an agent may think about one move before the server stops waiting for it.
MOVE_SECONDS = 30.0
#: The largest request body read, in bytes: a new game with a position string is ~300.
MOST_BODY_BYTES = 16_384


@dataclass(frozen=True)
class ServerSettings:
    """The limits of one server; ``checkpoints`` is the only folder agents may load from.

    ``checkpoints`` ``None`` (the default) offers no trained agents: an ``rllib`` opponent
    names a run folder, and no request may make the server open a file that its operator
    did not offer.
    """

    most_games: int = MOST_GAMES
    idle_minutes: float = IDLE_MINUTES
    move_seconds: float = MOVE_SECONDS
    checkpoints: Path | None = None
