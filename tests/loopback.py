"""Ports for the Ray heads that the cluster tests start on this machine's loopback.

Other tests start Ray of their own at the same time (pytest-xdist runs test files side by
side), and a local Ray takes its ports from the system's ephemeral range (32768 and up on
Linux) and its workers' from 10002-19999. A head port found free by binding port 0 comes from
that same ephemeral range: between the probe and the head's start, another test's Ray could
take it, and its driver would then talk to the wrong head. So the heads take their port from
20000-29999, which no other Ray on the machine picks on its own.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HEAD_PORTS = range(20000, 30000)


def head_port() -> int:
    """A port of :data:`HEAD_PORTS` that nothing on the loopback listens on now."""
    start = random.randrange(len(HEAD_PORTS))
    for offset in range(len(HEAD_PORTS)):
        port = HEAD_PORTS[(start + offset) % len(HEAD_PORTS)]
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port from 20000 to 29999 on 127.0.0.1")


def wait_for(port: int, seconds: float) -> None:
    """Return once something accepts connections on ``127.0.0.1:port``, or fail the test."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"no Ray head answered on 127.0.0.1:{port} within {seconds} s")


def cluster_environment(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment for a head and the commands that join it.

    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` keeps Ray's node address on 127.0.0.1; ``HOME``
    is ``home``, where the head writes its token (``~/.ray/auth_token``) for the joiners to
    find; no ``RAY_AUTH_MODE`` of this process's is passed on.
    """
    environment = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "HOME": str(home)}
    environment.pop("RAY_AUTH_MODE", None)
    return {**environment, **extra}


@contextmanager
def ray_head(environment: dict[str, str]) -> Iterator[int]:
    """A Ray head on 127.0.0.1, in a process of its own, for the block; yields its port.

    Ended by ending that process, so no other Ray on the machine is touched.
    """
    ray_command = shutil.which("ray", path=os.path.dirname(sys.executable))
    assert ray_command, "the ray command is installed with the rllib extra"
    port = head_port()
    # Ray's session folder holds Unix sockets, whose paths must stay short: not under a test's
    # tmp_path.
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
        yield port
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=90)
        shutil.rmtree(sessions, ignore_errors=True)
