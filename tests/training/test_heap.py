"""The objects made before a training loop stay out of the collector's passes while it runs.

(That the loop runs its iterations so: tests/training/test_loop.py.)
"""

from __future__ import annotations

import gc

import pytest

from zoo_games.training.heap import startup_objects_frozen


class Made:
    """An object the collector tracks (instances of plain classes are tracked)."""


def tracked(thing: object) -> bool:
    """Whether ``thing`` is in a generation the collector passes over (not the permanent one)."""
    return any(other is thing for other in gc.get_objects())


@pytest.fixture(autouse=True)
def nothing_frozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_objects_alive_at_the_start_are_frozen_and_given_back_at_the_end():
    before = Made()
    with startup_objects_frozen():
        during = Made()
        assert gc.get_freeze_count() > 0
        assert not tracked(before)
        assert tracked(during)  # what the block makes is collected as usual
    assert gc.get_freeze_count() == 0
    assert tracked(before)


def test_an_error_in_the_block_still_gives_them_back():
    with pytest.raises(RuntimeError), startup_objects_frozen():
        raise RuntimeError("the loop failed")
    assert gc.get_freeze_count() == 0


def test_objects_the_process_froze_itself_stay_frozen():
    own = Made()
    gc.freeze()
    with startup_objects_frozen():
        pass
    assert gc.get_freeze_count() > 0
    assert not tracked(own)
