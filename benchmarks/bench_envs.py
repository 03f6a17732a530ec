"""Decisions per second of random legal play, for every variant, against connect_four_v3.

Every environment is driven by the same loop (``last()``, a uniformly random legal action
from the mask, ``step()``), whole games at a time, for about ``--seconds`` per measurement.
Measurements are interleaved round-robin over ``--runs`` rounds so that a noisy neighbour on
the shared machine slows every environment alike; the table reports medians and the ratio of
each median to the median of PettingZoo's ``connect_four_v3.env()`` measured in the same run.

    python benchmarks/bench_envs.py --runs 5 --seconds 1
"""

from __future__ import annotations

import argparse
import statistics
import warnings
from collections.abc import Callable
from typing import Any

from random_play import env_rate, positive_float, positive_int, round_robin

from zoo_games.catalog import variants

REFERENCE = "connect_four_v3"


def contenders(selected: list[str] | None) -> dict[str, Callable[[], Any]]:
    """Name -> environment factory, the reference first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.classic import connect_four_v3
    found: dict[str, Callable[[], Any]] = {
        f"{REFERENCE} env()": connect_four_v3.env,
        f"{REFERENCE} raw_env()": connect_four_v3.raw_env,
    }
    for variant in variants():
        if selected and not any(name in variant.label for name in selected):
            continue
        found[f"{variant.label} env()"] = variant.env
        found[f"{variant.label} raw_env()"] = variant.raw_env
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive_int, default=5, help="rounds of measurements")
    parser.add_argument(
        "--seconds", type=positive_float, default=1.0, help="seconds per measurement"
    )
    parser.add_argument("--only", nargs="*", help="variant labels (substrings) to measure")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    table = contenders(args.only)
    samples = round_robin(
        {
            name: lambda run, make_env=make_env: env_rate(make_env, args.seconds, seed=run)
            for name, make_env in table.items()
        },
        args.runs,
    )
    reference = statistics.median(samples[f"{REFERENCE} env()"])
    print(
        f"median of {args.runs} runs of ~{args.seconds:g}s each; ratio = median / {REFERENCE} env()"
    )
    print(f"{'environment':<34} {'decisions/s':>12} {'min':>10} {'max':>10} {'ratio':>7}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"{name:<34} {median:>12,.0f} {min(values):>10,.0f} {max(values):>10,.0f} "
            f"{median / reference:>6.1f}x"
        )


if __name__ == "__main__":
    main()
