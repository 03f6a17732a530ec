"""Agents in PettingZoo's loop: a whole game in one call, or a policy for a loop of one's own.

Both read the rules-core state from ``env.unwrapped.game_state``, so they work with any of
our environments, ``env()`` (with PettingZoo's wrappers) and ``raw_env()`` alike::

    from zoo_games import agents, senet_v0

    env = senet_v0.env()
    returns = agents.play_game(
        env, {"player_0": agents.make("greedy", seed=0), "player_1": agents.make("random", seed=1)},
        seed=0,
    )
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from zoo_games.agents.base import Agent


def policy(agent: Agent) -> Callable[[Any], int]:
    """A function ``env -> action`` for ``agent``, for a loop over ``env.agent_iter()``.

    Call it for a live agent (not terminated or truncated); it reads the game state from
    ``env.unwrapped.game_state`` and leaves the environment alone.
    """

    def act(env: Any) -> int:
        state = env.unwrapped.game_state
        if state is None:
            raise ValueError("the environment has no game yet: call env.reset() first")
        return agent.act(state)

    return act


def play_game(env: Any, agents: Mapping[str, Agent], seed: int | None = None) -> dict[str, float]:
    """Play one game of ``env`` with ``agents`` (seat -> agent); each seat's total reward.

    ``env.reset(seed=seed)`` starts the game (the seed draws Senet's throws). The returns are
    the rewards each seat collected over the game, as PettingZoo hands them out: +1/-1 for
    a win or a loss, 0 for a draw.
    """
    missing = sorted(set(env.possible_agents) - set(agents))
    if missing:
        raise ValueError(
            f"no agent for {', '.join(missing)}: give one for each of {env.possible_agents}"
        )
    env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for seat in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        returns[seat] += float(reward)
        if termination or truncation:
            env.step(None)
        else:
            env.step(agents[seat].act(env.unwrapped.game_state))
    return returns
