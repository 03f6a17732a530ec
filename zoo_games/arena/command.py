"""``zoo-games arena``: check every argument, play the tournament, print and write the results.

Every user mistake (unknown variant, agent or option, bad option value, too few agents, a
number of games that is not positive and even, a bad seed, worker count or opening length,
an output folder that cannot be written) is reported in one line on stderr, with exit
status 2, before any game is played.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from zoo_games.arena.report import check_output_dir, format_table, write_outputs
from zoo_games.arena.tournament import run_arena

#: Exit status of a command-line mistake (argparse's).
USAGE_ERROR = 2


def arena_command(
    variant: str,
    agents: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    out: str | None = None,
    gauntlet: bool = False,
    opening_moves: int = 0,
) -> int:
    """Run ``zoo-games arena``; the exit status (0, or 2 after a one-line error)."""
    try:
        if out is not None:
            check_output_dir(Path(out))
        result = run_arena(
            variant,
            list(agents),
            games=games,
            seed=seed,
            workers=workers,
            gauntlet=gauntlet,
            opening_moves=opening_moves,
            progress=lambda line: print(f"zoo-games arena: {line}", file=sys.stderr, flush=True),
        )
    except ValueError as mistake:
        print(f"zoo-games arena: error: {mistake}", file=sys.stderr)
        return USAGE_ERROR
    print(format_table(result))
    if out is not None:
        paths = write_outputs(result, Path(out))
        print("\nwritten: " + ", ".join(str(path) for path in paths))
    return 0
