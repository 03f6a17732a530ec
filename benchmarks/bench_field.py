"""Decisions per second of random legal play: zoo-games against the field, in one process.

Contenders (a decision is a move chosen by a player; chance is drawn, not counted):

* ours, for every variant (``--only`` narrows them): ``env()`` and ``raw_env()`` (the loop
  of ``bench_envs.py``); the rules core (``new_initial_state``, ``legal_actions``,
  ``apply_action``, chance by ``chance_outcomes``); the batched engine
  (``zoo_games.batched.make(label, batch_size=--engine-batch)``, ``sample_legal_actions`` +
  ``step``, decisions = games x steps; needs numba);
* PettingZoo's ``connect_four_v3.env()``, the same loop as ours (needs pygame);
* OpenSpiel (``pyspiel``): mancala and backgammon, bare (``legal_actions``, ``apply_action``,
  chance by ``chance_outcomes``) and with ``state.observation_tensor()`` at every decision;
* Pgx on the CPU (jax): connect_four and backgammon, one jitted, vmapped step of random legal
  actions with automatic reset at each of ``--pgx-batch-sizes``, decisions = games stepped
  (Pgx writes every game's observation at every step); compile time printed separately.

Measurements are interleaved round-robin over ``--runs`` rounds of about ``--seconds`` each,
so that a noisy neighbour slows every contender alike; the table gives medians and ratios to
``connect_four_v3 env()`` and to OpenSpiel's bare mancala measured in the same command. A
missing optional library prints one "skipped" line. ``--plot PATH`` writes a log-scale bar
chart.

    python benchmarks/bench_field.py --runs 5 --seconds 0.5 --plot docs/results/field.png
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import random_play
from PIL import Image

from zoo_games.catalog import Variant, variants
from zoo_games.core import drawing

CONNECT_FOUR = "PettingZoo connect_four_v3 env()"
MANCALA = "OpenSpiel mancala"
#: How the names of the other libraries' contenders start (the plot colours them apart).
FIELD_PREFIXES = ("PettingZoo", "OpenSpiel", "Pgx")
OPENSPIEL_GAMES = ("mancala", "backgammon")
PGX_GAMES = ("connect_four", "backgammon")
#: What ``--without`` may leave out.
LIBRARIES = ("pettingzoo", "openspiel", "pgx", "batched")
#: A measurement: round number (its seed) -> decisions per second (``None``: not measured).
Measurement = Callable[[int], float | None]


class PgxRandomPlay:
    """A batch of Pgx games played at random by one jitted step (compiled on creation).

    The step draws a uniformly random legal action per game (``jax.random.categorical`` over
    the log of the legal-action mask), steps every game with ``jax.vmap(env.step)`` and
    restarts finished games (``pgx.experimental.auto_reset``), so every game is stepped at
    every call.
    """

    def __init__(self, game: str, batch_size: int, seed: int = 0) -> None:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset

        env = pgx.make(game)
        step = jax.vmap(auto_reset(env.step, env.init))

        def play(state: Any, key: Any) -> tuple[Any, Any]:
            key, action_key, step_key = jax.random.split(key, 3)
            logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
            actions = jax.random.categorical(action_key, logits, axis=-1)
            return step(state, actions, jax.random.split(step_key, batch_size)), key

        self.batch_size = batch_size
        self._play = jax.jit(play)
        start = time.perf_counter()
        init_key, play_key = jax.random.split(jax.random.key(seed))
        self._state = jax.jit(jax.vmap(env.init))(jax.random.split(init_key, batch_size))
        self._state, self._key = jax.block_until_ready(self._play(self._state, play_key))
        #: Seconds to trace, compile and run the first step (and the batched ``init``).
        self.compile_seconds = time.perf_counter() - start

    def rate(self, seconds: float) -> float:
        """Games stepped per second, going on from where the last call stopped."""
        import jax

        steps = 0
        start = time.perf_counter()
        while True:
            for _ in range(8):
                self._state, self._key = self._play(self._state, self._key)
            jax.block_until_ready(self._state)
            steps += 8
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return steps * self.batch_size / elapsed


def installed(module: str, package: str) -> bool:
    """Whether ``module`` imports; if not, print the one line saying what was skipped."""
    if importlib.util.find_spec(module) is not None:
        return True
    print(f"skipped: {package} not installed (pip install {package})")
    return False


def ours(
    selected: list[Variant], engine_batch: int | None, seconds: float
) -> dict[str, Measurement]:
    """env(), raw_env(), rules core and (unless ``engine_batch`` is None) batched engine."""
    engine_ok = engine_batch is not None and installed("numba", "numba")
    if engine_ok:
        from zoo_games import batched
    measurements: dict[str, Measurement] = {}
    for variant in selected:
        label = variant.label
        game = variant.game
        measurements[f"{label} env()"] = lambda run, v=variant: random_play.env_rate(
            v.env, seconds, run
        )
        measurements[f"{label} raw_env()"] = lambda run, v=variant: random_play.env_rate(
            v.raw_env, seconds, run
        )
        measurements[f"{label} rules core"] = lambda run, g=game: random_play.rules_core_rate(
            g, seconds, run
        )
        if engine_ok:
            engine = batched.make(label, batch_size=engine_batch, seed=0)
            engine.step(engine.sample_legal_actions())  # compiled (or loaded from the cache)
            measurements[f"{label} batched b={engine_batch}"] = lambda run, e=engine: (
                random_play.engine_rate(e, seconds)[0]
            )
    return measurements


def the_field(
    libraries: list[str], pgx_batch_sizes: list[int], seconds: float
) -> tuple[dict[str, Measurement], list[str]]:
    """PettingZoo, OpenSpiel and Pgx measurements, and lines reporting Pgx's compile times."""
    measurements: dict[str, Measurement] = {}
    notes: list[str] = []
    if "pettingzoo" in libraries and installed("pygame", "pygame"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import connect_four_v3
        measurements[CONNECT_FOUR] = lambda run: random_play.env_rate(
            connect_four_v3.env, seconds, run
        )
    if "openspiel" in libraries and installed("pyspiel", "open_spiel"):
        for name in OPENSPIEL_GAMES:
            for observe, suffix in ((False, ""), (True, " + observation_tensor")):
                measurements[f"OpenSpiel {name}{suffix}"] = lambda run, n=name, o=observe: (
                    random_play.openspiel_rate(n, seconds, run, observe=o)
                )
    if "pgx" in libraries and installed("jax", "jax") and installed("pgx", "pgx"):
        for name in PGX_GAMES:
            for batch_size in pgx_batch_sizes:
                player = PgxRandomPlay(name, batch_size)
                notes.append(
                    f"Pgx {name} b={batch_size}: first call (trace, compile, run) "
                    f"{player.compile_seconds:.1f} s"
                )
                measurements[f"Pgx {name} b={batch_size}"] = lambda run, p=player: p.rate(seconds)
    return measurements, notes


def print_table(rates: dict[str, float], runs: int, seconds: float) -> None:
    """Decisions/s and the ratios to connect_four's env() and OpenSpiel's bare mancala."""
    print(f"\nmedian of {runs} runs of ~{seconds:g} s each, one process, round-robin")
    references = [(CONNECT_FOUR, "vs connect_four env()"), (MANCALA, "vs OpenSpiel mancala")]
    header = "".join(f" {title:>22}" for _, title in references)
    print(f"{'contender':<44} {'decisions/s':>13}{header}")
    for name, rate in rates.items():
        cells = "".join(
            f" {rate / rates[reference]:>21.2f}x" if reference in rates else f" {'-':>22}"
            for reference, _ in references
        )
        print(f"{name:<44} {rate:>13,.0f}{cells}")


def plot(rates: dict[str, float], path: Path) -> None:
    """A horizontal bar per contender, decisions/s on a log scale; ours in blue."""
    row, left, right, top, bottom = 18, 300, 90, 40, 40
    width, height = 900, top + bottom + row * len(rates)
    canvas = drawing.Canvas(width, height, background=(255, 255, 255))
    canvas.text((width / 2, top / 2), "random legal play, decisions/s (log scale)", 14)
    low = math.floor(math.log10(min(rates.values())))
    high = math.ceil(math.log10(max(rates.values())))
    high = max(high, low + 1)
    plot_w = width - left - right

    def x_of(rate: float) -> float:
        return left + plot_w * (math.log10(rate) - low) / (high - low)

    for exponent in range(low, high + 1):
        x = x_of(10.0**exponent)
        canvas.draw.line((x, top, x, height - bottom), fill=(225, 225, 225), width=1)
        canvas.text((x, height - bottom + 12), f"1e{exponent}", 11)
    ours_color, field_color = (31, 119, 180), (255, 127, 14)
    for number, (name, rate) in enumerate(rates.items()):
        y = top + row * number
        color = field_color if name.startswith(FIELD_PREFIXES) else ours_color
        canvas.draw.rectangle((left, y + 3, x_of(rate), y + row - 3), fill=color)
        canvas.text((left - 6, y + row / 2), name, 11, anchor="rm")
        canvas.text((x_of(rate) + 4, y + row / 2), f"{rate:,.0f}", 10, anchor="lm")
    for number, (text, color) in enumerate((("zoo-games", ours_color), ("others", field_color))):
        x = 12 + 90 * number
        canvas.draw.rectangle((x, 12, x + 12, 24), fill=color)
        canvas.text((x + 16, 18), text, 11, anchor="lm")
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(canvas.to_array()).save(path)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=random_play.positive_int, default=5, help="rounds of measurements"
    )
    parser.add_argument(
        "--seconds", type=random_play.positive_float, default=0.5, help="seconds per measurement"
    )
    parser.add_argument("--only", nargs="+", help="variant labels (substrings) to measure")
    parser.add_argument(
        "--engine-batch",
        type=random_play.positive_int,
        default=4096,
        help="games per batched-engine step (default 4096)",
    )
    parser.add_argument(
        "--pgx-batch-sizes",
        nargs="+",
        type=random_play.positive_int,
        default=[1024, 4096],
        help="Pgx batch sizes (default 1024 4096)",
    )
    parser.add_argument(
        "--without",
        nargs="+",
        choices=LIBRARIES,
        default=[],
        help="leave these contenders out (batched: our batched engine)",
    )
    parser.add_argument("--plot", type=Path, help="write a log-scale bar chart (PNG) here")
    args = parser.parse_args(argv)
    labels = [variant.label for variant in variants()]
    for name in args.only or []:
        if not any(name in label for label in labels):
            parser.error(f"--only {name!r} matches no variant; variants: {', '.join(labels)}")
    if args.plot is not None and args.plot.suffix.lower() != ".png":
        parser.error(f"--plot {str(args.plot)!r}: the chart is a PNG, give a path ending in .png")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.simplefilter("ignore")
    selected = [v for v in variants() if not args.only or any(n in v.label for n in args.only)]
    for library in args.without:
        print(f"skipped: {library} (--without)")
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    libraries = [library for library in LIBRARIES if library not in args.without]
    field, notes = the_field(libraries, args.pgx_batch_sizes, args.seconds)
    engine_batch = args.engine_batch if "batched" in libraries else None
    measurements = {**field, **ours(selected, engine_batch, args.seconds)}
    for note in notes:
        print(note)
    rates = random_play.medians(random_play.round_robin(measurements, args.runs))
    print_table(rates, args.runs, args.seconds)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.plot is not None:
        plot(rates, args.plot)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
