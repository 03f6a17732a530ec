"""Ports for the Ray heads that the cluster tests start on this machine's loopback.

Other tests start Ray of their own at the same time (pytest-xdist runs test files side by
side), and a local Ray takes its ports from the system's ephemeral range (32768 and up on
Linux) and its workers' from 10002-19999. A head port found free by binding port 0 comes from
that same ephemeral range: between the probe and the head's start, another test's Ray could
take it, and its driver would then talk to the wrong head. So the heads take their port from
20000-29999, which no other Ray on the machine picks on its own.
"""

from __future__ import annotations

import random
import socket
import time

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
