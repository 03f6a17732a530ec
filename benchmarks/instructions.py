"""Machine instructions per decision of random play, counted by valgrind: a figure load ignores.

On a shared machine, decisions per second move with the other jobs (``bench_envs.py`` quotes
same-process ratios for that reason). The count of instructions the CPU executes for the same
games does not: this script plays the loop of ``bench_envs.py`` (``random_play.play_random_game``,
seeded) under ``valgrind --tool=cachegrind`` for one game and for ``--games`` games and
divides the difference by the difference in decisions, which removes the cost of starting
Python and importing. Needs valgrind (``apt-get install valgrind``); about a minute per
environment.

    python benchmarks/instructions.py --games 200 togyz-kumalak connect_four_v3

With ``--batched``, the same for the batched engine: ``--games`` steps of
``sample_legal_actions`` + ``step`` at batch 4,096 on one thread (``bench_batched.py``'s loop),
against 1 step; the decisions are games x steps. The kernels are compiled (or loaded from
numba's cache) by a run without valgrind first, for this machine's CPU, which the counted runs
are told to target too: numba would otherwise see valgrind's simulated CPU and compile for it
under valgrind, which takes many minutes. Also printed: the branches valgrind's simple
predictor mispredicts, per decision (a guide to the unpredictable branches, not a measurement
of the real CPU's).

    python benchmarks/instructions.py --batched --games 10 senet-kendall-5
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


#: Games stepped at once with ``--batched``.
BATCH_SIZE = 4096


def play(name: str, games: int) -> int:
    """Seeded random games with ``random_play.play_random_game``; the decisions made."""
    env = make_env(name)
    rng = random.Random(0)
    return sum(play_random_game(env, game, rng) for game in range(games))


def play_batched(name: str, steps: int) -> int:
    """``steps`` seeded random steps of a batched engine (one thread); the decisions made."""
    from zoo_games import batched

    engine = batched.make(name, batch_size=BATCH_SIZE, seed=0, threads=1)
    for _ in range(steps):
        engine.step(engine.sample_legal_actions())
    return steps * BATCH_SIZE


def host_cpu() -> dict[str, str]:
    """numba's settings naming this machine's CPU, so that valgrind's runs load cached code."""
    import llvmlite.binding as llvm
    from numba.core.codegen import get_host_cpu_features

    return {
        "NUMBA_CPU_NAME": llvm.get_host_cpu_name(),
        "NUMBA_CPU_FEATURES": get_host_cpu_features(),
    }


def counted(name: str, games: int, batched: bool = False) -> tuple[int, int, int]:
    """(decisions, instructions, mispredicted branches) of a fresh process under valgrind.

    It plays ``games`` games, or with ``batched`` that many steps of the batched engine.
    """
    valgrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--branch-sim=yes",
        "--cachegrind-out-file=/dev/null",
    ]
    mode = "--play-batched" if batched else "--play"
    result = subprocess.run(
        [*valgrind, sys.executable, __file__, mode, name, str(games)],
        capture_output=True,
        text=True,
        check=True,
        # A fixed hash seed: the same dict layouts, hence the same instructions, every time.
        env={
            **os.environ,
            "PYTHONWARNINGS": "ignore",
            "PYTHONHASHSEED": "0",
            **(host_cpu() if batched else {}),
        },
    )
    decisions = int(re.search(r"^decisions (\d+)$", result.stdout, re.MULTILINE)[1])  # type: ignore[index]
    refs = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)[1]  # type: ignore[index]
    mispredicts = re.search(r"Mispredicts:\s+([\d,]+)", result.stderr)[1]  # type: ignore[index]
    return decisions, int(refs.replace(",", "")), int(mispredicts.replace(",", ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"variant labels and/or {REFERENCE}")
    parser.add_argument("--games", type=positive_int, default=200, help="games per count")
    parser.add_argument(
        "--batched",
        action="store_true",
        help=f"count the batched engine (batch {BATCH_SIZE}, one thread); --games is steps",
    )
    parser.add_argument("--play", nargs=2, metavar=("NAME", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--play-batched", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:  # the child process that valgrind watches
        print(f"decisions {play(args.play[0], int(args.play[1]))}")
        return
    if args.play_batched:
        print(f"decisions {play_batched(args.play_batched[0], int(args.play_batched[1]))}")
        return
    known = [*([] if args.batched else [REFERENCE]), *labels()]
    for name in args.names:
        if name not in known:
            parser.error(f"unknown environment {name!r}; known: {', '.join(known)}")
    if not args.names:
        parser.error(f"name at least one environment: {', '.join(known)}")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    per_decision = {}
    for name in args.names:
        if args.batched:  # compile, or load from numba's cache, outside valgrind
            subprocess.run(
                [sys.executable, __file__, "--play-batched", name, "1"],
                env={**os.environ, **host_cpu()},
                check=True,
            )
        decisions_1, refs_1, missed_1 = counted(name, 1, args.batched)
        decisions_n, refs_n, missed_n = counted(name, args.games, args.batched)
        decisions = decisions_n - decisions_1
        per_decision[name] = (refs_n - refs_1) / decisions
        print(f"{name:<28} {per_decision[name]:>10,.0f} instructions per decision "
              f"({(missed_n - missed_1) / decisions:.2f} mispredicted branches; "
              f"{decisions} decisions)", flush=True)  # fmt: skip
    if REFERENCE in per_decision:
        print(f"ratios: {REFERENCE} instructions / instructions")
        for name, count in per_decision.items():
            print(f"{name:<28} {per_decision[REFERENCE] / count:>6.2f}x")


if __name__ == "__main__":
    main()
