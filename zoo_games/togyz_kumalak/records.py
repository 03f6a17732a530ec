"""742 games of Kazakhstan's national Togyz Kumalak tournaments, shipped with the package.

The records come from the python_togyz_openings database: games of the 2018 national cup and
championships (men's and women's team championships, women's, under-21 and under-17
championships; one game of the collection is dated 2016), 50,980 moves in all, each move in
tournament notation (``"76"``, ``"36x"``). Every move replays legally with our rules and
is named as recorded (the tests check all of them), so the records are a real dataset for
opening books, imitation learning and checking an engine against human play.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: Results as the records write them: White won, Black won, a draw.
RESULTS = ("1-0", "0-1", "1/2-1/2")


@dataclass(frozen=True)
class GameRecord:
    """One recorded game: where and when it was played, its result and its moves."""

    number: int
    event: str
    site: str
    date: str
    round: int
    result: str
    moves: tuple[str, ...]


@cache
def master_games() -> tuple[GameRecord, ...]:
    """Every recorded game, in the order of the collection (read once, then kept).

    ``zoo_games.togyz_kumalak.notation.replay(record.moves)`` plays a record through; the
    games end where the players stopped, which is sometimes before a kazan reaches 82.
    """
    data = resources.files("zoo_games.togyz_kumalak").joinpath("data/master_games.jsonl.gz")
    with data.open("rb") as compressed, gzip.open(compressed, "rt", encoding="utf-8") as lines:
        return tuple(_record(json.loads(line)) for line in lines if line.strip())


def _record(fields: dict[str, object]) -> GameRecord:
    moves = fields["moves"]
    assert isinstance(moves, list), "a record's moves are a list"
    return GameRecord(
        number=int(str(fields["game"])),
        event=str(fields["event"]),
        site=str(fields["site"]),
        date=str(fields["date"]),
        round=int(str(fields["round"])),
        result=str(fields["result"]),
        moves=tuple(str(move) for move in moves),
    )
