"""Milliseconds per move of ``alphazero``, its search one simulation at a time or in waves.

For each variant, the agent plays its shipped baseline from the decision nodes of seeded random
games with each budget of ``--simulations``, once with the search's ``waves`` off (a network
call per simulation) and once on (a call per round of Sequential Halving), with the network
alone (``symmetries=false``), and for Santorini also with ``symmetries=true`` (eight guises of
every leaf in each call). The settings take
turns position by position, in one process, so that a noisy neighbour on the shared machine
slows them alike; each setting's time is the median of ``--runs`` passes over the positions,
and the ratio is that of the medians, one at a time over waves. The agents' first moves
(numba loading its code) are not counted. Numpy's BLAS runs one thread, as in the arena's
workers (docs/arena.md, "Reproducibility and workers").

    python benchmarks/bench_player.py --runs 5 --simulations 64 512 1024
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from random_play import decision_positions, medians, positive_int
from threadpoolctl import threadpool_limits

try:
    import numba  # noqa: F401  (the search needs it)
except ImportError:
    sys.exit('bench_player.py needs the batched extra: pip install -e ".[batched]"')

from zoo_games.alphazero.agent import AlphaZeroAgent

VARIANTS = ("santorini-fixed", "togyz-kumalak", "senet-kendall-5")


def settings_of(label: str, simulations: int) -> dict[str, AlphaZeroAgent]:
    """The agents compared at one budget, by name."""
    compared = {
        "one at a time": AlphaZeroAgent(simulations=simulations, symmetries=False),
        "waves": AlphaZeroAgent(simulations=simulations, symmetries=False, waves=True),
    }
    if label.startswith("santorini"):
        compared["symmetries, one at a time"] = AlphaZeroAgent(
            simulations=simulations, symmetries=True
        )
        compared["symmetries, waves"] = AlphaZeroAgent(
            simulations=simulations, symmetries=True, waves=True
        )
    return compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--simulations", nargs="+", type=positive_int, default=[64, 512, 1024])
    parser.add_argument("--positions", type=positive_int, default=20)
    parser.add_argument("--runs", type=positive_int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    threadpool_limits(1, user_api="blas")
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    print(f"{'variant':<18}{'simulations':>12}  {'setting':<28}{'ms/move':>9}{'x waves':>9}")
    for label in arguments.variants:
        positions = decision_positions(label, arguments.positions, arguments.seed)
        for simulations in arguments.simulations:
            agents = settings_of(label, simulations)
            for agent in agents.values():
                agent.act(positions[0])  # load the network and the compiled search
            seconds: dict[str, list[float]] = {name: [] for name in agents}
            for _ in range(arguments.runs):
                spent = dict.fromkeys(agents, 0.0)
                for position in positions:
                    for name, agent in agents.items():
                        start = time.perf_counter()
                        agent.act(position)
                        spent[name] += time.perf_counter() - start
                for name in agents:
                    seconds[name].append(1000 * spent[name] / len(positions))
            median_of = medians(seconds)
            for name, median in median_of.items():
                waves = median_of[name.replace("one at a time", "waves")]
                ratio = f"{median / waves:.2f}" if "one at a time" in name else ""
                print(f"{label:<18}{simulations:>12}  {name:<28}{median:>9.1f}{ratio:>9}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
