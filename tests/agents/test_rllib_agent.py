"""The rllib agent plays a checkpoint written by ``zoo-games train``; training shapes with
the games' evaluations."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from gymnasium import spaces

pytest.importorskip("ray.rllib")

import torch

from zoo_games import agents
from zoo_games.agents.evaluation import evaluation_for
from zoo_games.catalog import find_variant
from zoo_games.cli import main
from zoo_games.rllib.agent import load_module
from zoo_games.rllib.policies import MODULES_FOLDER
from zoo_games.rllib.policy_agent import observer_reading
from zoo_games.rllib.shaping import potential_for
from zoo_games.rllib.train import TrainSettings, train

LABEL = "santorini-placement"


def tiny_run(output: Path, label: str, iterations: int = 1, resume: bool = False) -> Path:
    """``output`` after tiny training iterations on variant ``label`` (``iterations`` in all)."""
    import ray

    # train() starts a Ray of its own (address="local") unless one runs in this process
    # already, as after another test's training; the run's Ray is shut down afterwards.
    try:
        settings = TrainSettings(
            variant=label,
            output_dir=str(output),
            iterations=iterations,
            resume=resume,
            eval_every=0,
            final_eval_games=2,
            hidden=[16],
            train_batch_size=200,
            minibatch_size=100,
            epochs=1,
            envs_per_env_runner=1,
        )
        train(settings, progress=lambda line: None)
    finally:
        ray.shutdown()
    return output


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    return tiny_run(tmp_path_factory.mktemp("run") / LABEL, LABEL)


@pytest.mark.parametrize("sample", [False, True])
def test_a_trained_policy_plays_legal_moves_for_both_seats(run_folder, sample):
    env = find_variant(LABEL).env()
    player = agents.make("rllib", checkpoint=str(run_folder), sample=sample, seed=0)
    other = agents.make("rllib", checkpoint=str(run_folder / "checkpoint"), sample=sample, seed=0)
    returns = agents.play_game(env, {"player_0": player, "player_1": other}, seed=0)
    assert sorted(returns.values()) == [-1.0, 1.0]  # env() would end an illegal move with 0


def test_the_greedy_rllib_agent_is_deterministic(run_folder):
    state = find_variant(LABEL).game.new_initial_state()
    first = agents.make("rllib", checkpoint=str(run_folder))
    second = agents.make("rllib", checkpoint=str(run_folder))
    assert first.act(state) == second.act(state)


def test_bad_checkpoints_say_what_is_wrong(tmp_path, run_folder):
    with pytest.raises(ValueError, match="needs checkpoint=PATH"):
        agents.make("rllib")
    with pytest.raises(ValueError, match="does not exist"):
        agents.make("rllib", checkpoint=str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="neither a zoo-games train run"):
        agents.make("rllib", checkpoint=str(tmp_path))
    other_game = find_variant("togyz-kumalak").game.new_initial_state()
    with pytest.raises(ValueError, match="trained on 'santorini-placement'"):
        agents.make("rllib", checkpoint=str(run_folder)).act(other_game)


def relabelled(run_folder: Path, tmp_path: Path, label: str) -> Path:
    """A copy of ``run_folder`` whose settings name variant ``label`` instead of its own."""
    moved = tmp_path / "run"
    shutil.copytree(run_folder, moved)
    settings = moved / "settings.txt"
    own = re.search(r"^variant = (.*)$", settings.read_text(), re.MULTILINE)
    assert own is not None
    settings.write_text(settings.read_text().replace(own.group(0), f"variant = {label!r}"))
    return moved


def test_a_board_policy_of_senet_plays_on_after_the_moves_became_the_default(tmp_path):
    # A run of senet-kendall-5 trained before the moves observation became its default read
    # the board alone: its settings name senet-kendall-5, its module reads 217 values.
    board_run = tiny_run(tmp_path / "board", "senet-kendall-5-board")
    old_run = relabelled(board_run, tmp_path, "senet-kendall-5")
    agent = agents.make("rllib", checkpoint=str(old_run))
    assert agent.variant == "senet-kendall-5"
    board = agents.make("rllib", checkpoint=str(board_run))
    env = find_variant("senet-kendall-5").env()
    returns = agents.play_game(env, {"player_0": agent, "player_1": board}, seed=0)
    assert sorted(returns.values()) == [-1.0, 1.0]  # env() would end an illegal move with 0
    state = find_variant("senet-kendall-5").game.new_initial_state()
    while state.is_chance_node():  # the opening throw
        state.apply_action(3)
    assert agent.act(state) == board.act(state)  # the same module, shown the same board


def test_a_policy_is_refused_where_no_variant_of_its_rules_observes_what_it_read(
    tmp_path, run_folder
):
    moved = relabelled(run_folder, tmp_path, "togyz-kumalak")
    with pytest.raises(
        ValueError,
        match=r"reads observations of shape \(5, 5, 15\), but 'togyz-kumalak' observes "
        r"\(93,\) and no variant of its rules observes that: it was trained on another "
        "observation",
    ):
        agents.make("rllib", checkpoint=str(moved))


@pytest.mark.parametrize(
    ("label", "shape", "reading"),
    [
        ("senet-kendall-5", (217,), "senet-kendall-5-board"),
        ("senet-skyruk-5", (217,), "senet-skyruk-5-board"),
        ("senet-kendall-5", (247,), "senet-kendall-5"),
        ("senet-kendall-5-board", (247,), "senet-kendall-5"),
        ("togyz-kumalak", (39,), "togyz-kumalak-board"),
    ],
)
def test_the_observer_is_the_one_of_the_variant_that_observes_what_the_modules_read(
    label, shape, reading
):
    module = SimpleNamespace(observation_space={"observation": spaces.Box(0, 1, shape)})
    assert observer_reading(find_variant(label), [module, module]).label == reading


def test_a_run_saved_before_shapes_were_recorded_resumes_only_as_its_module_reads(
    tmp_path, run_folder
):
    # Its run.json names no observation shape: the resume asks the saved module instead.
    moved = tmp_path / "run"
    shutil.copytree(run_folder, moved)
    run_json = moved / "checkpoint" / "run.json"
    saved = json.loads(run_json.read_text())
    del saved["observation_shape"]
    run_json.write_text(json.dumps({**saved, "variant": "santorini-fixed-tactics"}))
    asked = {"output_dir": str(moved), "resume": True, "hidden": [16], "iterations": 5}
    with pytest.raises(
        ValueError,
        match=r"with observation_shape \[535\]: it was trained with observation_shape \[5, 5, 15\]",
    ):
        TrainSettings(variant="santorini-fixed-tactics", **asked).checked()
    run_json.write_text(json.dumps(saved))
    assert TrainSettings(variant=LABEL, **asked).checked().resume


def test_an_agent_made_after_a_resume_plays_the_resumed_runs_module(tmp_path):
    run = tiny_run(tmp_path / LABEL, LABEL)
    before = agents.make("rllib", checkpoint=str(run))
    # One more iteration, in this process, into the same checkpoint folder.
    tiny_run(run, LABEL, iterations=2, resume=True)
    after = agents.make("rllib", checkpoint=str(run))
    trained = load_module(run / "checkpoint" / MODULES_FOLDER / "shared").state_dict()
    for seat_module in (after._modules[0], after._modules[1]):
        for name, tensor in seat_module.state_dict().items():
            assert torch.equal(tensor, trained[name]), name
    old = before._modules[0].state_dict()
    assert any(not torch.equal(tensor, old[name]) for name, tensor in trained.items())


def test_training_shapes_with_the_evaluations():
    assert potential_for("togyz_kumalak") is evaluation_for("togyz_kumalak")
    assert potential_for("santorini") is evaluation_for("santorini")
    assert potential_for("senet") is None


def test_a_relative_checkpoint_path_works_from_any_working_folder(run_folder, monkeypatch, capsys):
    # RLlib reads a relative path as a URI without a scheme: the agent resolves it first.
    monkeypatch.chdir(run_folder.parent.parent)
    relative = f"{run_folder.parent.name}/{run_folder.name}"
    agent = agents.make("rllib", checkpoint=relative)
    state = find_variant(LABEL).raw_env().game.new_initial_state()
    assert agent.act(state) in state.legal_actions()
    assert main(["arena", LABEL, f"rllib:checkpoint={relative}", "random", "--games", "2"]) == 0
    assert "rllib:checkpoint=" in capsys.readouterr().out


def test_the_agent_lives_in_the_rllib_room():
    # Nothing in zoo_games.agents imports from zoo_games.rllib (a room above it).
    assert agents.registry.AGENT_CLASSES["rllib"] == "zoo_games.rllib.agent:RLlibAgent"
    sources = Path(agents.__file__).parent.glob("*.py")
    upward = re.compile(r"^\s*(from|import) zoo_games\.rllib", re.MULTILINE)
    assert not [path.name for path in sources if upward.search(path.read_text())]
