"""Microseconds per call of the leaf evaluators of a Santorini search, by batch of leaves.

The shipped Santorini baseline scores a batch of leaves three ways, interleaved call by call:
``network`` (the network alone, one reading per leaf), ``gathers`` (the mean of its readings
of each leaf's eight turns and reflections, each turn gathered and sent through the network:
``zoo_games.alphazero.symmetric``) and ``folded`` (the same mean with the turns folded into
the network's first and last layers and the first layer read over the observation's nonzero
values: ``zoo_games.alphazero.folded``, what the search uses). The leaves are positions of
seeded random games. The search in waves sends a few leaves per call (one per root move still
considered), one at a time one. Each figure is the median of ``--runs`` passes of
``--calls`` calls; ``gathers/folded`` is the ratio of the medians. Numpy's BLAS runs one
thread, as in the arena's workers.

    python benchmarks/bench_evaluators.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np
from random_play import decision_positions, medians, positive_int
from threadpoolctl import threadpool_limits

try:
    from zoo_games.alphazero.folded import FoldedEvaluator
except ImportError:
    sys.exit('bench_evaluators.py needs the batched extra: pip install -e ".[batched]"')

from zoo_games.alphazero.agent import AlphaZeroAgent
from zoo_games.alphazero.searching import Evaluator
from zoo_games.alphazero.symmetric import SymmetricEvaluator
from zoo_games.catalog import find_variant
from zoo_games.core.adapter import Observer
from zoo_games.core.symmetry import symmetries_of

VARIANT = "santorini-fixed"


def evaluators() -> tuple[dict[str, Evaluator], Observer[Any]]:
    """The three evaluators of the shipped baseline, by name, and the observer it reads."""
    game = find_variant(VARIANT).game
    network = AlphaZeroAgent(simulations=0).player_for(game).network
    observer = find_variant(network.variant).observer
    turns = symmetries_of(observer, game.num_actions)
    named: dict[str, Evaluator] = {
        "network": network,
        "gathers": SymmetricEvaluator(network, turns),
        "folded": FoldedEvaluator(network, turns),
    }
    return named, observer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", nargs="+", type=positive_int, default=[1, 2, 4, 16, 64])
    parser.add_argument("--calls", type=positive_int, default=300)
    parser.add_argument("--runs", type=positive_int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    threadpool_limits(1, user_api="blas")
    named, observer = evaluators()
    positions = decision_positions(VARIANT, max(arguments.leaves), arguments.seed)
    observations = np.stack([observer.observe(p, p.current_player()) for p in positions])
    masks = np.stack([np.frombuffer(p.legal_actions_mask(), dtype=np.int8) for p in positions])
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    columns = "".join(f"{name + ' us':>13}" for name in named)
    print(f"{'leaves':>6}{columns}{'gathers/folded':>16}")
    for leaves in arguments.leaves:
        batch = observations[:leaves], masks[:leaves]
        for evaluate in named.values():
            evaluate(*batch)  # compile and warm the caches
        micros: dict[str, list[float]] = {name: [] for name in named}
        for _ in range(arguments.runs):
            spent = dict.fromkeys(named, 0.0)
            for _ in range(arguments.calls):
                for name, evaluate in named.items():
                    start = time.perf_counter()
                    evaluate(*batch)
                    spent[name] += time.perf_counter() - start
            for name in named:
                micros[name].append(1e6 * spent[name] / arguments.calls)
        median_of = medians(micros)
        cells = "".join(f"{median_of[name]:>13.1f}" for name in named)
        print(f"{leaves:>6}{cells}{median_of['gathers'] / median_of['folded']:>16.2f}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
