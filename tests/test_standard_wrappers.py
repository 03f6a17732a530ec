"""``env()`` behaves exactly like PettingZoo's own three wrappers around the raw environment.

``zoo_games.core.standard_wrappers`` reaches the raw environment's attributes directly and
hands legal steps straight to the game. These tests play the same scripted games, with legal,
illegal and out-of-range actions, numpy integers, ``None`` and calls before ``reset``, through
``env()`` and through PettingZoo's unmodified wrappers, and require the same observations,
rewards, flags, agent selection and errors after every call.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from zoo_games.catalog import Variant, variants
from zoo_games.core import standard_wrappers as ours

VARIANTS = variants()


def pettingzoo_stack(raw: AECEnv) -> AECEnv:
    """The wrappers as PettingZoo's classic games apply them, unmodified."""
    env: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
def test_the_installed_pettingzoo_keeps_the_state_the_fast_path_relies_on(variant: Variant) -> None:
    assert ours.missing_private_state(type(variant.raw_env())) == []
    assert isinstance(variant.env(), ours.OrderEnforcingWrapper)


def test_a_pettingzoo_without_that_state_gets_its_own_wrappers_and_a_warning(monkeypatch) -> None:
    # As if a PettingZoo release had renamed one of the private attributes.
    renamed = {**ours.PRIVATE_STATE, "TerminateIllegalWrapper": ("_prev_obs", "_renamed")}
    monkeypatch.setattr(ours, "PRIVATE_STATE", renamed)
    ours.missing_private_state.cache_clear()
    try:
        variant = VARIANTS[0]
        with pytest.warns(RuntimeWarning, match=r"TerminateIllegalWrapper\._renamed"):
            env = variant.env()
        assert type(env) is wrappers.OrderEnforcingWrapper
        assert type(env.env.env) is wrappers.TerminateIllegalWrapper
        env.reset(seed=1)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[0]))  # plays as PettingZoo's stack does
    finally:
        ours.missing_private_state.cache_clear()


def outcome(call: Any, *args: Any) -> tuple[str, Any]:
    """What ``call(*args)`` returned, or the type and message of what it raised."""
    try:
        return ("returned", call(*args))
    except Exception as error:  # any error must match in type and message
        return (type(error).__name__, str(error))


def snapshot(env: AECEnv) -> dict[str, Any]:
    """Everything a user can read off an environment after a call."""
    raw = env.unwrapped
    seen: dict[str, Any] = {
        name: outcome(lambda name=name: getattr(env, name))
        for name in ("agents", "agent_selection", "rewards", "terminations", "truncations")
    }
    seen["cumulative"] = outcome(lambda: dict(raw._cumulative_rewards))
    seen["last"] = outcome(lambda: normalised(env.last()))
    seen["observe"] = {
        agent: outcome(lambda agent=agent: normalised(env.observe(agent)))
        for agent in env.possible_agents
    }
    return seen


def normalised(value: Any) -> Any:
    """Arrays as (dtype, list) so that results compare with ``==``."""
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.tolist())
    if isinstance(value, dict):
        return {key: normalised(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(normalised(item) for item in value)
    return value


def scripted_action(env: AECEnv, rng: random.Random) -> Any:
    """Mostly legal moves, sometimes the kinds of bad input a user sends."""
    raw = env.unwrapped
    legal = raw.legal_actions()
    n = raw.game.num_actions
    roll = rng.random()
    if roll < 0.04:
        return None
    if roll < 0.07:
        return rng.choice([n, -1, n + 5])
    if roll < 0.10:
        illegal = [a for a in range(n) if a not in legal]
        return rng.choice(illegal) if illegal else 0
    if roll < 0.13 and legal:
        return np.int64(rng.choice(legal))
    return rng.choice(legal) if legal else None


def play_both(variant: Variant, seed: int, action_mask: str) -> None:
    fast = variant.env(action_mask=action_mask)
    reference = pettingzoo_stack(variant.raw_env(action_mask=action_mask))
    assert isinstance(fast, ours.OrderEnforcingWrapper)
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Before reset: every call must fail the same way.
        assert outcome(fast.step, 0) == outcome(reference.step, 0)
        assert outcome(fast.observe, "player_0") == outcome(reference.observe, "player_0")
        assert snapshot(fast) == snapshot(reference)
        for game in range(2):
            fast.reset(seed=seed + game)
            reference.reset(seed=seed + game)
            assert snapshot(fast) == snapshot(reference)
            for _ in range(400):
                if not reference.agents:
                    break
                if rng.random() < 0.3:  # sometimes a user looks before acting
                    assert normalised(fast.last()) == normalised(reference.last())
                action = scripted_action(reference, rng)
                assert outcome(fast.step, action) == outcome(reference.step, action)
                assert snapshot(fast) == snapshot(reference)
            # A step once every agent has left: both warn and change nothing.
            assert outcome(fast.step, 0) == outcome(reference.step, 0)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
@pytest.mark.parametrize("action_mask", ["observation", "info"])
def test_env_matches_pettingzoos_wrappers_call_for_call(variant: Variant, action_mask: str) -> None:
    for seed in range(3):
        play_both(variant, seed, action_mask)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), index=st.integers(0, len(VARIANTS) - 1))
def test_env_matches_pettingzoos_wrappers_on_any_script(seed: int, index: int) -> None:
    play_both(VARIANTS[index], seed, "observation")


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
def test_agent_iter_yields_the_same_agents_and_enforces_the_same_order(variant: Variant) -> None:
    fast = variant.env()
    reference = pettingzoo_stack(variant.raw_env())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(fast.agent_iter) == outcome(reference.agent_iter)  # before reset
        for env in (fast, reference):
            env.reset(seed=7)
        rng_fast, rng_reference = random.Random(7), random.Random(7)
        seen: dict[str, list[Any]] = {"fast": [], "reference": []}
        for label, env, rng in (
            ("fast", fast, rng_fast),
            ("reference", reference, rng_reference),
        ):
            for agent in env.agent_iter(max_iter=150):
                observation, reward, termination, truncation, _ = env.last()
                seen[label].append(
                    (agent, normalised(observation), reward, termination, truncation)
                )
                action = None if termination or truncation else scripted_action(env, rng)
                env.step(action)
        assert seen["fast"] == seen["reference"]
        # Not stepping inside the loop fails the same assertion.
        for env in (fast, reference):
            env.reset(seed=8)
        assert outcome(lambda: [None for _ in fast.agent_iter(3)]) == outcome(
            lambda: [None for _ in reference.agent_iter(3)]
        )
