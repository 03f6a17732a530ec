"""One thread against two for the batched engine, per numba threading layer, with and without a
busy neighbour.

A threaded loop ends when its slowest thread does, so two threads pay only when two cores are
free. This script measures random play (``sample_legal_actions`` + ``step``) of one variant at
one batch size with ``threads=1`` and ``threads=2``, for each threading layer numba has here
(each in its own process: the layer is chosen once per process), first on the machine as it
is, then with one other process spinning on a core (started and stopped by the script), as a
learner or another job would. Medians of ``--runs`` measurements of ``--seconds``; the ratio
is two threads over one, measured in the same process.

    python benchmarks/bench_threads.py --label togyz-kumalak --batch-size 4096
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import random_play

LAYERS = ("omp", "workqueue", "tbb")

_MEASURE = """
import json, sys
sys.path.insert(0, {folder!r})
import numba
import random_play
from zoo_games import batched
rates = {{1: [], 2: []}}
engines = {{t: batched.make({label!r}, batch_size={batch}, seed=0, threads=t) for t in (1, 2)}}
for engine in engines.values():
    for _ in range(5):
        engine.step(engine.sample_legal_actions())
for _ in range({runs}):
    for threads, engine in engines.items():
        rates[threads].append(random_play.engine_rate(engine, {seconds})[0])
print(json.dumps({{"layer": numba.threading_layer(), "rates": rates}}))
"""


def measure(layer: str, label: str, batch: int, runs: int, seconds: float) -> dict | None:
    """Rates of one and two threads under ``layer`` in a fresh process; None if unavailable."""
    script = _MEASURE.format(
        folder=os.path.dirname(os.path.abspath(__file__)),
        label=label,
        batch=batch,
        runs=runs,
        seconds=seconds,
    )
    environment = {**os.environ, "NUMBA_THREADING_LAYER": layer}
    result = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True
    )
    if result.returncode != 0:
        return None  # the layer's library (TBB, GNU OpenMP) is not installed here
    measured: dict = json.loads(result.stdout.splitlines()[-1])
    return measured


@contextmanager
def busy_neighbour() -> Iterator[None]:
    """Another process keeping one core busy while the block runs."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="togyz-kumalak", help="variant label")
    parser.add_argument("--batch-size", type=random_play.positive_int, default=4096)
    parser.add_argument("--runs", type=random_play.positive_int, default=5)
    parser.add_argument("--seconds", type=random_play.positive_float, default=0.3)
    args = parser.parse_args(argv)
    from zoo_games.batched.engine import PARALLEL_MIN_BATCH
    from zoo_games.catalog import find_variant

    try:
        find_variant(args.label)
    except ValueError as error:
        parser.error(str(error))
    if args.batch_size < PARALLEL_MIN_BATCH:
        parser.error(f"--batch-size must be at least {PARALLEL_MIN_BATCH} (smaller batches never "
                     f"use threads), got {args.batch_size}")  # fmt: skip
    print(f"{args.label}, batch {args.batch_size}: decisions/s in millions, median of {args.runs}")
    print(f"{'machine':<24} {'layer':<10} {'threads=1':>9} {'threads=2':>9} {'2 vs 1':>7}")
    for machine in ("as it is", "one busy neighbour"):
        for layer in LAYERS:
            if machine == "as it is":
                measured = measure(layer, args.label, args.batch_size, args.runs, args.seconds)
            else:
                with busy_neighbour():
                    measured = measure(layer, args.label, args.batch_size, args.runs, args.seconds)
            if measured is None:
                print(f"{machine:<24} {layer:<10} (not available here)")
                continue
            one, two = (statistics.median(measured["rates"][t]) for t in ("1", "2"))
            print(f"{machine:<24} {measured['layer']:<10} {one / 1e6:>9.2f} {two / 1e6:>9.2f} "
                  f"{two / one:>6.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
