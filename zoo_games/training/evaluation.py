"""Playing a trained policy against baseline agents, with the arena.

Each evaluation is an arena match (:func:`zoo_games.arena.run_arena`) between the trained
player, as an agent (PPO's :class:`~zoo_games.rllib.policy_agent.ModuleAgent`, AlphaZero's
network and search), and one opponent spec
(``"random"``, ``"greedy"``, ``"mcts:simulations=100"``...): half the games with the trained
side as ``player_0``, seeded, on the rules core. The result counts each game's outcome, so a
loss in a game the policy never got to act in (possible with Senet's extra turns) still
counts as a loss.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from zoo_games.agents.base import Agent
from zoo_games.arena import run_arena
from zoo_games.arena.results import PairingResult
from zoo_games.arena.tournament import entrants

#: The trained side's name in the arena.
TRAINED = "trained"


def check_evaluation(opponents: Sequence[str], **games: int) -> None:
    """Raise ``ValueError`` unless ``opponents`` are valid agent specs and ``games`` even.

    ``games`` names the game counts (``eval_games=100``), each played half from each seat.
    """
    if not opponents:
        raise ValueError("eval_opponents must name at least one agent, e.g. ('random',)")
    entrants(list(opponents))
    for name, count in games.items():
        if count <= 0 or count % 2:
            raise ValueError(
                f"{name} must be a positive even number (half the games from each seat), "
                f"got {count}"
            )


def evaluation_seed(run_seed: int, iteration: int | None) -> int:
    """The arena seed of a run's evaluation after ``iteration`` (``None``: the final one).

    Every evaluation plays games of its own. Were they all to replay the same seeds, every
    point of a learning curve would share those few games' throws and draws, and a mean over
    a stretch of the curve would carry their luck however long the stretch (a Senet curve sat
    clearly below its player's fresh games that way: docs/training_results.md, "Kendall for an
    hour"). Keyed by the iteration, so that a resumed run evaluates exactly as an unbroken
    one would.
    """
    # Second word: 0 for the evaluations along the run, 1 for the final one.
    key = [run_seed, 1] if iteration is None else [run_seed, 0, iteration]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def win_rate_column(opponent: str) -> str:
    """The metrics column of the win rate against ``opponent``: ``win_rate_vs_random``.

    Characters other than letters and digits become ``_``
    (``"mcts:simulations=50"`` -> ``win_rate_vs_mcts_simulations_50``).
    """
    return "win_rate_vs_" + re.sub(r"[^0-9A-Za-z]+", "_", opponent).strip("_")


def win_rates_text(row: Mapping[str, Any]) -> str:
    """The win rates of a metrics row for a progress line: ``"  win rate vs random 55.0%"``.

    Empty when the row has no evaluation.
    """
    win_rates = [
        f"{key.removeprefix('win_rate_vs_')} {float(value):.1%}"
        for key, value in row.items()
        if key.startswith("win_rate_vs_") and value != ""
    ]
    return "  win rate vs " + ", ".join(win_rates) if win_rates else ""


def evaluate_against(
    trained: Agent, label: str, opponents: Sequence[str], games: int = 200, seed: int = 0
) -> dict[str, PairingResult]:
    """Play ``games`` games (even) of variant ``label`` against each opponent spec.

    Each result is the arena's pairing seen from the trained side (its ``win_rate``, wins,
    losses and draws).
    """
    evaluations = {}
    for opponent in opponents:
        match = run_arena(label, {TRAINED: trained, opponent: opponent}, games=games, seed=seed)
        evaluations[opponent] = match.pairing(TRAINED, opponent)
    return evaluations


def record_finals(
    rows: list[dict[str, Any]],
    finals: Mapping[str, PairingResult],
    games: int,
    progress: Callable[[str], None],
) -> None:
    """Write a run's final evaluation into its last metrics row, and report it in words."""
    for opponent, final in finals.items():
        rows[-1]["final_" + win_rate_column(opponent)] = round(final.win_rate, 4)
    rows[-1]["final_eval_games"] = games
    for opponent, final in finals.items():
        progress(
            f"final: {final.wins} wins, {final.losses} losses, {final.draws} draws in "
            f"{final.games} games against {opponent} ({final.win_rate:.1%})"
        )
