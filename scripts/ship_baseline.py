"""Ship a training run's network as the alphazero baseline of a variant.

    python scripts/ship_baseline.py RUN VARIANT

copies ``network.npz`` and ``network.json`` of RUN (a ``zoo-games train --algorithm
alphazero`` run folder, its ``checkpoint/``, or a folder holding the two files) into this
repository's ``zoo_games/alphazero/baselines/VARIANT/``, after checking that the network
reads VARIANT's observations and actions, and prints how it was trained (from its
``network.json``), which docs/agents.md states beside the baseline. A mistake is one line on
standard error and exit status 2, with nothing copied.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from zoo_games.alphazero.network import DESCRIPTION
from zoo_games.alphazero.saved import ship

#: The repository's baselines folder (not the imported package's, which may be installed).
BASELINES = Path(__file__).resolve().parents[1] / "zoo_games" / "alphazero" / "baselines"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="a training run folder, or a folder with network.npz/.json")
    parser.add_argument("variant", help="the variant label it becomes the baseline of")
    arguments = parser.parse_args(argv)
    try:
        folder = ship(arguments.run, arguments.variant, BASELINES)
    except ValueError as mistake:
        print(f"ship_baseline: error: {mistake}", file=sys.stderr)
        return 2
    size = sum(path.stat().st_size for path in folder.iterdir())
    trained = json.loads((folder / DESCRIPTION).read_text()).get("trained", {})
    print(f"shipped {folder} ({size / 1e6:.2f} MB)")
    print(f"trained: {json.dumps(trained)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
