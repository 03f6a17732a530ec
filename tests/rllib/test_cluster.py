"""``zoo-games train --address`` on a Ray cluster: a head started on this machine's loopback.

The head is started as ``ray start --head --block`` in a process of its own and stopped by
ending that process, so no other Ray on the machine is touched. ``RAY_ENABLE_WINDOWS_OR_OSX_
CLUSTER=0`` keeps Ray's node address on 127.0.0.1 (Ray otherwise advertises the machine's
network address even for a head started with ``--node-ip-address 127.0.0.1``), so nothing
leaves the loopback interface. The head turns on token authentication, as Ray 2.60 does by
default: the command must find the token that ``ray start`` wrote and send it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

from tests.loopback import head_port, wait_for

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")


def test_train_joins_a_cluster_on_loopback_and_fails_clearly_without_one(tmp_path):
    ray_command = shutil.which("ray", path=os.path.dirname(sys.executable))
    assert ray_command, "the ray command is installed with the rllib extra"
    environment = {
        **os.environ,
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "HOME": str(tmp_path),  # the head writes its token to ~/.ray/auth_token
    }
    environment.pop("RAY_AUTH_MODE", None)
    port = head_port()
    # Ray's session folder holds Unix sockets, whose paths must stay short: not under tmp_path.
    sessions = tempfile.mkdtemp(prefix="zg-ray-")
    head_command = [ray_command, "start", "--head", "--block", f"--port={port}"]
    head_command += ["--node-ip-address=127.0.0.1", "--num-cpus=2", "--include-dashboard=false"]
    head_command += ["--disable-usage-stats", f"--temp-dir={sessions}"]
    head = subprocess.Popen(
        head_command,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(port, seconds=90)
        # One remote runner, on the batched engine (the default): it steps an engine of its own.
        train = [sys.executable, "-m", "zoo_games.cli", "train", "santorini-fixed"]
        train += ["--iterations", "1", "--eval-every", "0", "--final-eval-games", "2"]
        train += ["--engine", "batched", "--env-runners", "1", "--envs-per-runner", "64"]
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
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=90)
        shutil.rmtree(sessions, ignore_errors=True)
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
