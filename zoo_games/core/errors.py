"""Errors and option checks shared by every game, so that bad input reads the same everywhere."""

from __future__ import annotations

from collections.abc import Collection
from typing import TypeVar

T = TypeVar("T")


class PositionError(ValueError):
    """A position string that is malformed or describes a position the rules never reach."""


def position_fields(text: str, layout: str, counts: Collection[int]) -> list[str]:
    """Split a position string on white space, or say which layout it should have.

    ``layout`` is the game's field list as users should read it, e.g.
    ``"<board> <mover> [<throw>]"``; ``counts`` the numbers of fields allowed.
    """
    fields = text.split()
    if len(fields) not in counts:
        allowed = " or ".join(str(count) for count in counts)
        raise PositionError(
            f"a position is '{layout}' ({allowed} fields), got {len(fields)} in {text!r}"
        )
    return fields


def check_option(name: str, value: T, allowed: Collection[T]) -> T:
    """Return ``value`` if it is one of ``allowed``, else raise ``ValueError`` naming both.

    Booleans are rejected where integers are expected (``True == 1`` in Python), so
    ``num_pieces=True`` is an error rather than a silent one-piece game.
    """
    wrong_kind = isinstance(value, bool) and not all(isinstance(a, bool) for a in allowed)
    if wrong_kind or value not in allowed:
        raise ValueError(f"{name}={value!r} is not allowed; allowed values: {_listing(allowed)}")
    return value


def _listing(allowed: Collection[object]) -> str:
    return ", ".join(repr(a) for a in allowed)
