"""A search agent's budget per move: simulations or seconds, checked alike for every agent.

``mcts``, ``batched-mcts`` and ``alphazero`` all take ``simulations=N`` or ``seconds=S`` per
move, never both, and name the budget the same way in their ``repr``; one function checks it
so that they accept and refuse the same options with the same messages. Simulations give the
same moves on every machine; seconds spend what a move is worth on this one.
"""

from __future__ import annotations


def checked_budget(
    agent: str, simulations: int | None, seconds: float | None, default: int
) -> int | None:
    """The simulations per move, or ``None`` for a budget of ``seconds``.

    ``ValueError`` for both at once or for seconds that are not positive; neither means
    ``default`` simulations. The simulations themselves are the agent's to check (``mcts``
    needs at least one, ``alphazero`` takes 0 for its network alone).
    """
    if simulations is not None and seconds is not None:
        raise ValueError(f"give {agent} a budget of simulations or of seconds per move, not both")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"{agent} seconds must be positive, not {seconds}")
    if simulations is None and seconds is None:
        return default
    return simulations


def budget_text(simulations: int | None, seconds: float | None) -> str:
    """The budget as the agent's options write it: ``simulations=N`` or ``seconds=S``."""
    return f"simulations={simulations}" if simulations is not None else f"seconds={seconds}"
