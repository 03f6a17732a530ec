"""Episode chunks built from a rollout of the batched engine, a whole array at a time.

RLlib's own runner adds every step to a ``MultiAgentEpisode`` (``add_env_step``: dictionaries,
buffers and checks per agent and step), which costs more than the batched engine's step of a
whole batch. Here a rollout is first recorded as arrays, ``(steps, games, ...)``
(:class:`Rollout`), and :class:`EpisodeBuilder` then cuts each game's column into episode
chunks: per game and seat it finds the seat's decisions with one comparison, gathers their
observations, actions and model outputs with fancy indexing, and keeps them as arrays
(:class:`SeatChunk`). The Python work is per chunk, not per step. The chunks are then handed
out in one of two forms: RLlib's ``MultiAgentEpisode`` objects (:meth:`EpisodeBuilder.build`,
what an EnvRunner's ``sample`` returns), or arrays per module
(:meth:`EpisodeBuilder.build_arrays`, a :class:`~zoo_games.rllib.chunks.ChunkBatch`), which
is what the overlapped learner asks its remote runners for: it crosses between processes at
the cost of its arrays alone.

The chunks hold what the environment path's (:class:`~zoo_games.rllib.env.TurnBasedMultiAgentEnv`
through RLlib's ``MultiAgentEpisode``) hold, step for step:

* a seat's transition is its observation, its action, and the reward delivered with its next
  observation, which is that next observation (its next turn, the same seat again after a
  Senet extra turn, or the game's final position);
* at the end of a game every seat gets its final observation (mask all zeros) and its final
  reward, the seat that did not make the last move included;
* a game still going when the rollout ends is cut as RLlib cuts it: the seat to move closes its
  chunk with its current observation; the other seat's last action waits, with its
  observation and model outputs, for the next rollout (RLlib's "hanging" action), and its
  chunk ends with the observation that action was taken on.

A seat played by a fixed opponent (``opponent_seat``, the runner's sparring partner) gets no
chunks: its moves are part of the game the other seat plays, as an opponent's are in a
single-agent environment, and the other seat's rewards are those it is handed with its own
observations.

The builder also totals every game as it goes (its steps, and each seat's steps and return)
and hands out a :class:`FinishedGame` for each game that ended, which the runner logs as
RLlib's runner logs a finished episode.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.env.single_agent_episode import SingleAgentEpisode

from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.batched_games import Step
from zoo_games.rllib.chunks import MODEL_OUTPUTS, ChunkBatch, ModuleChunks


class Rollout:
    """``steps`` steps of ``games`` games, recorded as arrays (time first).

    ``record`` stores one step: the movers' observations, masks and the actions chosen (with
    their model outputs) before it, and what the step gave. ``close`` stores the
    observations after the last step.
    """

    def __init__(self, steps: int, games: int, observation: np.ndarray, num_actions: int) -> None:
        shape, dtype = observation.shape[1:], observation.dtype
        self.steps = steps
        self.observations = np.empty((steps + 1, games, *shape), dtype=dtype)
        self.masks = np.empty((steps + 1, games, num_actions), dtype=np.int8)
        self.movers = np.empty((steps + 1, games), dtype=np.int8)
        self.actions = np.empty((steps, games), dtype=np.int64)
        self.outputs = {
            Columns.ACTION_LOGP: np.empty((steps, games), dtype=np.float32),
            Columns.ACTION_DIST_INPUTS: np.empty((steps, games, num_actions), dtype=np.float32),
        }
        #: The value of each observation, for the module of the seat it was made for
        #: (``values[steps]``: those the rollout ends on, from :meth:`close`).
        self.values = np.zeros((steps + 1, games), dtype=np.float32)
        #: ``delivered[t]``: the reward handed out with the observation at ``t + 1``.
        self.delivered = np.empty((steps, games), dtype=np.float64)
        self.terminated = np.empty((steps, games), dtype=np.bool_)
        #: game -> [(step, both seats' final rewards, both seats' final observations)].
        self.ends: dict[int, list[tuple[int, np.ndarray, list[np.ndarray]]]] = {}

    def close(self, values: np.ndarray) -> None:
        """The values of the observations after the last step."""
        self.values[self.steps] = values

    def observe(self, t: int, observation: Any, mask: Any, movers: Any) -> None:
        """The movers' observations before step ``t`` (``t == steps``: after the last)."""
        self.observations[t] = observation
        self.masks[t] = mask
        self.movers[t] = movers

    def record(self, t: int, actions: np.ndarray, outputs: dict[str, Any], step: Step) -> None:
        """Step ``t``'s actions, their model outputs and values, and what the step gave."""
        self.actions[t] = actions
        for name in MODEL_OUTPUTS:
            self.outputs[name][t] = outputs[name]
        self.values[t] = outputs[Columns.VF_PREDS]
        self.delivered[t] = step.delivered
        self.terminated[t] = step.terminated
        for index, game in enumerate(step.ends.games.tolist()):
            self.ends.setdefault(game, []).append(
                (t, step.ends.rewards[index], step.ends.observations[index])
            )


@dataclass
class _Decisions:
    """Some of one seat's decisions: observations, masks, actions, model outputs, steps."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    outputs: dict[str, np.ndarray]
    values: np.ndarray
    #: The step of each decision in the rollout (-1: taken in an earlier rollout).
    steps: np.ndarray

    def __len__(self) -> int:
        return int(self.steps.shape[0])

    def __getitem__(self, part: slice) -> _Decisions:
        return _Decisions(
            self.observations[part],
            self.masks[part],
            self.actions[part],
            {name: value[part] for name, value in self.outputs.items()},
            self.values[part],
            self.steps[part],
        )

    def then(self, more: _Decisions) -> _Decisions:
        if not len(self):
            return more
        return _Decisions(
            np.concatenate([self.observations, more.observations]),
            np.concatenate([self.masks, more.masks]),
            np.concatenate([self.actions, more.actions]),
            {
                name: np.concatenate([value, more.outputs[name]])
                for name, value in self.outputs.items()
            },
            np.concatenate([self.values, more.values]),
            np.concatenate([self.steps, more.steps]),
        )


@dataclass
class _Game:
    """What carries over from one rollout to the next in one game."""

    id_: str = field(default_factory=lambda: uuid.uuid4().hex)
    seat_ids: list[str] = field(default_factory=lambda: [uuid.uuid4().hex for _ in AGENTS])
    #: Steps played in this game before the rollout.
    steps: int = 0
    #: Transitions of each seat already handed out.
    seat_steps: list[int] = field(default_factory=lambda: [0, 0])
    #: Each seat's decision still waiting for its next observation (at most one).
    waiting: list[_Decisions | None] = field(default_factory=lambda: [None, None])
    #: Each seat's rewards handed out so far.
    returns: list[float] = field(default_factory=lambda: [0.0, 0.0])
    started: float = field(default_factory=time.perf_counter)


@dataclass
class SeatChunk:
    """One seat's part of one game chunk."""

    seat: int
    #: The seat's observations and masks, its final ones last (one more than its actions).
    observations: np.ndarray
    masks: np.ndarray
    #: The value of each of those observations, at sampling (0 for a game's final one).
    values: np.ndarray
    actions: np.ndarray
    outputs: dict[str, np.ndarray]
    #: Each action's reward, delivered with the seat's next observation.
    rewards: np.ndarray
    #: The seat's transitions before this chunk, and its id across the game's chunks.
    t_started: int
    seat_id: str

    def __len__(self) -> int:
        return int(self.actions.shape[0])


@dataclass
class GameChunk:
    """One game's steps ``env_t_started:env_t``, and the chunk of each seat that acted."""

    game_id: str
    env_t_started: int
    env_t: int
    terminated: bool
    seats: list[SeatChunk]


@dataclass
class FinishedGame:
    """A game that ended, totalled over its chunks, for the runner's episode metrics."""

    length: int
    #: The return and the steps of each seat that made chunks (not a sparring partner's).
    returns: dict[str, float]
    agent_steps: dict[str, int]
    seconds: float


class EpisodeBuilder:
    """Cuts rollouts of ``games`` games into chunks, game by game.

    ``opponent_seat[g]`` is the seat of game ``g`` that makes no chunks (-1: none; by default
    no game has one). ``module_of(agent)`` names the module that plays ``agent``'s seat
    (RLlib's policy mapping, which must not depend on the episode).
    """

    def __init__(
        self,
        games: int,
        observation_space: dict[str, gym.Space],
        action_space: dict[str, gym.Space],
        module_of: Callable[..., str],
        opponent_seat: np.ndarray | None = None,
    ) -> None:
        self._opponent_seat = (
            np.full(games, -1, dtype=np.int8) if opponent_seat is None else opponent_seat
        )
        self._observation_space = observation_space
        self._action_space = action_space
        self._module_of = module_of
        self._modules = [module_of(agent, None) for agent in AGENTS]
        self._games = [_Game() for _ in range(games)]
        self._finished: list[FinishedGame] = []

    def restart(self) -> None:
        """Forget every game (the caller restarted them all)."""
        self._games = [_Game() for _ in self._games]
        self._finished.clear()

    def finished_games(self) -> list[FinishedGame]:
        """The games that ended in the rollouts built since the last call."""
        finished, self._finished = self._finished, []
        return finished

    def build(self, rollout: Rollout) -> list[MultiAgentEpisode]:
        """The chunks of ``rollout`` as RLlib's episodes (what an EnvRunner samples)."""
        return [self._episode(chunk) for chunk in self.cut(rollout)]

    def build_arrays(self, rollout: Rollout) -> ChunkBatch:
        """The chunks of ``rollout`` as arrays, per module."""
        parts: dict[str, list[SeatChunk]] = {}
        ended: dict[str, list[bool]] = {}
        for chunk in self.cut(rollout):
            for seat_chunk in chunk.seats:
                module_id = self._modules[seat_chunk.seat]
                parts.setdefault(module_id, []).append(seat_chunk)
                ended.setdefault(module_id, []).append(chunk.terminated)
        modules = {}
        for module_id, seat_chunks in parts.items():
            modules[module_id] = ModuleChunks(
                {
                    "observation": np.concatenate([part.observations for part in seat_chunks]),
                    "action_mask": np.concatenate([part.masks for part in seat_chunks]),
                },
                np.concatenate([part.actions for part in seat_chunks]),
                np.concatenate([part.rewards for part in seat_chunks]),
                {
                    name: np.concatenate([part.outputs[name] for part in seat_chunks])
                    for name in MODEL_OUTPUTS
                },
                np.array([len(part) for part in seat_chunks], dtype=np.int64),
                np.array(ended[module_id], dtype=bool),
                np.concatenate([part.values for part in seat_chunks]),
            )
        return ChunkBatch(modules, rollout.steps * len(self._games))

    def cut(self, rollout: Rollout) -> list[GameChunk]:
        """The chunks of ``rollout``: every game's finished games, then its cut one.

        A chunk that hands out no seat's transition (a sparring partner's moves alone, or a
        seat's one action, still waiting for its next observation) is left out.
        """
        chunks: list[GameChunk] = []
        for game in range(len(self._games)):
            start = 0
            for end, rewards, observations in rollout.ends.get(game, []):
                finals = [(observations[seat], rewards[seat]) for seat in (0, 1)]
                chunks.append(self._chunk(rollout, game, start, end + 1, finals))
                self._finish(game)
                start = end + 1
            if start < rollout.steps:
                chunks.append(self._chunk(rollout, game, start, rollout.steps, None))
        return [chunk for chunk in chunks if chunk.seats]

    def _finish(self, game: int) -> None:
        """Total game ``game``, which just ended, and start the next one in its place."""
        state = self._games[game]
        played = [seat for seat in (0, 1) if seat != self._opponent_seat[game]]
        self._finished.append(
            FinishedGame(
                length=state.steps,
                returns={AGENTS[seat]: state.returns[seat] for seat in played},
                agent_steps={AGENTS[seat]: state.seat_steps[seat] for seat in played},
                seconds=time.perf_counter() - state.started,
            )
        )
        self._games[game] = _Game()

    def _chunk(
        self,
        rollout: Rollout,
        game: int,
        start: int,
        stop: int,
        finals: list[tuple[np.ndarray, float]] | None,
    ) -> GameChunk:
        """Steps ``start:stop`` of ``game``; ``finals``: each seat's end, if the game ended."""
        state = self._games[game]
        movers = rollout.movers[start:stop, game]
        seats: list[SeatChunk] = []
        for seat in range(len(AGENTS)):
            if seat == self._opponent_seat[game]:
                continue
            steps = start + np.flatnonzero(movers == seat)
            decisions = _Decisions(
                rollout.observations[steps, game],
                rollout.masks[steps, game],
                rollout.actions[steps, game],
                {name: value[steps, game] for name, value in rollout.outputs.items()},
                rollout.values[steps, game],
                steps,
            )
            waiting = state.waiting[seat]
            if waiting is not None:
                decisions = waiting.then(decisions)
            if finals is not None:  # the game ended: its final observation closes the chunk
                last_observation, last_reward = finals[seat]
                last_mask = np.zeros(rollout.masks.shape[2], dtype=np.int8)
                last_value = np.float32(0.0)  # nothing follows it
                done = decisions
                state.waiting[seat] = None
            elif rollout.movers[stop, game] == seat:  # to move: its observation closes it
                last_observation = rollout.observations[stop, game]
                last_mask = rollout.masks[stop, game]
                last_value = rollout.values[stop, game]
                last_reward = rollout.delivered[stop - 1, game]
                done = decisions
                state.waiting[seat] = None
            else:  # its last action waits for the next rollout
                if len(decisions):
                    state.waiting[seat] = decisions[-1:]
                if len(decisions) < 2:
                    continue
                done = decisions[:-1]
                last_observation = decisions.observations[-1]
                last_mask = decisions.masks[-1]
                last_value = decisions.values[-1]
                last_reward = rollout.delivered[decisions.steps[-1] - 1, game]
            if not len(done):
                continue
            # Each transition's reward came with the seat's next observation.
            rewards = np.empty(len(done), dtype=np.float64)
            rewards[:-1] = rollout.delivered[done.steps[1:] - 1, game]
            rewards[-1] = last_reward
            seats.append(
                SeatChunk(
                    seat=seat,
                    observations=np.concatenate([done.observations, last_observation[None]]),
                    masks=np.concatenate([done.masks, last_mask[None]]),
                    values=np.append(done.values, last_value),
                    actions=done.actions,
                    outputs=done.outputs,
                    rewards=rewards,
                    t_started=state.seat_steps[seat],
                    seat_id=state.seat_ids[seat],
                )
            )
            state.seat_steps[seat] += len(done)
            state.returns[seat] += float(rewards.sum())
        started = state.steps
        state.steps += stop - start
        return GameChunk(state.id_, started, state.steps, finals is not None, seats)

    def _episode(self, chunk: GameChunk) -> MultiAgentEpisode:
        """A game chunk as RLlib's ``MultiAgentEpisode``, a ``SingleAgentEpisode`` per seat."""
        episode = MultiAgentEpisode(
            id_=chunk.game_id,
            observation_space=self._observation_space,  # type: ignore[arg-type]  # per agent
            action_space=self._action_space,  # type: ignore[arg-type]
            agent_to_module_mapping_fn=self._module_of,
            env_t_started=chunk.env_t_started,
        )
        for part in chunk.seats:
            agent, module_id = AGENTS[part.seat], self._modules[part.seat]
            episode.agent_episodes[agent] = SingleAgentEpisode(
                id_=part.seat_id,
                observations={  # type: ignore[arg-type]  # RLlib's numpy form
                    "observation": part.observations,
                    "action_mask": part.masks,
                },
                infos=[{} for _ in range(len(part) + 1)],
                actions=part.actions,  # type: ignore[arg-type]  # RLlib's numpy form
                rewards=part.rewards,  # type: ignore[arg-type]
                terminated=chunk.terminated,
                extra_model_outputs=part.outputs,
                t_started=part.t_started,
                len_lookback_buffer=0,
                agent_id=agent,
                module_id=module_id,
                multi_agent_episode_id=chunk.game_id,  # type: ignore[arg-type]  # a str
            )
            episode._agent_to_module_mapping[agent] = module_id
        episode.env_t = chunk.env_t
        episode.is_terminated = chunk.terminated
        return episode
