"""RLlib training: the environment wrapper, the masking module, and short training runs.

These need the ``rllib`` extra. Outside CI they are skipped when it is missing; in CI
(``CI=true``) a missing extra is a failure, so the suite can never pass by skipping them.
"""

from __future__ import annotations

import csv
import os
from dataclasses import replace

import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")

import gymnasium as gym
import torch
from ray.rllib.core.columns import Columns

from tests.rllib.tiny import tiny
from zoo_games.arena import run_arena
from zoo_games.catalog import find_variant, variants
from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.env import TurnBasedMultiAgentEnv
from zoo_games.rllib.module import MaskedActorCritic
from zoo_games.rllib.policy_agent import ModuleAgent, masked_logits
from zoo_games.rllib.train import _train_iteration, ppo_config, train
from zoo_games.training.evaluation import evaluate_against, win_rate_column
from zoo_games.training.learning_rate import decayed
from zoo_games.training.plot import plot_learning_curve

#: The first variant of each game keeps the RLlib part of CI short.
_FIRST_VARIANTS: dict[str, str] = {}
for _variant in variants():
    _FIRST_VARIANTS.setdefault(_variant.env_id, _variant.label)
GAME_VARIANTS = list(_FIRST_VARIANTS.values())


pytestmark = pytest.mark.usefixtures("local_ray")


@pytest.mark.parametrize("shaping", [False, True], ids=["plain", "shaped"])
@pytest.mark.parametrize("label", GAME_VARIANTS)
def test_env_gives_turns_to_the_acting_agent_and_final_rewards_to_both(label, shaping):
    # With shaping, the per-step rewards differ but every agent's sum is still the outcome.
    env = TurnBasedMultiAgentEnv({"variant": label, "shaping": shaping})
    rng = np.random.default_rng(0)
    for seed in range(3):
        observations, _ = env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while True:
            (agent,) = observations  # exactly one agent is asked to act
            assert agent == env.game_env.agent_selection
            mask = observations[agent]["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            observations, rewards, terminateds, _, _ = env.step({agent: action})
            for name, reward in rewards.items():
                totals[name] += reward
            assert set(rewards) == set(observations)
            if terminateds["__all__"]:
                break
        assert set(observations) == set(env.possible_agents)
        outcome = [env.game_env._cumulative_rewards[agent] for agent in env.possible_agents]
        assert sorted(outcome) in ([-1.0, 1.0], [0.0, 0.0])
        assert [totals[agent] for agent in env.possible_agents] == pytest.approx(outcome)


def test_env_refuses_an_illegal_action():
    env = TurnBasedMultiAgentEnv({"variant": GAME_VARIANTS[0]})
    observations, _ = env.reset(seed=0)
    (agent,) = observations
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal"):
        env.step({agent: illegal})


@pytest.mark.parametrize("shape", [(67,), (3, 5, 5), (2, 9)])
def test_module_reads_any_shape_and_int8_and_never_samples_an_illegal_action(shape):
    n = 12
    observation_space = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(0, 5, shape=shape, dtype=np.int8),
            "action_mask": gym.spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        }
    )
    module = MaskedActorCritic(
        observation_space=observation_space,
        action_space=gym.spaces.Discrete(n),
        model_config={"hidden": [16]},
    )
    rng = np.random.default_rng(0)
    masks = rng.integers(0, 2, size=(64, n)).astype(np.int8)
    masks[np.arange(64), rng.integers(0, n, 64)] = 1  # at least one legal action each
    batch = {
        Columns.OBS: {
            "observation": torch.as_tensor(rng.integers(0, 6, (64, *shape)).astype(np.int8)),
            "action_mask": torch.as_tensor(masks),
        }
    }
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        samples = torch.distributions.Categorical(logits=logits).sample((200,))
        chosen = torch.as_tensor(masks).bool().gather(1, samples.T)
        assert bool(chosen.all())
    values = module.compute_values(batch)
    assert values.shape == (64,)


def untrained_module(label: str) -> MaskedActorCritic:
    env = find_variant(label).raw_env()
    return MaskedActorCritic(
        observation_space=env.observation_space("player_0"),
        action_space=env.action_space("player_0"),
        model_config={"hidden": [16]},
    )


@pytest.mark.parametrize("label", GAME_VARIANTS)
def test_module_agent_sees_what_the_environment_shows_and_plays_in_the_arena(label):
    module = untrained_module(label)
    agent = ModuleAgent(module, label)
    env = find_variant(label).raw_env()
    env.reset(seed=3)
    for _ in range(30):
        if all(env.terminations.values()):
            break
        observation = env.observe(env.agent_selection)
        action = agent.act(env.game_state)
        logits = masked_logits(module, observation["observation"], observation["action_mask"])
        assert action == int(np.argmax(logits))
        assert np.isneginf(logits[observation["action_mask"] == 0]).all()
        env.step(action)
    # Whole games against random play: the arena applies its actions with a legality check.
    result = run_arena(label, {"module": agent, "random": "random"}, games=2, seed=0)
    assert result.pairing("module", "random").games == 2


def test_a_sampling_module_agent_draws_legal_actions_with_the_policys_probabilities():
    label = "senet-kendall-5"
    torch.manual_seed(4)
    module = untrained_module(label)
    with torch.no_grad():  # logits far apart, so that uniform draws would fail the test
        module._policy_head.bias.copy_(torch.arange(module._policy_head.out_features) * 0.7)
    env = find_variant(label).raw_env()
    env.reset(seed=5)
    while int(env.observe(env.agent_selection)["action_mask"].sum()) < 2:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    observation = env.observe(env.agent_selection)
    logits = masked_logits(module, observation["observation"], observation["action_mask"])
    expected = torch.softmax(torch.from_numpy(logits).double(), dim=0).numpy()
    agent = ModuleAgent(module, label, sample=True, seed=6)
    draws = 4000
    counts = np.bincount([agent.act(env.game_state) for _ in range(draws)], minlength=len(logits))
    assert counts[observation["action_mask"] == 0].sum() == 0
    assert expected.max() > 0.5  # not near uniform
    # Each action's count within five standard deviations of its expectation.
    spread = np.sqrt(draws * expected * (1 - expected))
    assert (np.abs(counts - draws * expected) <= 5 * spread + 1e-9).all()
    # The same seed draws the same actions.
    first, second = (ModuleAgent(module, label, sample=True, seed=6) for _ in range(2))
    assert [first.act(env.game_state) for _ in range(20)] == [
        second.act(env.game_state) for _ in range(20)
    ]


def test_learning_curve_draws_one_line_per_opponent(tmp_path):
    rows = [
        {"minutes": 1.0, "win_rate_vs_random": 0.5, "win_rate_vs_greedy": 0.1},
        {"minutes": 2.0, "win_rate_vs_random": 0.7, "win_rate_vs_greedy": ""},
        {"minutes": 3.0, "win_rate_vs_random": 0.8, "win_rate_vs_greedy": 0.3},
    ]
    path = tmp_path / "curve.png"
    opponents = {"random": "win_rate_vs_random", "greedy": "win_rate_vs_greedy"}
    plot_learning_curve(rows, path, "test", opponents=opponents)
    assert path.stat().st_size > 0


def test_unknown_opponents_or_odd_evaluation_games_fail_before_training(tmp_path):
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        train(tiny(GAME_VARIANTS[0], tmp_path, eval_opponents=("random", "nobody")))
    with pytest.raises(ValueError, match="at least one"):
        train(tiny(GAME_VARIANTS[0], tmp_path, eval_opponents=()))
    with pytest.raises(ValueError, match="final_eval_games must be a positive even"):
        train(tiny(GAME_VARIANTS[0], tmp_path, final_eval_games=5))
    assert not (tmp_path / GAME_VARIANTS[0]).exists()  # nothing started, nothing written


@pytest.mark.parametrize("label", GAME_VARIANTS)
def test_short_training_run_writes_metrics_curve_and_checkpoint(label, tmp_path):
    settings = tiny(label, tmp_path)
    final = train(settings, progress=lambda line: None)
    output = tmp_path / label
    assert final.games == 4
    with (output / "metrics.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    # Evaluated before training (iteration 0), at every iteration, and at the end: the
    # learning curve has a start, and its last point is the final evaluation.
    assert [row["iteration"] for row in rows] == ["0", "1", "2"]
    assert all(row["win_rate_vs_random"] != "" for row in rows)
    assert rows[-1]["final_win_rate_vs_random"] != "" and rows[-1]["final_eval_games"] == "4"
    assert (output / "learning_curve.png").stat().st_size > 0
    assert (output / "checkpoint").is_dir()


@pytest.mark.parametrize("engine", ["batched", "env"])
def test_training_rewards_are_zero_sum_and_checkpoints_restore(tmp_path, engine):
    settings = tiny(GAME_VARIANTS[0], tmp_path, engine=engine)
    algo = ppo_config(settings).build_algo()
    try:
        algo.train()
        # Whole games sampled by the runner, through the masking module: the raw environment
        # and the engine raise on any illegal action, so getting here means none reached them.
        # (The batched runner samples timesteps: 2 games of at most 1,000 moves here.)
        if engine == "env":
            episodes = algo.env_runner.sample(num_episodes=4, explore=True)
        else:
            episodes = algo.env_runner.sample(num_timesteps=2000, explore=True)
        finished = [episode for episode in episodes if episode.is_done]
        assert finished
        for episode in finished:
            returns = {
                agent: single.get_return() for agent, single in episode.agent_episodes.items()
            }
            assert set(returns.values()) <= {-1.0, 0.0, 1.0}
            if len(returns) == 2:
                assert sum(returns.values()) == 0
        path = tmp_path / "checkpoint"
        algo.save_to_path(str(path))
        weights = algo.get_module("shared").state_dict()
    finally:
        algo.stop()
    restored = ppo_config(settings).build_algo()
    try:
        restored.restore_from_path(str(path))
        again = restored.get_module("shared").state_dict()
        for key, tensor in weights.items():
            assert torch.equal(torch.as_tensor(tensor), torch.as_tensor(again[key])), key
        agent = ModuleAgent(restored.get_module("shared"), settings.variant)
        evaluations = evaluate_against(agent, settings.variant, ["random"], games=2)
        assert evaluations["random"].games == 2
    finally:
        restored.stop()


@pytest.mark.parametrize("spent", [0.0, 0.5, 1.0])
def test_every_minibatch_steps_with_the_learning_rate_of_the_budget_spent(tmp_path, spent):
    # RLlib sets its optimizers back to the configured rate after each update; the schedule's
    # rate must be the one every minibatch of the next iteration steps with.
    settings = tiny(GAME_VARIANTS[0], tmp_path, lr=0.01, final_lr_fraction=0.2).checked()
    algo = ppo_config(settings).build_algo()
    rates: list[float] = []

    def record_rates(learner) -> None:
        apply = learner.apply_gradients

        def recording(gradients):
            for module_id in list(learner.module.keys()):
                for _, optimizer in learner.get_optimizers_for_module(module_id):
                    rates.extend(group["lr"] for group in optimizer.param_groups)
            return apply(gradients)

        learner.apply_gradients = recording

    try:
        algo.learner_group.foreach_learner(record_rates)
        _train_iteration(algo, settings, spent)
        first = len(rates)
        _train_iteration(algo, settings, spent)
    finally:
        algo.stop()
    assert 0 < first < len(rates)  # minibatches of both iterations
    assert rates == pytest.approx([0.01 * decayed(spent, 0.2)] * len(rates))


@pytest.mark.parametrize("weight", [0.0, 1.0])
def test_the_value_loss_weight_is_what_trains_the_value_head(tmp_path, weight):
    # The value head learns from the value loss alone: weighted 0, an iteration leaves it as it
    # was while the policy head and the shared trunk move.
    settings = tiny(GAME_VARIANTS[0], tmp_path, vf_loss_coeff=weight).checked()
    algo = ppo_config(settings).build_algo()
    try:
        before = {
            key: tensor.detach().clone()
            for key, tensor in algo.get_module("shared").state_dict().items()
        }
        _train_iteration(algo, settings, 0.0)
        after = algo.get_module("shared").state_dict()
    finally:
        algo.stop()
    moved = {key for key, tensor in before.items() if not torch.equal(tensor, after[key])}
    assert {"_policy_head.weight", "_trunk.0.weight"} <= moved
    assert ("_value_head.weight" in moved) == (weight > 0)


def test_resume_continues_the_metrics(tmp_path):
    settings = tiny(GAME_VARIANTS[0], tmp_path, iterations=1)
    train(settings, progress=lambda line: None)
    settings.iterations = 2
    settings.resume = True
    lines: list[str] = []
    train(settings, progress=lines.append)
    assert lines[0].startswith("resumed")
    with (tmp_path / GAME_VARIANTS[0] / "metrics.csv").open() as handle:
        assert [row["iteration"] for row in csv.DictReader(handle)] == ["0", "1", "2"]


def test_training_never_replaces_a_run(tmp_path):
    settings = tiny(GAME_VARIANTS[0], tmp_path, iterations=1, eval_every=0)
    train(settings, progress=lambda line: None)
    before = (tmp_path / GAME_VARIANTS[0] / "metrics.csv").read_text()
    with pytest.raises(ValueError, match="already holds a run"):
        train(settings, progress=lambda line: None)
    with pytest.raises(ValueError, match="trained 1 iterations already"):
        train(replace(settings, resume=True), progress=lambda line: None)
    assert (tmp_path / GAME_VARIANTS[0] / "metrics.csv").read_text() == before


def test_policy_per_seat_trains_two_modules_evaluated_against_each_opponent(tmp_path):
    opponents = ("random", "random:seed=7")  # a second opponent: a random agent fixed by seed
    settings = tiny(
        GAME_VARIANTS[0], tmp_path, shared_policy=False, iterations=1, eval_opponents=opponents
    )
    final = train(settings, progress=lambda line: None)
    assert final.games == 4
    with (tmp_path / GAME_VARIANTS[0] / "metrics.csv").open() as handle:
        before_training, row = csv.DictReader(handle)  # iteration 0, then iteration 1
    assert before_training[win_rate_column(opponents[0])] != ""
    assert win_rate_column(opponents[1]) == "win_rate_vs_random_seed_7"
    for opponent in opponents:
        assert row[win_rate_column(opponent)] != ""
        assert row["final_" + win_rate_column(opponent)] != ""


@pytest.mark.parametrize("engine", ["batched", "env"])
def test_a_module_trained_on_either_engine_plays_as_the_rllib_agent(tmp_path, engine):
    from zoo_games import agents

    label = "togyz-kumalak"
    settings = tiny(label, tmp_path, engine=engine, iterations=1, eval_every=0)
    train(settings, progress=lambda line: None)
    assert f"engine = {engine!r}" in (tmp_path / label / "settings.txt").read_text()
    player = agents.make("rllib", checkpoint=str(tmp_path / label))
    result = run_arena(label, {"trained": player, "random": "random"}, games=2, seed=0)
    assert result.pairing("trained", "random").games == 2


def test_the_batched_runner_plays_legal_actions_exploring_greedily_and_at_random(tmp_path):
    settings = tiny("santorini-fixed", tmp_path, engine="batched", envs_per_env_runner=8)
    algo = ppo_config(settings).build_algo()
    try:
        runner = algo.env_runner
        for options in ({"explore": True}, {"explore": False}, {"random_actions": True}):
            # Fresh games: no action of an earlier call waits in them.
            episodes = runner.sample(num_timesteps=400, force_reset=True, **options)
            singles = [s for episode in episodes for s in episode.agent_episodes.values()]
            assert sum(len(single) for single in singles) > 0
            for single in singles:
                masks = single.get_observations()["action_mask"][:-1]
                actions = single.get_actions()
                assert masks[np.arange(len(actions)), actions].all(), options
                logits = single.get_extra_model_outputs(Columns.ACTION_DIST_INPUTS)
                logp = single.get_extra_model_outputs(Columns.ACTION_LOGP)
                if options.get("explore") is False:  # the most likely action
                    assert (actions == logits.argmax(axis=1)).all()
                if options.get("random_actions"):  # uniform over the legal actions
                    np.testing.assert_allclose(logp, -np.log(masks.sum(axis=1)), rtol=1e-6)
        with pytest.raises(ValueError, match="samples timesteps"):
            runner.sample(num_episodes=2)
    finally:
        algo.stop()


def test_sparring_partners_play_a_seat_in_their_shares_and_the_policy_learns_the_other(tmp_path):
    settings = tiny(
        "santorini-fixed",
        tmp_path,
        engine="batched",
        envs_per_env_runner=8,
        greedy_share=0.25,
        random_share=0.5,
    )
    algo = ppo_config(settings).build_algo()
    try:
        runner = algo.env_runner
        assert runner.games.sparring_seat.tolist() == [0, 1, 0, 1, 0, 1, -1, -1]
        assert runner.games.random_sparring.tolist() == [False] * 2 + [True] * 4 + [False] * 2
        episodes = runner.sample(num_timesteps=400, force_reset=True, explore=True)
        seats = [sorted(episode.agent_episodes) for episode in episodes]
        assert list(AGENTS) in seats and [AGENTS[0]] in seats and [AGENTS[1]] in seats
        result = algo.train()  # the learner takes chunks of one seat as of two
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] > 0
    finally:
        algo.stop()
