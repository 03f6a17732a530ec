"""``zoo-games train --address`` on a Ray cluster: a head started on this machine's loopback.

The head is started as ``ray start --head --block`` in a process of its own and stopped by
ending that process, so no other Ray on the machine is touched. ``RAY_ENABLE_WINDOWS_OR_OSX_
CLUSTER=0`` keeps Ray's node address on 127.0.0.1 (Ray otherwise advertises the machine's
network address even for a head started with ``--node-ip-address 127.0.0.1``), so nothing
leaves the loopback interface. The head turns on token authentication, as Ray 2.60 does by
default: the command must find the token that ``ray start`` wrote and send it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.loopback import cluster_environment, ray_head

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")


def test_train_joins_a_cluster_on_loopback_and_fails_clearly_without_one(tmp_path):
    environment = cluster_environment(tmp_path)
    # Two remote runners on the batched engine, each stepping an engine of its own, overlapped
    # with the update (the default): the second iteration trains what they sampled during the
    # first.
    train = [sys.executable, "-m", "zoo_games.cli", "train", "santorini-fixed"]
    train += ["--iterations", "2", "--eval-every", "0", "--final-eval-games", "2"]
    train += ["--engine", "batched", "--env-runners", "2", "--envs-per-runner", "64"]
    with ray_head(environment) as port:
        joined = subprocess.run(
            [*train, "--output", str(tmp_path / "run"), "--address", f"127.0.0.1:{port}"],
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert joined.returncode == 0, joined.stderr[-3000:]
        assert "final: " in joined.stdout
        assert (tmp_path / "run" / "checkpoint").is_dir()
    refused = subprocess.run(
        [*train, "--output", str(tmp_path / "again"), "--address", f"127.0.0.1:{port}"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert f"could not join the Ray cluster at 127.0.0.1:{port}" in refused.stderr
    assert not (tmp_path / "again").exists()
