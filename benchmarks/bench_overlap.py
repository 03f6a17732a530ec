"""PPO iterations with sampling overlapped with the update, against taking turns.

For each variant, PPO on the batched engine is built three ways with ``zoo-games train``'s
settings otherwise, one after the other in the same process:

* ``driver``: the driver samples, then updates (``env_runners=0``, no overlap);
* ``remote``: one remote runner samples while the driver waits, then the driver updates
  (``env_runners=1``, no overlap): what a remote runner costs without the overlap;
* ``overlap``: one remote runner samples the next batch while the driver updates on this one
  (``env_runners=1``, ``overlap=True``, :mod:`zoo_games.rllib.overlapped_ppo`).

Each is warmed up for ``--warmup`` iterations, then ``--iterations`` whole iterations are
timed; the three are measured in turn ``--runs`` times, so that a noisy neighbour falls on all
of them alike. Printed: the median environment steps per second of whole iterations per way,
the ratio of each way's median to the driver's, and, for ``overlap``, the share of an
iteration the learner spent waiting for the runner's sample (``OverlappedPPO``'s timer
``WAITED_FOR_SAMPLES``).

    python benchmarks/bench_overlap.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass

from random_play import positive_int

from zoo_games.catalog import find_variant, labels

try:
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS,
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        TIMERS,
    )

    from zoo_games.rllib.overlapped_ppo import WAITED_FOR_SAMPLES
    from zoo_games.rllib.train import TrainSettings, ppo_config
    from zoo_games.training.cluster import start_ray
    from zoo_games.training.heap import startup_objects_frozen
    from zoo_games.training.threads import training_threads
except ImportError as missing:
    sys.exit(
        f'bench_overlap.py needs the rllib extra ({missing}): pip install -e ".[rllib,batched]"'
    )

VARIANTS = ("senet-kendall-5", "togyz-kumalak", "santorini-fixed")
#: Each way of sampling: (remote runners, overlap).
WAYS = {"driver": (0, False), "remote": (1, False), "overlap": (1, True)}


@dataclass
class Timing:
    """Whole iterations of one way: their steps per second, and the learner's wait."""

    rate: float
    waiting_share: float


def measure(settings: TrainSettings, warmup: int, iterations: int) -> Timing:
    """Time ``iterations`` training iterations after ``warmup`` of them."""
    algo = ppo_config(settings).build_algo()
    try:
        for _ in range(warmup):
            result = algo.train()
        before = result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
        waited = 0.0
        with startup_objects_frozen():  # as zoo-games train's loop keeps them
            start = time.perf_counter()
            for _ in range(iterations):
                result = algo.train()
                waited += result.get(TIMERS, {}).get(WAITED_FOR_SAMPLES, 0.0)
            seconds = time.perf_counter() - start
        steps = result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME] - before
    finally:
        algo.stop()
    return Timing(steps / seconds, waited / seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=labels())
    parser.add_argument("--runs", type=positive_int, default=3, help="measurements per way")
    parser.add_argument("--warmup", type=positive_int, default=3, help="untimed iterations")
    parser.add_argument("--iterations", type=positive_int, default=20, help="timed per run")
    parser.add_argument("--train-batch-size", type=positive_int, help="steps per iteration")
    parser.add_argument("--minibatch-size", type=positive_int)
    args = parser.parse_args(argv)
    for label in args.variants:
        find_variant(label)
    sizes = {
        name: value
        for name, value in (
            ("train_batch_size", args.train_batch_size),
            ("minibatch_size", args.minibatch_size),
        )
        if value is not None
    }
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    start_ray(None)
    print(f"{'variant':<17} {'way':<8} {'steps/s':>9} {'ratio':>7} {'waiting':>8}  runs")
    for label in args.variants:
        timings: dict[str, list[Timing]] = {way: [] for way in WAYS}
        for _ in range(args.runs):
            for way, (env_runners, overlap) in WAYS.items():
                settings = TrainSettings(
                    variant=label,
                    engine="batched",
                    env_runners=env_runners,
                    overlap=overlap,
                    **sizes,
                )
                with training_threads():  # as zoo-games train runs
                    timings[way].append(measure(settings, args.warmup, args.iterations))
        reference = statistics.median(timing.rate for timing in timings["driver"])
        for way, measured in timings.items():
            rate = statistics.median(timing.rate for timing in measured)
            waiting = statistics.median(timing.waiting_share for timing in measured)
            runs = " ".join(f"{timing.rate:,.0f}" for timing in measured)
            shown = f"{waiting:>8.1%}" if way == "overlap" else f"{'':>8}"
            print(f"{label:<17} {way:<8} {rate:>9,.0f} {rate / reference:>6.2f}x {shown}  {runs}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
