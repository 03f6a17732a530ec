"""zoo-games: turn-based board games as PettingZoo AEC environments.

Importing the package registers every environment of :data:`zoo_games.catalog.GAMES` in
PettingZoo's registry::

    import pettingzoo
    import zoo_games

    env = pettingzoo.make("aec", "zoo_games/Senet-v0", rules="skyruk")
"""

from __future__ import annotations

import pettingzoo

from zoo_games.catalog import GAMES

__version__ = "0.1.0"

for _env_id, _module_name in GAMES.items():
    if _env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _env_id, f"{_module_name}:env")

__all__ = ["__version__"]
