"""RLlib episodes built from a rollout of the batched engine, a whole array at a time.

RLlib's own runner adds every step to a ``MultiAgentEpisode`` (``add_env_step``: dictionaries,
buffers and checks per agent and step), which costs more than the batched engine's step of a
whole batch. Here a rollout is first recorded as arrays, ``(steps, games, ...)``
(:class:`Rollout`), and :class:`EpisodeBuilder` then cuts each game's column into episode
chunks: per game and seat it finds the seat's decisions with one comparison, gathers their
observations, actions and model outputs with fancy indexing, and makes one
``SingleAgentEpisode`` from the arrays. The Python work is per chunk, not per step.

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
"""

from __future__ import annotations

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

#: The model outputs each decision keeps, as RLlib's runner keeps them for PPO.
MODEL_OUTPUTS = (Columns.ACTION_LOGP, Columns.ACTION_DIST_INPUTS)


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
        #: ``delivered[t]``: the reward handed out with the observation at ``t + 1``.
        self.delivered = np.empty((steps, games), dtype=np.float64)
        self.terminated = np.empty((steps, games), dtype=np.bool_)
        #: game -> [(step, both seats' final rewards, both seats' final observations)].
        self.ends: dict[int, list[tuple[int, np.ndarray, list[np.ndarray]]]] = {}

    def observe(self, t: int, observation: Any, mask: Any, movers: Any) -> None:
        """The movers' observations before step ``t`` (``t == steps``: after the last)."""
        self.observations[t] = observation
        self.masks[t] = mask
        self.movers[t] = movers

    def record(self, t: int, actions: np.ndarray, outputs: dict[str, Any], step: Step) -> None:
        """Step ``t``'s actions, their model outputs and what the step gave."""
        self.actions[t] = actions
        for name in MODEL_OUTPUTS:
            self.outputs[name][t] = outputs[name]
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


class EpisodeBuilder:
    """Turns rollouts of ``games`` games into ``MultiAgentEpisode`` chunks, game by game.

    ``opponent_seat[g]`` is the seat of game ``g`` that makes no chunks (-1: none; by default
    no game has one).
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
        self._games = [_Game() for _ in range(games)]

    def restart(self) -> None:
        """Forget every game (the caller restarted them all)."""
        self._games = [_Game() for _ in self._games]

    def build(self, rollout: Rollout) -> list[MultiAgentEpisode]:
        """The episode chunks of ``rollout``: every game's finished games, then its cut one."""
        episodes: list[MultiAgentEpisode] = []
        for game in range(len(self._games)):
            start = 0
            for end, rewards, observations in rollout.ends.get(game, []):
                finals = [(observations[seat], rewards[seat]) for seat in (0, 1)]
                episodes.extend(self._chunk(rollout, game, start, end + 1, finals))
                self._games[game] = _Game()
                start = end + 1
            if start < rollout.steps:
                episodes.extend(self._chunk(rollout, game, start, rollout.steps, None))
        return episodes

    def _chunk(
        self,
        rollout: Rollout,
        game: int,
        start: int,
        stop: int,
        finals: list[tuple[np.ndarray, float]] | None,
    ) -> list[MultiAgentEpisode]:
        """Steps ``start:stop`` of ``game``; ``finals``: each seat's end, if the game ended."""
        state = self._games[game]
        episode = MultiAgentEpisode(
            id_=state.id_,
            observation_space=self._observation_space,  # type: ignore[arg-type]  # per agent
            action_space=self._action_space,  # type: ignore[arg-type]
            agent_to_module_mapping_fn=self._module_of,
            env_t_started=state.steps,
        )
        movers = rollout.movers[start:stop, game]
        for seat, agent in enumerate(AGENTS):
            if seat == self._opponent_seat[game]:
                continue
            steps = start + np.flatnonzero(movers == seat)
            decisions = _Decisions(
                rollout.observations[steps, game],
                rollout.masks[steps, game],
                rollout.actions[steps, game],
                {name: value[steps, game] for name, value in rollout.outputs.items()},
                steps,
            )
            waiting = state.waiting[seat]
            if waiting is not None:
                decisions = waiting.then(decisions)
            if finals is not None:  # the game ended: its final observation closes the chunk
                last_observation, last_reward = finals[seat]
                last_mask = np.zeros(rollout.masks.shape[2], dtype=np.int8)
                done = decisions
                state.waiting[seat] = None
            elif rollout.movers[stop, game] == seat:  # to move: its observation closes it
                last_observation = rollout.observations[stop, game]
                last_mask = rollout.masks[stop, game]
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
                last_reward = rollout.delivered[decisions.steps[-1] - 1, game]
            if not len(done):
                continue
            # Each transition's reward came with the seat's next observation.
            rewards = np.empty(len(done), dtype=np.float64)
            rewards[:-1] = rollout.delivered[done.steps[1:] - 1, game]
            rewards[-1] = last_reward
            module_id = self._module_of(agent, episode)
            episode.agent_episodes[agent] = SingleAgentEpisode(
                id_=state.seat_ids[seat],
                observations={  # type: ignore[arg-type]  # RLlib's numpy form
                    "observation": np.concatenate([done.observations, last_observation[None]]),
                    "action_mask": np.concatenate([done.masks, last_mask[None]]),
                },
                infos=[{} for _ in range(len(done) + 1)],
                actions=done.actions,  # type: ignore[arg-type]  # RLlib's numpy form
                rewards=rewards,  # type: ignore[arg-type]
                terminated=finals is not None,
                extra_model_outputs=done.outputs,
                t_started=state.seat_steps[seat],
                len_lookback_buffer=0,
                agent_id=agent,
                module_id=module_id,
                multi_agent_episode_id=state.id_,  # type: ignore[arg-type]  # a str
            )
            episode._agent_to_module_mapping[agent] = module_id
            state.seat_steps[seat] += len(done)
        state.steps += stop - start
        episode.env_t = state.steps
        episode.is_terminated = finals is not None
        return [episode] if episode.agent_episodes else []
