"""What the benchmark scripts share: random legal play timed, round-robin rounds, arguments.

Every ``*_rate`` function plays uniformly random legal moves for at least ``seconds`` and
returns decisions per second (a decision is a move chosen by a player; chance outcomes such as
dice and throws are drawn from their probabilities but not counted). :func:`round_robin` runs
a set of such measurements interleaved over several rounds, so that a noisy neighbour on a
shared machine slows every contender alike, and :func:`medians` reduces the samples.
:func:`decision_positions` gives the positions the search benchmarks play from.

The scripts import this module by name (``python benchmarks/bench_*.py`` puts this folder on
``sys.path``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from zoo_games.catalog import find_variant
from zoo_games.core.game import GameState

#: What a measurement returns: decisions per second (for the engine, also per CPU second).
Sample = TypeVar("Sample")


def env_rate(make_env: Callable[[], Any], seconds: float, seed: int) -> float:
    """Whole random games (:func:`play_random_game`) of a PettingZoo AEC environment."""
    env = make_env()
    rng = random.Random(seed)
    decisions = 0
    game = 0
    start = time.perf_counter()
    while True:
        decisions += play_random_game(env, seed * 100_003 + game, rng)
        game += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def play_random_game(env: Any, seed: int, rng: random.Random) -> int:
    """One game after ``env.reset(seed=seed)``, the same loop for every environment.

    ``agent_iter``, ``last()``, a uniformly random legal action from the mask, ``step()``.
    Returns the number of decisions.
    """
    env.reset(seed=seed)
    decisions = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        decisions += 1
    return decisions


def rules_core_rate(game: Any, seconds: float, seed: int) -> float:
    """Whole random games of one of our rules cores (``zoo_games.core.game.Game``).

    ``new_initial_state()``, then ``legal_actions()`` and ``apply_action`` until the end;
    chance outcomes drawn by their probabilities from ``chance_outcomes()``.
    """
    return _state_api_rate(game, seconds, seed, observe=False)


def openspiel_rate(name: str, seconds: float, seed: int, observe: bool = False) -> float | None:
    """Whole random games of an OpenSpiel game through ``pyspiel``; ``None`` without it.

    The same loop as :func:`rules_core_rate` (OpenSpiel's API has the same names); with
    ``observe``, ``state.observation_tensor()`` of the player to move before each decision,
    what a learning agent would read.
    """
    try:
        import pyspiel
    except ImportError:
        return None
    return _state_api_rate(pyspiel.load_game(name), seconds, seed, observe)


def _state_api_rate(game: Any, seconds: float, seed: int, observe: bool) -> float:
    """Decisions per second of whole random games through the state API that our rules
    cores and OpenSpiel share, repeated until ``seconds`` have passed."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_draw(state.chance_outcomes(), rng))
                continue
            if observe:
                state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def engine_rate(engine: Any, seconds: float) -> tuple[float, float]:
    """Random play with a ``zoo_games.batched`` engine, decisions = games x steps.

    ``engine.sample_legal_actions()`` then ``engine.step(actions)`` (which also writes every
    game's mask and observation). Returns the rate per wall-clock second and per CPU second
    of this process (all threads): on a shared machine the second is less disturbed.
    """
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        for _ in range(8):
            engine.step(engine.sample_legal_actions())
        steps += 8
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            cpu = max(time.process_time() - cpu_start, 1e-9)
            return steps * engine.batch_size / elapsed, steps * engine.batch_size / cpu


def _draw(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn by its probability."""
    actions, probabilities = zip(*outcomes, strict=True)
    return rng.choices(actions, probabilities)[0]


def decision_positions(label: str, count: int, seed: int) -> list[GameState]:
    """``count`` decision nodes met along seeded random games of ``label`` (throws drawn)."""
    game = find_variant(label).game
    rng = np.random.default_rng(seed)
    positions: list[GameState] = []
    state = game.new_initial_state()
    while len(positions) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            positions.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return positions


def round_robin(
    measurements: dict[str, Callable[[int], Sample | None]], runs: int
) -> dict[str, list[Sample]]:
    """Each measurement once per round (called with the round number, its seed), in order,
    for ``runs`` rounds; a measurement that returns ``None`` (a missing library) is dropped.
    """
    samples: dict[str, list[Sample]] = {name: [] for name in measurements}
    for run in range(runs):
        for name, measure in measurements.items():
            value = measure(run)
            if value is not None:
                samples[name].append(value)
        print(f"round {run + 1}/{runs} done", file=sys.stderr, flush=True)
    return samples


def medians(samples: dict[str, list[float]]) -> dict[str, float]:
    """The median of each non-empty list of samples."""
    return {name: statistics.median(values) for name, values in samples.items() if values}


def positive_int(text: str) -> int:
    """An ``argparse`` type: an integer >= 1, with an error that says so."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def positive_float(text: str) -> float:
    """An ``argparse`` type: a finite number > 0, with an error that says so."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text}")
    return value
