"""Joining a Ray cluster, or starting a Ray of the run's own.

PPO's sampling workers and AlphaZero's self-play workers both run on Ray, locally or on a
cluster named by ``--address``. Ray (the ``rllib`` extra) is imported when Ray is started, so
that the command can name :class:`ClusterConnectionError` without it.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

#: How long joining a cluster waits for its head to answer at all.
HEAD_TIMEOUT_SECONDS = 10


class ClusterConnectionError(RuntimeError):
    """The Ray cluster named by ``address`` could not be joined."""


def start_ray(address: str | None) -> None:
    """Start a Ray of this run's own, or join the cluster at ``address``.

    Without an address Ray is started locally for this process alone (``address="local"``):
    Ray's own default would join any cluster already running on the machine, and the run
    would die with it. Ray's start-up chatter is kept to errors.
    """
    # RLlib's notice that PPO runs on its new API stack (what we ask for) and similar
    # messages say nothing a user of this command can act on.
    import ray

    logging.getLogger("ray.rllib").setLevel(logging.ERROR)
    if ray.is_initialized():
        return
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address is None:
        ray.init(address="local", include_dashboard=False, **quiet)
        return
    try:
        _reach_head(address)
        ray.init(address=address, **quiet)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ClusterConnectionError(
            f"could not join the Ray cluster at {address}: {reason} (is its head running "
            "there? A cluster with token authentication needs RAY_AUTH_MODE=token and its "
            "token in ~/.ray/auth_token or RAY_AUTH_TOKEN; see docs/training.md)"
        ) from error


def _reach_head(address: str) -> None:
    """Fail within seconds if nothing listens at ``HOST:PORT`` (Ray itself retries for minutes).

    ``auto`` names the cluster of this machine, which Ray finds itself.
    """
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    with socket.create_connection((host, int(port)), timeout=HEAD_TIMEOUT_SECONDS):
        pass
