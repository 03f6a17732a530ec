"""Simulations per second of ``mcts`` (Python rules core) and ``batched-mcts`` (numba), per variant.

Both agents search the same positions with the same budget of simulations and their default
options (heuristic rollouts: the same algorithm, one in Python, one compiled), in the same
process, interleaved position by position so that a noisy neighbour on the shared machine
slows both alike: the positions are the decision nodes reached by seeded random play after
0, 10, 20, ... plies, each searched ``--runs`` times by each agent. The table reports the
median simulations per second of each and the ratio of the medians. The agents' first
searches (numba loading or compiling its code) are not counted.

Also printed, unless ``--skip-compile``: the seconds of a first ``batched-mcts`` move per
game in a fresh process with an empty numba cache (compiling), then with that cache (loading).

Last, the batched AlphaZero search (:class:`zoo_games.batched.search.alphazero.BatchedSearch`) with
the uniform evaluator, so that the figure is the search's own cost without a network: its
simulations per second over all games, searching ``--batch`` positions of seeded random games
with ``--batch-simulations`` each (median of ``--runs`` searches, after one to load the code).

    python benchmarks/bench_search.py --runs 3 --simulations 2000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from zoo_games import agents, batched
from zoo_games.agents.mcts import SearchResult
from zoo_games.batched.search.alphazero import BatchedSearch
from zoo_games.batched.search.evaluators import uniform_evaluator
from zoo_games.catalog import find_variant
from zoo_games.core.game import CHANCE, GameState

VARIANTS = ("togyz-kumalak", "santorini-fixed", "senet-kendall-5")

_COMPILE_SCRIPT = """
import time
from zoo_games import agents
from zoo_games.catalog import find_variant
for label in {labels!r}:
    state = find_variant(label).game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    start = time.perf_counter()
    agents.make("batched-mcts", simulations=10, seed=0).act(state)
    print(label, time.perf_counter() - start)
"""


def decision_state(label: str, seed: int, plies: int) -> GameState:
    """The last decision node of seeded random play of up to ``plies`` moves (chance sampled)."""
    rng = random.Random(seed)
    state = find_variant(label).game.new_initial_state()
    decision = state
    for _ in range(plies + 1):
        while state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        if state.is_terminal():
            break
        decision = state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return decision


def searched_rate(agent: agents.Agent, state: GameState) -> float | None:
    """Simulations per second of one search, or ``None`` if the move needed no search."""
    start = time.perf_counter()
    agent.act(state)
    seconds = time.perf_counter() - start
    search = getattr(agent, "last_search", None)
    assert isinstance(search, SearchResult)
    return search.simulations / seconds if search.simulations else None


def measure(label: str, simulations: int, positions: int, runs: int) -> dict[str, list[float]]:
    """Per agent name, the simulations/s of every search from every position."""
    specs = {
        "mcts": f"mcts:simulations={simulations}",
        "batched-mcts": f"batched-mcts:simulations={simulations}",
    }
    made = {name: agents.make_from_spec(spec, seed=0) for name, spec in specs.items()}
    warm_up = decision_state(label, 0, 0)
    for agent in made.values():
        agent.act(warm_up)
    rates: dict[str, list[float]] = {name: [] for name in made}
    for position in range(positions):
        state = decision_state(label, position, 10 * position)
        for _ in range(runs):
            for name, agent in made.items():
                rate = searched_rate(agent, state)
                if rate is not None:
                    rates[name].append(rate)
    return rates


def compile_times(labels: list[str]) -> list[tuple[str, float, float]]:
    """Per variant: seconds of the first move with an empty numba cache, then cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        script = _COMPILE_SCRIPT.format(labels=labels)
        outputs = []
        for _ in range(2):
            result = subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
            )
            outputs.append(dict(line.split() for line in result.stdout.splitlines()))
    return [(label, float(outputs[0][label]), float(outputs[1][label])) for label in labels]


def alphazero_rate(label: str, games: int, simulations: int, runs: int) -> float:
    """Median simulations/s (all games together) of the batched AlphaZero search."""
    engine = batched.make(label, batch_size=games, seed=0)
    for _ in range(20):
        engine.step(engine.sample_legal_actions())
    search = BatchedSearch(label, games, simulations, seed=0)
    search.run(engine.states, uniform_evaluator)
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        search.run(engine.states, uniform_evaluator)
        rates.append(games * simulations / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--simulations", type=int, default=2000, help="per search, both agents")
    parser.add_argument("--positions", type=int, default=5, help="positions per variant")
    parser.add_argument("--runs", type=int, default=3, help="searches per position and agent")
    parser.add_argument("--skip-compile", action="store_true", help="skip the compile timing")
    parser.add_argument("--batch", type=int, default=256, help="games of the AlphaZero search")
    parser.add_argument(
        "--batch-simulations", type=int, default=32, help="per game, AlphaZero search"
    )
    args = parser.parse_args(argv)
    for label in args.variants:
        find_variant(label)  # a bad label fails before any measurement
    print(
        f"simulations/s, median of {args.positions} positions x {args.runs} searches"
        f" of {args.simulations} simulations\n"
    )
    print(f"{'variant':<20}{'mcts':>12}{'batched-mcts':>15}{'ratio':>9}")
    for label in args.variants:
        rates = measure(label, args.simulations, args.positions, args.runs)
        python, compiled = (statistics.median(rates[name]) for name in ("mcts", "batched-mcts"))
        print(f"{label:<20}{python:>12,.0f}{compiled:>15,.0f}{compiled / python:>8.1f}x")
    if not args.skip_compile:
        print("\nfirst batched-mcts move, seconds: empty numba cache (compiling), then cached")
        for label, compiling, cached in compile_times(args.variants):
            print(f"{label:<20}{compiling:>8.1f}{cached:>8.1f}")
    print(
        f"\nbatched AlphaZero search, uniform evaluator, {args.batch} games x"
        f" {args.batch_simulations} simulations: simulations/s"
    )
    for label in args.variants:
        rate = alphazero_rate(label, args.batch, args.batch_simulations, args.runs)
        print(f"{label:<20}{rate:>12,.0f}")


if __name__ == "__main__":
    main()
