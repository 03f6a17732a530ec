"""Self-play on Ray actors, locally or across a cluster; the learner stays in the driver.

Each :class:`SelfPlayWorker` is an actor with an engine and a search of its own, seeded
apart. Every iteration the driver puts the current numpy network in Ray's object store once
(every worker reads the same copy), each worker plays its moves with it and sends back the
positions of the games that ended, and the driver adds them to its replay buffer in the order
of the workers, so that a seed gives the same buffer whatever the order the workers finish in.
Needs Ray (the ``rllib`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import ray
import torch

from zoo_games.alphazero.learner import TorchEvaluator, from_numpy
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.replay import Positions
from zoo_games.alphazero.searching import SearchMaker
from zoo_games.alphazero.selfplay import SelfPlayCounts, make_selfplay
from zoo_games.training.threads import TRAINING_THREADS


class SelfPlayWorker:
    """Batched self-play in a Ray actor: plays with the network it is sent, returns the games."""

    def __init__(
        self,
        variant: str,
        games: int,
        simulations: int,
        seed: int,
        make_search: SearchMaker,
        guard: bool = False,
        value_lambda: float = 1.0,
    ) -> None:
        self._kept: list[Positions] = []
        self._selfplay = make_selfplay(
            variant, games, simulations, seed, make_search, self._kept.append, guard, value_lambda
        )

    def play(
        self, network: PolicyValueNetwork, moves: int
    ) -> tuple[list[Positions], SelfPlayCounts]:
        """``moves`` moves in every game; the positions of the games that ended meanwhile.

        The network runs in torch on one thread, as in the training process (see
        :class:`~zoo_games.alphazero.learner.TorchEvaluator`).
        """
        torch.set_num_threads(TRAINING_THREADS)
        counts = self._selfplay.play(TorchEvaluator(from_numpy(network)), moves)
        kept = list(self._kept)
        self._kept.clear()
        return kept, counts


class RemoteSelfPlay:
    """``workers`` self-play actors of ``games`` games each; their positions go to ``keep``."""

    def __init__(
        self,
        variant: str,
        games: int,
        simulations: int,
        seed: int,
        workers: int,
        make_search: SearchMaker,
        keep: Callable[[Positions], None],
        guard: bool = False,
        value_lambda: float = 1.0,
    ) -> None:
        actor: Any = ray.remote(num_cpus=1)(SelfPlayWorker)
        seeds = np.random.SeedSequence(seed).generate_state(workers)
        self._workers: list[Any] = [
            actor.remote(
                variant, games, simulations, int(worker_seed), make_search, guard, value_lambda
            )
            for worker_seed in seeds
        ]
        self._keep = keep

    def play(self, network: PolicyValueNetwork, moves: int) -> SelfPlayCounts:
        """``moves`` moves in every game of every worker, with ``network``."""
        shared = ray.put(network)
        results = ray.get([worker.play.remote(shared, moves) for worker in self._workers])
        positions = games = 0
        for kept, counts in results:
            for batch in kept:
                self._keep(batch)
            positions += counts.positions
            games += counts.games
        return SelfPlayCounts(positions, games)

    def stop(self) -> None:
        """End the actors."""
        for worker in self._workers:
            ray.kill(worker)
