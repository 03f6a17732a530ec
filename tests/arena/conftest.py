"""Test-only agents for the arena: deterministic, so that results are easy to reason about."""

from __future__ import annotations

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.core.game import GameState


class FirstLegalAgent(Agent):
    """Always plays the lowest legal action (deterministic; ``seed`` is ignored)."""

    name = "first-legal"

    def act(self, state: GameState) -> int:
        check_decision_node(state)
        return state.legal_actions()[0]


class LastLegalAgent(Agent):
    """Always plays the highest legal action."""

    name = "last-legal"

    def act(self, state: GameState) -> int:
        check_decision_node(state)
        return state.legal_actions()[-1]


class CheckpointAgent(Agent):
    """Loads a file when made, like an agent restoring a trained policy."""

    name = "checkpoint"

    def __init__(self, path: str = "missing.pt", seed: int | None = None) -> None:
        super().__init__(seed)
        with open(path, "rb"):
            pass

    def act(self, state: GameState) -> int:
        return state.legal_actions()[0]


class TorchMatmulAgent(FirstLegalAgent):
    """Plays like :class:`FirstLegalAgent` after a matrix product that torch spreads on threads.

    An agent whose network runs in the arena's workers, as trained policies do.
    """

    name = "torch-matmul"

    def act(self, state: GameState) -> int:
        import torch

        torch.ones(512, 512) @ torch.ones(512, 512)
        return super().act(state)


class BlasThreadsAgent(FirstLegalAgent):
    """Plays like :class:`FirstLegalAgent`, but refuses to play on more than one BLAS thread.

    An agent whose network multiplies batches in numpy, as the ``alphazero`` search's does.
    """

    name = "blas-threads"

    def act(self, state: GameState) -> int:
        from threadpoolctl import threadpool_info

        threads = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
        if max(threads, default=1) != 1:
            raise RuntimeError(f"numpy's BLAS runs {threads} threads in this arena worker")
        return super().act(state)
