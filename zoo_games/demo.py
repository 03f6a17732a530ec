"""A seeded game between two random agents, printed move by move (``zoo-games demo``).

Each move is named as players type it in ``zoo-games play`` (Senet ``14-17``, Togyz Kumalak's
holes numbered from 1, Santorini ``w0-N-S``), with what it does, extra turns and re-throws,
and the board after it. At a terminal the game is paced (:data:`TERMINAL_DELAY` seconds a
move unless ``--delay`` says otherwise) so that it can be watched; piped, it runs at once.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from zoo_games.agents.random_agent import RandomAgent
from zoo_games.catalog import Variant
from zoo_games.core.drawing import save_gif
from zoo_games.play.language import language_of, move_line, result_line

#: Seconds between moves when the demo is watched at a terminal and no delay is given.
TERMINAL_DELAY = 0.5
#: Seconds the GIF holds the final position, so that the result can be seen.
FINAL_FRAME_SECONDS = 3.0


def default_delay() -> float:
    """:data:`TERMINAL_DELAY` when standard output is a terminal, else 0 (piped: no waiting)."""
    return TERMINAL_DELAY if sys.stdout.isatty() else 0.0


def play_demo(
    chosen: Variant, seed: int, delay: float | None = None, gif: str | None = None
) -> int:
    """Play one game between random agents, printing every move; return its length.

    ``seed`` seeds the throws (Senet) and the agents, so a seed always gives the same game.
    ``delay`` is the pause after each move (``None``: :func:`default_delay`). With ``gif``, a
    picture of every position, the final one included, is written to that file.
    """
    pause = default_delay() if delay is None else delay
    env = chosen.raw_env(render_mode="ansi")
    pictures = chosen.raw_env(render_mode="rgb_array") if gif else None
    env.reset(seed=seed)
    if pictures is not None:  # the same seed and actions: the same throws, the same game
        pictures.reset(seed=seed)
    language = language_of(env.game)
    agent = RandomAgent(seed)
    frames: list[np.ndarray] = []
    decisions = 0
    print(f"{chosen.label}: random agents, seed {seed}\n")
    while True:
        print(env.render())
        if pictures is not None:
            frames.append(pictures.render())
        state = env.game_state
        assert state is not None
        if state.is_terminal():
            break
        before = state.clone()
        action = agent.act(state)
        print(f"\n{move_line(language, before, action)}")
        env.step(action)
        if pictures is not None:
            pictures.step(action)
        after = env.game_state
        news = language.announce(before, action, after) if after is not None else None
        print(f"{news}\n" if news else "")
        decisions += 1
        if pause:
            time.sleep(pause)
    print(f"\ngame over after {decisions} decisions: {result_line(language, state)}")
    if gif:
        save_gif(gif, frames, last_frame_seconds=FINAL_FRAME_SECONDS)
        print(f"pictures of every move, and the end, written to {gif}")
    return decisions
