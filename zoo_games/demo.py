"""A seeded game between two random agents, printed move by move (``zoo-games demo``)."""

from __future__ import annotations

import time

import numpy as np

from zoo_games.agents.random_agent import RandomAgent
from zoo_games.catalog import Variant
from zoo_games.core.drawing import save_gif


def play_demo(chosen: Variant, seed: int, delay: float = 0.0, gif: str | None = None) -> int:
    """Play one game between random agents, printing every move; return its length.

    ``seed`` seeds the throws (Senet) and the agents, so a seed always gives the same game.
    With ``gif``, a picture of every position is written to that file.
    """
    env = chosen.raw_env(render_mode="ansi")
    pictures = chosen.raw_env(render_mode="rgb_array") if gif else None
    env.reset(seed=seed)
    agent = RandomAgent(seed)
    frames: list[np.ndarray] = []
    decisions = 0
    print(f"{chosen.label}: random agents, seed {seed}\n")
    while not all(env.terminations.values()):
        print(env.render())
        if pictures is not None:
            pictures.reset(options={"position": env.position()})
            frames.append(pictures.render())
        state = env.game_state
        assert state is not None
        action = agent.act(state)
        print(f"\n{env.agent_selection} plays {action}: {env.action_to_string(action)}\n")
        env.step(action)
        decisions += 1
        if delay:
            time.sleep(delay)
    print(env.render())
    returns = {agent: env._cumulative_rewards[agent] for agent in env.possible_agents}
    print(f"\ngame over after {decisions} decisions; returns: {returns}")
    if gif:
        save_gif(gif, frames)
        print(f"pictures of every move written to {gif}")
    return decisions
