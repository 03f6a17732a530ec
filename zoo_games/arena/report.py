"""A tournament's result as text for the terminal, and as ``arena.json`` and ``arena.csv``."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict, fields
from pathlib import Path

from zoo_games.arena.chart import draw_arena
from zoo_games.arena.results import ArenaResult, PairingResult


def format_table(result: ArenaResult) -> str:
    """The pairings (and the Elo table, with three or more agents) as aligned text."""
    width = max(len("agent"), *(len(name) for name in result.agents))
    opening = f", each begun by {result.opening_moves} random moves" if result.opening_moves else ""
    lines = [
        f"{result.variant}: {result.games_per_pairing} games per pairing, seed {result.seed}"
        + opening,
        "",
        f"{'agent':<{width}}  {'opponent':<{width}}  {'W':>5} {'D':>5} {'L':>5}  "
        f"{'score':>6}  {'95% interval':<15}  {'length':>6}  {'ms/move':>15}",
    ]
    for p in result.pairings:
        lines.append(
            f"{p.first:<{width}}  {p.second:<{width}}  {p.wins:>5} {p.draws:>5} {p.losses:>5}  "
            f"{p.score:>6.1%}  [{p.score_low:5.1%}, {p.score_high:5.1%}]  {p.mean_length:>6.1f}  "
            f"{p.first_ms_per_move:>7.3f} {p.second_ms_per_move:>7.3f}"
        )
    lines += repeated_games_notes(result)
    if result.elo is not None:
        lines += [
            "",
            f"Elo (Bradley-Terry fit, {result.elo_anchor} = 0, 95% interval):",
        ]
        for rating in sorted(result.elo, key=lambda r: -r.elo):
            elo, low, high = (round(value) + 0 for value in (rating.elo, rating.low, rating.high))
            lines.append(f"{rating.agent:<{width}}  {elo:>7}  [{low:>6}, {high:>6}]")
    return "\n".join(lines)


#: A pairing gets a note when fewer than this share of its games differ. Two random openings
#: that happen to coincide repeat a game or two, which changes an interval little; agents
#: that repeat most of their games (two deterministic agents without an opening play two
#: games in all) make it meaningless.
DISTINCT_SHARE_NOTED = 0.9


def repeated_games_notes(result: ArenaResult) -> list[str]:
    """A line for each pairing that repeated many of its games, saying what that means.

    The intervals count every game as a separate trial: a pairing that played the same
    games again has far fewer trials than its count says, and its interval is too narrow.
    """
    notes = []
    for p in result.pairings:
        if p.distinct_games < DISTINCT_SHARE_NOTED * p.games:
            remedy = (
                "a longer opening (--opening-moves) varies them more"
                if result.opening_moves
                else "--opening-moves N begins each pair of games with N random moves"
            )
            notes.append(
                f"note: {p.first} and {p.second} played {p.distinct_games} different games in "
                f"{p.games}, so their interval is narrower than the evidence; {remedy}"
            )
    return ["", *notes] if notes else []


def write_json(result: ArenaResult, path: Path) -> None:
    """Everything: settings, pairings, Elo table and every game's record."""
    path.write_text(json.dumps(result.to_dict(), indent=1) + "\n")


def write_csv(result: ArenaResult, path: Path) -> None:
    """One row per pairing, with the fields of :class:`PairingResult`."""
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(PairingResult)])
        writer.writeheader()
        writer.writerows(asdict(pairing) for pairing in result.pairings)


#: The files :func:`write_outputs` writes into its folder.
OUTPUT_FILES = ("arena.json", "arena.csv", "arena.png")


def check_output_dir(folder: Path) -> None:
    """Create ``folder`` if need be and make sure files can be written there.

    Raises ``ValueError`` saying why not, so that a tournament never runs for nothing.
    """
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{str(folder)!r} is a file, not a folder for the results")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".arena-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise ValueError(f"cannot write into {str(folder)!r}: {error.strerror or error}") from None


def write_outputs(result: ArenaResult, folder: Path) -> list[Path]:
    """Write ``arena.json``, ``arena.csv`` and ``arena.png`` into ``folder``; their paths."""
    check_output_dir(folder)
    json_path, csv_path, png_path = (folder / name for name in OUTPUT_FILES)
    write_json(result, json_path)
    write_csv(result, csv_path)
    draw_arena(result, png_path)
    return [json_path, csv_path, png_path]
