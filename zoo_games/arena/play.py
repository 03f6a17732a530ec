"""One game between two agents on the rules core, with chance drawn from a seeded generator.

The arena plays on the rules core directly, not through the PettingZoo environment: agents
read states anyway, and a game costs only the agents' thinking and the rules' moves. Chance
(Senet's throws) is drawn with the same :class:`~zoo_games.core.chance.ChanceSampler` the
environments use, from a generator seeded per game, so a game depends only on its seed and
its two agents.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zoo_games.agents.base import Agent
from zoo_games.core.chance import ChanceSampler
from zoo_games.core.game import Game


@dataclass(frozen=True)
class PlayedGame:
    """What happened in one game of a pairing.

    Seats are named by the pairing's sides: side 0 is the pairing's first agent, side 1 its
    second; ``first_side`` is the side that sat as ``player_0``.
    """

    pairing: int
    index: int
    first_side: int
    #: The first side's result: 1 (won), 0.5 (draw) or 0 (lost).
    result: float
    #: Decisions made by each side.
    moves: tuple[int, int]
    #: Seconds each side spent choosing its moves (wall clock; not reproducible).
    seconds: tuple[float, float]

    @property
    def length(self) -> int:
        """The game's length in decisions (chance outcomes not counted)."""
        return self.moves[0] + self.moves[1]


def play_arena_game(
    game: Game, seated: Sequence[Agent], chance_seed: int
) -> tuple[float, list[int], list[float]]:
    """Play ``seated[0]`` (``player_0``) against ``seated[1]`` from the initial state.

    Returns ``player_0``'s result (1, 0.5 or 0), and per seat the decisions made and the
    seconds spent in :meth:`Agent.act`. An agent's illegal action raises ``ValueError``.
    """
    state = game.new_initial_state()
    generator = np.random.default_rng(chance_seed)
    sampler = ChanceSampler()
    moves = [0, 0]
    seconds = [0.0, 0.0]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sampler.sample(state.chance_outcomes(), generator))
            continue
        player = state.current_player()
        started = time.perf_counter()
        action = seated[player].act(state)
        seconds[player] += time.perf_counter() - started
        moves[player] += 1
        if not 0 <= action < game.num_actions or not state.legal_actions_mask()[action]:
            raise ValueError(
                f"{seated[player]!r} chose action {action!r}, which is not legal in "
                f"{state.position()!r}; legal actions: {state.legal_actions()}"
            )
        state.apply_action(action)
    first_return = state.returns()[0]
    return (1.0 if first_return > 0 else 0.0 if first_return < 0 else 0.5), moves, seconds
