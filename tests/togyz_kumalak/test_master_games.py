"""Every move of 742 master games (2018 tournaments, 50,980 moves) replays with our rules.

The records live in the shared data folder beside the repository (``../shared/data``), or
where ``ZOO_GAMES_SHARED_DATA`` points. A missing file fails the test: it must never pass by
not running.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from zoo_games.togyz_kumalak.notation import replay
from zoo_games.togyz_kumalak.rules import WINNING_KAZAN, TogyzKumalakGame

RECORDS = "togyz_kumalak_master_games.jsonl"


def records_path() -> Path:
    folder = os.environ.get("ZOO_GAMES_SHARED_DATA")
    base = Path(folder) if folder else Path(__file__).resolve().parents[3] / "shared" / "data"
    path = base / RECORDS
    assert path.exists(), f"{path} not found: set ZOO_GAMES_SHARED_DATA to the folder holding it"
    return path


def test_every_recorded_move_is_legal_and_named_as_recorded():
    games = [json.loads(line) for line in records_path().read_text().splitlines() if line]
    assert len(games) == 742
    moves = 0
    for record in games:
        # Played out to the end: our default would stop at 82, which no record passes.
        state = replay(record["moves"], TogyzKumalakGame(stop_at_majority=False))
        moves += len(record["moves"])
        white, black = state.kazans
        if state.is_terminal() or max(white, black) >= WINNING_KAZAN:
            expected = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
            assert record["result"] == expected, (record["game"], state.position())
    assert moves == 50_980


def test_no_record_goes_on_after_a_kazan_reached_82():
    games = [json.loads(line) for line in records_path().read_text().splitlines() if line]
    for record in games:
        state = TogyzKumalakGame().new_initial_state()
        for move in record["moves"]:
            assert not state.is_terminal(), record["game"]
            state.apply_action(int(move[0]) - 1)
