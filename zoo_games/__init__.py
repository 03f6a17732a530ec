"""zoo-games: turn-based board games as PettingZoo AEC environments.

Importing the package registers every environment in PettingZoo's registry::

    import pettingzoo
    import zoo_games

    env = pettingzoo.make("aec", "zoo_games/Senet-v0", rules="skyruk")
"""

from __future__ import annotations

import pettingzoo

__version__ = "0.1.0"

#: Registry id -> ``module:function`` that builds the wrapped environment.
ENVIRONMENTS = {
    "zoo_games/Senet-v0": "zoo_games.senet_v0:env",
    "zoo_games/TogyzKumalak-v0": "zoo_games.togyz_kumalak_v0:env",
    "zoo_games/Santorini-v0": "zoo_games.santorini_v0:env",
}

for _env_id, _entry_point in ENVIRONMENTS.items():
    if _env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _env_id, _entry_point)

__all__ = ["ENVIRONMENTS", "__version__"]
