"""The batched engine: N games of one variant held as small-integer arrays and stepped at once.

:class:`BatchedEngine` is the same for every game: it owns the arrays (state rows, each
game's random generator, legal-action masks, observations, rewards), checks a batch of actions
before anything changes, picks the serial or the threaded batch loop, and converts positions
to and from the rules core. What is particular to a game is its :class:`GameKernels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from zoo_games.batched import batch
from zoo_games.batched.batch import MOVER, GameKernels
from zoo_games.batched.rng import seed_states
from zoo_games.core.game import Game, GameState

#: From this batch size on, a step runs on numba's threads when more than one is allowed:
#: a threaded loop has a fixed cost per call (several times higher when other processes hold
#: the cores), which the time a second thread saves exceeds only on large batches (measured
#: in docs/batched.md, "Threads and compilation" and "Speed").
PARALLEL_MIN_BATCH = 2048


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class BatchedEngine:
    """``batch_size`` games of one variant, each always waiting for its mover's decision.

    Attributes (read-only views, updated in place by every call that changes the games; copy
    them to keep them):

    * ``observation``: ``(batch_size, *observation_shape)``, what the environment's
      ``observe(agent)["observation"]`` gives the player to move in each game (same dtype);
    * ``action_mask``: ``(batch_size, num_actions)`` ``int8``, 1 for each legal action;
    * ``current_player``: ``(batch_size,)`` ``int8``, the player to move (0 or 1);
    * ``states``: ``(batch_size, row_length)`` ``uint8``, one state row per game (its layout
      is described in the game's kernel module).

    A game that ends in :meth:`step` restarts at once; its result is in that step's rewards.
    Chance (Senet's throws) is resolved inside the engine with each game's own seeded
    generator, so a player always sees its throw.
    """

    def __init__(
        self,
        label: str,
        game: Game,
        kernels: GameKernels,
        options: dict[str, Any],
        observation_dtype: np.dtype,
        observation_shape: tuple[int, ...],
        batch_size: int,
        seed: int | None,
        threads: int,
    ) -> None:
        self.label = label
        self.game = game
        self.batch_size = batch_size
        self.threads = threads
        self.num_actions = game.num_actions
        self._kernels = kernels
        self._loops = batch.compile_loops(kernels.module)
        self._config = np.array(kernels.config(game, options), dtype=np.int64)
        self._initial = kernels.row_from_state(game.new_initial_state())
        self._states = np.zeros((batch_size, kernels.row_length), dtype=np.uint8)
        self._rngs = seed_states(seed, batch_size)
        self._masks = np.zeros((batch_size, self.num_actions), dtype=np.int8)
        observation_bytes = int(np.prod(observation_shape)) * observation_dtype.itemsize
        self._observations = np.zeros((batch_size, observation_bytes), dtype=np.uint8)
        self._rewards = np.zeros((batch_size, 2), dtype=np.float32)
        self._terminated = np.zeros(batch_size, dtype=np.bool_)
        # Each game's next random legal action, drawn by the step (see batch.py); "fresh"
        # while no sample_legal_actions() has returned it yet.
        self._sampled = np.zeros(batch_size, dtype=np.int64)
        self._sampled_fresh = False
        self._parallel = threads > 1 and batch_size >= PARALLEL_MIN_BATCH
        self.observation = _read_only(
            self._observations.view(observation_dtype).reshape(batch_size, *observation_shape)
        )
        self.action_mask = _read_only(self._masks)
        self.current_player = _read_only(self._states.view(np.int8)[:, MOVER])
        self.states = _read_only(self._states)
        self.reset()

    @property
    def bytes_per_game(self) -> int:
        """Memory held per game: state row, generator, mask, observation, rewards, next action."""
        arrays = (self._states, self._rngs, self._masks, self._observations, self._rewards)
        total = sum(a.nbytes for a in (*arrays, self._terminated, self._sampled))
        return total // self.batch_size

    def __repr__(self) -> str:
        return (
            f"BatchedEngine({self.label!r}, batch_size={self.batch_size}, threads={self.threads})"
        )

    # ------------------------------------------------------------------ playing
    def reset(self) -> None:
        """Restart every game from the initial position (the generators go on)."""
        self._states[:] = self._initial
        self._prepare(np.arange(self.batch_size, dtype=np.int64))
        self._sampled_fresh = True

    def sample_legal_actions(self) -> np.ndarray:
        """One uniformly random legal action per game, drawn from each game's generator.

        The first call after a step (or a reset, or setting every position) returns the
        actions the step drew already; a further call draws new ones.
        """
        if self._sampled_fresh:
            self._sampled_fresh = False
            return self._sampled.copy()
        actions = np.empty(self.batch_size, dtype=np.int64)
        if self._parallel:
            numba.set_num_threads(self.threads)
            self._loops.sample_parallel(self._states, self._masks, self._rngs, actions)
        else:
            self._loops.sample_serial(self._states, self._masks, self._rngs, actions)
        return actions

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Play one action in every game; return ``(rewards, terminated)``.

        ``rewards`` is ``float32`` ``(batch_size, 2)``, both players' rewards of the step
        (+1/-1 to the winner/loser of a game that just ended, 0 otherwise); ``terminated`` is
        ``bool`` ``(batch_size,)``. A finished game has already restarted when this returns.
        If any action is illegal, ``ValueError`` names the first such game and nothing changes.
        """
        checked = self._checked_actions(actions)
        arrays = (
            self._initial,
            self._config,
            self._states,
            checked,
            self._rngs,
            self._masks,
            self._observations,
            self._rewards,
            self._terminated,
            self._sampled,
        )
        if self._parallel:
            numba.set_num_threads(self.threads)
            self._loops.step_parallel(*arrays)
        else:
            self._loops.step_serial(*arrays)
        self._sampled_fresh = True
        return self._rewards.copy(), self._terminated.copy()

    def _checked_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.batch_size,):
            raise ValueError(
                f"actions must be one integer per game, shape ({self.batch_size},); "
                f"got shape {array.shape}"
            )
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {array.dtype}")
        checked = np.ascontiguousarray(array, dtype=np.int64)
        bad = batch.first_illegal(self._masks, checked)
        if bad >= 0:
            legal = np.flatnonzero(self._masks[bad]).tolist()
            raise ValueError(
                f"game {bad}: action {int(array[bad])} is illegal in {self.position(bad)!r}; "
                f"legal actions: {legal}. No game was changed."
            )
        return checked

    # ------------------------------------------------------------------ positions
    def state(self, index: int) -> GameState:
        """Game ``index`` as a rules-core state (a copy: changing it changes nothing here)."""
        return self._kernels.state_from_row(self.game, self._states[self._checked_index(index)])

    def position(self, index: int) -> str:
        """The rules core's position string of game ``index``."""
        return self.state(index).position()

    def positions(self) -> list[str]:
        """The rules core's position strings of every game (``state.position()``)."""
        return [self.position(index) for index in range(self.batch_size)]

    def set_position(self, index: int, position: str) -> None:
        """Load ``position`` into game ``index``, read by the rules core's parser.

        A Senet position without a throw has its sticks thrown with that game's generator.
        """
        index = self._checked_index(index)
        row = self._kernels.row_from_state(self.game.state_from_position(position))
        self._states[index] = row
        self._prepare(np.array([index], dtype=np.int64))

    def set_positions(self, positions: Sequence[str]) -> None:
        """Load one position per game; all are read before any game changes."""
        if isinstance(positions, str) or len(positions) != self.batch_size:
            raise ValueError(f"set_positions needs a list of {self.batch_size} position strings")
        rows = []
        for index, position in enumerate(positions):
            try:
                rows.append(self._kernels.row_from_state(self.game.state_from_position(position)))
            except ValueError as error:
                raise type(error)(f"position {index}: {error}") from None
        self._states[:] = np.stack(rows)
        self._prepare(np.arange(self.batch_size, dtype=np.int64))
        self._sampled_fresh = True

    def _checked_index(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise ValueError(f"a game index is an integer in [0, {self.batch_size - 1}]")
        if not 0 <= index < self.batch_size:
            raise ValueError(f"game index {index} is out of range [0, {self.batch_size - 1}]")
        return int(index)

    def _prepare(self, games: np.ndarray) -> None:
        self._loops.prepare_games(
            self._config,
            self._states,
            self._rngs,
            self._masks,
            self._observations,
            self._sampled,
            games,
        )
