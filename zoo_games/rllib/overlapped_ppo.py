"""PPO whose runners sample the next batch while the learner updates on this one.

RLlib's PPO takes turns: every runner samples, then the learner updates while the runners
wait, then the new weights go out. On the batched engine, sampling and the update each take
about half of an iteration, and on a machine of two cores each leaves the other core idle.
:class:`OverlappedPPO` keeps one sample in flight on every remote runner: as soon as an
iteration has its batch it starts the runners on the next one, then updates. The runners
sample with the weights of the update before the one they feed, so every batch is one update
old when it is trained on, as in one-step-off-policy PPO; PPO's ratio of probabilities
(the batch keeps its log-probabilities at sampling time) and its clipping correct for the
lag, as they do within an iteration's minibatches.

Measured on 2 cores, senet-kendall-5: docs/training.md, "Sampling while the learner updates".

What the learner sends and when, on each runner (Ray runs one caller's calls to an actor in
the order they were made, so the queue below is the order they happen in):

* iteration k waits for the sample started in iteration k - 1 and its metrics, then starts
  the next sample (with the weights queued at the end of iteration k - 1), then updates;
* after the update, the new weights are queued on every runner: they take effect once the
  sample in flight ends, before the next one starts. The driver's own runner, which
  :meth:`~ray.rllib.algorithms.algorithm.Algorithm.get_module` and so every evaluation reads,
  gets them at once.

A checkpoint saved with a sample in flight holds what was trained; the sample in flight is
lost when the run stops, and a resumed run starts a fresh one. The runners are called here
directly, not through RLlib's fault-tolerant manager: a runner that fails ends the run with
Ray's error (``ppo_config`` asks Ray not to restart them). Without remote runners there is
nothing to overlap with: the iteration is PPO's own.
"""

from __future__ import annotations

from typing import Any

import ray
from ray.rllib.algorithms.ppo import PPO
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_RL_MODULE
from ray.rllib.utils.metrics import (
    ALL_MODULES,
    ENV_RUNNER_RESULTS,
    LEARNER_RESULTS,
    LEARNER_UPDATE_TIMER,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_MODULE_STEPS_TRAINED_LIFETIME,
    SYNCH_WORKER_WEIGHTS_TIMER,
    TIMERS,
    WEIGHTS_SEQ_NO,
)

#: The result's timer (under ``"timers"``) of the seconds an iteration's learner waited for
#: the runners' samples: near none while they keep up with the update.
WAITED_FOR_SAMPLES = "learner_waited_for_samples"


class OverlappedPPO(PPO):
    """PPO with each remote runner's next sample running during the update."""

    #: Per remote runner, the references of its sample in flight and of the metrics after it.
    _in_flight: list[tuple[ray.ObjectRef, ray.ObjectRef]] = []

    def training_step(self) -> None:
        """One update on the batch sampled during the previous update."""
        group, learners, metrics = self.env_runner_group, self.learner_group, self.metrics
        config = self.config
        # All four are made by Algorithm.setup (some are empty, so test them against None).
        assert group is not None and learners is not None
        assert metrics is not None and config is not None
        runners = list(group._worker_manager.actors().values())
        if not runners:
            super().training_step()
            return
        with metrics.log_time((TIMERS, WAITED_FOR_SAMPLES), reduce="sum"):
            if not self._in_flight:  # the first iteration, or the first after a resume
                self._start_samples(runners)
            sampled = ray.get([reference for pair in self._in_flight for reference in pair])
        episodes = [item for sample in sampled[0::2] for item in _listed(sample)]
        metrics.aggregate(sampled[1::2], key=ENV_RUNNER_RESULTS)
        self._start_samples(runners)
        with metrics.log_time((TIMERS, LEARNER_UPDATE_TIMER)):
            learner_results = learners.update(
                episodes=episodes,
                timesteps={
                    # What PPO's update reads (its learning-rate and entropy schedules).
                    NUM_ENV_STEPS_SAMPLED_LIFETIME: metrics.peek(
                        (ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME)
                    ),
                    NUM_MODULE_STEPS_TRAINED_LIFETIME: metrics.peek(
                        (LEARNER_RESULTS, ALL_MODULES, NUM_MODULE_STEPS_TRAINED_LIFETIME),
                        default=0,
                    ),
                },
                num_epochs=config.num_epochs,
                minibatch_size=config.minibatch_size,
                shuffle_batch_per_epoch=config.shuffle_batch_per_epoch,
            )
            metrics.aggregate(learner_results, key=LEARNER_RESULTS)
        with metrics.log_time((TIMERS, SYNCH_WORKER_WEIGHTS_TIMER)):
            trained = set(learner_results[0]) - {ALL_MODULES}
            self._send_weights(learners, runners, trained)

    def _start_samples(self, runners: list[Any]) -> None:
        """Start a sample on every runner, each followed by a call for its metrics.

        A runner that offers its sample as arrays (the batched runner's ``sample_arrays``)
        is asked for them: they cross to this process at the cost of their bytes, where
        RLlib's episodes cost thousands of small objects to pickle and rebuild.
        """
        assert self.config is not None
        runner_class = self.config.env_runner_cls
        as_arrays = runner_class is not None and hasattr(runner_class, "sample_arrays")
        self._in_flight = [
            (
                runner.sample_arrays.remote() if as_arrays else runner.sample.remote(),
                runner.get_metrics.remote(),
            )
            for runner in runners
        ]

    def _send_weights(self, learners: Any, runners: list[Any], modules: set[str]) -> None:
        """The trained modules' weights: queued on the remote runners, set on the driver's."""
        components = [f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{module}" for module in modules]
        learner_state = learners.get_state(components=components, inference_only=True)
        state = {
            key: value
            for key, value in learner_state[COMPONENT_LEARNER].items()
            if key in (COMPONENT_RL_MODULE, WEIGHTS_SEQ_NO)  # what a runner's set_state takes
        }
        reference = ray.put(state)
        for runner in runners:
            runner.set_state.remote(reference)
        if self.env_runner is not None:
            self.env_runner.set_state(state)


def _listed(sample: Any) -> list[Any]:
    """A runner's sample as items of a learner's ``episodes`` (a list, or one ChunkBatch)."""
    return sample if isinstance(sample, list) else [sample]
