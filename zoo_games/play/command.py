"""``zoo-games play``: check the arguments, then play a game at the terminal.

Every bad argument is reported in one line on standard error with exit code 2, before the
game starts: unknown variant, unknown agent or agent option, bad option value, a seat other
than ``first``/``second``, a seed that is not a whole number >= 0. A game that ends, is
left with ``quit`` or runs out of input exits with 0; Ctrl-C exits with 130.
"""

from __future__ import annotations

import secrets
import sys

from zoo_games.agents import Agent, make_from_spec, names
from zoo_games.agents.registry import named_spec
from zoo_games.catalog import find_variant
from zoo_games.play.session import Session

HUMAN = "human"
SEATS = ("first", "second")
#: Exit code of bad arguments (argparse's own).
BAD_ARGUMENTS = 2
#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def run_play(variant: str, vs: str = "random", seat: str = "first", seed: str | None = None) -> int:
    """Play ``variant`` against ``vs`` (an agent spec, or ``"human"``); return the exit code.

    ``vs`` may name the agent as ``NAME=SPEC``, the name then shown for it.
    ``seat`` is the (first) human's seat; ``seed`` seeds the throws and the agent, and is
    drawn at random (and shown) when not given.
    """
    try:
        session = _session(variant, vs, seat, seed)
    except ValueError as error:
        print(f"zoo-games play: {error}", file=sys.stderr)
        return BAD_ARGUMENTS
    try:
        return session.run()
    except KeyboardInterrupt:
        print("\ninterrupted: the game is left unfinished")
        return INTERRUPTED


def _session(variant: str, vs: str, seat: str, seed_text: str | None) -> Session:
    chosen = find_variant(variant)
    if seat not in SEATS:
        raise ValueError(f"--seat {seat!r} is not allowed; allowed: {', '.join(SEATS)}")
    seed = secrets.randbelow(2**31) if seed_text is None else _seed(seed_text)
    agents: dict[int, Agent] = {}
    shown, spec = named_spec(vs)
    try:
        name = opponent_name(spec)
    except ValueError as error:
        raise ValueError(f"--vs {vs!r}: {error}") from None
    if name is None and shown is not None:
        raise ValueError(f"--vs {vs!r}: a human takes no options and no name")
    if name is not None:
        try:
            agent = make_from_spec(spec, seed=seed)
            agent.check_game(chosen.game)  # e.g. a network trained on another variant
            agents[1 - SEATS.index(seat)] = agent
        except (ValueError, TypeError, ImportError, OSError) as error:  # e.g. no checkpoint file
            raise ValueError(f"--vs {vs!r}: {error}") from None
    shown_names = {} if shown is None else dict.fromkeys(agents, shown)
    return Session(chosen, agents, seed, names=shown_names)


def opponent_name(spec: str) -> str | None:
    """The agent an opponent spec names (``None``: a person); ``ValueError`` if none does.

    A person (``human``) takes no options; an agent's own options are checked when it is made.
    """
    name = spec.partition(":")[0].strip()
    if name == HUMAN:
        if spec.strip() != HUMAN:
            raise ValueError("a human takes no options")
        return None
    if name not in names():
        known = ", ".join([HUMAN, *names()])
        raise ValueError(f"unknown opponent {name!r}; known opponents: {known}")
    return name


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise ValueError(f"--seed {text!r} is not allowed; a seed is a whole number >= 0")
    return seed
