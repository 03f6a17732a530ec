"""Decisions per second of the batched engine, every variant, batch sizes 1 to 16384.

Random legal play through the public API only: ``engine.sample_legal_actions()`` then
``engine.step(actions)`` (which also writes every game's legal-action mask and observation),
with one and with two threads, for about ``--seconds`` per measurement. Measurements are
interleaved round-robin over ``--runs`` rounds, so that a noisy neighbour on the shared machine
slows every configuration alike; the table reports medians. References measured in the same
process: OpenSpiel's C++ mancala (``pyspiel``, a bare ``apply_action`` loop on one core), and
each variant's Python rules core (``legal_actions`` + ``apply_action``, chance sampled).

Also printed: the first-call compile time (a fresh process with an empty numba cache), the
time to load the cached code, the engine's memory per game and the peak memory of the largest
batch. A whole run (every variant, every batch size) draws the scaling plot of the docs; a
partial one (``--only``, ``--batch-sizes``) draws one only where ``--plot`` says, so that it
never replaces the docs' plot with a part of it.

    python benchmarks/bench_batched.py --runs 5 --seconds 0.3
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import random_play
from PIL import Image

from zoo_games import batched
from zoo_games.batched.engine import PARALLEL_MIN_BATCH
from zoo_games.catalog import find_variant, variants
from zoo_games.core import drawing

BATCH_SIZES = (1, 4, 16, 64, 256, 1024, 2048, 4096, 16384)
THREADS = (1, 2)
#: The batch size at which the speed goals are stated (ratios to OpenSpiel are printed there).
GOAL_BATCH = 4096
PLOT = Path(__file__).parents[1] / "docs" / "results" / "batched-scaling.png"


def engine_rate(
    label: str, batch_size: int, threads: int, seconds: float, seed: int
) -> tuple[float, float]:
    """Decisions per second (wall clock, CPU) of random play with a fresh, warmed-up engine."""
    engine = batched.make(label, batch_size=batch_size, seed=seed, threads=threads)
    for _ in range(3):
        engine.step(engine.sample_legal_actions())
    return random_play.engine_rate(engine, seconds)


_COMPILE_SCRIPT = """
import time
start = time.perf_counter()
from zoo_games import batched
for label in {labels!r}:
    engine = batched.make(label, batch_size={threaded}, seed=0, threads=2)
    engine.step(engine.sample_legal_actions())
    engine = batched.make(label, batch_size=4, seed=0, threads=1)
    engine.step(engine.sample_legal_actions())
print(time.perf_counter() - start)
"""


def compile_times(labels: list[str]) -> tuple[float, float]:
    """Seconds to import, make and step every variant: with an empty cache, then cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        script = _COMPILE_SCRIPT.format(labels=labels, threaded=PARALLEL_MIN_BATCH)
        times = []
        for _ in range(2):
            result = subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
            )
            times.append(float(result.stdout.split()[-1]))
    return times[0], times[1]


def peak_memory(label: str, batch_size: int) -> tuple[int, int]:
    """(engine bytes per game, tracemalloc peak bytes of making and stepping the engine)."""
    tracemalloc.start()
    engine = batched.make(label, batch_size=batch_size, seed=0, threads=1)
    for _ in range(100):
        engine.step(engine.sample_legal_actions())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return engine.bytes_per_game, peak


def plot(
    medians: dict[tuple[str, int, int], float],
    labels: list[str],
    reference: float | None,
    path: Path,
) -> None:
    """Decisions/s against batch size, log-log, one colour per variant: a thick line for two
    threads, a thin one for one thread, and OpenSpiel's mancala (one core) as a grey line."""
    import math

    width, height, left, right, top, bottom = 760, 480, 80, 190, 40, 50
    canvas = drawing.Canvas(width, height, background=(255, 255, 255))
    title = "batched engine: decisions/s, random play (thick: 2 threads, thin: 1)"
    canvas.text((width / 2, top / 2), title, 14)
    plot_w, plot_h = width - left - right, height - top - bottom
    low, high = 4, 8  # 1e4 .. 1e8 decisions/s

    def to_pixel(batch_size: int, rate: float) -> tuple[float, float]:
        x = left + plot_w * math.log(batch_size, 4) / math.log(BATCH_SIZES[-1], 4)
        y = top + plot_h * (1 - (math.log10(max(rate, 10**low)) - low) / (high - low))
        return x, y

    canvas.box((left, top), (plot_w, plot_h), fill=None, width=1)
    for exponent in range(low, high + 1):
        _, y = to_pixel(1, 10.0**exponent)
        canvas.draw.line((left, y, left + plot_w, y), fill=(225, 225, 225), width=1)
        canvas.text((left - 8, y), f"1e{exponent}", 11, anchor="rm")
    for batch_size in BATCH_SIZES:
        x, _ = to_pixel(batch_size, 1.0)
        canvas.text((x, top + plot_h + 12), str(batch_size), 11)
    canvas.text((left + plot_w / 2, height - 14), "batch size (games stepped at once)", 12)
    palette = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
               (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34)]  # fmt: skip
    legend = [(label, palette[number % len(palette)]) for number, label in enumerate(labels)]
    if reference:
        grey = (150, 150, 150)
        _, y = to_pixel(1, reference)
        canvas.draw.line((left, y, left + plot_w, y), fill=grey, width=2)
        legend.append(("OpenSpiel mancala", grey))
    for label, color in legend[: len(labels)]:
        for threads, line_width in ((1, 1), (2, 3)):
            points = [
                to_pixel(b, medians[(label, b, threads)])
                for b in BATCH_SIZES
                if (label, b, threads) in medians
            ]
            if len(points) > 1:
                canvas.draw.line(points, fill=color, width=line_width)
    for number, (label, color) in enumerate(legend):
        legend_y = top + 10 + 18 * number
        canvas.draw.line(
            (width - right + 10, legend_y, width - right + 30, legend_y), fill=color, width=3
        )
        canvas.text((width - right + 36, legend_y), label, 11, anchor="lm")
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(canvas.to_array()).save(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=random_play.positive_int, default=5, help="rounds of measurements"
    )
    parser.add_argument(
        "--seconds", type=random_play.positive_float, default=0.3, help="seconds per measurement"
    )
    parser.add_argument("--only", nargs="*", help="variant labels (substrings) to measure")
    parser.add_argument(
        "--batch-sizes", nargs="*", type=random_play.positive_int, default=list(BATCH_SIZES)
    )
    parser.add_argument(
        "--plot", type=Path, help=f"where to write the PNG (a whole run: {PLOT.name} of the docs)"
    )
    parser.add_argument("--skip-compile", action="store_true", help="skip the compile timing")
    args = parser.parse_args(argv)
    labels = [v.label for v in variants() if not args.only or any(n in v.label for n in args.only)]
    if not args.skip_compile:
        cold, warm = compile_times(labels)
        print(f"first call, empty numba cache (import, make and step {len(labels)} variants, ")
        print(f"  serial and threaded loops): {cold:.1f} s; the same with the cache: {warm:.1f} s")
    for label in labels:  # compile (or load) everything before timing
        engine_rate(label, PARALLEL_MIN_BATCH, 2, 0.0, 0)
        engine_rate(label, 4, 1, 0.0, 0)
    measurements: dict[str, Callable[[int], float | tuple[float, float] | None]] = {
        "openspiel": lambda run: random_play.openspiel_rate("mancala", args.seconds, run)
    }
    for label in labels:
        game = find_variant(label).game
        measurements[f"core {label}"] = lambda run, game=game: random_play.rules_core_rate(
            game, args.seconds, run
        )
        for threads in THREADS:
            for batch_size in args.batch_sizes:
                measurements[f"{label} {batch_size} {threads}"] = (
                    lambda run, label=label, b=batch_size, t=threads: engine_rate(
                        label, b, t, args.seconds, run
                    )
                )
    samples = random_play.round_robin(measurements, args.runs)
    median = random_play.medians(
        {
            name: [v[0] if isinstance(v, tuple) else v for v in values]
            for name, values in samples.items()
        }
    )
    cpu_median = random_play.medians(
        {name: [v[1] for v in values if isinstance(v, tuple)] for name, values in samples.items()}
    )
    reference = median.get("openspiel")
    print()
    if reference is None:
        print("open_spiel is not installed: no OpenSpiel reference (pip install open_spiel)")
    else:
        print(f"reference: OpenSpiel mancala (C++ via pyspiel, bare loop, 1 core): "
              f"{reference:,.0f} decisions/s")  # fmt: skip
    print(f"median of {args.runs} runs of ~{args.seconds:g} s; decisions/s in millions")
    header = " ".join(f"{b:>7}" for b in args.batch_sizes)
    goal_batch = GOAL_BATCH if GOAL_BATCH in args.batch_sizes else max(args.batch_sizes)
    print(f"{'variant':<22} {'thr':>3} {header} {f'x OS @{goal_batch}':>11} {'x OS best':>9} "
          f"{'core (Py)':>10} {'b=1 vs core':>11} {'per CPU-s':>10}")  # fmt: skip
    table: dict[tuple[str, int, int], float] = {}
    largest = max(args.batch_sizes)
    for label in labels:
        core = median[f"core {label}"]
        for threads in THREADS:
            rates = [median[f"{label} {b} {threads}"] for b in args.batch_sizes]
            table.update(
                {(label, b, threads): r for b, r in zip(args.batch_sizes, rates, strict=True)}
            )
            cells = " ".join(f"{r / 1e6:>7.3f}" for r in rates)
            if reference:
                at_goal = table[label, goal_batch, threads] / reference
                ratios = f"{at_goal:>10.1f}x {max(rates) / reference:>8.1f}x"
            else:
                ratios = f"{'-':>11} {'-':>9}"
            cpu = cpu_median[f"{label} {largest} {threads}"]
            print(f"{label:<22} {threads:>3} {cells} {ratios} {core / 1e6:>10.3f} "
                  f"{rates[0] / core:>10.2f}x {cpu / 1e6:>10.3f}")  # fmt: skip
    print(f"(x OS: the rate over OpenSpiel's, at batch {goal_batch} and at the best batch size;")
    print(f" per CPU-s: decisions per CPU second of this process at batch {largest}, all threads)")
    print()
    for label in labels:
        per_game, peak = peak_memory(label, largest)
        print(f"{label:<22} {per_game:>4} bytes per game; tracemalloc peak at batch "
              f"{largest}: {peak / 2**20:.1f} MiB")  # fmt: skip
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"process peak RSS (everything above, incl. Python, numba, pettingzoo): {max_rss:.0f} MiB"
    )
    whole = not args.only and args.batch_sizes == list(BATCH_SIZES)
    path = args.plot or (PLOT if whole else None)
    if path is None:
        print("plot: none for a partial run (--plot PATH draws one)")
    else:
        plot(table, labels, reference, path)
        print(f"plot: {path}")


if __name__ == "__main__":
    main()
