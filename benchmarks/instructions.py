"""Machine instructions per decision of random play, counted by valgrind: a figure load ignores.

On a shared machine, decisions per second move with the other jobs (``bench_envs.py`` quotes
same-process ratios for that reason). The count of instructions the CPU executes for the same
games does not: this script plays the loop of ``bench_envs.py`` (``random_play.play_random_game``,
seeded) under ``valgrind --tool=cachegrind`` for one game and for ``--games`` games and
divides the difference by the difference in decisions, which removes the cost of starting
Python and importing. Needs valgrind (``apt-get install valgrind``); about a minute per
environment.

    python benchmarks/instructions.py --games 200 togyz-kumalak connect_four_v3
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import warnings
from typing import Any

from random_play import play_random_game, positive_int

from zoo_games.catalog import find_variant, labels

REFERENCE = "connect_four_v3"


def make_env(name: str) -> Any:
    """``env()`` of a variant label, or of PettingZoo's connect_four_v3."""
    if name == REFERENCE:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import connect_four_v3
        return connect_four_v3.env()
    return find_variant(name).env()


def play(name: str, games: int) -> int:
    """Seeded random games with ``random_play.play_random_game``; the decisions made."""
    env = make_env(name)
    rng = random.Random(0)
    return sum(play_random_game(env, game, rng) for game in range(games))


def counted(name: str, games: int) -> tuple[int, int]:
    """(decisions, instructions) of a fresh process playing ``games`` games under valgrind."""
    valgrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
    ]
    result = subprocess.run(
        [*valgrind, sys.executable, __file__, "--play", name, str(games)],
        capture_output=True,
        text=True,
        check=True,
        # A fixed hash seed: the same dict layouts, hence the same instructions, every time.
        env={**os.environ, "PYTHONWARNINGS": "ignore", "PYTHONHASHSEED": "0"},
    )
    decisions = int(re.search(r"^decisions (\d+)$", result.stdout, re.MULTILINE)[1])  # type: ignore[index]
    refs = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)[1]  # type: ignore[index]
    return decisions, int(refs.replace(",", ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"variant labels and/or {REFERENCE}")
    parser.add_argument("--games", type=positive_int, default=200, help="games per count")
    parser.add_argument("--play", nargs=2, metavar=("NAME", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:  # the child process that valgrind watches
        print(f"decisions {play(args.play[0], int(args.play[1]))}")
        return
    known = [REFERENCE, *labels()]
    for name in args.names:
        if name not in known:
            parser.error(f"unknown environment {name!r}; known: {', '.join(known)}")
    if not args.names:
        parser.error(f"name at least one environment: {', '.join(known)}")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    per_decision = {}
    for name in args.names:
        decisions_1, refs_1 = counted(name, 1)
        decisions_n, refs_n = counted(name, args.games)
        per_decision[name] = (refs_n - refs_1) / (decisions_n - decisions_1)
        print(f"{name:<28} {per_decision[name]:>10,.0f} instructions per decision "
              f"({decisions_n - decisions_1} decisions)", flush=True)  # fmt: skip
    if REFERENCE in per_decision:
        print(f"ratios: {REFERENCE} instructions / instructions")
        for name, count in per_decision.items():
            print(f"{name:<28} {per_decision[REFERENCE] / count:>6.2f}x")


if __name__ == "__main__":
    main()
