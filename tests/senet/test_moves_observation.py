"""The ``"moves"`` observation of Senet: what each of the mover's dancers would do with its throw.

Hand positions worked out from the rules (docs/senet.md), then a property test that plays
every legal move on a copy and reads the effects off the board the move leaves.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games import senet_v0
from zoo_games.catalog import find_variant
from zoo_games.core.game import CHANCE, TERMINAL
from zoo_games.senet.houses import HAPPINESS, NUM_HOUSES, OFF, PIECE_OF, REBIRTH
from zoo_games.senet.observation import MOVE_VALUES, REACH, move_effect
from zoo_games.senet.rules import SenetGame, SenetState, decode_action

from .test_rules import board

#: Where the per-dancer values start with 5 dancers: 67 board values and 5 dancer planes.
MOVES_AT = 67 + 30 * 5


def moves_of(position: str, rules: str = "kendall", player: str = "player_0") -> list[list[int]]:
    """The 5 x 6 per-dancer values ``player`` sees in ``position``."""
    env = senet_v0.raw_env(rules=rules, observation="moves")
    env.reset(seed=0, options={"position": position})
    observation = env.observe(player)["observation"]
    assert observation.shape == (MOVES_AT + 5 * MOVE_VALUES,) and observation.dtype == np.int8
    assert env.observation_space(player)["observation"].contains(observation)
    plain = senet_v0.raw_env(rules=rules, observation="board")
    plain.reset(seed=0, options={"position": position})
    assert (observation[:MOVES_AT] == plain.observe(player)["observation"]).all()
    return observation[MOVES_AT:].reshape(5, MOVE_VALUES).tolist()


# Spools on 3, 10, 14 and 28 (one borne off), cons on 1, 6 and 12; the spools throw 3.
HAND = f"{board((3, 10, 14, 28), (1, 6, 12))} S 3"


def test_each_dancer_shows_its_gain_beat_bear_off_safety_and_attackers():
    assert moves_of(HAND) == [
        # 3 -> 6 beats the lone con there, which goes to 3: the cons on 1 and 3 are then
        # 5 and 3 houses behind the spool on 6, unprotected (5 and 7 are empty).
        [1, 3, 1, 0, 0, 2],
        # 10 -> 13, beside the spool on 14: protected, so no attackers are counted.
        [1, 3, 0, 0, 1, 0],
        # 14 -> 17, alone: the con on 12 is 5 houses behind it.
        [1, 3, 0, 0, 0, 1],
        # 28 + 3 bears off (Three Truths with a 3).
        [1, 3, 0, 1, 1, 0],
        # the fifth spool is borne off: no values.
        [0] * MOVE_VALUES,
    ]


def test_the_player_not_to_act_sees_no_moves():
    assert moves_of(HAND, player="player_1") == [[0] * MOVE_VALUES] * 5


def test_a_backward_move_loses_houses():
    # Kendall: 25 + 3 overshoots Happiness, so the spool must go back to 22; the con on 20
    # is two houses behind it there.
    assert moves_of(f"{board((25,), (20,))} S 3")[0] == [1, -3, 0, 0, 0, 1]


@pytest.mark.parametrize(
    "throw,values",
    [
        (1, [1, REBIRTH - 27, 0, 0, 1, 0]),  # from the Water: reborn on 15, a safe house
        (4, [1, OFF - 27, 0, 1, 1, 0]),  # a 4 bears off from the Water
        (5, [1, 0, 0, 0, 1, 0]),  # a 5 waits in the Water
    ],
)
def test_skyruks_water_shows_rebirth_bearing_off_and_waiting(throw, values):
    assert moves_of(f"{board((27,), (14,))} S {throw}", rules="skyruk")[0] == values


def test_protection_follows_each_rule_set():
    # 7 -> 10 between spools on 9 and 11: protected under Kendall's rules (a neighbour of
    # its side); under Skyruk's only the ends of a row are, and 10 is inside 9-10-11.
    position = f"{board((7, 9, 11), (5,))} S 3"
    assert moves_of(position, rules="kendall")[0] == [1, 3, 0, 0, 1, 0]
    assert moves_of(position, rules="skyruk")[0] == [1, 3, 0, 0, 0, 1]


def reference_effect(before: SenetState, action: int) -> tuple[int, int, int, int]:
    """A move's effect read off the board it leaves: the move played on a copy."""
    mover = before.mover
    mine, theirs = PIECE_OF[mover], PIECE_OF[1 - mover]
    source, destination = before.legal_moves()[action]
    after = before.clone()
    after.apply_action(action)
    houses_before = before.dancer_houses(mover) + [OFF] * before.borne_off[mover]
    houses_after = after.dancer_houses(mover) + [OFF] * after.borne_off[mover]
    advance = sum(houses_after) - sum(houses_before)
    beats = int(destination != source and after.board[source] == theirs)
    if destination == OFF:
        return advance, beats, 1, 0
    assert after.board[destination] == mine
    safe = destination >= HAPPINESS or destination == REBIRTH
    safe = safe or after._is_protected(destination)
    if safe:
        return advance, beats, 1, 0
    reach = range(max(1, destination - REACH), destination)
    return advance, beats, 0, sum(after.board[house] == theirs for house in reach)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from([(r, n) for r in ("kendall", "skyruk") for n in (5, 7)]),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_move_effect_matches_the_move_played_all_game_long(variant, seed):
    rules, num_pieces = variant
    rng = random.Random(seed)
    game = SenetGame(rules, num_pieces)
    env = senet_v0.raw_env(rules=rules, num_pieces=num_pieces, observation="moves")
    env.reset(seed=0)
    offset = 67 + 30 * num_pieces
    state = game.new_initial_state()
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply_action(rng.randint(1, 5))
            continue
        env.game_state = state
        agent = f"player_{state.mover}"
        values = env.observe(agent)["observation"][offset:].reshape(num_pieces, MOVE_VALUES)
        expected = np.zeros_like(values)
        for action, (source, destination) in state.legal_moves().items():
            effect = move_effect(state.board, source, destination, game.skyruk)
            assert effect == reference_effect(state, action), (state.position(), action)
            advance, beats, safe, attackers = effect
            dancer = decode_action(action)[0]
            expected[dancer] = (1, advance, beats, destination == OFF, safe, attackers)
        assert (values == expected).all(), state.position()
        assert state.board[0] == 0 and len(state.board) == NUM_HOUSES + 1
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("num_pieces", [5, 7])
def test_the_moves_are_the_default_and_the_board_variants_read_the_board_alone(num_pieces):
    options = {"position": HAND} if num_pieces == 5 else None  # a game's first throw for 7
    default = senet_v0.raw_env(num_pieces=num_pieces)
    default.reset(seed=0, options=options)
    shape = (67 + (30 + MOVE_VALUES) * num_pieces,)
    assert default.observation_space("player_0")["observation"].shape == shape
    moves = senet_v0.raw_env(num_pieces=num_pieces, observation="moves")
    moves.reset(seed=0, options=options)
    seen = default.observe("player_0")["observation"]
    assert seen[67 + 30 * num_pieces :].any()  # player_0 acts and has moves
    assert (seen == moves.observe("player_0")["observation"]).all()
    for rules in ("kendall", "skyruk"):
        assert find_variant(f"senet-{rules}-5").observation_shape == (247,)
        assert find_variant(f"senet-{rules}-5-moves").observation_shape == (247,)
        assert find_variant(f"senet-{rules}-5-board").observation_shape == (67 + 30 * 5,)
