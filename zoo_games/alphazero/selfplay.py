"""Self-play: every game of a batched engine moves at once, each move chosen by the search.

At each step the search is run on all the engine's positions together (its leaves are
evaluated by the network in one batch across the games), and each position is recorded with
what the learner needs: the observation and legal actions of the player to move, the search's
improved policy and value of the position, and who moved. When a game ends (the engine
restarts it at once), its result gives each of its recorded positions the outcome ``z`` from
its mover's side (+1 won, -1 lost, 0 drawn), or with ``value_lambda`` below 1 the λ-return of
the searches that followed it (:mod:`zoo_games.alphazero.returns`), and the positions are kept
(in the replay buffer). Senet's extra turns need nothing special: a player who moves twice in a
row has two positions of its own.

A game still under way when a run stops never reaches the buffer: its outcome is unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from zoo_games import batched
from zoo_games.alphazero.guard import RootGuard
from zoo_games.alphazero.replay import Positions
from zoo_games.alphazero.returns import lambda_returns
from zoo_games.alphazero.searching import Evaluator, Search, SearchMaker
from zoo_games.batched.engine import BatchedEngine


@dataclass(frozen=True)
class _Step:
    """One step of every game: what each player to move saw, could do, should do, and who."""

    observations: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    search_values: np.ndarray
    players: np.ndarray


@dataclass(frozen=True)
class SelfPlayCounts:
    """What one call of :meth:`SelfPlay.play` added."""

    positions: int
    games: int


class SelfPlay:
    """The games of ``engine`` played by ``search``; each finished game's positions to ``keep``.

    ``keep`` is the replay buffer's ``add`` in the training process; a self-play worker on a
    cluster collects them to send back. With a ``guard``, each search considers only the root
    actions the guard leaves (a win in one alone; no move that loses at once while others
    remain), and the policy target is 0 on the others. ``value_lambda``: the λ of the positions'
    returns (1: the game's outcome).
    """

    def __init__(
        self,
        engine: BatchedEngine,
        search: Search,
        keep: Callable[[Positions], None],
        guard: RootGuard | None = None,
        value_lambda: float = 1.0,
    ) -> None:
        self.engine = engine
        self.search = search
        self.keep = keep
        self.guard = guard
        self.value_lambda = value_lambda
        self._steps: list[_Step] = []
        #: The step number of ``_steps[0]``, and of each game's first position.
        self._first_step = 0
        self._game_starts = np.zeros(engine.batch_size, dtype=np.int64)

    def play(self, evaluator: Evaluator, moves: int) -> SelfPlayCounts:
        """Play ``moves`` moves in every game; the positions of the games that end are kept."""
        positions = games = 0
        for _ in range(moves):
            engine = self.engine
            allowed = None if self.guard is None else self.guard.masks(engine.states)
            result = self.search.run(engine.states, evaluator, explore=True, root_masks=allowed)
            step = _Step(
                engine.observation.copy(),
                engine.action_mask.copy(),
                np.asarray(result.policy, dtype=np.float32),
                np.asarray(result.root_values, dtype=np.float32),
                engine.current_player.copy(),
            )
            self._steps.append(step)
            rewards, terminated = engine.step(result.actions)
            for game in np.flatnonzero(terminated):
                positions += self._finish(int(game), rewards[game])
                games += 1
            self._forget_finished_steps()
        return SelfPlayCounts(positions, games)

    def _finish(self, game: int, rewards: np.ndarray) -> int:
        """Keep game ``game``'s positions, with the returns of its result ``rewards``."""
        last = self._first_step + len(self._steps)
        steps = self._steps[self._game_starts[game] - self._first_step :]
        players = np.array([step.players[game] for step in steps], dtype=np.int64)
        search_values = np.array([step.search_values[game] for step in steps])
        self.keep(
            Positions(
                observations=np.stack([step.observations[game] for step in steps]),
                masks=np.stack([step.masks[game] for step in steps]),
                policies=np.stack([step.policies[game] for step in steps]),
                returns=lambda_returns(rewards[players], search_values, players, self.value_lambda),
                search_values=search_values,
            )
        )
        self._game_starts[game] = last
        return len(steps)

    def _forget_finished_steps(self) -> None:
        """Drop the steps before the oldest game still under way began."""
        oldest = int(self._game_starts.min())
        if oldest > self._first_step:
            del self._steps[: oldest - self._first_step]
            self._first_step = oldest


def make_selfplay(
    variant: str,
    games: int,
    simulations: int,
    seed: int,
    make_search: SearchMaker,
    keep: Callable[[Positions], None],
    guard: bool = False,
    value_lambda: float = 1.0,
) -> SelfPlay:
    """Self-play of ``games`` games of ``variant`` at once, engine and search seeded by ``seed``.

    ``guard``: with a :class:`~zoo_games.alphazero.guard.RootGuard`; ``value_lambda``: the λ
    of the returns (see :class:`SelfPlay`).
    """
    engine = batched.make(variant, batch_size=games, seed=seed)
    search = make_search(variant, games, simulations, seed)
    return SelfPlay(engine, search, keep, RootGuard(variant) if guard else None, value_lambda)
