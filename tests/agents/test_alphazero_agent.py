"""The ``alphazero`` agent: legal moves, its network's choice, its options, where it finds networks.

Networks here are tiny and random (:func:`random_network`) or made by hand; the shipped
baselines are looked up in a folder these tests fill themselves.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.agents.test_agents import SANTORINI_ONE_BLOCK
from zoo_games import agents
from zoo_games.alphazero import saved
from zoo_games.alphazero.network import PolicyValueNetwork, load
from zoo_games.alphazero.symmetric import SymmetricEvaluator
from zoo_games.arena.play import play_arena_game
from zoo_games.catalog import find_variant, labels, variants_of
from zoo_games.cli import main
from zoo_games.training.checkpoints import save


def random_network(label: str, seed: int = 0, hidden: int = 8) -> PolicyValueNetwork:
    """A network of one hidden layer, with random weights, that reads ``label``'s observations."""
    variant = find_variant(label)
    shape = tuple(variant.observer.space.shape)
    actions = variant.game.num_actions
    rng = np.random.default_rng(seed)

    def layer(outputs: int, inputs: int) -> tuple[np.ndarray, np.ndarray]:
        return rng.normal(0.0, 0.3, (outputs, inputs)), rng.normal(0.0, 0.3, outputs)

    return PolicyValueNetwork(
        variant=label,
        observation_shape=shape,
        num_actions=actions,
        hidden=[layer(hidden, int(np.prod(shape)))],
        policy=layer(actions, hidden),
        value=layer(1, hidden),
    )


@pytest.fixture
def saved_network(tmp_path: Path) -> Callable[..., Path]:
    """``saved_network(label, seed=0, folder="label")``: the folder of a saved random network."""

    def save(label: str, seed: int = 0, folder: str | None = None) -> Path:
        return random_network(label, seed).save(tmp_path / (folder or label))

    return save


def preferring(label: str, favourite: int) -> PolicyValueNetwork:
    """A network that plays the legal action nearest to action ``favourite``, wherever it is.

    Its logits fall with the distance from ``favourite`` and differ by less than 1 in all, as a
    network's do before it is sure of anything, so that a search can overrule them; its value
    is 0 everywhere.
    """
    variant = find_variant(label)
    shape = tuple(variant.observer.space.shape)
    actions = variant.game.num_actions
    inputs = int(np.prod(shape))
    return PolicyValueNetwork(
        variant=label,
        observation_shape=shape,
        num_actions=actions,
        hidden=[(np.zeros((4, inputs)), np.zeros(4))],
        policy=(np.zeros((actions, 4)), -np.abs(np.arange(actions) - favourite) / actions),
        value=(np.zeros((1, 4)), np.zeros(1)),
    )


def one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    (line,) = err.strip().splitlines()
    return line


@pytest.fixture
def baselines(tmp_path, monkeypatch):
    """An empty baselines folder in place of the package's."""
    folder = tmp_path / "baselines"
    folder.mkdir()
    monkeypatch.setattr(saved, "BASELINES", folder)
    return folder


# ---------------------------------------------------------------- the network alone
@pytest.mark.parametrize("label", labels())
def test_the_network_alone_plays_whole_games_of_legal_moves(label, saved_network) -> None:
    agent = agents.make("alphazero", simulations=0, checkpoint=saved_network(label), seed=0)
    # play_arena_game raises ValueError at the first illegal action.
    played = play_arena_game(find_variant(label).game, (agent, agent), chance_seed=0)
    assert played.result in (0.0, 0.5, 1.0) and sum(played.moves) > 0


def test_the_network_alone_plays_its_highest_legal_logit(tmp_path) -> None:
    # A network that prefers the last action: Togyz Kumalak's hole 9 is legal at the start and
    # after White sows it; Santorini's last action is rarely legal, the highest legal one is
    # played instead. (Santorini's mean over the board's turns would move the preference
    # around: its own logits are read with symmetries=False.)
    for label in ("togyz-kumalak", "santorini-fixed"):
        last = find_variant(label).game.num_actions - 1
        folder = preferring(label, favourite=last).save(tmp_path / label)
        agent = agents.make("alphazero", simulations=0, checkpoint=folder, symmetries=False)
        state = find_variant(label).game.new_initial_state()
        for _ in range(3):
            assert agent.act(state) == max(state.legal_actions())
            state.apply_action(max(state.legal_actions()))


def test_a_network_plays_every_variant_of_its_rules(saved_network) -> None:
    # togyz-kumalak-tesauro has the rules of togyz-kumalak and another observation: a
    # togyz-kumalak network plays it, reading the observation it was trained on.
    agent = agents.make("alphazero", simulations=0, checkpoint=saved_network("togyz-kumalak"))
    state = find_variant("togyz-kumalak-tesauro").game.new_initial_state()
    assert agent.player_for(state.game).network.variant == "togyz-kumalak"
    assert agent.act(state) in state.legal_actions()


# ---------------------------------------------------------------- the shipped baselines
#: Each shipped baseline with each variant it serves (every variant of the same rules).
SERVED = [
    (baseline, variant.label)
    for baseline in saved.baseline_variants()
    for variant in variants_of(find_variant(baseline).game)
]


@pytest.mark.parametrize(("baseline", "label"), SERVED)
@pytest.mark.parametrize("simulations", [0, 8])
def test_every_shipped_baseline_plays_legal_moves_in_every_variant_it_serves(
    baseline, label, simulations
) -> None:
    if simulations:
        pytest.importorskip("numba", reason="the search needs the batched extra")
    agent = agents.make("alphazero", simulations=simulations, seed=0)
    game = find_variant(label).game
    assert agent.player_for(game).network.variant in saved.baseline_variants()
    # play_arena_game raises ValueError at the first illegal action.
    play_arena_game(game, (agent, agents.make("random", seed=0)), chance_seed=0)


# ---------------------------------------------------------------- where networks are found
def test_a_relative_checkpoint_path_works_from_any_working_folder(
    saved_network, tmp_path, monkeypatch
) -> None:
    saved_network("togyz-kumalak", folder="runs/mine/checkpoint")
    monkeypatch.chdir(tmp_path)
    agent = agents.make("alphazero", simulations=0, checkpoint="runs/mine")  # the run folder
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    state = find_variant("togyz-kumalak").game.new_initial_state()
    assert agent.act(state) in state.legal_actions()
    assert agent.checkpoint == tmp_path / "runs/mine/checkpoint"


def test_an_agent_made_after_a_resume_plays_the_runs_new_network(tmp_path) -> None:
    def checkpointed(seed: int) -> None:  # as a run writes it: a new folder, swapped in whole
        save(tmp_path, random_network("togyz-kumalak", seed).save, {}, [], ["iteration"])

    state = find_variant("togyz-kumalak").game.new_initial_state()
    checkpointed(seed=1)
    before = agents.make("alphazero", simulations=0, checkpoint=str(tmp_path))
    checkpointed(seed=2)  # the run resumed, in this process, saved again
    after = agents.make("alphazero", simulations=0, checkpoint=str(tmp_path))
    assert after._own is not before._own
    newest = random_network("togyz-kumalak", seed=2).policy[0]
    np.testing.assert_allclose(after._own.policy[0], newest, rtol=1e-6)  # saved as float32
    assert after.act(state) in state.legal_actions()


def test_without_a_checkpoint_it_plays_the_shipped_baseline(baselines, saved_network) -> None:
    saved.ship(saved_network("togyz-kumalak"), "togyz-kumalak")
    assert saved.baseline_variants() == ["togyz-kumalak"]
    agent = agents.make("alphazero", simulations=0)
    for label in ("togyz-kumalak", "togyz-kumalak-tesauro"):
        state = find_variant(label).game.new_initial_state()
        assert agent.act(state) in state.legal_actions()


def test_a_shipped_baseline_says_how_it_was_trained_without_the_runs_folder(
    baselines, tmp_path
) -> None:
    network = random_network("togyz-kumalak", 0)
    network.trained = {
        "command": "zoo-games train togyz-kumalak --algorithm alphazero --minutes 20 --seed 1 "
        "--resume --output /home/someone/runs/az",
        "seconds": 1200.0,
    }
    shipped = saved.ship(network.save(tmp_path / "run"), "togyz-kumalak")
    trained = load(shipped).trained
    assert trained == {
        "command": "zoo-games train togyz-kumalak --algorithm alphazero --minutes 20 --seed 1",
        "seconds": 1200.0,
    }
    assert saved.command_without_folder("zoo-games train x --output=runs/y --games 8") == (
        "zoo-games train x --games 8"
    )


def test_a_variant_without_a_baseline_is_one_line(
    baselines, saved_network, monkeypatch, capsys
) -> None:
    agent = agents.make("alphazero", simulations=0)
    game = find_variant("senet-kendall-5").game
    with pytest.raises(ValueError, match="no alphazero baseline ships for 'senet-kendall-5'; none"):
        agent.check_game(game)
    saved.ship(saved_network("togyz-kumalak"), "togyz-kumalak")
    saved.ship(saved_network("santorini-fixed"), "santorini-fixed")
    message = (
        "no alphazero baseline ships for 'santorini-placement'; baselines ship for "
        "santorini-fixed, togyz-kumalak"
    )
    with pytest.raises(ValueError, match=message):
        agent.check_game(find_variant("santorini-placement").game)
    monkeypatch.setattr("zoo_games.arena.tournament.play_arena_game", pytest.fail)
    assert main(["arena", "santorini-placement", "alphazero:simulations=0", "random"]) == 2
    assert message in one_line(capsys)


def test_a_network_of_other_rules_is_refused_before_any_game(
    saved_network, monkeypatch, capsys
) -> None:
    folder = saved_network("santorini-fixed")
    agent = agents.make("alphazero", simulations=0, checkpoint=folder)
    message = "this network was trained on 'santorini-fixed', it cannot play 'togyz-kumalak'"
    with pytest.raises(ValueError, match=message):
        agent.act(find_variant("togyz-kumalak").game.new_initial_state())
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert (
        main(["play", "togyz-kumalak", "--vs", f"alphazero:simulations=0,checkpoint={folder}"]) == 2
    )
    assert message in one_line(capsys)


def test_shipping_checks_the_network_first(baselines, saved_network) -> None:
    with pytest.raises(ValueError, match="trained on 'togyz-kumalak', it cannot play 'senet"):
        saved.ship(saved_network("togyz-kumalak"), "senet-kendall-5")
    assert saved.baseline_variants() == []
    shipped = saved.ship(saved_network("senet-kendall-5"), "senet-kendall-5")
    assert shipped == baselines / "senet-kendall-5"
    assert sorted(path.name for path in shipped.iterdir()) == ["network.json", "network.npz"]


# ---------------------------------------------------------------- options
@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"simulations": -1}, "simulations=-1 is not allowed: expected 0"),
        ({"simulations": True}, "simulations=True is not allowed: expected int"),
        ({"simulations": 1.5}, "simulations=1.5 is not allowed: expected int"),
        ({"seed": -3}, "seed=-3 is not allowed: expected 0 or more"),
        ({"checkpoint": "no/such/run"}, "no/such/run does not exist"),
        ({"checkpoint": "."}, "holds no saved network"),
        ({"checkpoint": ""}, "checkpoint= needs a path"),  # not the working folder's name
        ({"depth": 3}, "agent 'alphazero' has no option depth; its options: simulations,"),
    ],
)
def test_bad_options_are_one_line(options, says, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=says) as raised:
        agents.make("alphazero", **{"simulations": 0, **options})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"simulations": 0, "seconds": 0.1}, "simulations or of seconds per move, not both"),
        ({"simulations": 64, "seconds": 0.1}, "simulations or of seconds per move, not both"),
        ({"seconds": 0}, "alphazero seconds must be positive, not 0"),
        ({"seconds": -1.5}, "alphazero seconds must be positive, not -1.5"),
        ({"seconds": "soon"}, "seconds='soon' is not allowed: expected finite float"),
    ],
)
def test_a_budget_of_seconds_is_checked_in_one_line(options, says) -> None:
    with pytest.raises(ValueError, match=says) as raised:
        agents.make("alphazero", **options)
    assert "\n" not in str(raised.value)


def test_a_budget_of_seconds_plays_within_the_ladder(saved_network) -> None:
    pytest.importorskip("numba", reason="the search needs the batched extra")
    from tests.alphazero.test_pace import budgets_of_opening_moves
    from zoo_games.alphazero.pace import LADDER

    folder = saved_network("togyz-kumalak")
    agent = agents.make("alphazero", seconds=0.02, checkpoint=str(folder), seed=0)
    assert repr(agent).startswith("AlphaZeroAgent(seconds=0.02, ")
    player = agent.player_for(find_variant("togyz-kumalak").game)
    budgets = budgets_of_opening_moves(agent, player, "togyz-kumalak", 6)
    assert budgets[0] == 64 and set(budgets[1:]) <= set(LADDER)


def test_bad_options_on_the_command_line_are_one_line(capsys) -> None:
    assert main(["arena", "togyz-kumalak", "alphazero:simulations=-2", "greedy"]) == 2
    assert "alphazero simulations=-2 is not allowed" in one_line(capsys)


# ---------------------------------------------------------------- arena, play and the web app
def test_it_plays_in_the_arena(saved_network, capsys) -> None:
    pytest.importorskip("numba", reason="the search needs the batched extra")
    folder = saved_network("togyz-kumalak")
    alone = f"alone=alphazero:simulations=0,checkpoint={folder}"
    searching = f"searching=alphazero:simulations=4,checkpoint={folder}"
    assert main(["arena", "togyz-kumalak", alone, searching, "greedy", "--games", "2"]) == 0
    table = capsys.readouterr().out
    assert all(name in table for name in ("alone", "searching", "greedy"))


def test_it_plays_a_whole_game_at_the_terminal(saved_network, monkeypatch, capsys) -> None:
    # The person tries the holes in turn (a hole may be empty); the agent, searching with its
    # default budget, answers each move.
    pytest.importorskip("numba", reason="the search needs the batched extra")
    folder = saved_network("togyz-kumalak")
    entries = "".join(f"{1 + i % 9}\n" for i in range(4000))
    monkeypatch.setattr(sys, "stdin", io.StringIO(entries))
    argv = ["togyz-kumalak", "--vs", f"alphazero:checkpoint={folder}", "--seed", "3"]
    assert main(["play", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "player_1 (Black) plays" in out
    assert out.rstrip().splitlines()[-1].startswith("game over: player_")


def test_the_web_app_offers_it_and_refuses_a_variant_it_cannot_play(
    baselines, saved_network
) -> None:
    pytest.importorskip("starlette", reason="the web extra's starlette serves the app")
    from zoo_games.web.new_game import new_match
    from zoo_games.web.settings import ServerSettings

    settings = ServerSettings(checkpoints=saved_network("togyz-kumalak").parent)
    fields = {"variant": "togyz-kumalak", "opponent": "alphazero:simulations=0", "seed": 0}
    with pytest.raises(ValueError, match="no alphazero baseline ships for 'togyz-kumalak'"):
        new_match(fields, settings)
    fields["opponent"] = "alphazero:simulations=0,checkpoint=togyz-kumalak"
    assert new_match(fields, settings).agents[1].name == "alphazero"


def test_the_ship_script_refuses_in_one_line_and_copies_nothing(saved_network) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "ship_baseline.py"
    before = saved.baseline_variants()
    run = [sys.executable, str(script), str(saved_network("togyz-kumalak")), "santorini-fixed"]
    finished = subprocess.run(run, capture_output=True, text=True, check=False)
    assert finished.returncode == 2 and finished.stdout == ""
    (line,) = finished.stderr.strip().splitlines()
    assert line.startswith("ship_baseline: error: this network was trained on 'togyz-kumalak'")
    assert saved.baseline_variants() == before


# ---------------------------------------------------------------- with the search (numba)
# White sows hole 9 (action 8): its last ball makes 2 in Black's hole 1, a capture that takes
# White's kazan from 80 to 82, a win. Every other hole holds 1 ball and captures nothing.
TOGYZ_WIN = "1,1,1,1,1,1,1,1,2/1,1,1,1,1,1,1,1,1 80 63 W"
# player_0's worker on cell 0 (level 2) can climb onto cell 1 (level 3) and win.
SANTORINI_WIN = "23000/00000/00200/00030/00000 0,24;12,4 0 18,14,12,18"


# Each position with the favourite of a network that does not win. Togyz Kumalak: hole 1
# (action 0); the search considers all 9 moves. Santorini: "worker 0 S to r1c0, build level 3
# N" (action 49); the 8 winning climbs (actions 32-39, one per build direction) are 10 to 17
# actions away, and Gumbel's search considers the network's 16 favourites of the 30 legal
# moves, among them climbs 36-39.
WINS_IN_ONE = [("togyz-kumalak", TOGYZ_WIN, 0), ("santorini-fixed", SANTORINI_WIN, 49)]


def wins_at_once(state, action: int) -> bool:
    after = state.clone()
    after.apply_action(action)
    return after.is_terminal() and after.returns()[state.current_player()] == 1.0


@pytest.mark.parametrize("label", labels())
def test_the_search_plays_whole_games_of_legal_moves(label, saved_network) -> None:
    pytest.importorskip("numba", reason="the search needs the batched extra")
    agent = agents.make("alphazero", simulations=4, checkpoint=saved_network(label), seed=0)
    played = play_arena_game(find_variant(label).game, (agent, agent), chance_seed=0)
    assert played.result in (0.0, 0.5, 1.0) and sum(played.moves) > 0


@pytest.mark.parametrize(("label", "position", "favourite"), WINS_IN_ONE)
def test_the_search_takes_a_win_in_one_that_the_network_does_not_favour(
    label, position, favourite, tmp_path
) -> None:
    pytest.importorskip("numba", reason="the search needs the batched extra")
    folder = preferring(label, favourite).save(tmp_path / label)
    state = find_variant(label).game.state_from_position(position)
    # The network's own logits, not their mean over Santorini's turns, favour ``favourite``.
    alone = agents.make("alphazero", simulations=0, checkpoint=folder, symmetries=False)
    assert alone.act(state) == favourite and not wins_at_once(state, favourite)
    searching = agents.make(
        "alphazero", simulations=16, checkpoint=folder, seed=0, symmetries=False
    )
    assert wins_at_once(state, searching.act(state))


@pytest.mark.parametrize(
    ("position", "blocks"),
    [(SANTORINI_ONE_BLOCK, "worker 0 SE to r2c3, build a dome S on r3c3")],
)
def test_searching_it_leaves_out_the_moves_that_let_the_opponent_win_at_once(
    position, blocks, saved_network
) -> None:
    # 1 of 70 moves stops player_1's climb; a random network with 2 simulations would not
    # find it, the check batched-mcts makes before its search does.
    pytest.importorskip("numba", reason="the search needs the batched extra")
    state = find_variant("santorini-fixed").game.state_from_position(position)
    for seed in range(3):
        folder = saved_network("santorini-fixed", seed=seed, folder=f"net{seed}")
        agent = agents.make("alphazero", simulations=2, checkpoint=folder, seed=seed)
        assert state.action_to_string(agent.act(state)) == blocks


def test_the_search_draws_nothing_when_it_plays(saved_network) -> None:
    """No exploration noise, and Senet's throws followed in proportion: seeds give one play."""
    pytest.importorskip("numba", reason="the search needs the batched extra")
    folder = saved_network("senet-kendall-5")

    def decisions(seed: int) -> list[int]:
        agent = agents.make("alphazero", simulations=8, checkpoint=folder, seed=seed)
        state = find_variant("senet-kendall-5").game.new_initial_state()
        throws = np.random.default_rng(0)
        chosen: list[int] = []
        while not state.is_terminal() and len(chosen) < 30:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(throws.choice(outcomes, p=weights)))
                continue
            chosen.append(agent.act(state))
            state.apply_action(chosen[-1])
        return chosen

    assert decisions(seed=3) == decisions(seed=3) == decisions(seed=4)


@pytest.mark.parametrize(
    ("label", "averaged"),
    [("santorini-fixed", True), ("togyz-kumalak", False), ("senet-kendall-5", False)],
)
def test_by_default_a_board_with_symmetries_is_scored_by_their_mean(label, averaged) -> None:
    game = find_variant(label).game
    by_default = agents.make("alphazero", simulations=0).player_for(game)
    assert isinstance(by_default.evaluator, SymmetricEvaluator) == averaged
    alone = agents.make("alphazero", simulations=0, symmetries=False).player_for(game)
    assert alone.evaluator is alone.network
