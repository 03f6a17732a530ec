"""Shared setup of the RLlib tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def local_ray():
    """Ray started for one test module, on this machine alone, and shut down after it."""
    import ray  # here, not above: without the rllib extra the modules skip before using it

    ray.init(
        address="local",  # never a cluster another test started on this machine
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        ignore_reinit_error=True,
    )
    yield
    ray.shutdown()
