"""The three speeds of AlphaZero training: self-play positions, network evaluations, learner steps.

For one variant and the network shape of ``zoo-games train --algorithm alphazero`` (or the
one given), each measured for ``--seconds`` after a warm-up, on one thread as training runs:

* ``network evaluations/s``: positions evaluated per second by the network in batches of
  ``--games`` (the batch the search sends at each simulation), by the numpy forward pass that
  self-play uses and, for comparison, by torch;
* ``learner steps/s``: gradient steps of ``--batch-size`` positions (and positions/s);
* ``self-play positions/s``: moves played (and recorded) per second by batched self-play,
  ``--games`` games at once with ``--simulations`` per move, the search's leaves evaluated by
  the numpy network.

    python benchmarks/bench_alphazero.py --variant togyz-kumalak --seconds 5
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

import numpy as np
from random_play import positive_float, positive_int

from zoo_games.catalog import find_variant, labels

try:
    import torch

    from zoo_games import batched
    from zoo_games.alphazero.learner import Learner, PolicyValueModel, TorchEvaluator, to_numpy
    from zoo_games.alphazero.replay import Positions, ReplayBuffer
    from zoo_games.alphazero.searching import Evaluator, make_search
    from zoo_games.alphazero.selfplay import SelfPlay
    from zoo_games.alphazero.settings import AlphaZeroSettings
    from zoo_games.training.threads import training_threads
except ImportError as missing:
    sys.exit(
        f"bench_alphazero.py needs the rllib and batched extras ({missing}): "
        'pip install -e ".[rllib,batched]"'
    )


def per_second(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` (each call returns how many it did) per second, after one warm-up."""
    work()
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work()
    return done / (time.perf_counter() - start)


def random_positions(engine: batched.BatchedEngine, moves: int) -> Positions:
    """The engine's positions after ``moves`` random moves, uniform policy targets, values 0."""
    for _ in range(moves):
        engine.step(engine.sample_legal_actions())
    masks = engine.action_mask.copy()
    policies = masks / masks.sum(axis=1, keepdims=True)
    outcomes = np.zeros(engine.batch_size, np.float32)
    return Positions(
        engine.observation.copy(), masks, policies.astype(np.float32), outcomes, outcomes.copy()
    )


def main() -> None:
    defaults = AlphaZeroSettings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=labels(), default=defaults.variant)
    parser.add_argument("--games", type=positive_int, default=defaults.games)
    parser.add_argument("--simulations", type=positive_int, default=defaults.simulations)
    parser.add_argument(
        "--hidden", type=positive_int, nargs="+", default=defaults.hidden, help="layer sizes"
    )
    parser.add_argument(
        "--convolutions",
        type=positive_int,
        nargs="*",
        default=defaults.convolutions,
        help="channels of the 3x3 convolutions (a board of planes only)",
    )
    parser.add_argument("--batch-size", type=positive_int, default=defaults.batch_size)
    parser.add_argument("--seconds", type=positive_float, default=5.0, help="per measurement")
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    variant = find_variant(args.variant)
    shape = tuple(variant.observer.space.shape)
    engine = batched.make(variant.label, batch_size=args.games, seed=0)
    torch.manual_seed(0)
    model = PolicyValueModel(shape, args.hidden, engine.num_actions, args.convolutions)
    network = to_numpy(model, variant.label, shape)
    batch = random_positions(engine, 10)
    rng = np.random.default_rng(0)
    label = f"{variant.label} hidden {args.hidden}" + (
        f" convolutions {args.convolutions}" if args.convolutions else ""
    )
    with training_threads():

        def numpy_batch() -> int:
            network(batch.observations, batch.masks)
            return len(batch)

        def torch_batch() -> int:
            with torch.inference_mode():
                model(torch.from_numpy(batch.observations))
            return len(batch)

        buffer = ReplayBuffer(
            4 * args.batch_size, shape, np.dtype(variant.observer.space.dtype), engine.num_actions
        )
        while len(buffer) < buffer.capacity:
            buffer.add(random_positions(engine, 1))
        learner = Learner(model, defaults.lr, defaults.weight_decay)

        def learner_step() -> int:
            learner.step(buffer.sample(args.batch_size, rng))
            return 1

        search = make_search(variant.label, args.games, args.simulations, 0)
        selfplay = SelfPlay(engine, search, buffer.add)

        def selfplay_move(evaluator: Evaluator) -> Callable[[], int]:
            def move() -> int:
                selfplay.play(evaluator, moves=1)
                return args.games

            return move

        rates = {
            f"network evaluations/s, numpy (batch {args.games})": per_second(
                numpy_batch, args.seconds
            ),
            f"network evaluations/s, torch (batch {args.games})": per_second(
                torch_batch, args.seconds
            ),
            f"learner steps/s (batch {args.batch_size})": per_second(learner_step, args.seconds),
            f"self-play positions/s, numpy ({args.simulations} simulations)": per_second(
                selfplay_move(network), args.seconds
            ),
            f"self-play positions/s, torch ({args.simulations} simulations)": per_second(
                selfplay_move(TorchEvaluator(model)), args.seconds
            ),
        }
    for name, rate in rates.items():
        print(f"{label:<40} {name:<48} {rate:>12,.0f}")
    steps = rates[f"learner steps/s (batch {args.batch_size})"]
    print(f"{label:<40} {'learner positions/s':<48} {steps * args.batch_size:>12,.0f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
