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
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np
from pettingzoo import AECEnv

from zoo_games.catalog import variants

REFERENCE = "connect_four_v3"


def decisions_per_second(make_env: Callable[[], AECEnv], seconds: float, seed: int) -> float:
    """Play whole random games for at least ``seconds``; return decisions per second."""
    env = make_env()
    rng = random.Random(seed)
    decisions = 0
    game = 0
    start = time.perf_counter()
    while True:
        env.reset(seed=seed * 100_003 + game)
        game += 1
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def contenders(selected: list[str] | None) -> dict[str, Callable[[], AECEnv]]:
    """Name -> environment factory, the reference first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.classic import connect_four_v3
    found: dict[str, Callable[[], AECEnv]] = {
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
    parser.add_argument("--runs", type=int, default=5, help="rounds of measurements (>= 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--only", nargs="*", help="variant labels (substrings) to measure")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    table = contenders(args.only)
    samples: dict[str, list[float]] = {name: [] for name in table}
    for run in range(args.runs):
        for name, make_env in table.items():
            samples[name].append(decisions_per_second(make_env, args.seconds, seed=run))
        print(f"round {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
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
