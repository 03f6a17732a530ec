"""scripts/value_by_phase.py: its statistics worked out by hand, its games, and its refusals."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "value_by_phase.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("value_by_phase", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_correlation_of_hand_made_columns(script: ModuleType) -> None:
    rising = np.array([-1.0, 0.0, 1.0])
    assert script.correlation(rising, np.array([-1.0, 1.0, 3.0])) == pytest.approx(1.0)
    assert script.correlation(rising, -rising) == pytest.approx(-1.0)
    # A column that never changes foresees nothing: 0, not numpy's nan.
    assert script.correlation(np.zeros(3), rising) == 0.0
    assert script.correlation(np.array([0.5]), np.array([1.0])) == 0.0


def test_table_by_quarter_worked_by_hand(script: ModuleType) -> None:
    # Two decisions in each of the first and last quarters, none in the middle ones.
    decisions = script.Decisions(
        phase=np.array([0.0, 0.2, 0.8, 0.9]),
        value=np.array([0.5, -0.5, 1.0, 0.0]),
        evaluation=np.array([0.1, 0.1, 0.3, -0.3]),
        result=np.array([1.0, -1.0, 1.0, -1.0]),
    )
    first, second, third, last = script.table(decisions)
    assert first["decisions"] == 2 and second["decisions"] == third["decisions"] == 0
    assert first["value_correlation"] == pytest.approx(1.0)
    assert first["evaluation_correlation"] == 0.0  # the same evaluation before both results
    # Squared errors: (0.5 - 1)^2 and (-0.5 + 1)^2 average 0.25; (1 - 1)^2 and (0 + 1)^2, 0.5.
    assert first["value_error"] == pytest.approx(0.25)
    assert last["value_error"] == pytest.approx(0.5)
    assert first["draw_error"] == last["draw_error"] == 1.0
    assert last["evaluation_correlation"] == pytest.approx(1.0)
    assert second["value_error"] == second["draw_error"] == 0.0


def test_games_of_the_baseline_are_seeded_and_well_formed(script: ModuleType) -> None:
    from zoo_games.catalog import find_variant

    variant = find_variant("togyz-kumalak-captures")
    network = script.network_of(variant, None)
    first = script.play(variant, network, games=2, seed=5, argmax=False)
    again = script.play(variant, network, games=2, seed=5, argmax=False)
    for column in ("phase", "value", "evaluation", "result"):
        np.testing.assert_array_equal(getattr(first, column), getattr(again, column))
    assert np.all((first.phase >= 0) & (first.phase < 1))
    assert set(np.unique(first.result)) <= {-1.0, 0.0, 1.0}
    assert np.all(np.abs(first.value) <= 1) and np.all(np.abs(first.evaluation) <= 1)
    # Each game starts at phase 0 with an undecided position: two games, two zeros.
    assert np.count_nonzero(first.phase == 0) == 2


def test_prints_one_line_per_quarter(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.main(["togyz-kumalak-captures", "--games", "1", "--argmax"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("togyz-kumalak-captures: 1 games, ")
    quarters = [line.split()[0] for line in lines[2:]]
    assert quarters == ["0.00-0.25", "0.25-0.50", "0.50-0.75", "0.75-1.00"]


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["no-such-game"], "unknown variant 'no-such-game'"),
        (["togyz-kumalak"], "no alphazero baseline ships for 'togyz-kumalak'"),
        (["togyz-kumalak", "--checkpoint", "/no/such/run"], "does not exist"),
    ],
)
def test_mistakes_are_one_line(
    script: ModuleType, capsys: pytest.CaptureFixture[str], arguments: list[str], says: str
) -> None:
    assert script.main(arguments) == 2
    error = capsys.readouterr().err
    assert says in error and error.count("\n") == 1 and "Traceback" not in error


def test_games_must_be_positive(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(["togyz-kumalak-captures", "--games", "0"])
    assert stop.value.code == 2
    assert "--games must be at least 1, got 0" in capsys.readouterr().err
