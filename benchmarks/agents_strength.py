"""How strong the agents are: a seeded arena per variant, and MCTS simulations per second.

For each variant, the agents play a round-robin tournament in the arena (both seats equally,
every game seeded): wins, draws, losses, score with its 95% Wilson interval, mean game
length, milliseconds per move of each agent, and an Elo table anchored on ``random``. The
arena's ``arena.json``, ``arena.csv`` and ``arena.png`` go to ``--out/VARIANT/``. Then MCTS
searches ``--simulations`` simulations from positions of seeded random games, ``--runs``
times, and the median simulations per second is printed.

Budgets in simulations (``mcts:simulations=3000``) make the results independent of how busy
the machine is; budgets in seconds buy fewer simulations on a loaded machine.

    python benchmarks/agents_strength.py --games 20 --workers 2 \\
        --agents random greedy mcts:simulations=300 mcts:simulations=3000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from zoo_games import agents
from zoo_games.arena import run_arena
from zoo_games.arena.report import format_table, write_outputs
from zoo_games.catalog import find_variant

VARIANTS = ("senet-kendall-5", "senet-skyruk-5", "togyz-kumalak", "santorini-fixed")
AGENTS = ("random", "greedy", "mcts:simulations=300", "mcts:simulations=3000")


def simulations_per_second(label: str, simulations: int, runs: int) -> float:
    """Median simulations per second of ``mcts`` from positions of seeded random games."""
    game = find_variant(label).game
    rates = []
    for run in range(runs):
        rng = random.Random(run)
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 20)):  # a few random moves into the game
            while state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            if state.is_terminal() or len(state.legal_actions()) < 2:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        agent = agents.make("mcts", simulations=simulations, seed=run)
        agent.act(state)
        search = agent.last_search
        assert search is not None
        if search.simulations:
            rates.append(search.simulations / search.seconds)
    return statistics.median(rates) if rates else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    parser.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write each variant's arena files here")
    parser.add_argument(
        "--gauntlet", action="store_true", help="only the first agent's pairings (see arena)"
    )
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for label in args.variants:
        start = time.perf_counter()
        result = run_arena(
            label,
            args.agents,
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            gauntlet=args.gauntlet,
        )
        print(format_table(result))
        print(f"({time.perf_counter() - start:.0f} s with {args.workers} worker(s))\n", flush=True)
        if args.out:
            write_outputs(result, args.out / label)
    print(f"MCTS simulations per second ({args.simulations} per search, median of {args.runs}):")
    for label in args.variants:
        rate = simulations_per_second(label, args.simulations, args.runs)
        print(f"{label:<20} {rate:>10,.0f}", flush=True)


if __name__ == "__main__":
    main()
