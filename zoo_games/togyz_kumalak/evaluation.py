"""How good a Togyz Kumalak position is for one player: the static evaluation of search agents.

The game is a race to 82 balls in one's kazan, and balls in a kazan never leave it, so the
kazan difference is the score that matters; a tuzduk is worth more than the three balls it
took, because every ball sown into it later goes to its owner for the rest of the game. The
same function is the potential of the reward shaping in training
(:mod:`zoo_games.rllib.shaping`), so the agents and the trainer agree on what "ahead" means.

:func:`winning_actions` rules out a win in one by counting, and tries the moves only when it
cannot, which lets search agents ask at every node.
"""

from __future__ import annotations

from zoo_games.togyz_kumalak.holes import HOLES_PER_SIDE, NO_TUZDUK, NUM_HOLES, WINNING_KAZAN
from zoo_games.togyz_kumalak.rules import TogyzKumalakState

#: Balls a tuzduk is expected to collect after it is made (about one every few moves over
#: the rest of a game); counted like balls already in the kazan.
TUZDUK_BONUS = 10
#: Scale of the score: the kazan difference of a decided game plus a tuzduk.
SCALE = float(WINNING_KAZAN + TUZDUK_BONUS)
#: The most a non-terminal position scores, so that a won game (1.0) always ranks higher.
LIMIT = 0.99


def evaluate(state: TogyzKumalakState, player: int) -> float:
    """``player``'s prospects in [-1, 1]: the game's return once it is over, else a score.

    The score is ``(own kazan - other kazan + 10 * (own tuzduk - other tuzduk)) / 92``,
    clipped to [-0.99, 0.99]: 0 at the start, and it grows by 1/92 for each ball captured.
    """
    if state.winner >= 0:
        return state.returns()[player]
    kazans, tuzduk = state.kazans, state.tuzduk
    made = (tuzduk[player] != NO_TUZDUK) - (tuzduk[1 - player] != NO_TUZDUK)
    return score(kazans[player] - kazans[1 - player], made)


def score(kazan_lead: int, tuzduk_lead: int) -> float:
    """The score of a game in progress, from one player's lead in balls and in tuzduks.

    Plain Python over ints: the batched kernels compile this very function.
    """
    return max(-LIMIT, min(LIMIT, (kazan_lead + TUZDUK_BONUS * tuzduk_lead) / SCALE))


def winning_actions(state: TogyzKumalakState) -> list[int]:
    """The mover's moves that win at once: reaching 82 (by default) or ending the game ahead.

    Only when counting cannot rule a win out (:func:`may_win_at_once`) is each move tried on
    a copy.
    """
    if state.winner >= 0:
        return []
    mover = state.mover
    holes = state.holes
    own_first = HOLES_PER_SIDE * mover
    their_first = HOLES_PER_SIDE * (1 - mover)
    theirs = holes[their_first : their_first + HOLES_PER_SIDE]
    if not may_win_at_once(
        state.kazans[mover],
        max(holes[own_first : own_first + HOLES_PER_SIDE]),
        max(theirs),
        sum(theirs),
        state.game.stop_at_majority,
    ):
        return []
    wins = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.winner == mover:
            wins.append(action)
    return wins


def may_win_at_once(
    kazan: int, most_own: int, most_theirs: int, total_theirs: int, stop_at_majority: bool
) -> bool:
    """Whether some move of the mover might end the game in its favour, by counting.

    ``kazan`` is the mover's kazan, ``most_own`` and ``most_theirs`` the most balls in a hole
    of its row and of the opponent's, ``total_theirs`` the balls of the opponent's row. A move
    sowing ``n`` balls makes ``laps = n // 18`` full laps, so it adds at most ``laps + 1``
    balls to any hole: it captures at most the largest opponent's hole plus ``laps + 1`` (a
    new tuzduk takes 3, no more than that), and its own tuzduk collects at most ``laps + 1``.
    If that cannot lift the kazan to 82 (where a majority ends the game) and cannot empty the
    opponent's row (the only other way the game ends on this move), no move wins. Plain
    Python over ints: the batched kernels compile this very function.
    """
    reach = most_own // NUM_HOLES + 1
    most_captured = most_theirs + reach
    if stop_at_majority and kazan + most_captured + reach >= WINNING_KAZAN:
        return True
    return total_theirs <= most_captured
