"""An RLlib EnvRunner that samples from the batched engine: PPO at the kernels' speed.

RLlib 2.60's new API stack offers two places to plug in a faster environment: a vectorized
multi-agent environment, or an EnvRunner class (``config.env_runners(env_runner_cls=...)``).
A vectorized environment still goes through ``MultiAgentEnvRunner``'s loop, which for every
step and every sub-environment builds observation dictionaries, runs the env-to-module and
module-to-env connector pipelines item by item and calls ``MultiAgentEpisode.add_env_step``:
tens of microseconds per game and step, against the engine's fraction of a microsecond.
So :class:`BatchedEnvRunner` replaces the loop itself and keeps everything else of
``MultiAgentEnvRunner`` (the module, weight synchronisation, checkpoint state, metrics):

* one :class:`~zoo_games.rllib.batched_games.SelfPlayGames` of N games per runner (each remote
  runner of a cluster steps an engine of its own), in shares of which the compiled ``greedy``
  or uniformly random play takes one seat (``env_config["greedy_share"]`` and
  ``["random_share"]``): the sparring partner's moves are part of the game for the trained
  seat, and no episode is made of them;
* per step, one forward pass of each module over all the games whose mover it plays (the
  module's sampling pass, which its ``forward_exploration`` runs too, the action sampled from
  the module's own distribution, as RLlib's ``GetActions`` does), then one engine step;
* the rollout recorded as arrays and cut into episode chunks at the end
  (:mod:`zoo_games.rllib.batched_episodes`), with the environment path's semantics: as
  ``MultiAgentEpisode`` objects from ``sample()``, or as arrays per module from
  :meth:`BatchedEnvRunner.sample_arrays`, which the overlapped learner calls on its remote
  runners.

The connector pipelines between environment and module are built (they are part of the
runner's checkpointed state) but not run: the module reads the engine's arrays directly,
which is what the pipelines of :func:`zoo_games.rllib.train.ppo_config` amount to (no
connector of ours changes observations). The runner samples by timesteps
(``batch_mode="truncate_episodes"``, PPO's default).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.utils.metrics import (
    NUM_AGENT_STEPS_SAMPLED,
    NUM_AGENT_STEPS_SAMPLED_LIFETIME,
    NUM_ENV_STEPS_SAMPLED,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_EPISODES,
    NUM_EPISODES_LIFETIME,
    NUM_MODULE_STEPS_SAMPLED,
    NUM_MODULE_STEPS_SAMPLED_LIFETIME,
    RLMODULE_INFERENCE_TIMER,
)

from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.batched_episodes import EpisodeBuilder, Rollout
from zoo_games.rllib.batched_games import GREEDY_STREAM, SelfPlayGames
from zoo_games.rllib.chunks import ChunkBatch
from zoo_games.rllib.env import GAMES_KEY, GREEDY_SHARE_KEY, RANDOM_SHARE_KEY
from zoo_games.rllib.module import ILLEGAL_LOGIT, MaskedActorCritic
from zoo_games.training.threads import limit_threads_for_good

#: The second word of the seed of the runner's action draws (greedy's ties have the first).
DRAW_STREAM = GREEDY_STREAM + 1


class BatchedEnvRunner(MultiAgentEnvRunner):
    """``MultiAgentEnvRunner`` whose samples come from N games of the batched engine.

    ``env_config`` names the variant (``"variant"``), shaping (``"shaping"``), the number
    of games (:data:`~zoo_games.rllib.env.GAMES_KEY`) and the shares of them against greedy
    and random play (:data:`~zoo_games.rllib.env.GREEDY_SHARE_KEY`,
    :data:`~zoo_games.rllib.env.RANDOM_SHARE_KEY`, 0 if absent); ``num_envs_per_env_runner``
    is 1: the one environment the parent class makes serves only for the spaces.
    """

    def make_env(self) -> None:
        """The parent's environment (for the spaces), and the games this runner plays."""
        super().make_env()
        if self.worker_index > 0:  # a remote runner's process (the driver's sets them itself)
            limit_threads_for_good()
        config = dict(self.config.env_config)
        self.games = SelfPlayGames(
            config["variant"],
            games=int(config[GAMES_KEY]),
            seed=self._seed,
            shaping=bool(config.get("shaping", False)),
            greedy_share=float(config.get(GREEDY_SHARE_KEY, 0.0)),
            random_share=float(config.get(RANDOM_SHARE_KEY, 0.0)),
        )
        #: Whether ``_sample`` hands out arrays (for ``sample_arrays``) or episodes.
        self._as_arrays = False
        #: The generator of the actions' draws (the games' own draw their chances).
        self._draws = np.random.default_rng(
            np.random.SeedSequence(None if self._seed is None else [self._seed, DRAW_STREAM])
        )
        #: The seats each module plays (one module for both with a shared policy).
        self._seats_of: dict[str, list[int]] = {}
        for seat, agent in enumerate(AGENTS):
            self._seats_of.setdefault(self._module_of(agent), []).append(seat)
        env = self.env.envs[0].unwrapped  # type: ignore[union-attr, index]
        self._builder = EpisodeBuilder(
            self.games.games,
            observation_space={agent: env.get_observation_space(agent) for agent in AGENTS},
            action_space={agent: env.get_action_space(agent) for agent in AGENTS},
            module_of=self.config.policy_mapping_fn,
            opponent_seat=self.games.sparring_seat,
        )

    def _module_of(self, agent: str) -> str:
        module_id: str = self.config.policy_mapping_fn(agent, None)  # type: ignore[call-arg]
        return module_id

    def _sample(
        self,
        *,
        num_timesteps: int | None = None,
        num_episodes: int | None = None,
        explore: bool,
        random_actions: bool = False,
        force_reset: bool = False,
    ) -> Any:
        if num_episodes is not None or num_timesteps is None:
            raise ValueError(
                "the batched runner samples timesteps (batch_mode='truncate_episodes'), "
                "not whole episodes"
            )
        rollout = self._rollout(num_timesteps, explore, random_actions, force_reset)
        if self._as_arrays:
            samples: list[MultiAgentEpisode] | ChunkBatch = self._builder.build_arrays(rollout)
        else:
            samples = self._builder.build(rollout)
        self._count(rollout)
        return samples

    def sample_arrays(self, **options: Any) -> ChunkBatch:
        """What ``sample(**options)`` samples (RLlib's own call, with its metrics), as arrays.

        :class:`~zoo_games.rllib.overlapped_ppo.OverlappedPPO` asks its remote runners for
        this: the same chunks as ``sample()``'s episodes, as a few arrays per module, which
        cross to the learner's process at the cost of their bytes alone
        (:mod:`zoo_games.rllib.chunks`).
        """
        self._as_arrays = True
        try:
            batch: ChunkBatch = self.sample(**options)  # type: ignore[assignment]  # arrays
        finally:
            self._as_arrays = False
        return batch

    def _rollout(
        self, num_timesteps: int, explore: bool, random_actions: bool, force_reset: bool
    ) -> Rollout:
        """At least ``num_timesteps`` steps of every game, as arrays."""
        if force_reset or self._needs_initial_reset:
            self.games.restart()
            self._builder.restart()
            self._needs_initial_reset = False
        steps = max(1, math.ceil(num_timesteps / self.games.games))
        return self._roll(steps, explore, random_actions)

    def _roll(self, steps: int, explore: bool, random_actions: bool) -> Rollout:
        games = self.games
        rollout = Rollout(steps, games.games, games.observation, games.action_mask.shape[1])
        for t in range(steps):
            rollout.observe(t, games.observation, games.action_mask, games.current_player)
            sparring = games.sparring_to_move()
            with self.metrics.log_time(RLMODULE_INFERENCE_TIMER):
                observations, masks = rollout.observations[t], rollout.masks[t]
                movers = rollout.movers[t]
                actions, outputs = self._decide(
                    observations, masks, movers, ~sparring, explore and not random_actions
                )
            if random_actions:
                actions, outputs = self._random_actions(masks, outputs[Columns.VF_PREDS])
            games.play_sparring(actions, np.flatnonzero(sparring))
            rollout.record(t, actions, outputs, games.step(actions))
        rollout.observe(steps, games.observation, games.action_mask, games.current_player)
        # The values of the positions the rollout ends on: the bootstraps of cut chunks.
        _, closing = self._decide(
            rollout.observations[steps],
            rollout.masks[steps],
            rollout.movers[steps],
            ~games.sparring_to_move(),
            explore=False,
        )
        rollout.close(closing[Columns.VF_PREDS])
        return rollout

    def _decide(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        movers: np.ndarray,
        trained: np.ndarray,
        explore: bool,
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """One forward pass per module over the games whose mover it plays.

        ``trained`` marks the games whose mover a module plays; the others' actions and
        outputs are left at 0 (the sparring partner's moves, filled in by the caller). The
        action is drawn from the categorical distribution of the module's (masked) logits, as
        RLlib's ``GetActions`` draws it from ``TorchCategorical``, the module's distribution
        class, but in numpy, on the module's sampling pass
        (:meth:`~zoo_games.rllib.module.MaskedActorCritic.sampling_logits`), without a torch
        distribution per step (that cost 250 of 590 µs per call on 64 Senet games) or torch's
        cost per operation. The draws come from the runner's own generator, seeded from its
        seed.
        """
        if trained.all() and len(self._seats_of) == 1:  # self-play: one pass decides all
            (module_id,) = self._seats_of
            return self._pass(module_id, observations, masks, explore)
        games = movers.shape[0]
        actions = np.zeros(games, dtype=np.int64)
        outputs = {
            Columns.ACTION_LOGP: np.zeros(games, dtype=np.float32),
            Columns.ACTION_DIST_INPUTS: np.zeros(masks.shape, dtype=np.float32),
            Columns.VF_PREDS: np.zeros(games, dtype=np.float32),
        }
        for module_id, seats in self._seats_of.items():
            chosen = trained if len(seats) == len(AGENTS) else (movers == seats[0]) & trained
            if not chosen.any():
                continue  # this module moves in none of the games
            chosen_actions, chosen_outputs = self._pass(
                module_id, observations[chosen], masks[chosen], explore
            )
            actions[chosen] = chosen_actions
            for name, value in chosen_outputs.items():
                outputs[name][chosen] = value
        return actions, outputs

    def _pass(
        self, module_id: str, observations: np.ndarray, masks: np.ndarray, explore: bool
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """One forward pass of module ``module_id``, and an action drawn per row."""
        assert self.module is not None
        module = self.module[module_id]
        assert isinstance(module, MaskedActorCritic), "the runner samples our masked module"
        logits, values = module.sampling_logits_and_values(observations, masks)
        log_probabilities = _log_softmax(logits)
        actions = _draw(log_probabilities, self._draws, explore)
        logp = np.take_along_axis(log_probabilities, actions[:, None], axis=1)[:, 0]
        return actions, {
            Columns.ACTION_LOGP: logp,
            Columns.ACTION_DIST_INPUTS: logits,
            Columns.VF_PREDS: values,
        }

    def _random_actions(
        self, masks: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Uniformly random legal actions, with the outputs of a uniform masked policy.

        The positions' ``values`` are the module's, whoever chooses the actions.
        """
        actions = self.games.engine.sample_legal_actions()
        legal = masks.sum(axis=1)
        inputs = np.where(masks == 1, np.float32(0.0), np.float32(ILLEGAL_LOGIT))
        logp = -np.log(legal).astype(np.float32)
        return actions, {
            Columns.ACTION_LOGP: logp,
            Columns.ACTION_DIST_INPUTS: inputs,
            Columns.VF_PREDS: values,
        }

    def _count(self, rollout: Rollout) -> None:
        """Log what RLlib's runner logs per step and per finished episode, once per rollout."""
        env_steps = rollout.steps * self.games.games
        self.num_env_steps_sampled_lifetime += env_steps
        log = self.metrics.log_value
        log(NUM_ENV_STEPS_SAMPLED, env_steps, reduce="sum")
        log(NUM_ENV_STEPS_SAMPLED_LIFETIME, env_steps, reduce="lifetime_sum", with_throughput=True)
        ended = int(rollout.terminated.sum())
        log(NUM_EPISODES, ended, reduce="sum")
        log(NUM_EPISODES_LIFETIME, ended, reduce="lifetime_sum")
        for seat, agent in enumerate(AGENTS):
            trained = self.games.sparring_seat != seat
            count = int(((rollout.movers[:-1] == seat) & trained).sum())
            module_id = self._module_of(agent)
            log((NUM_AGENT_STEPS_SAMPLED, agent), count, reduce="sum")
            log((NUM_AGENT_STEPS_SAMPLED_LIFETIME, agent), count, reduce="lifetime_sum")
            log((NUM_MODULE_STEPS_SAMPLED, module_id), count, reduce="sum")
            log((NUM_MODULE_STEPS_SAMPLED_LIFETIME, module_id), count, reduce="lifetime_sum")
        for game in self._builder.finished_games():  # as the parent's get_metrics logs them
            module_returns: dict[str, float] = {}
            for agent, earned in game.returns.items():
                module_id = self._module_of(agent)
                module_returns[module_id] = module_returns.get(module_id, 0.0) + earned
            self._log_episode_metrics(
                game.length,
                sum(game.returns.values()),
                game.seconds,
                game.returns,
                module_returns,
                game.agent_steps,
            )


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    """``log(softmax(logits))`` per row."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def _draw(logits: np.ndarray, generator: np.random.Generator, explore: bool) -> np.ndarray:
    """A draw from ``softmax(logits)`` per row (Gumbel-max), or the most likely action.

    ``logits`` may be shifted per row (log-probabilities are): the draw is the same. The
    uniform draws are kept above 0: a draw of exactly 0 (numpy's float32 draws are multiples
    of 2**-24) has Gumbel noise ``-inf``, and a legal action given ``-inf`` would lose the
    argmax to the illegal ones (logit :data:`ILLEGAL_LOGIT` plus finite noise). In a
    20-minute run drawing for tens of millions of actions, it happened.
    """
    if not explore:
        return np.argmax(logits, axis=1)
    uniform = generator.random(logits.shape, dtype=np.float32)
    np.maximum(uniform, np.finfo(np.float32).tiny, out=uniform)
    minus_gumbel = np.log(np.negative(np.log(uniform, out=uniform), out=uniform), out=uniform)
    return np.argmax(logits - minus_gumbel, axis=1)
