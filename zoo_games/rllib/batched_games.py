"""Self-play on the batched engine, with the rewards the environment path hands out.

:class:`SelfPlayGames` steps N games of one variant with :mod:`zoo_games.batched` and says,
for every step, what :class:`~zoo_games.rllib.env.TurnBasedMultiAgentEnv` would have said in
each game: the reward delivered with the new mover's observation (its shaping term, or 0),
and for a game that ended, both seats' final rewards and final observations. The engine
restarts a finished game at once and keeps no trace of its last position, so the final
observations are made here: the game's row before the step is turned into a rules-core
state, the last action applied to it, and each seat's observation read by the variant's own
observer (the code the environment uses). That is Python work, but only once per finished
game, a few hundred steps apart.

Shaping (:mod:`zoo_games.rllib.shaping`) needs the potential of the new mover after every
step. The rules core's evaluation would cost a state per game and step; each kernel module
compiles the same evaluation over a state row (``evaluate(row, config, player)``, equal to
the rules core's float for float), and :func:`potential_loop` runs it over the batch.

Sparring: in a share of the games one seat is played by a fixed opponent and the trainer
plays only the other: :meth:`SelfPlayGames.play_sparring` fills in those moves. Self-play
alone learns to beat the policy it is; a fixed opponent is a yardstick that does not move.
Two partners are offered:

* ``greedy`` (``greedy_share``), compiled over the rows (:mod:`zoo_games.batched.search.greedy`):
  it punishes every blunder at once;
* uniformly random legal moves (``random_share``), the engine's own draws
  (:meth:`~zoo_games.batched.engine.BatchedEngine.sample_legal_actions`): the opponent a
  policy must beat most often, whose mistakes a learner must learn to exploit.

The first ``round(greedy_share * games)`` games are greedy's, the next
``round(random_share * games)`` random play's, the rest self-play. The ``k``-th game of each
partner has it in seat ``k % 2``, so the trainer meets each partner from both seats.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np

from zoo_games.batched import KERNEL_MODULES, kernels_of, make
from zoo_games.batched.search.greedy import compile_greedy
from zoo_games.catalog import find_variant
from zoo_games.rllib.shaping import is_shaped
from zoo_games.training.checks import check_share, check_sparring_shares

#: The second word of the seed of greedy's generators (see ``SelfPlayGames.__init__``).
GREEDY_STREAM = 1


@cache
def potential_loop(module_name: str) -> Any:
    """The kernels' ``evaluate`` over a batch, compiled for the game module ``module_name``.

    ``potentials(states, config, games, players, out)`` writes the evaluation of
    ``states[games[i]]`` for ``players[i]`` into ``out[i]``. Compiled once per process (a
    closure over the module's compiled ``evaluate``, which numba inlines), in about a second.
    """
    evaluate = importlib.import_module(module_name).evaluate

    @numba.njit
    def potentials(
        states: np.ndarray,
        config: np.ndarray,
        games: np.ndarray,
        players: np.ndarray,
        out: np.ndarray,
    ) -> None:
        for index in range(games.shape[0]):
            out[index] = evaluate(states[games[index]], config, players[index])

    return potentials


@dataclass
class GameEnds:
    """The games that ended in one step, in increasing order, with what each seat got."""

    games: np.ndarray
    #: ``(len(games), 2)`` float64: each seat's last reward (outcome minus shaping potential).
    rewards: np.ndarray
    #: ``[seat 0's, seat 1's]`` observations of the final position, one per ended game.
    observations: list[list[np.ndarray]]


@dataclass
class Step:
    """What one step of every game gave, as the environment path hands it out."""

    #: ``(N,)`` float64: the reward delivered with the new mover's observation (0 where the
    #: game ended: those rewards are in ``ends``).
    delivered: np.ndarray
    #: ``(N,)`` bool: the game ended in this step (and has restarted).
    terminated: np.ndarray
    ends: GameEnds


class SelfPlayGames:
    """``games`` games of ``label`` on the batched engine, both seats played by the caller.

    The caller reads ``observation``, ``action_mask`` and ``current_player`` (the engine's
    read-only views), chooses one action per game and calls :meth:`step`.
    """

    def __init__(
        self,
        label: str,
        games: int,
        seed: int | None,
        shaping: bool,
        greedy_share: float = 0.0,
        random_share: float = 0.0,
    ) -> None:
        check_share("greedy_share", greedy_share)
        check_share("random_share", random_share)
        check_sparring_shares(greedy_share, random_share)
        greedy_games = round(greedy_share * games)
        # Rounding both shares up could ask for one game more than there are (0.3 and 0.7 of 5).
        random_games = min(round(random_share * games), games - greedy_games)
        variant = find_variant(label)
        self.engine = make(label, batch_size=games, seed=seed)
        game = self.engine.game
        self._kernels = kernels_of(game)
        self._observer = variant.observer
        self.observation = self.engine.observation
        self.action_mask = self.engine.action_mask
        self.current_player = self.engine.current_player
        self._shaped = is_shaped(game.name, shaping)
        self._config = np.array(self._kernels.config(game, variant.kwargs), dtype=np.int64)
        self._potentials = potential_loop(KERNEL_MODULES[game.name]) if self._shaped else None
        #: Each seat's potential when it last observed its game (0 without shaping).
        self.last_potential = np.zeros((games, 2), dtype=np.float64)
        self._new_potentials(np.arange(games, dtype=np.int64))
        #: The seat the sparring partner plays in each game, -1 where the caller plays both.
        self.sparring_seat = np.full(games, -1, dtype=np.int8)
        self.sparring_seat[:greedy_games] = np.arange(greedy_games) % 2
        random_end = greedy_games + random_games
        self.sparring_seat[greedy_games:random_end] = np.arange(random_games) % 2
        #: The games whose sparring partner plays uniformly random legal moves.
        self.random_sparring = np.zeros(games, dtype=bool)
        self.random_sparring[greedy_games:random_end] = True
        self._greedy = compile_greedy(self._kernels.module) if greedy_games else None
        # The engine's generators draw the games' chances; greedy's ties get a stream of their
        # own, which no runner's seed (an integer) can give the engine.
        self._greedy_rngs = np.random.SeedSequence(
            None if seed is None else [seed, GREEDY_STREAM]
        ).generate_state(games, np.uint64)

    @property
    def games(self) -> int:
        """How many games are played at once."""
        return self.engine.batch_size

    def restart(self) -> None:
        """Start every game afresh (the engine's generators go on)."""
        self.engine.reset()
        self._new_potentials(np.arange(self.games, dtype=np.int64))

    def sparring_to_move(self) -> np.ndarray:
        """``(N,)`` bool: the games whose mover the sparring partner plays."""
        return self.sparring_seat == self.current_player

    def play_sparring(self, actions: np.ndarray, games: np.ndarray) -> None:
        """Write the sparring partner's choice into ``actions[g]`` for each game ``g`` of ``games``.

        Random play takes the engine's draw for the position (made by the last step, so in
        training it costs the games' generators nothing more); greedy's ties draw from
        generators of its own.
        """
        random_games = games[self.random_sparring[games]]
        if random_games.size:
            actions[random_games] = self.engine.sample_legal_actions()[random_games]
        greedy_games = games[~self.random_sparring[games]]
        if greedy_games.size:
            assert self._greedy is not None, "no game has a greedy seat"
            rows = self.engine.states[greedy_games]  # a copy: the legal-move finders use scratch
            chosen = np.empty(greedy_games.size, dtype=np.int64)
            num_actions = self.engine.num_actions
            self._greedy(rows, self._config, num_actions, greedy_games, self._greedy_rngs, chosen)
            actions[greedy_games] = chosen

    def step(self, actions: np.ndarray) -> Step:
        """Play one action per game (each legal for its mover)."""
        rows = self.engine.states.copy()  # the final positions are worked out from these
        outcomes, terminated = self.engine.step(actions)
        ended = np.flatnonzero(terminated)
        delivered = np.zeros(self.games, dtype=np.float64)
        end_rewards = outcomes[ended].astype(np.float64) - self.last_potential[ended]
        if self._shaped:
            going = np.flatnonzero(~terminated)
            movers = self.current_player[going].astype(np.int64)
            now = self._evaluate(going, movers)
            delivered[going] = now - self.last_potential[going, movers]
            self.last_potential[going, movers] = now
            self._new_potentials(ended)
        final = [self._final_observations(rows[game], int(actions[game])) for game in ended]
        return Step(delivered, terminated, GameEnds(ended, end_rewards, final))

    def _final_observations(self, row: np.ndarray, action: int) -> list[np.ndarray]:
        state = self._kernels.state_from_row(self.engine.game, row)
        state.apply_action(action)
        return [self._observer.observe(state, seat) for seat in (0, 1)]

    def _evaluate(self, games: np.ndarray, players: np.ndarray) -> np.ndarray:
        out = np.empty(games.shape[0], dtype=np.float64)
        assert self._potentials is not None
        self._potentials(self.engine.states, self._config, games, players, out)
        return out

    def _new_potentials(self, games: np.ndarray) -> None:
        """Both seats' potentials at the start of ``games`` (the environment's reset)."""
        if not self._shaped or games.size == 0:
            return
        for seat in (0, 1):
            players = np.full(games.shape[0], seat, dtype=np.int64)
            self.last_potential[games, seat] = self._evaluate(games, players)
