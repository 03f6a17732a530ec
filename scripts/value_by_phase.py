"""How well a trained network's value foresees the outcome, quarter by quarter of a game.

    python scripts/value_by_phase.py VARIANT [--checkpoint RUN] [--games N] [--seed S] [--argmax]

plays N games of an ``alphazero`` network against itself: the shipped baseline of VARIANT (a
label such as ``senet-kendall-5-moves``) or the network of a training run (``--checkpoint``).
Each move is drawn from the network's policy (``--argmax``: its most likely move); chance (Senet's
throws) follows the rules. At every decision it keeps three numbers for the player to act: the
network's value, the game's static evaluation (the one the ``greedy`` agent plays by), and the
return that player ends the game with. It prints, for each quarter of a game's decisions, the
correlation of the value and of the evaluation with the return, and the value's mean squared
error against the return's own mean square (the error of always predicting a draw).

A search backed by the value can tell moves apart only where the value foresees something:
this is the measurement behind the "Where Kendall's outcome is decided" entry of
docs/training_results.md. A mistake is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np

from zoo_games.agents.evaluation import evaluation_for
from zoo_games.alphazero.network import PolicyValueNetwork, check_plays, load
from zoo_games.alphazero.saved import baseline_folder, network_folder
from zoo_games.catalog import Variant, find_variant
from zoo_games.core.chance import ChanceSampler

#: The parts of a game the statistics are given for, as fractions of its decisions.
QUARTERS = ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))


@dataclass
class Decisions:
    """One row per decision of the games played: where in its game, and the three numbers."""

    phase: np.ndarray  # the decision's index over its game's count of decisions, in [0, 1)
    value: np.ndarray  # the network's value for the player to act
    evaluation: np.ndarray  # the game's static evaluation for the player to act
    result: np.ndarray  # the return that player ended the game with


def play(
    variant: Variant, network: PolicyValueNetwork, games: int, seed: int, argmax: bool
) -> Decisions:
    """The decisions of ``games`` games of ``network`` against itself."""
    game, observer = variant.game, variant.observer
    evaluate = evaluation_for(game.name)
    rng = np.random.default_rng(seed)
    chance = ChanceSampler()  # throws drawn as the environments draw them
    no_mask = np.zeros((1, game.num_actions), dtype=np.int8)  # the network reads no mask
    rows: list[tuple[float, float, float, float]] = []
    for _ in range(games):
        state = game.new_initial_state()
        seen: list[tuple[int, float, float]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance.sample(state.chance_outcomes(), rng))
                continue
            mover = state.current_player()
            legal = state.legal_actions()
            logits, value = network(observer.observe(state, mover)[None], no_mask)
            seen.append((mover, float(value[0]), evaluate(state, mover)))
            scores = logits[0, legal].astype(np.float64)
            if argmax:
                pick = int(np.argmax(scores))
            else:
                chances_of = np.exp(scores - scores.max())
                pick = int(rng.choice(len(legal), p=chances_of / chances_of.sum()))
            state.apply_action(legal[pick])
        returns = state.returns()
        rows.extend(
            (index / len(seen), value, evaluation, returns[mover])
            for index, (mover, value, evaluation) in enumerate(seen)
        )
    phase, value, evaluation, result = np.array(rows, dtype=np.float64).reshape(-1, 4).T
    return Decisions(phase, value, evaluation, result)


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson's correlation of ``a`` and ``b``; 0 where either is constant (nothing foreseen)."""
    if len(a) < 2 or a.std() == 0 or b.std() == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def table(decisions: Decisions) -> list[dict[str, float]]:
    """Per quarter: decisions, the two correlations with the result, and the squared errors."""
    lines = []
    for low, high in QUARTERS:
        part = (decisions.phase >= low) & (decisions.phase < high)
        value, result = decisions.value[part], decisions.result[part]
        lines.append(
            {
                "from": low,
                "to": high,
                "decisions": int(part.sum()),
                "value_correlation": correlation(value, result),
                "evaluation_correlation": correlation(decisions.evaluation[part], result),
                "value_error": float(np.mean((value - result) ** 2)) if part.any() else 0.0,
                "draw_error": float(np.mean(result**2)) if part.any() else 0.0,
            }
        )
    return lines


def network_of(variant: Variant, checkpoint: str | None) -> PolicyValueNetwork:
    """The network to measure; ``ValueError`` (one line) if it is missing or reads other games."""
    network = load(network_folder(checkpoint) if checkpoint else baseline_folder(variant.label))
    check_plays(network, variant.label, variant.observation_shape, variant.game.num_actions)
    return network


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="the variant label the network reads, e.g. togyz-kumalak")
    parser.add_argument("--checkpoint", help="a training run's folder (default: the baseline)")
    parser.add_argument("--games", type=int, default=400, help="games to play (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="seed of moves and throws")
    parser.add_argument("--argmax", action="store_true", help="play the most likely moves")
    arguments = parser.parse_args(argv)
    if arguments.games < 1:
        parser.error(f"--games must be at least 1, got {arguments.games}")
    try:
        variant = find_variant(arguments.variant)
        network = network_of(variant, arguments.checkpoint)
    except ValueError as mistake:
        print(f"value_by_phase: error: {mistake}", file=sys.stderr)
        return 2
    decisions = play(variant, network, arguments.games, arguments.seed, arguments.argmax)
    print(f"{variant.label}: {arguments.games} games, {len(decisions.phase)} decisions")
    print("part of the game  decisions  corr(value)  corr(evaluation)  value error  draw error")
    for line in table(decisions):
        print(
            f"{line['from']:.2f}-{line['to']:.2f}        {line['decisions']:9d}  "
            f"{line['value_correlation']:11.3f}  {line['evaluation_correlation']:16.3f}  "
            f"{line['value_error']:11.3f}  {line['draw_error']:10.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
