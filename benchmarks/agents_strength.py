"""How strong the agents are: matches between them, and MCTS simulations per second.

For each variant, every pairing plays ``--games`` games with the seats alternated (the first
named agent is ``player_0`` in even games), each game seeded by its number, through
:func:`zoo_games.agents.play_game`. Then MCTS searches ``--simulations`` simulations from
positions of seeded random games, ``--runs`` times, and the median simulations per second is
printed. Noisy on a shared machine: time budgets (``seconds=``) buy fewer simulations when
the machine is busy, so win rates of time-limited MCTS depend on the load.

    python benchmarks/agents_strength.py --games 20 --mcts-seconds 0.1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from zoo_games import agents
from zoo_games.catalog import find_variant

VARIANTS = ("senet-kendall-5", "togyz-kumalak", "santorini-fixed")


def match(label: str, first: str, second: str, games: int) -> tuple[int, int, int]:
    """Wins, draws and losses of agent spec ``first`` against ``second`` over ``games``."""
    wins = draws = losses = 0
    env = find_variant(label).raw_env()
    for game in range(games):
        one = agents.make_from_spec(first, seed=2 * game)
        two = agents.make_from_spec(second, seed=2 * game + 1)
        seats = (
            {"player_0": one, "player_1": two}
            if game % 2 == 0
            else {"player_0": two, "player_1": one}
        )
        returns = agents.play_game(env, seats, seed=game)
        result = returns["player_0" if game % 2 == 0 else "player_1"]
        wins += result > 0
        draws += result == 0
        losses += result < 0
    return wins, draws, losses


def simulations_per_second(label: str, simulations: int, runs: int) -> float:
    """Median simulations per second of ``mcts`` from positions of seeded random games."""
    game = find_variant(label).raw_env().game
    rates = []
    for run in range(runs):
        rng = random.Random(run)
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 20)):  # a few random moves into the game
            while state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcome_values()))
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcome_values()))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(3)
        agent = agents.make("mcts", simulations=simulations, seed=run)
        agent.act(state)
        search = agent.last_search
        assert search is not None
        if search.simulations:
            rates.append(search.simulations / search.seconds)
    return statistics.median(rates) if rates else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--mcts-seconds", type=float, default=0.1)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    args = parser.parse_args()
    mcts = f"mcts:seconds={args.mcts_seconds}"
    pairings = [("greedy", "random"), (mcts, "random"), (mcts, "greedy")]
    print("| variant | agent | opponent | games | wins | draws | losses |")
    print("|---|---|---|---|---|---|---|")
    for label in args.variants:
        for first, second in pairings:
            start = time.perf_counter()
            wins, draws, losses = match(label, first, second, args.games)
            print(
                f"| {label} | {first} | {second} | {args.games} | {wins} | {draws} | {losses} |",
                flush=True,
            )
            print(f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    print()
    print("| variant | MCTS simulations per second (median of runs) |")
    print("|---|---|")
    for label in args.variants:
        rate = simulations_per_second(label, args.simulations, args.runs)
        print(f"| {label} | {rate:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
