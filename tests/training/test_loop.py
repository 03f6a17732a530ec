"""The training loop both trainers share: its schedule of iterations, evaluations and saves."""

from __future__ import annotations

import gc
from types import SimpleNamespace
from typing import Any

import pytest

from zoo_games.arena.results import PairingResult
from zoo_games.training import loop
from zoo_games.training.budget import Budget
from zoo_games.training.evaluation import evaluation_seed
from zoo_games.training.loop import Schedule, Steps, train_iterations


def result(wins: int, games: int) -> PairingResult:
    score = wins / games
    return PairingResult(
        "trained",
        "random",
        games,
        wins,
        0,
        games - wins,
        games // 2,
        score,
        score,
        score,
        10,
        1,
        1,
        games,
    )


class Recorder:
    """Steps that record what the loop asked of them, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.seeds: list[int] = []

    def iterate(self, spent: float) -> dict[str, Any]:
        self.calls.append(("iterate", spent))
        return {"loss": 0.5}

    def evaluate(self, games: int, seed: int) -> dict[str, PairingResult]:
        self.calls.append(("evaluate", games))
        self.seeds.append(seed)
        return {"random": result(games // 2 + 1, games)}

    def save(self, rows: list[dict[str, Any]]) -> None:
        self.calls.append(("save", [row["iteration"] for row in rows]))

    def steps(self) -> Steps:
        return Steps(self.iterate, self.evaluate, self.save)


def run(recorder: Recorder, rows: list[dict[str, Any]], iterations: int, eval_every: int) -> Any:
    schedule = Schedule(
        Budget(iterations, 60.0), eval_every, eval_games=4, final_eval_games=8, seed=7
    )
    lines: list[str] = []
    finals = train_iterations(recorder.steps(), schedule, rows, lines.append, str)
    return finals, lines


def test_a_run_is_evaluated_first_every_few_iterations_and_last():
    recorder, rows = Recorder(), []
    finals, _ = run(recorder, rows, iterations=4, eval_every=2)
    assert recorder.calls == [
        ("evaluate", 4),
        ("iterate", 0.0),
        ("iterate", 0.25),
        ("evaluate", 4),
        ("save", [0, 1, 2]),
        ("iterate", 0.5),
        ("iterate", 0.75),
        ("evaluate", 4),
        ("save", [0, 1, 2, 3, 4]),
        ("evaluate", 8),
        ("save", [0, 1, 2, 3, 4]),
    ]
    assert [row["iteration"] for row in rows] == [0, 1, 2, 3, 4]
    assert rows[0] == {"iteration": 0, "minutes": 0.0, "win_rate_vs_random": 0.75, "eval_games": 4}
    assert rows[1]["loss"] == 0.5 and "win_rate_vs_random" not in rows[1]
    assert rows[2]["win_rate_vs_random"] == 0.75
    assert rows[-1]["final_win_rate_vs_random"] == 0.625 and rows[-1]["final_eval_games"] == 8
    assert finals["random"].wins == 5


def test_no_evaluation_but_the_final_one_when_eval_every_is_0():
    recorder, rows = Recorder(), []
    run(recorder, rows, iterations=2, eval_every=0)
    assert recorder.calls == [
        ("iterate", 0.0),
        ("iterate", 0.5),
        ("evaluate", 8),
        ("save", [1, 2]),
    ]


def test_a_resumed_run_counts_on_from_its_rows():
    recorder = Recorder()
    rows: list[dict[str, Any]] = [
        {"iteration": 0, "minutes": 0.0},
        {"iteration": 3, "minutes": 2.5},
    ]
    _, lines = run(recorder, rows, iterations=5, eval_every=2)
    # No new start-of-run evaluation: the curve has its start already.
    assert recorder.calls[:3] == [("iterate", 0.6), ("evaluate", 4), ("save", [0, 3, 4])]
    assert [row["iteration"] for row in rows] == [0, 3, 4, 5]
    assert all(row["minutes"] >= 2.5 for row in rows[2:])  # minutes count across resumes
    assert len(lines) == 2 + 1  # a line per iteration, and the final result in words


def test_every_evaluation_plays_games_of_its_own_seed_and_a_resume_the_same_ones():
    """Evaluations that replayed one seed would share its games' luck all along the curve."""
    unbroken = Recorder()
    run(unbroken, [], iterations=6, eval_every=2)
    assert unbroken.seeds == [
        evaluation_seed(7, 0),
        evaluation_seed(7, 2),
        evaluation_seed(7, 4),
        evaluation_seed(7, 6),
        evaluation_seed(7, None),
    ]
    assert len(set(unbroken.seeds)) == len(unbroken.seeds)
    first, resumed = Recorder(), Recorder()
    rows: list[dict[str, Any]] = []
    run(first, rows, iterations=3, eval_every=2)  # evaluates after 0 and 2, then its final
    del rows[-1]  # as a kill after the checkpoint of iteration 2 leaves them
    run(resumed, rows, iterations=6, eval_every=2)
    assert first.seeds[:2] + resumed.seeds == unbroken.seeds


def test_evaluation_seeds_depend_on_the_run_seed_and_fit_the_arena():
    seeds = {evaluation_seed(run_seed, it) for run_seed in (0, 1) for it in (0, 50, None)}
    assert len(seeds) == 6
    assert all(isinstance(seed, int) and 0 <= seed < 2**32 for seed in seeds)
    assert evaluation_seed(3, 50) == evaluation_seed(3, 50)


def test_a_spent_budget_trains_nothing_but_still_ends_with_the_final_evaluation():
    recorder = Recorder()
    rows: list[dict[str, Any]] = [{"iteration": 2, "minutes": 1.0}]
    run(recorder, rows, iterations=2, eval_every=1)
    assert recorder.calls == [("evaluate", 8), ("save", [2])]


def test_a_budget_of_minutes_is_spent_by_the_clock(monkeypatch):
    recorder = Recorder()
    clock = iter(range(100))
    seconds = SimpleNamespace(perf_counter=lambda: 15.0 * next(clock))
    monkeypatch.setattr(loop, "time", seconds)
    rows: list[dict[str, Any]] = [{"iteration": 1, "minutes": 0.25}]
    schedule = Schedule(Budget(None, minutes=1.5), 0, eval_games=2, final_eval_games=2, seed=0)
    train_iterations(recorder.steps(), schedule, rows, lambda line: None, str)
    # A quarter of a minute trained before the resume, a quarter more per look at the clock.
    spent = [call[1] for call in recorder.calls if call[0] == "iterate"]
    assert spent == pytest.approx([0.5 / 1.5, 1.0 / 1.5])
    assert [row["minutes"] for row in rows] == [0.25, 0.75, 1.25]


def test_iterations_run_with_the_objects_made_before_the_loop_frozen():
    """They are out of the collector's passes during the loop, and back in them after it."""
    made_before = Recorder()  # an object the collector tracks

    def tracked() -> bool:
        return any(thing is made_before for thing in gc.get_objects())

    frozen_during: list[bool] = []

    class Watching(Recorder):
        def iterate(self, spent: float) -> dict[str, Any]:
            frozen_during.append(gc.get_freeze_count() > 0 and not tracked())
            return super().iterate(spent)

    assert gc.get_freeze_count() == 0
    run(Watching(), [], iterations=2, eval_every=0)
    assert frozen_during == [True, True]
    assert gc.get_freeze_count() == 0
    assert tracked()
