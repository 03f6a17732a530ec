"""Opponents for every game: random, greedy, MCTS and trained policies, made by name.

Every agent takes a rules-core state and returns a legal action without changing the state::

    from zoo_games import agents
    from zoo_games.catalog import find_variant

    env = find_variant("togyz-kumalak").raw_env()
    env.reset(seed=0)
    agent = agents.make("random", seed=0)
    action = agent.act(env.game_state)
"""

from zoo_games.agents.base import Agent
from zoo_games.agents.registry import make, make_from_spec, names, parse_spec

__all__ = ["Agent", "make", "make_from_spec", "names", "parse_spec"]
