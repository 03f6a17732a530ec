"""The AlphaZero run of seconds that the training and cluster tests start."""

from __future__ import annotations

from typing import Any

#: Four games of Togyz Kumalak at once (60 moves an iteration: games end within three), a
#: small network, two evaluation games.
TINY: dict[str, Any] = {
    "variant": "togyz-kumalak",
    "games": 4,
    "simulations": 2,
    "moves": 60,
    "hidden": [16],
    "batch_size": 16,
    "eval_every": 2,
    "eval_games": 2,
    "final_eval_games": 2,
    "eval_opponents": ("random",),
}
