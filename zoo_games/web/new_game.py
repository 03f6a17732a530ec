"""A new game from the page's form: every field checked, each mistake told in one sentence.

The fields are those of ``zoo-games play``: the variant, the opponent (an agent spec, or
``human`` for two people at one browser), the seat of the (first) person, the seed (drawn
when left out), and a position string to start from instead of the initial position.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from zoo_games.agents import Agent, make, parse_spec
from zoo_games.catalog import find_variant
from zoo_games.core.game import Game
from zoo_games.play.command import SEATS, opponent_name
from zoo_games.web.match import Match
from zoo_games.web.settings import ServerSettings

FIELDS = ("variant", "opponent", "seat", "seed", "position")
#: Seeds are whole numbers in [0, 2**53): numpy's generators take no negative seed, and a
#: browser's numbers are exact only below 2**53.
SEED_LIMIT = 2**53
#: The agent option that names a file on the server (a trained run's folder).
CHECKPOINT = "checkpoint"
#: The search agents' option of a time budget per move, which the server's cap bounds.
SECONDS = "seconds"


def new_match(fields: dict[str, Any], settings: ServerSettings) -> Match:
    """The game ``fields`` ask for; ``ValueError`` saying which field is wrong and why."""
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}; the fields are: {', '.join(FIELDS)}")
    if "variant" not in fields:
        raise ValueError("variant is missing: name one of 'zoo-games list', e.g. 'togyz-kumalak'")
    variant = find_variant(_text(fields, "variant", ""))
    seat = _text(fields, "seat", SEATS[0])
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r} is not allowed; allowed: {', '.join(SEATS)}")
    seed = _seed(fields.get("seed"))
    opponent = _text(fields, "opponent", "random")
    try:
        name = opponent_name(opponent)
    except ValueError as error:
        raise ValueError(f"opponent {opponent!r}: {error}") from None
    agents = (
        {}
        if name is None
        else {1 - SEATS.index(seat): _agent(name, opponent, seed, settings, variant.game)}
    )
    position = fields.get("position")
    if position is not None and not isinstance(position, str):
        raise ValueError("position must be a position string, or null for the initial position")
    position = position.strip() if position else None
    try:
        return Match(variant, agents, seed, position)
    except ValueError as error:
        raise ValueError(f"position {position!r}: {error}") from None


def _text(fields: dict[str, Any], name: str, default: str) -> str:
    value = fields.get(name, default)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {value!r}")
    return value


def _seed(value: object) -> int:
    if value is None:
        return secrets.randbelow(2**31)
    if type(value) is not int or not 0 <= value < SEED_LIMIT:
        raise ValueError(
            f"seed {value!r} is not allowed; a seed is a whole number from 0 to 2**53 - 1"
        )
    return value


def _agent(name: str, spec: str, seed: int, settings: ServerSettings, game: Game) -> Agent:
    """The agent ``name`` of ``spec``, seeded with the game's seed unless the spec sets one.

    It must be able to play ``game`` (:meth:`~zoo_games.agents.Agent.check_game`).
    """
    try:
        _, options = parse_spec(spec)
        budget = options.get(SECONDS)
        if isinstance(budget, float) and budget > settings.move_seconds:
            raise ValueError(
                f"{SECONDS}={budget:g} is over the server's time cap of "
                f"{settings.move_seconds:g} s per move"
            )
        if CHECKPOINT in options:
            options[CHECKPOINT] = str(_checkpoint(options[CHECKPOINT], settings.checkpoints))
        agent = make(name, **{"seed": seed, **options})
        agent.check_game(game)
        return agent
    except Exception as error:  # an agent's own check, or a checkpoint that does not load
        raise ValueError(f"opponent {spec!r}: {error}") from None


def _checkpoint(value: object, folder: Path | None) -> Path:
    """A run folder inside the server's ``--checkpoints`` folder, and nowhere else."""
    if folder is None:
        raise ValueError(
            "this server offers no trained agents; start it with --checkpoints FOLDER to offer "
            "the runs in FOLDER"
        )
    root = folder.resolve()
    path = (root / str(value)).resolve()
    if not path.is_relative_to(root):
        raise ValueError(f"checkpoint {value!r} is outside the server's checkpoints folder")
    return path
