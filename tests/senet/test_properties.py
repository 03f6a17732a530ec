"""Properties of Senet that hold in every game, checked with Hypothesis over random legal play.

A whole game is hundreds of decisions, too many for Hypothesis to draw one by one, so it
draws the variant and a seed, and the seed drives the throws and moves; a failure reports
the seed, which replays the game exactly.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.core.game import CHANCE, TERMINAL
from zoo_games.senet.houses import HAPPINESS, NUM_HOUSES, PIECE_OF, WATER
from zoo_games.senet.rules import EXTRA_TURN_THROWS, PASS, SenetGame, SenetState, decode_action

VARIANT = st.sampled_from([(r, n) for r in ("kendall", "skyruk") for n in (5, 7)])
#: Random games need a bound; the longest of 20,000 random games seen was far below it.
MAX_DECISIONS = 5_000


def check_invariants(state: SenetState) -> None:
    game = state.game
    board = state.board
    assert len(board) == NUM_HOUSES + 1
    assert set(board[1:]) <= {0, *PIECE_OF}  # at most one dancer per house, by construction
    for player in (0, 1):
        on_board = board.count(PIECE_OF[player])
        assert on_board + state.borne_off[player] == game.num_pieces  # dancers conserved
        # the dancer houses the state keeps up to date are those on the board
        houses = [h for h in range(1, NUM_HOUSES + 1) if board[h] == PIECE_OF[player]]
        assert state.dancer_houses(player) == houses
    if not game.skyruk:
        assert board[WATER] == 0  # Kendall: nobody stays in the water
    elif board[HAPPINESS]:
        # Skyruk: a dancer rests on Happiness only while its owner re-throws for it
        assert board[HAPPINESS] == PIECE_OF[state.mover]
    # positions round-trip exactly
    copy = game.state_from_position(state.position())
    assert copy.position() == state.position()
    assert copy.borne_off == state.borne_off


@settings(max_examples=150, deadline=None)
@given(variant=VARIANT, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant_and_ends(variant, seed):
    rules, num_pieces = variant
    rng = random.Random(seed)
    state = SenetGame(rules, num_pieces).new_initial_state()
    decisions = 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply_action(rng.randint(1, 5))
            continue
        check_invariants(state)
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) and legal
        assert (legal == [PASS]) or PASS not in legal  # the pass only when nothing can move
        if len(legal) > 1 or legal != [PASS]:
            directions = {decode_action(a)[1] > 0 for a in legal}
            assert len(directions) == 1  # never forward and backward moves together
        action = rng.choice(legal)
        mover, throw = state.mover, state.throw
        source = state.dancer_houses(mover)[decode_action(action)[0]] if action != PASS else 0
        before = state.clone()
        state.apply_action(action)
        assert before.position() != state.position() or action == PASS or source == WATER
        decisions += 1
        assert decisions < MAX_DECISIONS
        if state.current_player() == TERMINAL:
            break
        # extra turns exactly when the rules give them
        landed_on_happiness = (
            rules == "skyruk" and source < HAPPINESS and state.board[HAPPINESS] == PIECE_OF[mover]
        )
        stayed_in_water = rules == "skyruk" and source == WATER and throw == 5
        keeps_turn = (
            action != PASS and not stayed_in_water and throw in EXTRA_TURN_THROWS
        ) or landed_on_happiness
        assert state.mover == (mover if keeps_turn else 1 - mover)
    assert sorted(state.returns()) == [-1.0, 1.0]
    winner = state.returns().index(1.0)
    assert state.borne_off[winner] == state.game.num_pieces


@settings(max_examples=100, deadline=None)
@given(variant=VARIANT, data=st.data())
def test_clones_are_independent_and_equal(variant, data):
    rules, num_pieces = variant
    state = SenetGame(rules, num_pieces).new_initial_state()
    for _ in range(data.draw(st.integers(0, 60))):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(data.draw(st.integers(1, 5)))
        else:
            state.apply_action(data.draw(st.sampled_from(state.legal_actions())))
    clone = state.clone()
    assert clone.position() == state.position() and clone.legal_actions() == state.legal_actions()
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled.position() == state.position()
    assert unpickled.legal_actions() == state.legal_actions()
    if not clone.is_terminal():
        action = clone.legal_actions()[0]
        clone.apply_action(action)
        assert clone.board is not state.board and clone.borne_off is not state.borne_off
