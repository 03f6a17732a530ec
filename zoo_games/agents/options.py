"""Every agent's options checked against their annotations when the agent is made.

An agent's options are its constructor's parameters, each with a type annotation
(:class:`~zoo_games.agents.base.Agent`). :func:`check_options` holds every given value to
its annotation, the same way for every agent, before the agent's own ``__init__`` runs: a
whole number where ``int`` is annotated (a bool is refused, although ``True == 1``), a finite
number where ``float`` is, and so on. A wrong value is a ``ValueError`` naming the agent, the
option and what it accepts, at once, rather than a failure deep inside a search later.
Ranges (``simulations`` at least 1, ...) are each agent's own business.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Union

#: How the messages name the kinds whose ``__name__`` would say too little.
_NAMES = {type(None): "none", float: "finite float"}


@functools.cache
def option_types(init: Callable[..., None]) -> dict[str, Any]:
    """The options of a constructor and their annotated types.

    An option without an annotation (an agent written in a notebook, say) is ``Any``: taken
    as given in Python, and as its text on the command line.
    """
    hints = typing.get_type_hints(init)
    return {
        parameter: hints.get(parameter, Any)
        for parameter in inspect.signature(init).parameters
        if parameter != "self"
    }


def choices_of(annotation: Any) -> tuple[Any, ...]:
    """``int | None`` -> ``(int, NoneType)``; a plain annotation -> itself alone."""
    if typing.get_origin(annotation) in (Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def accepted_text(annotation: Any) -> str:
    """What an annotation accepts, as the messages say it: ``"int or none"``."""
    return " or ".join(
        _NAMES.get(choice, getattr(choice, "__name__", str(choice)))
        for choice in choices_of(annotation)
    )


def check_options(agent: str, annotations: Mapping[str, Any], given: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` for the first value of ``given`` that its annotation refuses."""
    for option, value in given.items():
        annotation = annotations.get(option, Any)
        if not any(_fits(value, choice) for choice in choices_of(annotation)):
            raise ValueError(
                f"{agent} option {option}={value!r} is not allowed: "
                f"expected {accepted_text(annotation)}"
            )


def _fits(value: object, choice: Any) -> bool:
    if choice is Any:
        return True
    if choice is type(None):
        return value is None
    if choice is bool:
        return isinstance(value, bool)
    if choice is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if choice is float:
        return _is_number(value) and math.isfinite(float(value))  # type: ignore[arg-type]
    kind = typing.get_origin(choice) or choice
    return not isinstance(kind, type) or isinstance(value, kind)


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
