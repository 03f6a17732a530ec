"""PettingZoo's standard wrappers, with attribute forwarding that does not cost a game's speed.

``env()`` of every game wraps the raw environment exactly as PettingZoo's classic games do:
:class:`~pettingzoo.utils.wrappers.TerminateIllegalWrapper` (an illegal move ends the game,
-1 for the offender), :class:`~pettingzoo.utils.wrappers.AssertOutOfBoundsWrapper` and
:class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper`. Their behaviour is untouched: the
classes below are those wrappers, subclassed.

What changes is how they reach the attributes that live on the raw environment
(``agent_selection``, ``terminations``, ``rewards``, ...). PettingZoo's ``BaseWrapper`` finds
them through ``__getattr__``, one failed lookup and one forwarding call per wrapper layer; a
single ``last()`` plus ``step()`` reads about fifteen of them, which measured here as more than
twice the time of the game itself. Class-level properties that read the attribute straight
from the raw environment remove that cost and nothing else.

The second cost is the chain itself: ``step`` passes through six Python frames and three sets
of checks before the game sees the action, ``observe`` through four. For the call that
matters, a legal action of the live agent to act (or an observation after ``reset``), the
three wrappers have nothing to do but pass it on; :class:`OrderEnforcingWrapper` recognises
that case with one membership test and hands the call straight to the raw environment. Every
other call (an illegal or out-of-range action, a step of a finished agent, anything before
``reset``) takes PettingZoo's own path through all three wrappers. The tests play the same
games, bad actions included, through this stack and through PettingZoo's unmodified
wrappers and compare every observation, reward, flag and error.

The one-call path keeps the three wrappers' own state as they would: it sets
``OrderEnforcingWrapper._has_updated``, reads ``_has_reset``, clears
``TerminateIllegalWrapper._prev_obs``/``_prev_info``, and the agent iterator counts
``iters_til_term``. Those are PettingZoo's private names (as of 1.27). :data:`PRIVATE_STATE`
lists them, and :func:`standard_wrappers` checks once that a fresh stack of PettingZoo's
wrappers still has every one; if a PettingZoo release renames any, ``env()`` warns once and
returns PettingZoo's wrappers unchanged: the same behaviour, at their speed (about half the
steps per second). So a new PettingZoo can cost speed, never correctness.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Hashable
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from gymnasium.spaces import Discrete
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import order_enforcing

if TYPE_CHECKING:
    from zoo_games.core.adapter import BoardGameEnv

#: Attributes of the raw environment that wrappers read on every step.
_HOT_ATTRIBUTES = (
    "agent_selection",
    "agents",
    "possible_agents",
    "rewards",
    "_cumulative_rewards",
    "terminations",
    "truncations",
    "infos",
    "action_spaces",
    "observation_spaces",
    "metadata",
    "render_mode",
)


class _ReadsRawAttributes:
    """Mixin: the hot attributes are properties that read them from the raw environment.

    Each is a ``property`` over ``operator.attrgetter``, both implemented in C. Before
    ``reset()`` the raw environment has no ``agents``, ``rewards``, ... yet, the getter raises
    ``AttributeError`` and Python falls back to the wrapper's own ``__getattr__``, so
    ``OrderEnforcingWrapper`` still reports "cannot be accessed before reset" as it should.
    """

    def __init__(self, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        self._raw = env.unwrapped
        super().__init__(env, *args, **kwargs)  # type: ignore[call-arg]

    def action_space(self, agent: str) -> Any:
        """The raw environment's space: none of these wrappers changes it."""
        return self._raw.action_space(agent)

    def observation_space(self, agent: str) -> Any:
        """The raw environment's space: none of these wrappers changes it."""
        return self._raw.observation_space(agent)


for _name in _HOT_ATTRIBUTES:
    setattr(_ReadsRawAttributes, _name, property(operator.attrgetter(f"_raw.{_name}")))


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's bounds assertion, with a fast path for the common case of a plain ``int``.

    ``Discrete.contains`` of a Python ``int`` is ``start <= action < start + n``; checking that
    directly gives the same answer as PettingZoo's wrapper without gymnasium's type dispatch.
    """

    def step(self, action: Any) -> None:
        space = self.action_space(self.agent_selection)
        if type(action) is int and isinstance(space, Discrete):
            start = int(space.start)
            assert start <= action < start + int(space.n), "action is not in action space"
            wrappers.BaseWrapper.step(self, action)
        else:
            super().step(action)


class TerminateIllegalWrapper(_ReadsRawAttributes, wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``: an illegal move loses, -1."""


class AssertOutOfBoundsWrapper(_ReadsRawAttributes, _AssertOutOfBounds):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` (actions outside the action space fail)."""


class OrderEnforcingWrapper(_ReadsRawAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (no ``step``/``observe`` before ``reset``).

    Outermost of the three, it also takes the one-call path described in the module
    docstring for the calls that all three wrappers would only pass on.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._board = cast("BoardGameEnv", self._raw)
        self._illegal_check: TerminateIllegalWrapper = env.env

    def step(self, action: Any) -> None:
        """A legal action of the live agent goes straight to the game; anything else, the chain."""
        board = self._board
        if (
            type(action) is int
            and 0 <= action < board._num_actions
            # Legal, so reset() was called (the mask is all zeros before) and the game goes
            # on, unless TerminateIllegalWrapper ended it (it does not touch the mask).
            and board._legal_mask[action]
            and not board.terminations.get(board.agent_selection, True)
        ):
            self._has_updated = True
            # What TerminateIllegalWrapper.step does with a legal action: forget the last
            # observation it kept (if a caller went through it), pass the action on.
            illegal_check = self._illegal_check
            if illegal_check._prev_obs is not None:
                illegal_check._prev_obs = illegal_check._prev_info = None
            board.play_legal(action)
        else:
            super().step(action)

    def observe(self, agent: str) -> Any:
        """The raw observation after ``reset`` (the wrappers change none); before, an error."""
        # TerminateIllegalWrapper would keep this observation for its next step; it builds
        # the same one itself when it has none, and a legal step (above) discards it.
        if self._has_reset:
            return self._board.observe(agent)
        return super().observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, reading the raw environment directly after ``reset``."""
        if not self._has_reset:
            return super().last(observe)
        board = self._board
        agent = board.agent_selection
        return (
            board.observe(agent) if observe else None,
            board._cumulative_rewards[agent],
            board.terminations[agent],
            board.truncations[agent],
            board.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> order_enforcing.AECOrderEnforcingIterable:
        """PettingZoo's order-enforcing ``agent_iter``, with one frame per ``next()``."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(order_enforcing.AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(order_enforcing.AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, its two ``__next__`` levels in one."""

    def __next__(self) -> str:
        env = self.env
        board = env._board
        if not board.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return board.agent_selection


#: The private state of PettingZoo's wrappers that the one-call path reads or keeps, by the
#: class (or the agent iterator, made by ``agent_iter()``) that holds it.
PRIVATE_STATE = {
    "TerminateIllegalWrapper": ("_prev_obs", "_prev_info"),
    "OrderEnforcingWrapper": ("_has_reset", "_has_updated"),
    "AECOrderEnforcingIterator": ("iters_til_term",),
}


def standard_wrappers(raw: BoardGameEnv) -> AECEnv:
    """Wrap ``raw`` as PettingZoo's classic games do.

    An illegal move ends the game, the offender getting -1 and the other agent 0; an action
    outside the action space fails an assertion; calls out of order (``step`` before
    ``reset``) raise errors. The fast classes of this module are used when the installed
    PettingZoo keeps the private state they rely on (module docstring), else PettingZoo's own.
    """
    if missing_private_state(cast("Hashable", type(raw))):
        return pettingzoo_wrappers(raw)
    env: AECEnv = TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)


def pettingzoo_wrappers(raw: AECEnv) -> AECEnv:
    """The same three wrappers, PettingZoo's own classes."""
    env: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


@cache
def missing_private_state(raw_class: Hashable) -> list[str]:
    """The names of :data:`PRIVATE_STATE` that PettingZoo's wrappers no longer have.

    Checked once per environment class, on a fresh stack of PettingZoo's own wrappers around
    a new environment (no game is played); a non-empty answer is warned about once.
    """
    stack = pettingzoo_wrappers(cast("type[AECEnv]", raw_class)())
    holders: dict[str, Any] = {}
    layer: Any = stack
    while isinstance(layer, wrappers.BaseWrapper):
        holders[type(layer).__name__] = layer
        layer = layer.env
    stack.reset(seed=0)
    holders["AECOrderEnforcingIterator"] = iter(stack.agent_iter())
    missing = [
        f"{holder}.{name}"
        for holder, names in PRIVATE_STATE.items()
        for name in names
        if holder not in holders or not hasattr(holders[holder], name)
    ]
    if missing:
        warnings.warn(
            "this PettingZoo's wrappers no longer keep "
            + ", ".join(missing)
            + ": env() uses PettingZoo's own wrappers, with the same behaviour at their speed",
            RuntimeWarning,
            stacklevel=3,
        )
    return missing
