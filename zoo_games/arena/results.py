"""A tournament's result: per pairing counts and statistics, and the Elo table.

:func:`summarize` turns the games' records into an :class:`ArenaResult` with the pure
functions of :mod:`zoo_games.arena.stats`; nothing here plays games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from zoo_games.arena.play import PlayedGame
from zoo_games.arena.stats import EloRating, bradley_terry_elo, score, wilson_interval

#: Virtual draws between the Elo anchor and every other agent (see zoo_games.arena.stats).
PRIOR_DRAWS = 1.0


@dataclass(frozen=True)
class PairingResult:
    """Two agents' games against each other, from the first agent's point of view."""

    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    #: Games in which the first agent was ``player_0`` (half of them).
    first_as_player_0: int
    #: Wins plus half the draws, over games, and its 95% Wilson interval.
    score: float
    score_low: float
    score_high: float
    #: Mean decisions per game (both agents').
    mean_length: float
    #: Mean milliseconds per decision of the first and of the second agent.
    first_ms_per_move: float
    second_ms_per_move: float
    #: How many of the games differ (by their moves): fewer than ``games`` when games were
    #: played twice, which two deterministic agents do from the same start in the same seats.
    distinct_games: int

    @property
    def win_rate(self) -> float:
        """The first agent's wins over games (draws count as not won)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class ArenaResult:
    """Everything a tournament produced; :meth:`to_dict` is what ``arena.json`` holds."""

    variant: str
    agents: tuple[str, ...]
    games_per_pairing: int
    seed: int
    pairings: tuple[PairingResult, ...]
    #: Elo ratings (three or more agents), relative to :attr:`elo_anchor`; else ``None``.
    elo: tuple[EloRating, ...] | None
    elo_anchor: str | None
    records: tuple[PlayedGame, ...]
    #: Random decisions that began every game (:mod:`zoo_games.arena.play`).
    opening_moves: int = 0

    def pairing(self, first: str, second: str) -> PairingResult:
        """The pairing of two agents, seen from ``first`` (counts swapped if need be)."""
        for result in self.pairings:
            if (result.first, result.second) == (first, second):
                return result
            if (result.first, result.second) == (second, first):
                return _swapped(result)
        raise KeyError(f"no pairing of {first!r} and {second!r}")

    def score_matrix(self) -> np.ndarray:
        """``m[i, j]``: agent ``i``'s score against agent ``j`` (NaN where they did not play)."""
        index = {name: i for i, name in enumerate(self.agents)}
        matrix = np.full((len(self.agents), len(self.agents)), np.nan)
        for result in self.pairings:
            i, j = index[result.first], index[result.second]
            matrix[i, j] = result.score
            matrix[j, i] = 1.0 - result.score
        return matrix

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: settings, pairings, Elo table and every game's record."""
        return {
            "variant": self.variant,
            "agents": list(self.agents),
            "games_per_pairing": self.games_per_pairing,
            "seed": self.seed,
            "opening_moves": self.opening_moves,
            "pairings": [asdict(result) for result in self.pairings],
            "elo": None if self.elo is None else [asdict(rating) for rating in self.elo],
            "elo_anchor": self.elo_anchor,
            "elo_method": (
                "maximum-likelihood Bradley-Terry (draws as half wins), anchor at 0, "
                f"{PRIOR_DRAWS:g} virtual draw(s) between the anchor and each agent, "
                "95% intervals from the observed Fisher information"
            ),
            "games": [{**asdict(record), "length": record.length} for record in self.records],
        }


def summarize(
    variant: str,
    agents: Sequence[str],
    pairs: Sequence[tuple[int, int]],
    games_per_pairing: int,
    seed: int,
    records: Sequence[PlayedGame],
    anchor: int,
    opening_moves: int = 0,
) -> ArenaResult:
    """The statistics of ``records`` (games of the pairings ``pairs`` of ``agents``)."""
    by_pairing: dict[int, list[PlayedGame]] = {index: [] for index in range(len(pairs))}
    for record in records:
        by_pairing[record.pairing].append(record)
    pairings = tuple(
        _pairing_result(agents[i], agents[j], by_pairing[index])
        for index, (i, j) in enumerate(pairs)
    )
    elo = None
    if len(agents) >= 3:
        size = len(agents)
        points = np.zeros((size, size))
        games = np.zeros((size, size))
        for (i, j), result in zip(pairs, pairings, strict=True):
            won = result.wins + 0.5 * result.draws
            points[i, j] += won
            points[j, i] += result.games - won
            games[i, j] += result.games
            games[j, i] += result.games
        elo = tuple(bradley_terry_elo(agents, points, games, anchor, prior_draws=PRIOR_DRAWS))
    return ArenaResult(
        variant=variant,
        agents=tuple(agents),
        games_per_pairing=games_per_pairing,
        seed=seed,
        pairings=pairings,
        elo=elo,
        elo_anchor=agents[anchor] if elo is not None else None,
        records=tuple(sorted(records, key=lambda r: (r.pairing, r.index))),
        opening_moves=opening_moves,
    )


def _pairing_result(first: str, second: str, records: Sequence[PlayedGame]) -> PairingResult:
    wins = sum(record.result == 1.0 for record in records)
    losses = sum(record.result == 0.0 for record in records)
    draws = len(records) - wins - losses
    low, high = wilson_interval(wins + 0.5 * draws, len(records))
    moves = [sum(record.moves[side] for record in records) for side in (0, 1)]
    seconds = [sum(record.seconds[side] for record in records) for side in (0, 1)]
    return PairingResult(
        first=first,
        second=second,
        games=len(records),
        wins=wins,
        draws=draws,
        losses=losses,
        first_as_player_0=sum(record.first_side == 0 for record in records),
        score=score(wins, draws, losses),
        score_low=low,
        score_high=high,
        mean_length=float(np.mean([record.length for record in records])) if records else 0.0,
        first_ms_per_move=1000 * seconds[0] / moves[0] if moves[0] else 0.0,
        second_ms_per_move=1000 * seconds[1] / moves[1] if moves[1] else 0.0,
        distinct_games=len({record.digest for record in records}),
    )


def _swapped(result: PairingResult) -> PairingResult:
    """The same pairing seen from the second agent."""
    return PairingResult(
        first=result.second,
        second=result.first,
        games=result.games,
        wins=result.losses,
        draws=result.draws,
        losses=result.wins,
        first_as_player_0=result.games - result.first_as_player_0,
        score=1.0 - result.score,
        score_low=1.0 - result.score_high,
        score_high=1.0 - result.score_low,
        mean_length=result.mean_length,
        first_ms_per_move=result.second_ms_per_move,
        second_ms_per_move=result.first_ms_per_move,
        distinct_games=result.distinct_games,
    )
