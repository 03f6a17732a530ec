"""Tournaments between agents: round robin, both seats, seeded, in parallel, with statistics.

::

    from zoo_games.arena import run_arena

    result = run_arena("santorini-fixed", ["random", "random"], games=10, seed=0)
    print(result.pairings[0].score)

* :mod:`~zoo_games.arena.play`: one game on the rules core, chance drawn from a seeded
  generator;
* :mod:`~zoo_games.arena.tournament`: :func:`run_arena`, the pairings, the seeding scheme and
  the worker processes;
* :mod:`~zoo_games.arena.stats`: Wilson intervals and the Bradley-Terry Elo fit (pure
  functions);
* :mod:`~zoo_games.arena.results`: :class:`ArenaResult`, per pairing statistics and Elo;
* :mod:`~zoo_games.arena.report` and :mod:`~zoo_games.arena.chart`: the table, ``arena.json``,
  ``arena.csv`` and ``arena.png``;
* :mod:`~zoo_games.arena.command`: ``zoo-games arena``.
"""

from zoo_games.arena.results import ArenaResult, PairingResult
from zoo_games.arena.tournament import run_arena

__all__ = ["ArenaResult", "PairingResult", "run_arena"]
