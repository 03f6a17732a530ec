"""docs/adding_a_game.md, followed: a toy game taken through every room its checklist names.

The toy, Stones (a pile; each turn takes 1, 2 or 3; whoever takes the last stone wins), lives
in ``tests/toy_game/`` laid out as a game is laid out in ``zoo_games/``: the package
``stones/`` (rules core, positions, observer, renderer, evaluation, moves) beside the module
``stones_v0.py``. The fixture puts that folder on the search path of the ``zoo_games`` package,
as if the files had been copied into it, and names the module in ``catalog.GAMES``, the one
registration step. Then the catalog, PettingZoo's own tests, the agents, the arena, terminal
play, the command line and the golden playthrough take the game with no other change, and the
batched engine, for which the toy has no kernels, refuses it in one line.

In Stones the player to move loses exactly when the pile is a multiple of 4 (whatever it
takes, the opponent takes the rest of four), and the toy's evaluation says so: the tests check
the agents' moves against that.
"""

from __future__ import annotations

import io
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from pettingzoo.test import api_test, render_test, seed_test

import zoo_games
from zoo_games import agents, catalog
from zoo_games.arena import run_arena
from zoo_games.catalog import Variant
from zoo_games.cli import main
from zoo_games.core.errors import PositionError
from zoo_games.core.game import GameState
from zoo_games.playthrough import playthrough

TOY_FOLDER = Path(__file__).parent / "toy_game"
ENV_ID = "zoo_games/Stones-v0"
MODULE = "zoo_games.stones_v0"


def _forget_the_toy() -> None:
    """Unload the toy's modules, which importing also set as attributes of ``zoo_games``."""
    for name in [n for n in sys.modules if n == MODULE or n.startswith("zoo_games.stones")]:
        del sys.modules[name]
    for attribute in ("stones", "stones_v0"):
        if hasattr(zoo_games, attribute):
            delattr(zoo_games, attribute)


@pytest.fixture(scope="module")
def stones() -> Iterator[Variant]:
    """The variant ``stones-10``, with the toy in the catalog for the tests of this module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(zoo_games, "__path__", [*zoo_games.__path__, str(TOY_FOLDER)])
        patch.setitem(catalog.GAMES, ENV_ID, MODULE)
        yield catalog.find_variant("stones-10")
    _forget_the_toy()


def state_at(variant: Variant, position: str) -> GameState:
    return variant.raw_env().game.state_from_position(position)


# ------------------------------------------------------------------ catalog and environment
def test_the_catalog_lists_every_variant_of_the_new_module(stones: Variant) -> None:
    assert {"stones-10", "stones-21"} <= set(catalog.labels())
    assert stones.env_id == ENV_ID and stones.kwargs == {"stones": 10}
    assert catalog.find_variant("stones-21").raw_env().game.new_initial_state().position() == (
        "21 0"
    )
    with pytest.raises(ValueError, match=r"stones=5 is not allowed; allowed values: 10, 21"):
        stones.raw_env(stones=5)


def test_pettingzoo_api_seed_and_render_tests_pass(stones: Variant) -> None:
    api_test(stones.env(), num_cycles=100)
    api_test(stones.raw_env(), num_cycles=100)
    seed_test(stones.env, num_cycles=50)
    render_test(lambda render_mode=None: stones.env(render_mode=render_mode))


def test_positions_round_trip_and_a_finished_game_hands_out_the_rewards(stones: Variant) -> None:
    env = stones.env(render_mode="ansi")
    env.reset(options={"position": "3 1"})
    assert env.unwrapped.position() == "3 1"
    env.step(2)  # player_1 takes the last three stones
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.render() == " (0 left, first to take)"
    with pytest.raises(PositionError, match="the mover must be 0 or 1, got '2'"):
        stones.raw_env().reset(options={"position": "3 2"})
    with pytest.raises(PositionError, match="a position is '<stones> <mover>'"):
        stones.raw_env().reset(options={"position": "3"})


def test_the_module_docstring_has_every_part_of_the_environment_page(stones: Variant) -> None:
    generator = runpy.run_path(str(Path(__file__).parents[1] / "docs/_scripts/gen_env_pages.py"))
    assert generator["missing_parts"](stones.module.__doc__) == []


# ------------------------------------------------------------------ agents and arena
@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_every_agent_plays_a_whole_game(stones: Variant, name: str) -> None:
    players = {"player_0": agents.make(name, seed=0), "player_1": agents.make("random", seed=1)}
    returns = agents.play_game(stones.env(), players, seed=0)
    assert sorted(returns.values()) == [-1.0, 1.0]


@pytest.mark.parametrize("spec", ["greedy", "mcts:simulations=300"])
@pytest.mark.parametrize(
    ("position", "best"),
    [
        ("3 0", 2),  # take all three: a win at once
        ("6 1", 1),  # take 2, leave 4: the opponent loses whatever it takes
        ("9 0", 0),  # take 1, leave 8
    ],
)
def test_searching_agents_find_the_move_that_leaves_a_multiple_of_four(
    stones: Variant, spec: str, position: str, best: int
) -> None:
    """The toy's ``evaluation.py`` (found by the game's name) is what greedy and mcts use."""
    agent = agents.make_from_spec(spec, seed=0)
    assert agent.act(state_at(stones, position)) == best


def test_the_arena_plays_the_new_game(stones: Variant) -> None:
    result = run_arena("stones-10", ["greedy", "random"], games=10, seed=0)
    (pairing,) = result.pairings
    assert pairing.wins + pairing.draws + pairing.losses == 10
    # From 10 stones (not a multiple of 4) the first player wins with perfect play, which is
    # greedy's: at least the five games it starts.
    assert pairing.wins >= 5


# ------------------------------------------------------------------ play and the command line
def test_people_play_it_at_the_terminal_through_its_move_language(
    stones: Variant, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = ["help", "take 4", "take 3", "take 3", "2", "take 2"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{e}\n" for e in entries)))
    assert main(["play", "stones-10", "--vs", "human", "--seed", "0"]) == 0
    out, err = capsys.readouterr()
    assert not err and "Traceback" not in out
    assert "type 'take 1', 'take 2' or 'take 3'" in out  # the toy's HELP
    assert "'take 4' is not a legal move" in out  # shaped like a move (is_move_syntax), illegal
    assert "player_0 (first) plays take 3: leaves 7" in out
    assert "player_1 (second) plays take 3: leaves 4" in out
    assert "player_0 (first) plays take 2: leaves 2" in out  # "2" is the move numbered 2
    assert "player_1 (second) plays take 2: leaves 0" in out
    assert "the second player took the last stone" in out  # the toy's score()


def test_an_agent_plays_it_at_the_terminal(
    stones: Variant, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 10))
    assert main(["play", "stones-10", "--vs", "greedy", "--seat", "second", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "player_0 (first) plays take 2: leaves 8" in out
    assert "the first player took the last stone" in out  # the toy's score()


def test_the_command_line_lists_it_and_the_playthrough_records_it(
    stones: Variant, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list"]) == 0
    assert "stones-10" in capsys.readouterr().out
    text = playthrough(stones, seed=0)
    assert text.startswith(f"# playthrough of {ENV_ID} stones-10")
    assert "position: 10 0" in text


# ------------------------------------------------------------------ batched: no kernels
def test_the_batched_engine_and_its_agents_refuse_a_game_without_kernels(
    stones: Variant,
) -> None:
    batched: ModuleType = pytest.importorskip("zoo_games.batched", exc_type=ImportError)
    message = (
        r"game 'stones' has no batched kernels; the batched engine and the searches compiled "
        r"on it \(batched-mcts, alphabeta, alphazero's\) play"
    )
    with pytest.raises(ValueError, match=message):
        batched.make("stones-10", batch_size=4)
    with pytest.raises(ValueError, match=message):
        agents.make("batched-mcts", simulations=10, seed=0).act(state_at(stones, "10 0"))
    with pytest.raises(ValueError, match=message):
        agents.make("alphabeta", seed=0).check_game(stones.game)
