"""Shared test setup: the ``slow`` mark, the code blocks of the docs run as written, and random
games played by a rules core and its plain reference side by side.

The ``slow`` mark goes on the tests listed in :data:`SLOW`, which start Ray, run a notebook,
drive a real browser or compile numba's threaded loops: ``pytest -m "not slow"`` leaves them out
for a quick run while working; CI runs everything.

:func:`run_doc_block` runs one ```python block of a page as a reader would paste it, and skips
it, naming the extra, when it uses a part of the package whose extra is not installed (the
README promises that tests needing a missing extra are skipped).

Each game's ``zoo_games/<game>/reference.py`` states the rules plainly; the core is the fast
path. :func:`play_against_the_reference` drives both with the same random actions (and, for
Senet, the same throws, drawn with the stick rule's probabilities) and checks at every step
that they agree: the player to act, the legal actions (the chance outcomes at a throw), the
position string after every action, the end of the game and its returns.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from zoo_games.core.game import CHANCE, TERMINAL, Game

#: Test ids (as ``pytest`` prints them, from the repository root) that start with one of these
#: get the ``slow`` mark: a folder, a file, or a file and the start of a test's name.
SLOW = (
    "tests/rllib/",
    "tests/alphazero/test_cluster.py",
    "tests/alphazero/test_command.py",
    "tests/agents/test_rllib_agent.py",
    "tests/test_tutorials.py",
    "tests/web/test_browser.py",
    "tests/batched/test_engine.py::test_a_threaded_step",
    "tests/batched/test_engine.py::test_threads_do_not_change_the_games",
    "tests/test_benchmarks.py::test_bench_threads",
    "tests/test_docs.py::test_python_block_runs_as_written[docs/training.md",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW`."""
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


def reference_of(game: Game) -> ModuleType:
    """The plain statement of ``game``'s rules, ``zoo_games/<game>/reference.py``."""
    return importlib.import_module(f"zoo_games.{game.name}.reference")


def play_against_the_reference(game: Game, seed: int, start: str | None = None) -> int:
    """Play one random game in the core and the reference; return its number of decisions.

    The game starts from the initial position, or from the position string ``start``.
    """
    rng = random.Random(seed)
    reference = reference_of(game)
    if start is None:
        state = game.new_initial_state()
        position = reference.initial_position(**game.options())
    else:
        state = game.state_from_position(start)
        position = reference.from_position(start, **game.options())
    decisions = 0
    while True:
        where = (seed, decisions, state.position())
        assert reference.position_string(position) == state.position(), where
        assert reference.from_state(state) == position, where
        player = state.current_player()
        assert reference.current_player(position) == player, where
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            expected = [(throw, float(p)) for throw, p in reference.chance_outcomes(position)]
            assert list(outcomes) == expected, where
            throws, weights = zip(*outcomes, strict=True)
            action = rng.choices(throws, weights)[0]
        else:
            legal = state.legal_actions()
            assert reference.legal_actions(position) == legal, where
            assert state.legal_actions_mask() == bytes(
                int(a in legal) for a in range(game.num_actions)
            ), where
            action = rng.choice(legal)
            decisions += 1
        state.apply_action(action)
        position = reference.after_action(position, action)
    assert reference.is_over(position)
    assert reference.legal_actions(position) == [] == state.legal_actions()
    assert reference.returns(position) == state.returns(), where
    return decisions


#: A block that mentions one of these needs the module of an extra: part -> (module, extra).
EXTRAS = {
    "zoo_games.rllib": ("ray.rllib", "rllib"),
    "from zoo_games import rllib": ("ray.rllib", "rllib"),
    '"rllib"': ("ray.rllib", "rllib"),
    "zoo_games.batched": ("numba", "batched"),
    "from zoo_games import batched": ("numba", "batched"),
    "batched-mcts": ("numba", "batched"),
    '"alphabeta"': ("numba", "batched"),
    # AlphaZero plays on the batched engine and learns with torch.
    "zoo_games.alphazero": ("numba", "batched"),
    "zoo_games.alphazero.train": ("torch", "rllib"),
}


def run_doc_block(source: str, where: str) -> None:
    """Run a page's ```python block in a fresh namespace; skip it if it needs a missing extra."""
    for part, (module, extra) in EXTRAS.items():
        if part in source:
            pytest.importorskip(module, reason=f"{where} needs the {extra} extra ({module})")
    exec(compile(source, where, "exec"), {"__name__": "__main__"})


@pytest.fixture(autouse=True)
def _ray_auth_mode_kept() -> Iterator[None]:
    """Give ``RAY_AUTH_MODE`` back its value after each test.

    ``zoo-games train --address`` switches Ray's token mode on for its process when a token is
    at hand (``cli._authenticate_to_cluster``): right for a command, which then exits. Run in a
    test process, it would outlive the test, and every Ray a later test of that process starts
    would want a token that its driver, whose mode Ray read at import, never sends ("Failed to
    start GCS").
    """
    before = os.environ.get("RAY_AUTH_MODE")
    yield
    if before is None:
        os.environ.pop("RAY_AUTH_MODE", None)
    else:
        os.environ["RAY_AUTH_MODE"] = before


@pytest.fixture
def doc_block() -> Callable[[str, str], None]:
    """:func:`run_doc_block`, for the tests of each page's examples."""
    return run_doc_block


@pytest.fixture
def against_the_reference() -> Callable[..., int]:
    """:func:`play_against_the_reference`, for the tests of every game."""
    return play_against_the_reference
