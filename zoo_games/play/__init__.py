"""Terminal play: people against agents, or two people at one terminal (``zoo-games play``).

:mod:`~zoo_games.play.session` runs a game, :mod:`~zoo_games.play.menu` lists the legal
moves and reads what is typed, :mod:`~zoo_games.play.language` finds each game's move names
(``zoo_games/<game>/moves.py``), and :mod:`~zoo_games.play.command` checks the command
line's arguments. How to play: ``docs/play.md``.
"""

from zoo_games.play.command import run_play
from zoo_games.play.session import Session

__all__ = ["Session", "run_play"]
