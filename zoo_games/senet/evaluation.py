"""How good a Senet position is for one player: the static evaluation of search agents.

Senet is a race: the side that bears off all its dancers first wins, so the main term is how
far along the path each side's dancers are, a dancer borne off counting as one step past the
last house. Two things slow a side down: being beaten (a beaten dancer swaps back to the
house its attacker came from), which a dancer on a safe house or a protected one cannot be;
and blockades, rows of dancers that the opponent's dancers behind them cannot jump. Both are
counted for each side. The throw does not appear: the score is a function of the board, so
at a chance node it is also the expected score of the throws to come.
"""

from __future__ import annotations

from zoo_games.senet.houses import NUM_HOUSES, OFF
from zoo_games.senet.rules import SAFE_HOUSES, SenetState, protected

#: Weights of the terms; see :func:`evaluate`.
PROGRESS_WEIGHT = 0.8
SAFETY_WEIGHT = 0.1
BLOCKADE_WEIGHT = 0.1
#: The most a non-terminal position scores, so that a won game (1.0) always ranks higher.
LIMIT = 0.95


def evaluate(state: SenetState, player: int) -> float:
    """``player``'s prospects in [-1, 1]: the game's return once it is over, else a score.

    With ``n`` dancers a side, the score is, own minus opponent's:

    * 0.8 x progress / (31 n): the houses of the dancers on the board plus 31 for each
      dancer borne off (so it runs from about 0.2 at the start to 1 when all are off);
    * 0.1 x safe dancers / n: dancers on a safe house or protected by their neighbours
      (Kendall: a neighbour of their side; Skyruk: exactly one), which cannot be beaten;
    * 0.1 x blockading dancers / n: dancers in a row of the side's dancers long enough to be
      a blockade (3 under Kendall's rules, 2 under Skyruk's);

    clipped to [-0.95, 0.95].
    """
    if state.winner >= 0:
        return state.returns()[player]
    game = state.game
    board = state.board
    progress = [OFF * state.borne_off[0], OFF * state.borne_off[1]]
    safe = [0, 0]
    blockading = [0, 0]
    skyruk = game.skyruk
    need = game.blockade_length
    run_piece, run = 0, 0
    for house in range(1, NUM_HOUSES + 2):
        piece = board[house] if house <= NUM_HOUSES else 0
        if piece != run_piece:  # a row of one side's dancers ends before this house
            if run_piece and run >= need:
                blockading[run_piece - 1] += run
            run_piece, run = piece, 0
        if not piece:
            continue
        run += 1
        side = piece - 1
        progress[side] += house
        if house in SAFE_HOUSES:
            safe[side] += 1
        else:
            safe[side] += protected(
                board[house - 1] == piece, house < NUM_HOUSES and board[house + 1] == piece, skyruk
            )
    other = 1 - player
    return score(
        progress[player] - progress[other],
        safe[player] - safe[other],
        blockading[player] - blockading[other],
        game.num_pieces,
    )


def score(progress_lead: int, safe_lead: int, blockading_lead: int, pieces: int) -> float:
    """The score of a game in progress, from one player's leads in the three terms.

    Plain Python over ints: the batched kernels compile this very function.
    """
    weighted = (
        PROGRESS_WEIGHT * progress_lead / (OFF * pieces)
        + SAFETY_WEIGHT * safe_lead / pieces
        + BLOCKADE_WEIGHT * blockading_lead / pieces
    )
    return max(-LIMIT, min(LIMIT, weighted))
