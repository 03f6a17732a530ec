"""One game between two agents on the rules core, with chance drawn from a seeded generator.

The arena plays on the rules core directly, not through the PettingZoo environment: agents
read states anyway, and a game costs only the agents' thinking and the rules' moves. Chance
(Senet's throws) is drawn with the same :class:`~zoo_games.core.chance.ChanceSampler` the
environments use, from a generator seeded per game, so a game depends only on its seeds and
its two agents.

Two agents that choose every move deterministically (a network's best move, a search without
noise) play the same game every time they meet from the same start in the same seats: a
hundred such games are two games repeated, and an interval computed as if they were a hundred
is false. A game may therefore begin with an *opening*: its first decisions drawn uniformly
among the legal moves, from a generator of their own, before the agents take over. Each game
records a digest of its moves, so that a tournament can count how many of its games differ.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from zoo_games.agents.base import Agent
from zoo_games.core.chance import ChanceSampler
from zoo_games.core.game import Game, GameState


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
    #: A digest of every action of the game (the opening's, the agents', chance outcomes),
    #: equal for two games exactly when they were the same game.
    digest: str

    @property
    def length(self) -> int:
        """The agents' decisions in the game (an opening's and chance outcomes not counted)."""
        return self.moves[0] + self.moves[1]


@dataclass(frozen=True)
class GameOutcome:
    """What :func:`play_arena_game` returns, seen from the seats."""

    #: ``player_0``'s result: 1 (won), 0.5 (draw) or 0 (lost).
    result: float
    #: Per seat: the decisions its agent made, and the seconds it spent in :meth:`Agent.act`.
    moves: tuple[int, int]
    seconds: tuple[float, float]
    #: Every action applied, in order: the opening's, the agents' and chance outcomes.
    actions: tuple[int, ...]

    @property
    def digest(self) -> str:
        """A short digest of :attr:`actions` (equal digests: the same game)."""
        data = ",".join(map(str, self.actions)).encode()
        return hashlib.blake2b(data, digest_size=8).hexdigest()


def play_arena_game(
    game: Game,
    seated: Sequence[Agent],
    chance_seed: int,
    opening_moves: int = 0,
    opening_seed: int = 0,
) -> GameOutcome:
    """Play ``seated[0]`` (``player_0``) against ``seated[1]`` from the initial state.

    The first ``opening_moves`` decisions are drawn uniformly among the legal moves with a
    generator seeded with ``opening_seed`` (:func:`opening_move`); then the agents play. An
    agent's illegal action raises ``ValueError``.
    """
    state = game.new_initial_state()
    chance = np.random.default_rng(chance_seed)
    opening = np.random.default_rng(opening_seed)
    sampler = ChanceSampler()
    moves = [0, 0]
    seconds = [0.0, 0.0]
    actions: list[int] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sampler.sample(state.chance_outcomes(), chance)
        elif decisions < opening_moves and (action := opening_move(state, opening)) >= 0:
            decisions += 1
        else:
            decisions = opening_moves  # an opening that found no move is over
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
        actions.append(int(action))
        state.apply_action(action)
    first_return = state.returns()[0]
    result = 1.0 if first_return > 0 else 0.0 if first_return < 0 else 0.5
    return GameOutcome(result, (moves[0], moves[1]), (seconds[0], seconds[1]), tuple(actions))


def opening_move(state: GameState, generator: np.random.Generator) -> int:
    """A legal move of ``state`` drawn uniformly among those that do not end the game; -1 if none.

    An opening is there to vary where the agents start, not to decide games: a random move
    that would win or lose at once is never played, and an opening that meets a position
    where every move ends the game stops there, leaving it to the agents.
    """
    legal = state.legal_actions()
    for index in generator.permutation(len(legal)):
        after = state.clone()
        after.apply_action(legal[index])
        if not after.is_terminal():
            return int(legal[index])
    return -1
