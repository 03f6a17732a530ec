"""The loop both trainers run: iterate until the budget is spent, evaluating and checkpointing.

PPO (:mod:`zoo_games.rllib.train`) and AlphaZero (:mod:`zoo_games.alphazero.train`) differ in
what an iteration does, how a policy is evaluated and what a checkpoint holds, and in nothing
else of their schedule: an evaluation before the first iteration (so that a learning curve
has its start), one every ``eval_every`` iterations followed by a checkpoint, and a final
evaluation with the last checkpoint. Both give those three steps to :func:`train_iterations`,
so that the schedule, the metrics rows and when a resumed run stops are the same for both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from zoo_games.arena.results import PairingResult
from zoo_games.training.budget import Budget
from zoo_games.training.checkpoints import iterations_done
from zoo_games.training.evaluation import evaluation_seed, record_finals, win_rate_column
from zoo_games.training.heap import startup_objects_frozen

#: A metrics row: column name to value.
Row = dict[str, Any]


@dataclass(frozen=True)
class Schedule:
    """When a run stops and evaluates: its budget and its evaluation settings.

    ``eval_every``: iterations between evaluations (0: none before the final one); ``seed``:
    the run's seed, from which each evaluation's games are seeded (:func:`evaluation_seed`).
    """

    budget: Budget
    eval_every: int
    eval_games: int
    final_eval_games: int
    seed: int


@dataclass(frozen=True)
class Steps:
    """What one algorithm does at each step of the loop.

    ``iterate(spent)``: train one iteration, given the share of the budget spent before it
    (AlphaZero sets its learning rate from it), and return its figures for the metrics row;
    ``evaluate(games, seed)``: the current policy against each opponent, ``games`` each, in
    the arena with ``seed``;
    ``save(rows)``: write the checkpoint with the metrics rows so far, then the run's outputs.
    """

    iterate: Callable[[float], Row]
    evaluate: Callable[[int, int], Mapping[str, PairingResult]]
    save: Callable[[list[Row]], None]


def train_iterations(
    steps: Steps,
    schedule: Schedule,
    rows: list[Row],
    progress: Callable[[str], None],
    progress_line: Callable[[Row], str],
) -> Mapping[str, PairingResult]:
    """Train on from ``rows`` (the metrics of the iterations done) until the budget is spent.

    Appends a row per iteration (``iteration``, ``minutes`` counted across resumes, the
    iteration's figures, and the win rates at evaluations), reports each with
    ``progress_line``, and returns the final evaluation, which is also written into the last
    row and the last checkpoint. Everything made before the loop (the algorithm, Ray, torch)
    stays out of the garbage collector's passes while it runs (:mod:`~zoo_games.training.heap`).
    """
    with startup_objects_frozen():
        iteration = iterations_done(rows)
        elapsed_before = float(rows[-1]["minutes"]) if rows else 0.0
        start = time.perf_counter()

        def minutes() -> float:
            return elapsed_before + (time.perf_counter() - start) / 60

        if not rows and schedule.eval_every:
            rows.append(_evaluated({"iteration": 0, "minutes": 0.0}, steps, schedule))
            progress(progress_line(rows[-1]))
        while True:
            spent = schedule.budget.share_spent(iteration, minutes())
            if spent >= 1:
                break
            figures = steps.iterate(spent)
            iteration += 1
            row = {"iteration": iteration, "minutes": round(minutes(), 3), **figures}
            evaluating = schedule.eval_every > 0 and iteration % schedule.eval_every == 0
            if evaluating:
                row = _evaluated(row, steps, schedule)
            rows.append(row)
            progress(progress_line(row))
            if evaluating:
                steps.save(rows)
        finals = steps.evaluate(schedule.final_eval_games, evaluation_seed(schedule.seed, None))
        record_finals(rows, finals, schedule.final_eval_games, progress)
        steps.save(rows)
        return finals


def _evaluated(row: Row, steps: Steps, schedule: Schedule) -> Row:
    """``row`` with the current policy's win rate against each opponent."""
    games = schedule.eval_games
    results = steps.evaluate(games, evaluation_seed(schedule.seed, row["iteration"]))
    win_rates = {win_rate_column(name): round(r.win_rate, 4) for name, r in results.items()}
    return {**row, **win_rates, "eval_games": games}
