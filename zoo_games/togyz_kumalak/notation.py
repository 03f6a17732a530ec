"""Tournament notation: game records like ``["76", "98", "36x", ...]``, read and replayed.

A move is written as two digits, the mover's hole it was sown from and the number of the hole
(in whichever row) where its last ball landed, followed by ``x`` when the move made a tuzduk.
The first digit alone determines the move; the rest is checked against what the move did.
"""

from __future__ import annotations

from collections.abc import Iterable

from zoo_games.togyz_kumalak.rules import TogyzKumalakGame, TogyzKumalakState


def action_of(move: str) -> int:
    """The action (0-8) that a notation like ``"76"`` or ``"36x"`` names."""
    if not (2 <= len(move) <= 3 and move[:2].isdigit() and move[0] != "0" and move[1] != "0"):
        raise ValueError(f"{move!r} is not a Togyz Kumalak move like '76' or '36x'")
    if len(move) == 3 and move[2] != "x":
        raise ValueError(f"{move!r}: only 'x' (tuzduk) may follow the two digits")
    return int(move[0]) - 1


def replay(moves: Iterable[str], game: TogyzKumalakGame | None = None) -> TogyzKumalakState:
    """Play a recorded game from the start; raise ``ValueError`` at the first wrong move.

    A move is wrong if its hole cannot be sown, if its landing hole or tuzduk mark differs
    from what sowing that hole does, or if the game is already over.
    """
    state = (game or TogyzKumalakGame()).new_initial_state()
    for number, move in enumerate(moves, start=1):
        action = action_of(move)
        if state.is_terminal():
            raise ValueError(f"move {number} {move!r}: the game is already over")
        if action not in state.legal_actions():
            raise ValueError(
                f"move {number} {move!r}: hole {action + 1} is empty (legal: "
                + ", ".join(str(a + 1) for a in state.legal_actions())
                + ")"
            )
        actual = state.notation(action)
        if actual != move:
            raise ValueError(f"move {number} {move!r}: sowing hole {move[0]} gives {actual!r}")
        state.apply_action(action)
    return state
