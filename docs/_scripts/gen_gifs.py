"""Draw the animated GIF of each environment page: one seeded random game, as rendered.

For every game module of the catalog, its first variant plays a game of uniformly random
legal actions (``--seed``, default 0) through ``raw_env(render_mode="rgb_array")``, and every
picture of the game becomes a frame of ``docs/_static/gifs/<module>.gif`` (the last one held
longer). Pictures are reduced to a small shared palette and long games are sampled down to at
most ``--max-frames`` frames, so that each file stays well under ``--max-kb`` kilobytes; a file
that does not is an error. The GIFs are committed; run this again after a renderer changes:

    python docs/_scripts/gen_gifs.py
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
GIFS = REPOSITORY / "docs" / "_static" / "gifs"
FRAME_MS = 400
LAST_FRAME_MS = 2500


def game_pictures(label: str, seed: int) -> list[np.ndarray]:
    """Every picture of one seeded random game of the variant ``label``."""
    from zoo_games.agents.random_agent import RandomAgent
    from zoo_games.catalog import find_variant

    env = find_variant(label).raw_env(render_mode="rgb_array")
    env.reset(seed=seed)
    agent = RandomAgent(seed)
    pictures = [env.render()]
    while not env.terminations[env.agent_selection]:
        state = env.game_state
        assert state is not None
        env.step(agent.act(state))
        pictures.append(env.render())
    return pictures


def sampled(pictures: list[np.ndarray], max_frames: int) -> list[np.ndarray]:
    """At most ``max_frames`` pictures, evenly spread, always with the first and the last."""
    if len(pictures) <= max_frames:
        return pictures
    picks = np.linspace(0, len(pictures) - 1, max_frames).round().astype(int)
    return [pictures[i] for i in picks]


def main(argv: list[str] | None = None) -> int:
    """Write one GIF per game module; return 1 if one is larger than ``--max-kb``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-frames", type=int, default=60)
    parser.add_argument("--max-kb", type=int, default=300)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPOSITORY))
    from zoo_games.catalog import GAMES
    from zoo_games.core.drawing import save_gif

    GIFS.mkdir(parents=True, exist_ok=True)
    too_large = []
    for module_name in GAMES.values():
        module = importlib.import_module(module_name)
        label = next(iter(module.VARIANTS))
        pictures = game_pictures(label, args.seed)
        path = GIFS / f"{module_name.rsplit('.', 1)[1]}.gif"
        save_gif(
            path,
            sampled(pictures, args.max_frames),
            seconds_per_frame=FRAME_MS / 1000,
            last_frame_seconds=LAST_FRAME_MS / 1000,
        )
        size_kb = path.stat().st_size / 1024
        name = path.relative_to(REPOSITORY)
        print(f"{name}: {label}, {len(pictures)} pictures, {size_kb:.0f} KB")
        if size_kb > args.max_kb:
            too_large.append(path.name)
    if too_large:
        print(f"larger than {args.max_kb} KB: {', '.join(too_large)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
