"""PPO's train batch built whole (:mod:`zoo_games.rllib.ppo_batch`): GAE worked out by hand,
against RLlib's own recursion, and the batch against RLlib's default learner pipeline on
episodes both engines sampled, and steps with one legal action kept in it.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("CI"):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.env.single_agent_episode import SingleAgentEpisode
from ray.rllib.evaluation.postprocessing import Postprocessing
from ray.rllib.utils.postprocessing.value_predictions import compute_value_targets

from zoo_games.catalog import find_variant
from zoo_games.rllib.module import MaskedActorCritic
from zoo_games.rllib.ppo_batch import PPOBatch, _tensors, advantages
from zoo_games.rllib.train import TrainSettings, ppo_config


def test_advantages_of_two_chunks_worked_out_by_hand():
    # Chunk 1 ends its game: rewards 0, 1; values 0.5, 0.2; nothing after it.
    #   gamma 0.9, lambda 0.5: delta[1] = 1 + 0.9 * 0 - 0.2 = 0.8, A[1] = 0.8;
    #   delta[0] = 0 + 0.9 * 0.2 - 0.5 = -0.32, A[0] = -0.32 + 0.45 * 0.8 = 0.04.
    # Chunk 2 is cut by the rollout after one step: reward 0, value 0.4, bootstrap 0.6:
    #   delta = 0 + 0.9 * 0.6 - 0.4 = 0.14 = A (chunk 1's values never reach it).
    got = advantages(
        values=np.array([0.5, 0.2, 0.4]),
        rewards=np.array([0.0, 1.0, 0.0]),
        bootstraps=np.array([0.0, 0.6]),
        lengths=np.array([2, 1]),
        gamma=0.9,
        lambda_=0.5,
    )
    np.testing.assert_allclose(got, [0.04, 0.8, 0.14])


chunk = st.tuples(
    st.integers(1, 12),  # steps
    st.booleans(),  # the game ended after the last step
    st.integers(0, 2**31 - 1),  # seed of the values and rewards
)


@settings(max_examples=60, deadline=None)
@given(st.lists(chunk, min_size=1, max_size=6), st.floats(0.5, 1.0), st.floats(0.0, 1.0))
def test_advantages_are_rllibs_recursion_chunk_by_chunk(chunks, gamma, lambda_):
    values, rewards, bootstraps, expected = [], [], [], []
    for steps, ended, seed in chunks:
        rng = np.random.default_rng(seed)
        value, reward, bootstrap = rng.normal(size=steps), rng.normal(size=steps), rng.normal()
        values.append(value)
        rewards.append(reward)
        bootstraps.append(0.0 if ended else bootstrap)
        # RLlib's form: one artificial step after the chunk carries the value after it.
        flags = np.zeros(steps + 1)
        flags[steps - 1] = 1.0
        targets = compute_value_targets(
            values=np.append(value, bootstrap),
            rewards=np.append(reward, 0.0),
            terminateds=flags if ended else np.zeros(steps + 1),
            truncateds=np.zeros(steps + 1) if ended else flags,
            gamma=gamma,
            lambda_=lambda_,
        )
        expected.append(targets[:steps] - value)
    got = advantages(
        np.concatenate(values),
        np.concatenate(rewards),
        np.array(bootstraps),
        np.array([steps for steps, _, _ in chunks]),
        gamma,
        lambda_,
    )
    np.testing.assert_allclose(got, np.concatenate(expected), rtol=1e-4, atol=1e-4)


def trained_once(**overrides: Any) -> tuple[Any, TrainSettings]:
    """A small Kendall PPO trained one iteration (off its first weights), and its settings.

    The driver's runner samples, so that a test can call it.
    """
    settings = TrainSettings(
        variant="senet-kendall-5",
        env_runners=0,
        envs_per_env_runner=8,
        train_batch_size=600,
        minibatch_size=300,
        seed=3,
        **overrides,
    )
    algo = ppo_config(settings).build_algo()
    try:
        algo.train()
    except BaseException:
        algo.stop()
        raise
    return algo, settings


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize(
    ("engine", "shared_policy"), [("batched", True), ("env", True), ("batched", False)]
)
def test_the_batch_is_rllibs_default_pipeline_without_its_artificial_steps(engine, shared_policy):
    algo, settings_ = trained_once(engine=engine, shared_policy=shared_policy)
    try:
        learner = algo.learner_group._learner
        assert [type(piece) for piece in learner._learner_connector.connectors] == [PPOBatch]
        # Two rollouts: chunks cut mid-game, and games that ended, on both seats.
        episodes = algo.env_runner.sample(num_timesteps=600)
        episodes += algo.env_runner.sample(num_timesteps=600)
        assert any(episode.is_terminated for episode in episodes)
        assert any(not episode.is_done for episode in episodes)
        ours = learner._learner_connector(
            rl_module=learner.module, batch={}, episodes=copy.deepcopy(episodes)
        )
        rllibs = ppo_config(settings_).learners(
            learner_connector=None, add_default_connectors_to_learner_pipeline=True
        )
        default = type(learner)(config=rllibs, module=learner.module)
        default.build()
        theirs = default._learner_connector(
            rl_module=learner.module, batch={}, episodes=copy.deepcopy(episodes), shared_data={}
        )
    finally:
        algo.stop()
    assert set(ours) == set(theirs) == set(learner.module.keys())
    for module_id, batch in ours.items():
        # Ours keeps every real step, forced ones (one legal action) included.
        real = theirs[module_id][Columns.LOSS_MASK].numpy().astype(bool)
        legal = theirs[module_id][Columns.OBS]["action_mask"].numpy().sum(axis=1)
        assert (legal[real] == 1).any() and (legal[real] > 1).any()
        assert len(batch[Columns.ACTIONS]) == real.sum() > 0
        assert Columns.LOSS_MASK not in batch
        for column in (Columns.ACTIONS, Columns.ACTION_LOGP, Columns.ACTION_DIST_INPUTS):
            np.testing.assert_array_equal(
                batch[column].numpy(), theirs[module_id][column].numpy()[real]
            )
        for part, seen in batch[Columns.OBS].items():
            np.testing.assert_array_equal(
                seen.numpy(), theirs[module_id][Columns.OBS][part].numpy()[real]
            )
        targets = theirs[module_id][Postprocessing.VALUE_TARGETS].numpy()[real]
        np.testing.assert_allclose(
            batch[Postprocessing.VALUE_TARGETS].numpy(), targets, rtol=1e-5, atol=1e-5
        )
        # The advantages: the targets less the values, standardized over the real steps.
        with torch.no_grad():
            values = learner.module[module_id].compute_values(batch).numpy()
        raw = targets - values
        np.testing.assert_allclose(
            batch[Postprocessing.ADVANTAGES].numpy(),
            (raw - raw.mean()) / raw.std(),
            rtol=1e-4,
            atol=1e-4,
        )


def _chunk(masks: list[list[int]], rewards: list[float]) -> SingleAgentEpisode:
    """A finished game's chunk of ``len(masks)`` Senet steps, with the masks given."""
    env = find_variant("senet-kendall-5").raw_env()
    space = env.observation_space("player_0")
    width = space["action_mask"].shape[0]
    observation = np.zeros(space["observation"].shape, dtype=space["observation"].dtype)
    action_masks = np.zeros((len(masks) + 1, width), dtype=np.int8)
    for step, legal in enumerate(masks):
        action_masks[step, legal] = 1
    actions = np.array([legal[0] for legal in masks])
    return SingleAgentEpisode(
        observations={
            "observation": np.stack([observation + step for step in range(len(masks) + 1)]),
            "action_mask": action_masks,
        },
        infos=[{} for _ in range(len(masks) + 1)],
        actions=actions,
        rewards=np.array(rewards),
        extra_model_outputs={
            Columns.ACTION_LOGP: np.zeros(len(masks), dtype=np.float32),
            Columns.ACTION_DIST_INPUTS: np.zeros((len(masks), width), dtype=np.float32),
        },
        terminated=True,
        len_lookback_buffer=0,
        module_id="shared",
    )


def test_steps_with_one_legal_action_stay_in_the_batch_and_in_gae():
    env = find_variant("senet-kendall-5").raw_env()
    module = MaskedActorCritic(
        observation_space=env.observation_space("player_0"),
        action_space=env.action_space("player_0"),
        model_config={"hidden": [8]},
    )
    # Steps 1 and 3 had one legal action each; the game is won on step 3.
    chunk = _chunk([[3, 7], [5], [1, 2, 9], [50]], [0.0, 0.0, 0.0, 1.0])
    batch = PPOBatch(gamma=1.0, lambda_=1.0)(
        rl_module={"shared": module}, batch={}, episodes=[chunk]
    )["shared"]
    np.testing.assert_array_equal(batch[Columns.ACTIONS].numpy(), [3, 5, 1, 50])
    np.testing.assert_array_equal(batch[Columns.OBS]["observation"][:, 0].numpy(), [0, 1, 2, 3])
    # With gamma and lambda 1 a value target is the game's return, at every step: the forced
    # steps train the value at their positions too.
    np.testing.assert_allclose(batch[Postprocessing.VALUE_TARGETS].numpy(), [1.0] * 4)
    # The advantages are the return less each value, standardized over the four steps.
    with torch.no_grad():
        values = module.compute_values({Columns.OBS: batch[Columns.OBS]}).numpy()
    raw = 1.0 - values
    np.testing.assert_allclose(
        batch[Postprocessing.ADVANTAGES].numpy(), (raw - raw.mean()) / raw.std(), atol=1e-5
    )


@pytest.mark.usefixtures("local_ray")
def test_the_values_a_runner_keeps_are_those_the_learner_would_make_with_the_same_weights():
    algo, _ = trained_once(greedy_share=0.5)  # its runner samples with the learner's weights
    try:
        learner = algo.learner_group._learner
        # Fresh games: no decision waits from a rollout sampled before the update.
        samples = [algo.env_runner.sample_arrays(force_reset=reset) for reset in (True, False)]
        assert all(chunks.values is not None for s in samples for chunks in s.modules.values())
        kept = learner._learner_connector(rl_module=learner.module, batch={}, episodes=samples)
        for sample in samples:
            for module_id, chunks in sample.modules.items():
                sample.modules[module_id] = dataclasses.replace(chunks, values=None)
        made = learner._learner_connector(rl_module=learner.module, batch={}, episodes=samples)
    finally:
        algo.stop()
    assert set(kept) == set(made) == {"shared"}
    for column in (Postprocessing.VALUE_TARGETS, Postprocessing.ADVANTAGES):
        np.testing.assert_allclose(
            kept["shared"][column].numpy(), made["shared"][column].numpy(), rtol=1e-4, atol=1e-4
        )
    np.testing.assert_array_equal(
        kept["shared"][Columns.ACTIONS].numpy(), made["shared"][Columns.ACTIONS].numpy()
    )


def test_read_only_arrays_become_tensors_without_a_warning():
    """Arrays from Ray's object store are read-only: copied, where writable ones are shared."""
    sampled = np.arange(6.0)
    sampled.flags.writeable = False
    gathered = np.arange(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tensors = _tensors({"sampled": sampled, "gathered": gathered}, torch.device("cpu"))
    assert tensors["sampled"].tolist() == sampled.tolist()
    assert not np.shares_memory(tensors["sampled"].numpy(), sampled)
    assert np.shares_memory(tensors["gathered"].numpy(), gathered)
