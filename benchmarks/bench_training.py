"""Environment steps per second of whole PPO training iterations: batched engine vs environment.

For each variant, PPO is built twice with the same settings (``zoo_games.rllib.train``'s
defaults unless given here), once sampling through the PettingZoo environment
(``engine="env"``) and once through the batched engine (``engine="batched"``), both by
self-play alone unless ``--greedy-share`` gives the batched path a share of games against
greedy (which the environment path cannot play). They run in the same process one after the
other, on one local sampling runner (``env_runners=0``, so that its parts can be timed; the
overlap of sampling with the update that ``zoo-games train`` does by default on the batched
engine is measured by ``bench_overlap.py``) and torch's threads of ``zoo-games train``.
After one warm-up iteration (numba loading its cache, first forward passes),
``--iterations`` whole iterations (sampling and learning) are timed, with the objects made
before them kept out of the garbage collector's passes, as ``zoo-games train``'s loop keeps
them (``zoo_games.training.heap``; ``--unfrozen`` times them
without, to see what that saves).

Printed per variant and engine: environment steps per second of whole iterations, of sampling
alone (the runner's ``sample`` calls inside those iterations), and where the iterations' time
went:

* ``env/kernels``: stepping the games (the environment's ``step``; the engine's step with the
  batched path's rewards and final observations, ``SelfPlayGames.step``);
* ``forward``: the module's forward passes and action sampling on the runner;
* ``connectors``: the environment path's env-to-module and module-to-env pipelines (the
  batched path runs none);
* ``episodes``: the batched path's episode building (``EpisodeBuilder.build``); on the
  environment path the rest of sampling (``add_env_step`` and the loop);
* ``sampling other``: the rest of sampling;
* ``learner connector``: turning episodes into the train batch (with PPO's value pass);
* ``learner update``: the rest of the learner's update (the SGD epochs);
* ``other``: weight synchronisation and metrics.

and, on a line of its own, the collector's full passes (over every tracked object, its oldest
generation) during those iterations, which fall inside the parts above: how many, and their
milliseconds per iteration. ``--engines batched`` times the batched path alone (for long runs
of it; the ratios need both).

After the timed iterations, one evaluation as ``zoo-games train`` runs them (the policy against
each of its default opponents, ``eval_games`` games each, through the arena) is timed too, and
printed with the share of a run's time that evaluations take at the path's default
``eval_every``: an evaluation every ``eval_every`` iterations of the speed just measured.

    python benchmarks/bench_training.py --iterations 3
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from random_play import positive_int

from zoo_games.catalog import find_variant, labels

try:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from zoo_games.rllib.train import EPOCHS, EVAL_EVERY, TrainSettings, evaluate, ppo_config
    from zoo_games.training.cluster import start_ray
    from zoo_games.training.heap import startup_objects_frozen
    from zoo_games.training.threads import training_threads
except ImportError as missing:
    sys.exit(
        f'bench_training.py needs the rllib extra ({missing}): pip install -e ".[rllib,batched]"'
    )

VARIANTS = ("senet-kendall-5", "togyz-kumalak", "santorini-fixed")
ENGINES = ("env", "batched")
PARTS = (
    "env/kernels",
    "forward",
    "connectors",
    "episodes",
    "sampling other",
    "learner connector",
    "learner update",
    "other",
)


@dataclass
class Clock:
    """Seconds spent in named calls, summed."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function``, its time added to ``name`` on every call."""

        def timed_call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] += time.perf_counter() - start

        return timed_call


@dataclass
class FullPasses:
    """The garbage collector's passes over its oldest generation (every tracked object)."""

    count: int = 0
    seconds: float = 0.0

    @contextmanager
    def watched(self) -> Iterator[None]:
        """Count and time the full passes made while the block runs."""
        started = [0.0]

        def note(phase: str, info: dict[str, int]) -> None:
            if info["generation"] != 2:
                return
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                self.count += 1
                self.seconds += time.perf_counter() - started[0]

        gc.callbacks.append(note)
        try:
            yield
        finally:
            gc.callbacks.remove(note)


class TimedPipeline:
    """A connector pipeline whose calls are timed (its other attributes pass through)."""

    def __init__(self, pipeline: Any, clock: Clock, name: str) -> None:
        self._pipeline = pipeline
        self._call = clock.timed(name, pipeline)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pipeline, name)


@dataclass
class Measurement:
    """Whole iterations of one variant on one engine."""

    steps: int
    seconds: float
    parts: dict[str, float]
    full_passes: FullPasses
    #: One evaluation of the policy after the timed iterations.
    evaluation_seconds: float

    @property
    def rate(self) -> float:
        return self.steps / self.seconds

    @property
    def sampling_rate(self) -> float:
        sampling = sum(self.parts[name] for name in PARTS[:5])
        return self.steps / sampling


def instrument(algo: Any, engine: str, clock: Clock) -> None:
    """Wrap the calls whose time is reported (on the local runner and the local learner)."""
    runner = algo.env_runner
    runner.sample = clock.timed("sample", runner.sample)
    if engine == "batched":
        runner.games.step = clock.timed("env/kernels", runner.games.step)
        runner._decide = clock.timed("forward", runner._decide)
        runner._builder.build = clock.timed("episodes", runner._builder.build)
    else:
        runner.env.step = clock.timed("env/kernels", runner.env.step)
        runner.module.forward_exploration = clock.timed(
            "forward", runner.module.forward_exploration
        )
        runner._env_to_module = TimedPipeline(runner._env_to_module, clock, "connectors")
        runner._module_to_env = TimedPipeline(runner._module_to_env, clock, "connectors")
    algo.learner_group.update = clock.timed("update", algo.learner_group.update)
    learner = algo.learner_group._learner
    learner._learner_connector = TimedPipeline(
        learner._learner_connector, clock, "learner connector"
    )


def measure(settings: TrainSettings, iterations: int, frozen: bool = True) -> Measurement:
    """Time ``iterations`` whole training iterations after one warm-up iteration."""
    algo = ppo_config(settings).build_algo()
    full_passes = FullPasses()
    try:
        clock = Clock()
        instrument(algo, str(settings.engine), clock)
        result = algo.train()
        clock.seconds.clear()
        before = result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
        with startup_objects_frozen() if frozen else nullcontext(), full_passes.watched():
            start = time.perf_counter()
            for _ in range(iterations):
                result = algo.train()
            seconds = time.perf_counter() - start
        steps = int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME] - before)
        start = time.perf_counter()
        evaluate(algo, settings, settings.eval_games, seed=0)
        evaluation_seconds = time.perf_counter() - start
    finally:
        algo.stop()
    spent = clock.seconds
    parts = {name: spent.get(name, 0.0) for name in PARTS}
    sampled = parts["env/kernels"] + parts["forward"] + parts["connectors"]
    if settings.engine == "batched":
        parts["sampling other"] = spent["sample"] - sampled - parts["episodes"]
    else:
        parts["episodes"] = spent["sample"] - sampled
    parts["learner update"] = spent["update"] - parts["learner connector"]
    parts["other"] = seconds - spent["sample"] - spent["update"]
    return Measurement(steps, seconds, parts, full_passes, evaluation_seconds)


def main(argv: list[str] | None = None) -> None:
    defaults = TrainSettings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=labels())
    parser.add_argument("--iterations", type=positive_int, default=3, help="timed per run")
    parser.add_argument(
        "--engines", nargs="+", default=list(ENGINES), choices=ENGINES, help="paths to time"
    )
    parser.add_argument(
        "--unfrozen",
        action="store_true",
        help="leave the objects made before the timed iterations in the collector's passes",
    )
    parser.add_argument("--train-batch-size", type=positive_int, default=defaults.train_batch_size)
    parser.add_argument("--minibatch-size", type=positive_int, default=defaults.minibatch_size)
    parser.add_argument("--epochs", type=positive_int, default=EPOCHS)
    parser.add_argument(
        "--hidden", type=positive_int, nargs="+", default=defaults.hidden, help="layer widths"
    )
    parser.add_argument("--games", type=positive_int, help="batched: games per runner")
    parser.add_argument(
        "--eval-games",
        type=positive_int,
        default=defaults.eval_games,
        help="games per opponent of the timed evaluation",
    )
    parser.add_argument("--envs", type=positive_int, help="environment: environments per runner")
    parser.add_argument(
        "--greedy-share",
        type=float,
        default=0.0,
        help="batched: share of the games greedy plays a seat in (default 0: self-play on both "
        "paths, the same work per step)",
    )
    args = parser.parse_args(argv)
    for label in args.variants:
        find_variant(label)
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    start_ray(None)
    header = f"{'variant':<17} {'engine':<8} {'steps/s':>9} {'sampling':>10}"
    print(header + "".join(f" {name:>17}" for name in PARTS))
    for label in args.variants:
        rates: dict[str, Measurement] = {}
        for engine in (engine for engine in ENGINES if engine in args.engines):
            settings = TrainSettings(
                variant=label,
                engine=engine,
                env_runners=0,  # the runner on the driver, whose calls are timed part by part
                envs_per_env_runner=args.games if engine == "batched" else args.envs,
                train_batch_size=args.train_batch_size,
                minibatch_size=args.minibatch_size,
                epochs=args.epochs,
                hidden=list(args.hidden),
                greedy_share=args.greedy_share if engine == "batched" else 0.0,
                eval_games=args.eval_games,
            )
            with training_threads():  # as zoo-games train runs
                result = rates[engine] = measure(settings, args.iterations, not args.unfrozen)
            shares = "".join(f" {result.parts[name] / result.seconds:>16.1%} " for name in PARTS)
            print(
                f"{label:<17} {engine:<8} {result.rate:>9,.0f} {result.sampling_rate:>10,.0f}"
                + shares
            )
            passes = result.full_passes
            print(
                f"{label:<17} {engine:<8} collector's full passes: {passes.count}, "
                f"{passes.seconds / args.iterations * 1000:.2f} ms per iteration "
                f"({passes.seconds / result.seconds:.1%})"
            )
            every = EVAL_EVERY[engine]
            evaluations = result.evaluation_seconds
            share = evaluations / (evaluations + every * result.seconds / args.iterations)
            print(
                f"{label:<17} {engine:<8} an evaluation ({settings.eval_games} games per "
                f"opponent): {evaluations:.2f} s, {share:.1%} of a run's time at one every "
                f"{every} iterations"
            )
        if len(rates) < len(ENGINES):
            continue
        whole = rates["batched"].rate / rates["env"].rate
        sampling = rates["batched"].sampling_rate / rates["env"].sampling_rate
        print(f"{label:<17} batched/env: whole iterations {whole:.1f}x, sampling {sampling:.1f}x")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
