"""Golden playthroughs: one seeded random game written out as text a reviewer can read.

As in OpenSpiel, each variant's playthrough records, move by move, the board, the agent to
act, the position string (with the throw where there is one), the legal actions with their
names, the action taken, both observations and the rewards. The files live in
``tests/playthroughs/``; a test plays the same seeded game again and compares line by line,
so any change of behaviour shows up as a readable text diff. Regenerate them with
``python scripts/regenerate_playthroughs.py`` when a change is intended, and commit the diff.
"""

from __future__ import annotations

import numpy as np

from zoo_games.agents.random_agent import RandomAgent
from zoo_games.catalog import Variant

#: A playthrough stops here even if the game has not ended (it never has so far).
MAX_DECISIONS = 2000


def _numbers(array: np.ndarray) -> str:
    return " ".join(
        str(int(v)) if float(v).is_integer() else f"{float(v):.4g}" for v in array.ravel()
    )


def playthrough(variant: Variant, seed: int = 0) -> str:
    """The text of one random game of ``variant``, chance and choices seeded by ``seed``."""
    env = variant.raw_env(render_mode="ansi")
    env.reset(seed=seed)
    chooser = RandomAgent(seed)
    lines = [
        f"# playthrough of {variant.env_id} {variant.label} {variant.kwargs} seed={seed}",
        "# regenerate with: python scripts/regenerate_playthroughs.py",
    ]
    for decision in range(MAX_DECISIONS):
        agent = env.agent_selection
        lines += [f"## decision {decision}", f"position: {env.position()}"]
        lines += [f"| {row}" for row in str(env.render()).splitlines()]
        for observer in env.possible_agents:
            observation = env.observe(observer)
            lines.append(f"observation {observer}: {_numbers(observation['observation'])}")
        legal = env.legal_actions()
        lines.append(f"agent: {agent}")
        lines.append("legal: " + ", ".join(f"{a} ({env.action_to_string(a)})" for a in legal))
        action = chooser.pick(legal)
        lines.append(f"action: {action} ({env.action_to_string(action)})")
        env.step(action)
        lines.append(
            "rewards: " + " ".join(f"{a}={env.rewards[a]:+g}" for a in env.possible_agents)
        )
        if all(env.terminations.values()):
            lines += ["## game over", f"position: {env.position()}"]
            lines += [f"| {row}" for row in str(env.render()).splitlines()]
            lines.append(
                "returns: "
                + " ".join(f"{a}={env._cumulative_rewards[a]:+g}" for a in env.possible_agents)
            )
            break
    return "\n".join(lines) + "\n"
