"""Agents by name: :func:`make` builds one, :func:`parse_spec` reads ``"mcts:simulations=400"``.

Agent classes are imported only when made, so that listing or making the light agents never
imports what a heavy one needs (the ``rllib`` agent needs torch and Ray).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from zoo_games.agents.base import Agent
from zoo_games.agents.options import accepted_text, choices_of
from zoo_games.agents.options import option_types as options_of

#: Agent name -> ``module:class``.
AGENT_CLASSES = {
    "random": "zoo_games.agents.random_agent:RandomAgent",
    "greedy": "zoo_games.agents.greedy:GreedyAgent",
    "mcts": "zoo_games.agents.mcts:MCTSAgent",
    "batched-mcts": "zoo_games.agents.batched_mcts:BatchedMCTSAgent",
    "alphabeta": "zoo_games.agents.alphabeta:AlphaBetaAgent",
    "rllib": "zoo_games.rllib.agent:RLlibAgent",
    "alphazero": "zoo_games.alphazero.agent:AlphaZeroAgent",
}
#: A name given to an agent (``NAME=SPEC``, see :func:`named_spec`).
AGENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+#-]*")
#: Agent name -> the extra (``pip install "zoo-games[EXTRA]"``) its module needs. (The
#: ``alphazero`` agent's module needs none: only its search does, which it says itself.)
AGENT_EXTRAS = {"batched-mcts": "batched", "alphabeta": "batched", "rllib": "rllib"}


class MissingExtraError(ImportError):
    """An agent whose extra is not installed; the message says how to install it."""


def names() -> list[str]:
    """The names :func:`make` knows."""
    return list(AGENT_CLASSES)


def agent_class(name: str) -> type[Agent]:
    """The class of the agent called ``name``; ``ValueError`` listing the names if unknown.

    An agent whose extra is missing raises :class:`MissingExtraError` (one line saying what
    to install), whatever the import that failed.
    """
    if name not in AGENT_CLASSES:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(names())}")
    module_name, class_name = AGENT_CLASSES[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        if name not in AGENT_EXTRAS:
            raise
        extra = AGENT_EXTRAS[name]
        raise MissingExtraError(
            f'the {name} agent needs the {extra} extra: pip install "zoo-games[{extra}]"'
        ) from error
    cls: type[Agent] = getattr(module, class_name)
    return cls


def option_types(name: str) -> dict[str, Any]:
    """The options of agent ``name`` and their annotated types (constructor parameters)."""
    return options_of(agent_class(name).__init__)


def make(name: str, **options: Any) -> Agent:
    """The agent called ``name`` (see :func:`names`) with keyword ``options``.

    An unknown option raises ``ValueError`` naming the agent's options; a value of the wrong
    type (:mod:`zoo_games.agents.options`) or out of range raises ``ValueError`` too.
    """
    allowed = option_types(name)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(
            f"agent {name!r} has no option {', '.join(unknown)}; its options: "
            + (", ".join(allowed) or "none")
        )
    return agent_class(name)(**options)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:simulations=400,rollout=heuristic"`` -> ``("mcts", {"simulations": 400, ...})``.

    Values are converted to the types the agent's options are annotated with; anything that
    does not fit raises ``ValueError`` saying which option and what it accepts.
    """
    name, _, rest = spec.partition(":")
    allowed = option_types(name.strip())
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, text = item.partition("=")
        key = key.strip()
        if not equals or not key:
            raise ValueError(f"agent option {item!r} in {spec!r} is not of the form name=value")
        if key not in allowed:
            raise ValueError(
                f"agent {name!r} has no option {key!r}; its options: "
                + (", ".join(allowed) or "none")
            )
        if key in options:
            raise ValueError(f"agent option {key!r} is given twice in {spec!r}")
        options[key] = _convert(text.strip(), allowed[key], f"{name}:{key}")
    return name.strip(), options


def named_spec(text: str) -> tuple[str | None, str]:
    """``"ppo=rllib:checkpoint=runs/x"`` -> ``("ppo", "rllib:checkpoint=runs/x")``.

    An agent may be given a name to be shown by (tables, charts, records) as ``NAME=SPEC``:
    an ``=`` before any ``:`` ends a name, as an option's ``=`` always comes after the ``:``.
    Without a name: ``(None, text)``. A name is letters, digits and ``_ . + # -``, starting
    with a letter or digit; anything else raises ``ValueError``.
    """
    name, equals, spec = text.partition("=")
    if not equals or ":" in name:
        return None, text
    if not AGENT_NAME.fullmatch(name.strip()):
        raise ValueError(
            f"agent name {name!r} in {text!r}: a name is letters, digits and _ . + # -, "
            "starting with a letter or digit"
        )
    return name.strip(), spec.strip()


def make_from_spec(spec: str, **defaults: Any) -> Agent:
    """The agent a spec names; ``defaults`` (e.g. ``seed``) apply unless the spec sets them."""
    name, options = parse_spec(spec)
    allowed = option_types(name)
    return make(name, **{**{k: v for k, v in defaults.items() if k in allowed}, **options})


def _convert(text: str, annotation: Any, what: str) -> Any:
    """``text`` as a value of ``annotation`` (int, float, bool, str, or one of them | None)."""
    choices = choices_of(annotation)
    if type(None) in choices and text.lower() == "none":
        return None
    for choice in choices:
        if choice is bool:
            if text.lower() in ("true", "yes", "1"):
                return True
            if text.lower() in ("false", "no", "0"):
                return False
        elif choice in (int, float):
            try:
                return choice(text)
            except ValueError:
                continue
        elif choice is str or choice is Any:
            return text
    raise ValueError(f"{what}={text!r}: expected {accepted_text(annotation)}")
