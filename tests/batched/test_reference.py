"""The batched kernels against the plain statement of the rules, with no rules core between.

``tests/batched/test_differential.py`` ties the kernels to the rules cores; this test ties them
directly to each game's ``zoo_games/<game>/reference.py``. Every variant plays a small batch of
random games in the engine, and each game is mirrored by a reference position driven with the
same actions (a Senet throw, drawn inside the engine, is read from the engine's position). After
every step each game's player to move, legal actions, position string, end and rewards must
agree with the reference. The engine reads and writes positions as position strings; that is
the only place the rules cores' code is used here.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games import batched
from zoo_games.catalog import find_variant, variants
from zoo_games.core.game import CHANCE

LABELS = [v.label for v in variants()]
BATCH = 12
STEPS = 400


def reference_of(label: str) -> tuple[ModuleType, dict[str, Any]]:
    """The reference module of a variant's game, and the options its positions take."""
    game = find_variant(label).game
    return importlib.import_module(f"zoo_games.{game.name}.reference"), game.options()


def with_engine_throw(reference: ModuleType, position: Any, engine_position: Any) -> Any:
    """Apply the throw the engine drew (Senet) to a reference position at a chance node."""
    if reference.current_player(position) == CHANCE:
        position = reference.after_action(position, engine_position.throw)
    return position


@pytest.mark.parametrize("label", LABELS)
def test_engine_plays_like_the_reference(label: str) -> None:
    reference, options = reference_of(label)
    engine = batched.make(label, batch_size=BATCH, seed=LABELS.index(label), threads=1)

    def engine_position(index: int) -> Any:
        return reference.from_position(engine.position(index), **options)

    start = reference.initial_position(**options)
    mirrors = [with_engine_throw(reference, start, engine_position(i)) for i in range(BATCH)]
    finished = 0
    for step in range(STEPS):
        for index, position in enumerate(mirrors):
            where = (label, step, index, engine.position(index))
            assert reference.position_string(position) == engine.position(index), where
            assert engine.current_player[index] == reference.current_player(position), where
            legal = np.flatnonzero(engine.action_mask[index]).tolist()
            assert legal == reference.legal_actions(position), where
        actions = engine.sample_legal_actions()
        rewards, terminated = engine.step(actions)
        for index, position in enumerate(mirrors):
            after = reference.after_action(position, int(actions[index]))
            where = (label, step, index, reference.position_string(after))
            if reference.is_over(after):
                assert terminated[index], where
                assert tuple(rewards[index]) == reference.returns(after), where
                finished += 1
                after = start
            else:
                assert not terminated[index] and not rewards[index].any(), where
            mirrors[index] = with_engine_throw(reference, after, engine_position(index))
    assert finished > 0, "random play should finish some games"
