"""Tournaments: both seats equally, reproducible for a seed whatever the number of workers."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tests.agents.test_agents import random_decision_state
from tests.arena.conftest import BlasThreadsAgent, FirstLegalAgent, LastLegalAgent
from zoo_games.agents import make, registry
from zoo_games.arena import run_arena
from zoo_games.arena.play import opening_move, play_arena_game
from zoo_games.arena.report import format_table, write_outputs
from zoo_games.arena.tournament import game_seeds, opening_seed
from zoo_games.catalog import find_variant


def outcomes(result):
    """Everything reproducible about a result: the records without their timings."""
    return [replace(record, seconds=(0.0, 0.0)) for record in result.records]


def test_a_fixed_seed_gives_the_same_games_twice_and_another_seed_others():
    first = run_arena("senet-kendall-5", ["random", "random"], games=6, seed=11)
    again = run_arena("senet-kendall-5", ["random", "random"], games=6, seed=11)
    other = run_arena("senet-kendall-5", ["random", "random"], games=6, seed=12)
    assert outcomes(first) == outcomes(again)
    assert first.pairings[0].wins == again.pairings[0].wins
    assert first.pairings[0].mean_length == again.pairings[0].mean_length
    assert outcomes(first) != outcomes(other)


#: A run of two workers whose agent multiplies matrices with torch, after this process has.
TORCH_HERE_THEN_IN_WORKERS = """
import torch
torch.set_num_threads(2)
torch.ones(512, 512) @ torch.ones(512, 512)
from tests.arena.conftest import TorchMatmulAgent
from zoo_games.arena import run_arena
result = run_arena("togyz-kumalak", [TorchMatmulAgent, "random"], games=2, workers=2)
print(result.pairings[0].games)
"""


def test_workers_play_torch_agents_after_torch_ran_in_the_arena_process():
    # A worker forked from a process whose torch (OpenMP) threads had run hung at its first
    # threaded product; the arena made its agents, trained policies among them, first.
    pytest.importorskip("torch")
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", TORCH_HERE_THEN_IN_WORKERS],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2"]


def test_each_worker_multiplies_matrices_on_one_blas_thread():
    # Two workers' OpenBLAS threads, one per core each, waited for one another and made moves
    # that multiply batches five times slower (docs/arena.md, "Reproducibility and workers").
    result = run_arena("togyz-kumalak", [BlasThreadsAgent, "random"], games=2, workers=2)
    assert result.pairings[0].games == 2


@pytest.mark.parametrize("opening_moves", [0, 3])
def test_one_worker_and_two_workers_give_identical_results(opening_moves):
    agents = ["random", FirstLegalAgent, "random"]
    alone = run_arena("togyz-kumalak", agents, 8, seed=5, opening_moves=opening_moves)
    shared = run_arena("togyz-kumalak", agents, 8, seed=5, workers=2, opening_moves=opening_moves)
    assert outcomes(alone) == outcomes(shared)
    assert alone.elo is not None and shared.elo is not None
    assert [r.elo for r in alone.elo] == [r.elo for r in shared.elo]


def test_every_pairing_plays_both_seats_equally():
    result = run_arena("santorini-fixed", ["random", FirstLegalAgent, LastLegalAgent], games=6)
    assert [(p.first, p.second) for p in result.pairings] == [
        ("random", "first-legal"),
        ("random", "last-legal"),
        ("first-legal", "last-legal"),
    ]
    for pairing in result.pairings:
        assert pairing.games == 6 and pairing.first_as_player_0 == 3
        assert pairing.wins + pairing.draws + pairing.losses == 6
    assert [record.first_side for record in result.records[:6]] == [0, 1, 0, 1, 0, 1]


def test_records_follow_the_game_that_was_played():
    # Two deterministic agents on a game without chance: each seat's game is one fixed game,
    # so the pairing's results alternate with the seats and repeat exactly.
    result = run_arena("santorini-fixed", [FirstLegalAgent, LastLegalAgent], games=4)
    game = find_variant("santorini-fixed").game
    as_player_0 = play_arena_game(game, (FirstLegalAgent(), LastLegalAgent()), 0).result
    as_player_1 = play_arena_game(game, (LastLegalAgent(), FirstLegalAgent()), 0).result
    expected = [as_player_0, 1 - as_player_1] * 2
    assert [record.result for record in result.records] == expected


def test_each_game_remakes_its_agents_with_seeds_from_seed_pairing_and_index():
    seeds = {game_seeds(3, pairing, index) for pairing in range(3) for index in range(10)}
    assert len(seeds) == 30
    assert game_seeds(3, 1, 2) == game_seeds(3, 1, 2)


def test_elo_is_anchored_on_random_and_absent_for_two_agents():
    three = run_arena("santorini-fixed", [FirstLegalAgent, "random", LastLegalAgent], games=4)
    assert three.elo_anchor == "random"
    assert next(r for r in three.elo if r.agent == "random").elo == 0.0
    agents = [FirstLegalAgent, LastLegalAgent, FirstLegalAgent]
    without_random = run_arena("santorini-fixed", agents, games=2)
    assert without_random.elo_anchor == "first-legal"
    assert without_random.agents == ("first-legal", "last-legal", "first-legal#2")
    two = run_arena("santorini-fixed", ["random", "random"], games=2)
    assert two.elo is None and two.agents == ("random", "random#2")


def test_agents_may_be_instances_or_named_in_a_mapping():
    result = run_arena(
        "santorini-fixed", {"mine": FirstLegalAgent(), "theirs": make("random", seed=1)}, games=4
    )
    assert result.agents == ("mine", "theirs")
    assert result.pairing("theirs", "mine").wins == result.pairing("mine", "theirs").losses


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (dict(variant_label="chess"), "unknown variant"),
        (dict(agent_specs=["random", "nobody"]), "unknown agent"),
        (dict(agent_specs=["random", "random:depth=3"]), "no option 'depth'"),
        (dict(agent_specs=["random", "random:seed=x"]), "expected int"),
        (dict(agent_specs=["random"]), "at least 2 agents"),
        (dict(games=3), "positive even"),
        (dict(games=0), "positive even"),
        (dict(seed=-1), "seed"),
        (dict(workers=0), "workers"),
        # beyond the games to play, workers would only wait (and 10**20 of them crashed)
        (dict(workers=3), "workers must be from 1 to 2, the games to play"),
        (dict(workers=10**20), "workers must be from 1 to 2"),
        (dict(agent_specs=["random", "mcts:simulations=1,simulations=2"]), "given twice"),
        (dict(agent_specs=["random", FirstLegalAgent()], workers=2), "instances"),
        (dict(agent_specs=["random", lambda seed: FirstLegalAgent(seed)], workers=2), "sent"),
        (dict(agent_specs="random"), "a list of agents"),
        (dict(games=2.0), "positive even"),
        (dict(opening_moves=-1), "opening_moves must be an integer from 0 to 20"),
        (dict(opening_moves=21), "opening_moves must be an integer from 0 to 20"),
        (dict(opening_moves=2.0), "opening_moves must be an integer"),
        (dict(opening_moves=True), "opening_moves must be an integer"),
    ],
)
def test_bad_arguments_are_refused_before_any_game(arguments, message, monkeypatch):
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    settings = dict(variant_label="santorini-fixed", agent_specs=["random", "random"], games=2)
    with pytest.raises(ValueError, match=message):
        run_arena(**{**settings, **arguments})


def test_a_factory_of_an_interactive_session_is_refused_for_workers(monkeypatch):
    # A notebook's or ``python -c``'s classes live in a __main__ without a file, which a
    # spawned worker cannot import: refused in one line rather than a broken pool.
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    typed_in = type("TypedIn", (FirstLegalAgent,), {"__module__": "__main__"})
    session = types.ModuleType("__main__")
    session.TypedIn = typed_in  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "__main__", session)
    with pytest.raises(ValueError, match=r"interactive session.*workers=1"):
        run_arena("togyz-kumalak", [typed_in, "random"], games=2, workers=2)


def test_registered_agents_are_made_per_game_and_load_errors_are_value_errors(
    monkeypatch, tmp_path
):
    classes = {
        **registry.AGENT_CLASSES,
        "first-legal": "tests.arena.conftest:FirstLegalAgent",
        "checkpoint": "tests.arena.conftest:CheckpointAgent",
    }
    monkeypatch.setattr(registry, "AGENT_CLASSES", classes)
    result = run_arena("santorini-fixed", ["first-legal", "random"], games=2)
    assert result.agents == ("first-legal", "random")
    missing = tmp_path / "missing.pt"
    with pytest.raises(ValueError, match=r"cannot be made: .*No such file"):
        run_arena("santorini-fixed", ["random", f"checkpoint:path={missing}"], games=2)


def test_outputs_are_written_and_readable(tmp_path):
    result = run_arena("senet-kendall-5", ["random", FirstLegalAgent, LastLegalAgent], games=4)
    paths = write_outputs(result, tmp_path / "out")
    assert [path.name for path in paths] == ["arena.json", "arena.csv", "arena.png"]
    data = json.loads(paths[0].read_text())
    assert data["agents"] == ["random", "first-legal", "last-legal"]
    assert len(data["games"]) == 12 and len(data["elo"]) == 3 and data["elo_anchor"] == "random"
    assert data["opening_moves"] == 0 and all(len(game["digest"]) == 16 for game in data["games"])
    with paths[1].open() as handle:
        rows = list(csv.DictReader(handle))
    assert all(1 <= int(row["distinct_games"]) <= 4 for row in rows)
    assert [(row["first"], row["second"], row["games"]) for row in rows] == [
        ("random", "first-legal", "4"),
        ("random", "last-legal", "4"),
        ("first-legal", "last-legal", "4"),
    ]
    with Image.open(paths[2]) as picture:
        assert picture.format == "PNG" and picture.width > 400
    table = format_table(result)
    assert "first-legal" in table and "Elo" in table


def test_a_gauntlet_plays_only_the_first_agents_pairings_with_the_round_robins_games():
    agents = ["greedy", "random", FirstLegalAgent]
    gauntlet = run_arena("santorini-fixed", agents, games=4, seed=3, gauntlet=True)
    assert [(p.first, p.second) for p in gauntlet.pairings] == [
        ("greedy", "random"),
        ("greedy", "first-legal"),
    ]
    assert {record.pairing for record in gauntlet.records} == {0, 1}
    # The pairings it plays are the round robin's first two, game for game.
    full = run_arena("santorini-fixed", agents, games=4, seed=3)
    assert outcomes(gauntlet) == [r for r in outcomes(full) if r.pairing < 2]
    matrix = gauntlet.score_matrix()
    assert np.isnan(matrix[1, 2]) and np.isnan(matrix[2, 1])
    assert matrix[0, 1] == gauntlet.pairings[0].score
    assert matrix[1, 0] == 1.0 - gauntlet.pairings[0].score
    assert gauntlet.elo is not None and {r.agent for r in gauntlet.elo} == {
        "greedy",
        "random",
        "first-legal",
    }


# ---------------------------------------------------------------- openings and repeated games
def test_two_deterministic_agents_repeat_two_games_and_the_table_says_so():
    result = run_arena("santorini-fixed", [FirstLegalAgent, LastLegalAgent], games=6)
    assert result.pairings[0].distinct_games == 2
    assert result.pairing("last-legal", "first-legal").distinct_games == 2
    table = format_table(result)
    assert "note: first-legal and last-legal played 2 different games in 6" in table
    assert "--opening-moves N begins each pair of games with N random moves" in table


def test_an_opening_makes_every_game_of_deterministic_agents_different():
    result = run_arena("togyz-kumalak", [FirstLegalAgent, LastLegalAgent], games=8, opening_moves=4)
    assert result.pairings[0].distinct_games == 8
    assert result.opening_moves == 4
    table = format_table(result)
    assert "each begun by 4 random moves" in table.splitlines()[0] and "note:" not in table


def test_random_agents_play_different_games_and_get_no_note():
    result = run_arena("santorini-fixed", ["random", "random"], games=6)
    assert result.pairings[0].distinct_games == 6 and "note:" not in format_table(result)


def test_a_pair_of_games_shares_its_opening_and_every_pairing_meets_the_same_ones():
    # Games 2m and 2m + 1 swap the seats; game k of every pairing has game k's opening.
    assert opening_seed(7, 4) == opening_seed(7, 5)
    assert len({opening_seed(7, index) for index in range(0, 20, 2)}) == 10
    assert opening_seed(7, 4) != opening_seed(8, 4)
    game = find_variant("togyz-kumalak").game
    seats = (FirstLegalAgent(), LastLegalAgent())
    plain = play_arena_game(game, seats, 0, opening_moves=5, opening_seed=opening_seed(7, 4))
    swapped = play_arena_game(
        game, seats[::-1], 0, opening_moves=5, opening_seed=opening_seed(7, 5)
    )
    other = play_arena_game(game, seats, 0, opening_moves=5, opening_seed=opening_seed(7, 6))
    assert plain.actions[:5] == swapped.actions[:5]
    assert plain.actions[:5] != other.actions[:5]
    assert plain.digest != swapped.digest


def test_the_agents_moves_and_the_length_leave_the_opening_out():
    game = find_variant("togyz-kumalak").game
    played = play_arena_game(game, (FirstLegalAgent(), LastLegalAgent()), 0, opening_moves=6)
    assert sum(played.moves) == len(played.actions) - 6
    plain = play_arena_game(game, (FirstLegalAgent(), LastLegalAgent()), 0)
    assert sum(plain.moves) == len(plain.actions)


def test_an_opening_in_senet_plays_through_the_throws():
    result = run_arena("senet-kendall-5", ["random", FirstLegalAgent], games=4, opening_moves=6)
    assert result.pairings[0].games == 4 and result.pairings[0].distinct_games == 4


@settings(max_examples=40, deadline=None)
@given(
    label=st.sampled_from(["togyz-kumalak", "santorini-fixed", "senet-kendall-5"]),
    plies=st.integers(0, 120),
    seed=st.integers(0, 2**32 - 1),
)
def test_an_opening_move_is_legal_and_never_ends_the_game(label, plies, seed):
    state = random_decision_state(label, seed, plies)
    generator = np.random.default_rng(seed)
    position = state.position()
    move = opening_move(state, generator)
    assert state.position() == position  # the state is left as it was
    ending = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        ending.append(after.is_terminal())
    if move == -1:
        assert all(ending)
    else:
        assert move in state.legal_actions() and not ending[state.legal_actions().index(move)]


def test_a_game_or_two_repeated_gets_no_note_and_more_do():
    # Two random openings that coincide repeat a game: harmless below 10% of the games.
    result = run_arena("santorini-fixed", ["random", "random"], games=20)
    pairing = result.pairings[0]
    few = replace(result, pairings=(replace(pairing, distinct_games=18),))
    many = replace(result, pairings=(replace(pairing, distinct_games=17),))
    assert "note:" not in format_table(few)
    assert "played 17 different games in 20" in format_table(many)
