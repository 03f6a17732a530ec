"""AlphaZero's self-play on Ray actors: on a Ray of the run's own, and on a loopback cluster.

The cluster is the head of ``tests/loopback.py`` (on 127.0.0.1, in a
process of its own; its token is sent if it wrote one, as the command does); the run joins it
with ``address`` and one self-play worker. Both runs play with the scripted search of
``conftest.py``.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.alphazero import tiny
from tests.loopback import cluster_environment, head_port, ray_head

pytest.importorskip("ray")
pytest.importorskip("torch")
pytest.importorskip("numba")

from zoo_games.alphazero import network
from zoo_games.alphazero.settings import AlphaZeroSettings
from zoo_games.alphazero.train import train

#: The training tests' tiny run, three iterations, evaluated only at the end.
TINY: dict[str, Any] = {**tiny.TINY, "eval_every": 0, "iterations": 3}


def test_self_play_workers_fill_the_drivers_buffer(tmp_path, make_scripted_search):
    import ray

    # A Ray left running by an earlier test of this process (a docs block's PPO run) would
    # be joined as it is, without the path to this test's scripted search for its workers.
    ray.shutdown()
    settings = AlphaZeroSettings(output_dir=str(tmp_path / "run"), workers=2, **TINY)
    train(settings, progress=lambda line: None, make=make_scripted_search)
    with (tmp_path / "run" / "metrics.csv").open() as handle:
        last = list(csv.DictReader(handle))[-1]
    # Two workers of four games, 180 moves each: games ended and were learned from.
    assert int(last["games"]) > 0 and int(last["learner_steps"]) > 0
    assert network.load(tmp_path / "run").trained["positions"] == int(last["positions"])


JOIN = """
import os, runpy, sys
from pathlib import Path
if (Path.home() / ".ray" / "auth_token").is_file():  # as zoo-games train --address does
    os.environ["RAY_AUTH_MODE"] = "token"
from zoo_games.alphazero.settings import AlphaZeroSettings
from zoo_games.alphazero.train import train
search = runpy.run_path(sys.argv[3])["scripted_search"]
settings = AlphaZeroSettings(output_dir=sys.argv[1], address=sys.argv[2], workers=1, **{tiny})
train(settings, make=search)
"""


def test_a_run_joins_a_cluster_on_loopback(tmp_path):
    environment = cluster_environment(tmp_path, PYTHONPATH=str(Path(__file__).parents[2]))
    script = JOIN.replace("{tiny}", repr(TINY))
    conftest = str(Path(__file__).with_name("conftest.py"))
    run = tmp_path / "run"
    with ray_head(environment) as port:
        joined = subprocess.run(
            [sys.executable, "-c", script, str(run), f"127.0.0.1:{port}", conftest],
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert joined.returncode == 0, joined.stderr[-3000:]
    assert "final: " in joined.stdout
    assert network.load(run).trained["games"] > 0


def test_a_cluster_that_is_not_there_is_one_line_and_writes_nothing(tmp_path):
    port = head_port()  # nothing listens there
    command = [sys.executable, "-m", "zoo_games.cli", "train", "togyz-kumalak"]
    command += ["--algorithm", "alphazero", "--workers", "1", "--address", f"127.0.0.1:{port}"]
    refused = subprocess.run(
        [*command, "--output", str(tmp_path / "run")],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    (line,) = refused.stderr.strip().splitlines()
    assert line.startswith(f"zoo-games train: could not join the Ray cluster at 127.0.0.1:{port}")
    assert not (tmp_path / "run").exists()
