"""Rewrite tests/playthroughs/<variant>.txt for every variant of the catalog.

Run after an intended change of behaviour and commit the resulting diff, which shows what changed.
"""

from __future__ import annotations

from pathlib import Path

from zoo_games.catalog import variants
from zoo_games.playthrough import playthrough

FOLDER = Path(__file__).resolve().parents[1] / "tests" / "playthroughs"


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for variant in variants():
        path = FOLDER / f"{variant.label}.txt"
        path.write_text(playthrough(variant))
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
