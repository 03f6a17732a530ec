"""The benchmark scripts run, in tiny settings, so that they cannot rot.

No timing is checked: only that each script runs as documented, prints its table, writes its
plot, skips missing optional libraries with one line, and rejects bad arguments with a clear
message instead of a traceback.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).parents[1]
BENCHMARKS = ROOT / "benchmarks"


def has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )


def assert_refused(script: str, *args: str, says: str) -> None:
    """``script`` given ``args`` exits with argparse's status 2, saying ``says``, no traceback."""
    result = run(script, *args)
    assert result.returncode == 2
    assert says in result.stderr
    assert "Traceback" not in result.stderr


def test_bench_field_prints_every_contender_and_writes_the_plot(tmp_path: Path) -> None:
    plot = tmp_path / "field.png"
    result = run(
        "bench_field.py",
        *("--runs", "1", "--seconds", "0.02", "--only", "togyz-kumalak-full"),
        *("--without", "pgx", "--engine-batch", "8", "--plot", str(plot)),
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "skipped: pgx (--without)" in out
    for name in ("env()", "raw_env()", "rules core"):
        assert f"togyz-kumalak-full {name}" in out
    assert "senet" not in out
    expected = {
        "numba": ["togyz-kumalak-full batched b=8"],
        "pygame": ["PettingZoo connect_four_v3 env()"],
        "pyspiel": [
            "OpenSpiel mancala ",
            "OpenSpiel mancala + observation_tensor",
            "OpenSpiel backgammon ",
            "OpenSpiel backgammon + observation_tensor",
        ],
    }
    for module, names in expected.items():
        for name in names:
            assert (name in out) == has(module), (module, name)
        assert (f"skipped: {'open_spiel' if module == 'pyspiel' else module}" in out) != has(module)
    assert "load average before" in out and "load average after" in out
    assert "Traceback" not in result.stderr
    with Image.open(plot) as image:
        assert image.format == "PNG" and image.width == 900


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--runs", "0"], "--runs: expected a whole number >= 1, got 0"),
        (["--seconds", "soon"], "--seconds: expected a number > 0, got 'soon'"),
        (["--seconds", "-1"], "--seconds: expected a finite number > 0, got -1"),
        (["--engine-batch", "2.5"], "--engine-batch: expected a whole number >= 1, got '2.5'"),
        (["--pgx-batch-sizes", "0"], "--pgx-batch-sizes: expected a whole number >= 1, got 0"),
        (["--only", "chess"], "--only 'chess' matches no variant; variants: senet-kendall-5"),
        (["--without", "torch"], "--without: invalid choice: 'torch'"),
        (["--plot", "field.svg"], "the chart is a PNG, give a path ending in .png"),
    ],
)
def test_bench_field_rejects_bad_arguments_clearly(args: list[str], message: str) -> None:
    assert_refused("bench_field.py", *args, says=message)


PGX_CHECK = """
import sys
sys.path.insert(0, sys.argv[1])
import bench_field

player = bench_field.PgxRandomPlay("connect_four", batch_size=4)
assert player.compile_seconds > 0
before = player._state.observation.copy()
assert player.rate(0.01) > 0
assert (player._state.observation != before).any()
# Random legal play with automatic reset: no game is ever left finished or without a move.
assert not player._state.terminated.any()
assert player._state.legal_action_mask.any(axis=1).all()
print("ok")
"""


def test_pgx_random_play_steps_every_game() -> None:
    # In a child process: JAX starts threads, and this process forks for later tests.
    if not (has("pgx") and has("jax")):
        pytest.skip("pgx and jax are not installed")
    result = subprocess.run(
        [sys.executable, "-c", PGX_CHECK, str(BENCHMARKS)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_bench_envs_runs() -> None:
    pytest.importorskip("pygame")  # connect_four_v3, the reference, draws with it
    result = run("bench_envs.py", "--runs", "1", "--seconds", "0.02", "--only", "santorini-fixed")
    assert result.returncode == 0, result.stderr
    assert "santorini-fixed env()" in result.stdout
    assert "connect_four_v3 env()" in result.stdout


def test_bench_batched_runs(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    plot = tmp_path / "scaling.png"
    result = run(
        "bench_batched.py",
        *("--runs", "1", "--seconds", "0.02", "--only", "togyz-kumalak-full"),
        *("--batch-sizes", "1", "4", "--skip-compile", "--plot", str(plot)),
    )
    assert result.returncode == 0, result.stderr
    assert "togyz-kumalak-full" in result.stdout
    assert plot.exists()


def test_a_partial_bench_batched_run_leaves_the_docs_plot_alone(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    docs_plot = Path(__file__).parents[1] / "docs" / "results" / "batched-scaling.png"
    before = docs_plot.read_bytes()
    result = run(
        "bench_batched.py",
        *("--runs", "1", "--seconds", "0.02", "--only", "togyz-kumalak-full"),
        *("--batch-sizes", "4", "--skip-compile"),
    )
    assert result.returncode == 0, result.stderr
    assert "plot: none for a partial run (--plot PATH draws one)" in result.stdout
    assert docs_plot.read_bytes() == before


def test_bench_search_runs_both_searches() -> None:
    pytest.importorskip("numba")
    result = run(
        "bench_search.py",
        *("--variants", "togyz-kumalak", "--simulations", "20", "--positions", "1"),
        *("--runs", "1", "--skip-compile", "--batch", "4", "--batch-simulations", "4"),
    )
    assert result.returncode == 0, result.stderr
    assert "batched AlphaZero search, uniform evaluator, 4 games x 4 simulations" in result.stdout
    assert result.stdout.count("togyz-kumalak") == 2


def test_bench_threads_measures_each_layer_alone_and_beside_a_busy_process() -> None:
    pytest.importorskip("numba")
    result = run(
        "bench_threads.py",
        *("--label", "togyz-kumalak-full", "--batch-size", "2048", "--runs", "1"),
        *("--seconds", "0.01"),
    )
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()[2:]
    assert len(rows) == 2 * 3  # two machines, three layers
    assert any(row.startswith("as it is") and "workqueue" in row and "x" in row for row in rows)
    assert any(row.startswith("one busy neighbour") and "workqueue" in row for row in rows)
    assert_refused(
        "bench_threads.py", "--batch-size", "64", says="--batch-size must be at least 2048"
    )


def test_instructions_child_plays_and_parent_checks_names() -> None:
    # The part valgrind watches: seeded games, the decisions printed (valgrind itself is not
    # needed here; a counted run takes a minute).
    result = run("instructions.py", "--play", "togyz-kumalak", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("decisions ")
    assert result.stdout == run("instructions.py", "--play", "togyz-kumalak", "2").stdout
    assert_refused(
        "instructions.py",
        "chess",
        says="unknown environment 'chess'; known: connect_four_v3, senet-kendall-5",
    )
    assert_refused(
        "instructions.py",
        "--games",
        "0",
        "togyz-kumalak",
        says="--games: expected a whole number >= 1, got 0",
    )


def test_bench_serve_plays_games_at_once_and_checks_each() -> None:
    for module in ("starlette", "uvicorn", "httpx2"):
        pytest.importorskip(module)
    result = run(
        "bench_serve.py", "--games", "3", "--only", "togyz-kumalak", "--only", "santorini-fixed"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 games at once, 2 variants, ") and lines[0].endswith("all checked")
    assert " requests/s" in lines[1] and "95th percentile" in lines[2]
    assert_refused(
        "bench_serve.py",
        "--only",
        "chess",
        says="--only 'chess' is not a variant; variants: senet-kendall-5",
    )
    assert_refused(
        "bench_serve.py", "--games", "0", says="--games: expected a whole number >= 1, got '0'"
    )


def run_training_benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    """A training benchmark's run, which needs the batched and rllib extras; it must succeed."""
    for module in ("numba", "ray", "torch"):
        pytest.importorskip(module)
    result = run(*args)
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_bench_training_times_both_engines_and_says_where_the_time_goes() -> None:
    result = run_training_benchmark(
        "bench_training.py",
        *("--variants", "santorini-fixed", "--iterations", "1", "--train-batch-size", "64"),
        *("--minibatch-size", "32", "--epochs", "1", "--hidden", "8", "--games", "8"),
        *("--envs", "2", "--eval-games", "2"),
    )
    lines = result.stdout.splitlines()
    assert "env/kernels" in lines[1] and "learner update" in lines[1]
    rows = {
        line.split()[1]: line.split()
        for line in lines
        if line.startswith("santorini-fixed")
        and "collector's" not in line
        and "an evaluation" not in line
    }
    assert set(rows) == {"env", "batched", "batched/env:"}
    for engine in ("env", "batched"):
        # steps/s, sampling steps/s, then a share of the time per part
        assert len(rows[engine]) == 4 + 8 and all(v.endswith("%") for v in rows[engine][4:])
    assert "whole iterations" in " ".join(rows["batched/env:"])
    passes = [line.split()[1] for line in lines if "collector's full passes: " in line]
    assert passes == ["env", "batched"]
    evaluations = [line.split() for line in lines if "an evaluation (2 games per opponent)" in line]
    assert [line[1] for line in evaluations] == ["env", "batched"]
    assert "at one every 10 iterations" in " ".join(evaluations[0])
    assert "load average after" in lines[-1]


def test_bench_training_times_one_engine_alone_and_unfrozen() -> None:
    result = run_training_benchmark(
        "bench_training.py",
        *("--variants", "senet-kendall-5", "--iterations", "1", "--train-batch-size", "64"),
        *("--minibatch-size", "32", "--epochs", "1", "--hidden", "8", "--games", "8"),
        *("--engines", "batched", "--unfrozen", "--eval-games", "2"),
    )
    rows = [line.split()[:2] for line in result.stdout.splitlines() if line.startswith("senet")]
    assert rows == [["senet-kendall-5", "batched"]] * 3
    assert "ms per iteration" in result.stdout and "batched/env" not in result.stdout


def test_bench_overlap_times_the_three_ways_against_the_driver() -> None:
    result = run_training_benchmark(
        "bench_overlap.py",
        *("--variants", "senet-kendall-5", "--runs", "1", "--warmup", "1", "--iterations", "2"),
        *("--train-batch-size", "64", "--minibatch-size", "32"),
    )
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("senet")]
    assert [row[1] for row in rows] == ["driver", "remote", "overlap"]
    assert rows[0][3] == "1.00x" and all(row[3].endswith("x") for row in rows)
    assert rows[2][4].endswith("%")  # the learner's wait, overlapped alone
    assert "load average after" in result.stdout.splitlines()[-1]
    assert_refused(
        "bench_overlap.py", "--runs", "0", says="--runs: expected a whole number >= 1, got 0"
    )


def test_bench_training_rejects_bad_arguments_clearly() -> None:
    for module in ("ray", "torch"):
        pytest.importorskip(module)
    assert_refused(
        "bench_training.py",
        "--iterations",
        "0",
        says="--iterations: expected a whole number >= 1, got 0",
    )


def test_bench_alphazero_prints_the_speeds_of_the_parts() -> None:
    for module in ("numba", "torch"):
        pytest.importorskip(module)
    result = run(
        "bench_alphazero.py",
        *("--variant", "senet-kendall-5", "--seconds", "0.05", "--games", "8"),
        *("--simulations", "2", "--hidden", "8", "--batch-size", "16"),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith("senet-kendall-5")]
    names = ["network evaluations/s, numpy", "network evaluations/s, torch", "learner steps/s"]
    names += ["self-play positions/s, numpy", "self-play positions/s, torch", "learner positions/s"]
    assert len(rows) == len(names)
    for row, name in zip(rows, names, strict=True):
        assert name in row and float(row.split()[-1].replace(",", "")) > 0
    assert "load average after" in result.stdout.splitlines()[-1]


def test_bench_alphazero_rejects_bad_arguments_clearly() -> None:
    for module in ("numba", "torch"):
        pytest.importorskip(module)
    assert_refused(
        "bench_alphazero.py",
        "--simulations",
        "0",
        says="--simulations: expected a whole number >= 1, got 0",
    )


def test_bench_player_times_the_search_one_at_a_time_and_in_waves() -> None:
    pytest.importorskip("numba")
    result = run(
        "bench_player.py",
        *("--variants", "santorini-fixed", "togyz-kumalak", "--simulations", "4"),
        *("--positions", "2", "--runs", "1"),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith(("san", "tog"))]
    expected = [
        ("santorini-fixed", "one at a time"),
        ("santorini-fixed", "waves"),
        ("santorini-fixed", "symmetries, one at a time"),
        ("santorini-fixed", "symmetries, waves"),
        ("togyz-kumalak", "one at a time"),
        ("togyz-kumalak", "waves"),
    ]
    assert len(rows) == len(expected)
    for row, (label, setting) in zip(rows, expected, strict=True):
        words = row.split()
        # one at a time: milliseconds and their ratio to waves; waves: milliseconds alone
        numbers = 2 if "one at a time" in setting else 1
        assert words[0] == label and words[1] == "4"
        assert " ".join(words[2:-numbers]) == setting
        assert all(float(number) > 0 for number in words[-numbers:])
    assert "load average after" in result.stdout.splitlines()[-1]


def test_bench_evaluators_times_the_three_evaluators_by_batch() -> None:
    pytest.importorskip("numba")
    result = run("bench_evaluators.py", "--leaves", "1", "3", "--calls", "2", "--runs", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[1].split() == [
        "leaves",
        "network",
        "us",
        "gathers",
        "us",
        "folded",
        "us",
        "gathers/folded",
    ]
    for line, leaves in zip(lines[2:4], ["1", "3"], strict=True):
        words = line.split()
        assert words[0] == leaves and len(words) == 5
        assert all(float(number) > 0 for number in words[1:])
    assert "load average after" in lines[-1]
    assert_refused(
        "bench_evaluators.py", "--leaves", "0", says="--leaves: expected a whole number >= 1, got 0"
    )


def test_bench_player_rejects_bad_arguments_clearly() -> None:
    pytest.importorskip("numba")
    assert_refused(
        "bench_player.py",
        "--simulations",
        "0",
        says="--simulations: expected a whole number >= 1, got 0",
    )
