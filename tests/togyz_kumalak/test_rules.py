"""Togyz Kumalak rule examples, one or more per rule of docs/togyz_kumalak.md.

Positions are position strings ``"<white holes>/<black holes> <white kazan> <black kazan>
<mover>"``; actions are the mover's hole number minus one.
"""

from __future__ import annotations

import numpy as np
import pytest

from zoo_games import togyz_kumalak_v0
from zoo_games.catalog import find_variant
from zoo_games.core.errors import PositionError
from zoo_games.togyz_kumalak.notation import action_of, replay
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame, TogyzKumalakState

START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 W"


def load(position: str, stop_at_majority: bool = True) -> TogyzKumalakState:
    return TogyzKumalakGame(stop_at_majority).state_from_position(position)


def play(position: str, hole: int, stop_at_majority: bool = True) -> TogyzKumalakState:
    state = load(position, stop_at_majority)
    assert hole - 1 in state.legal_actions()
    state.apply_action(hole - 1)
    return state


def test_start_nine_balls_in_every_hole_white_first():
    state = TogyzKumalakGame().new_initial_state()
    assert state.position() == START
    assert state.legal_actions() == list(range(9))


def test_sowing_puts_the_first_ball_back_and_runs_counterclockwise_into_the_opponents_row():
    # 9 balls from White's hole 7: holes 7, 8, 9, then Black's 1-6; Black's 6 gets 10: even
    state = play(START, 7)
    assert state.position() == "9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 B"
    assert state.moves == ["76"]


def test_a_single_ball_moves_to_the_next_hole():
    position = "1,0,0,0,0,0,0,0,5/0,0,0,0,0,0,0,0,5 75 76 W"
    assert play(position, 1).position() == "0,1,0,0,0,0,0,0,5/0,0,0,0,0,0,0,0,5 75 76 B"


def test_sowing_goes_round_the_board_as_many_laps_as_the_balls_last():
    # 20 balls from White's hole 1: back into 1, then 2-9, Black 1-9 (18 holes), then White 1, 2
    position = "20,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 70 71 W"
    state = play(position, 1)
    assert state.position() == "2,2,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,2 70 71 B"
    assert state.moves == ["12"]


def test_an_even_count_in_an_opponents_hole_is_captured():
    # 3 balls from White's 8: 8, 9, Black's 1 (1 -> 2): captured
    state = play("0,0,0,0,0,0,0,3,0/1,0,0,0,0,0,0,0,5 77 76 W", 8)
    assert state.position() == "0,0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,0,5 79 76 B"


def test_an_odd_count_in_an_opponents_hole_is_not_captured():
    state = play("0,0,0,0,0,0,0,3,0/4,0,0,0,0,0,0,0,5 74 76 W", 8)
    assert state.position() == "0,0,0,0,0,0,0,1,1/5,0,0,0,0,0,0,0,5 74 76 B"


def test_an_even_count_in_ones_own_hole_is_not_captured():
    state = play("2,1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,5 77 77 W", 1)
    assert state.position() == "1,2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,5 77 77 B"


def test_three_in_an_opponents_hole_makes_a_tuzduk_and_captures_the_three():
    state = play("0,0,0,0,0,0,0,3,0/2,0,0,0,0,0,0,0,5 77 75 W", 8)
    # Black's 1 had 2, gets the last ball: 3, White's tuzduk; White's kazan + 3
    assert state.position() == "0,0,0,0,0,0,0,1,1/X,0,0,0,0,0,0,0,5 80 75 B"
    assert state.moves == ["81x"]
    assert state.tuzduk == [9, -1]


def test_balls_sown_into_a_tuzduk_go_to_its_owners_kazan():
    # White owns Black's hole 2. Black sows 3 from its hole 9: 9, White 1... no: from Black 1
    position = "0,0,0,0,0,0,0,0,5/3,X,0,0,0,0,0,0,0 77 77 B"
    state = play(position, 1)
    # Black's 1 (3 balls): back into 1, then 2 (White's tuzduk: to White's kazan), then 3
    assert state.position() == "0,0,0,0,0,0,0,0,5/1,X,1,0,0,0,0,0,0 78 77 W"


def test_a_player_makes_only_one_tuzduk():
    # White already owns Black's 2; Black's 1 becomes 3 but stays an ordinary hole
    state = play("0,0,0,0,0,0,0,3,0/2,X,0,0,0,0,0,0,5 74 78 W", 8)
    assert state.position() == "0,0,0,0,0,0,0,1,1/3,X,0,0,0,0,0,0,5 74 78 B"
    assert state.moves[-1] == "81"


def test_the_opponents_ninth_hole_never_becomes_a_tuzduk():
    # 11 balls from White's 8: 8, 9, Black's 1-9; Black's 9 reaches 3 but is never a tuzduk
    state = play("0,0,0,0,0,0,0,11,0/0,0,0,0,0,0,0,0,2 73 76 W", 8)
    assert state.position() == "0,0,0,0,0,0,0,1,1/1,1,1,1,1,1,1,1,3 73 76 B"
    assert state.tuzduk == [-1, -1]


def test_no_tuzduk_facing_the_opponents_tuzduk():
    # Black owns White's hole 1; White may not claim Black's hole 1
    state = play("X,0,0,0,0,0,0,3,0/2,0,0,0,0,0,0,0,5 74 78 W", 8)
    assert state.position() == "X,0,0,0,0,0,0,1,1/3,0,0,0,0,0,0,0,5 74 78 B"
    assert state.tuzduk == [-1, 0]


def test_a_player_with_no_ball_to_sow_ends_the_game_and_the_other_keeps_its_balls():
    # White sows its last ball; Black, to move, has 5 balls: White cannot move after that.
    # Here White moves its last ball into Black's row; Black then has balls, White none.
    state = play("0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,4 79 78 W", 9)
    # White's 9 ball goes to Black's 1 (1 ball: odd). Black to move: plays on.
    assert not state.is_terminal()
    state = load("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1,2 80 79 B", stop_at_majority=False)
    state.apply_action(7)  # Black's 8 (1 ball) -> Black's 9; White, to move, has nothing
    assert state.is_terminal()
    # atsis kalu: Black keeps the 3 balls of its own holes -> 82 for Black
    assert state.kazans == [80, 82]
    assert state.returns() == (-1.0, 1.0)


def test_81_81_is_a_draw():
    state = load("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1,0 81 80 B", stop_at_majority=False)
    state.apply_action(7)  # to Black's 9; White cannot move; Black keeps 1 -> 81-81
    assert state.kazans == [81, 81]
    assert state.is_terminal() and state.returns() == (0.0, 0.0)


def test_by_default_82_in_a_kazan_ends_the_game_at_once():
    state = play("0,0,0,0,0,0,0,3,0/1,0,0,0,0,0,0,0,5 80 73 W", 8)
    assert state.kazans[0] == 82
    assert state.is_terminal() and state.returns() == (1.0, -1.0)


def test_with_stop_at_majority_false_the_game_goes_on_after_82():
    state = play("0,0,0,0,0,0,0,3,0/1,0,0,0,0,0,0,0,5 80 73 W", 8, stop_at_majority=False)
    assert state.kazans[0] == 82
    assert not state.is_terminal()


# ---------------------------------------------------------------------- notation
def test_notation_names_own_hole_landing_hole_and_tuzduk():
    state = TogyzKumalakGame().new_initial_state()
    assert [state.action_to_string(a) for a in range(9)] == [
        "19",
        "21",
        "32",
        "43",
        "54",
        "65",
        "76",
        "87",
        "98",
    ]


def test_replay_checks_every_move_of_a_record():
    assert replay(["76", "98", "66"]).moves == ["76", "98", "66"]
    with pytest.raises(ValueError, match="gives '76'"):
        replay(["77"])
    with pytest.raises(ValueError, match="not a Togyz Kumalak move"):
        action_of("7")


def test_environment_exports_the_record_and_names_moves():
    env = togyz_kumalak_v0.raw_env()
    env.reset(seed=0)
    assert env.action_to_string(6) == "76"
    env.step(6)
    env.step(8)
    assert env.record() == ["76", "98"]


def test_a_clone_shares_the_record_so_far_and_each_goes_on_alone():
    state = replay(["76", "98"])
    copy = state.clone()
    state.apply_action(0)
    copy.apply_action(1)
    assert state.moves[:2] == copy.moves[:2] == ["76", "98"]
    assert state.moves[2] != copy.moves[2]


def test_an_illegal_action_is_named_plainly():
    env = togyz_kumalak_v0.raw_env()
    env.reset(options={"position": "0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 W"})
    with pytest.raises(ValueError) as error:
        env.step(0)
    assert str(error.value).startswith(
        "action 0 (sow hole 1, which is empty) is not legal for player_0 in "
    )
    assert "legal actions: 1 (21), 2 (32), 3 (43)" in str(error.value)


# ---------------------------------------------------------------------- observations
def test_board_observation_is_from_the_observers_side():
    env = togyz_kumalak_v0.raw_env(observation="board")
    env.reset(options={"position": "X,0,0,0,0,0,0,3,0/2,0,0,0,0,0,0,0,5 74 78 W"})
    white = env.observe("player_0")["observation"]
    black = env.observe("player_1")["observation"]
    assert white[:18].tolist() == [0] * 7 + [3, 0] + [2] + [0] * 7 + [5]
    assert black[:18].tolist() == [2] + [0] * 7 + [5] + [0] * 7 + [3, 0]
    assert white[18:20].tolist() == [74, 78] and black[18:20].tolist() == [78, 74]
    assert white[29:38].tolist() == [1] + [0] * 8  # Black's tuzduk on White's hole 1
    assert black[20:29].tolist() == [1] + [0] * 8
    assert white[38] == 1 and black[38] == 0


def test_tesauro_encoding_follows_its_formulas():
    env = togyz_kumalak_v0.raw_env(observation="tesauro")
    env.reset(options={"position": "19,9,0,0,0,0,0,0,10/X,0,0,0,0,0,0,0,2 60 62 B"})
    values = env.observe("player_0")["observation"]
    assert values.shape == (128,) and values.dtype == np.float32
    hole_19 = [1, 1, 1, 1 / 8, 1 / 17, 19 / 9, 0]
    hole_9 = [1, 1, 1, 0, 9 / 17, 1, 0]
    np.testing.assert_allclose(values[0:7], hole_19, rtol=1e-6)
    np.testing.assert_allclose(values[7:14], hole_9, rtol=1e-6)
    white_hole_9 = [1, 0, 1 / 8, 10 / 17, 10 / 9]  # 10 balls
    np.testing.assert_allclose(values[56:61], white_hole_9, rtol=1e-6)
    np.testing.assert_allclose(values[61:63], [60 / 82, 0], rtol=1e-6)  # 60 <= 62
    assert values[63 + 6] == 1  # Black's hole 1 is a tuzduk
    np.testing.assert_allclose(values[124:126], [62 / 82, 1], rtol=1e-6)
    assert values[126:].tolist() == [0, 1]  # Black acts next
    assert (values == env.observe("player_1")["observation"]).all()
    assert env.observation_space("player_0")["observation"].contains(values)


#: White owns a tuzduk on Black's hole 7. Worked out ball by ball:
#: - White's hole 9 (20 balls): one back into it, Black's 1-9 (the ball into hole 7 goes to
#:   White's kazan), White's 1-9, and the 20th into Black's hole 1, which then holds 2: even,
#:   captured. White gains 2 + 1.
#: - White's hole 2 (9 balls) ends in Black's hole 1 with 1 ball; holes 1 and 3 stay home.
#: - Black's hole 9 (4 balls): Black's 9, White's 1, 2, 3; White's hole 3 then holds 3, and
#:   Black has no tuzduk, White's is not numbered 3: a tuzduk, Black gains 3.
#: - Black's hole 5 (3 balls): 5, 6, and 7, White's tuzduk: White gains 1, no capture.
#: - Black's holes 2 and 3 stay home.
CAPTURES_POSITION = "1,9,2,0,0,0,0,0,20/0,2,1,0,3,0,X,0,4 70 50 W"


def test_sowing_effect_counts_captures_tuzduks_and_balls_sown_into_tuzduks():
    state = TogyzKumalakGame().state_from_position(CAPTURES_POSITION)
    before = state.position()
    assert state.sowing_effect(8) == (3, 0, False)  # White's hole 9
    assert state.sowing_effect(1) == (0, 0, False)  # White's hole 2
    assert state.sowing_effect(9 + 8) == (3, 0, True)  # Black's hole 9, as if Black moved
    assert state.sowing_effect(9 + 4) == (0, 1, False)  # Black's hole 5 feeds White's tuzduk
    assert state.position() == before  # counted, not played


def test_sowing_effect_respects_the_tuzduk_restrictions():
    # Black's hole 9 (10 balls) ends on White's hole 9 with 3 balls: never a tuzduk there.
    ninth = TogyzKumalakGame().state_from_position("0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,10 80 70 B")
    assert ninth.sowing_effect(17) == (0, 0, False)
    # Black owns a tuzduk (White's hole 1, X in White's row); a second is never made.
    second = TogyzKumalakGame().state_from_position("X,0,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0,4 80 76 B")
    assert second.sowing_effect(17) == (1, 0, False)  # White's hole 1 is Black's: +1
    # White owns Black's hole 3; Black may not make White's hole 3 its tuzduk.
    facing = TogyzKumalakGame().state_from_position("0,0,2,0,0,0,0,0,0/0,0,X,0,0,0,0,0,4 80 76 B")
    assert facing.sowing_effect(17) == (0, 0, False)


def test_the_default_observation_is_captures_and_the_board_variant_reads_the_board_alone():
    assert togyz_kumalak_v0.env().observation_space("player_0")["observation"].shape == (93,)
    assert find_variant("togyz-kumalak").kwargs == {}
    board = find_variant("togyz-kumalak-board").env()
    assert board.observation_space("player_0")["observation"].shape == (39,)


def test_captures_observation_shows_both_players_sowings_from_the_observers_side():
    env = togyz_kumalak_v0.raw_env(observation="captures")
    env.reset(options={"position": CAPTURES_POSITION})
    white = env.observe("player_0")["observation"]
    black = env.observe("player_1")["observation"]
    assert white.shape == (93,) and white.dtype == np.uint8
    board = togyz_kumalak_v0.raw_env(observation="board")
    board.reset(options={"position": CAPTURES_POSITION})
    assert (white[:39] == board.observe("player_0")["observation"]).all()
    assert (black[:39] == board.observe("player_1")["observation"]).all()
    nine = [0] * 9
    white_sowings = [[0] * 8 + [3], nine, nine]  # own gains, Black's gains, tuzduks
    black_sowings = [[0] * 8 + [3], [0, 0, 0, 0, 1, 0, 0, 0, 0], [0] * 8 + [1]]
    assert white[39:].reshape(6, 9).tolist() == white_sowings + black_sowings
    assert black[39:].reshape(6, 9).tolist() == black_sowings + white_sowings
    assert env.observation_space("player_0")["observation"].contains(white)


# ---------------------------------------------------------------------- positions
@pytest.mark.parametrize(
    "position,message",
    [
        ("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0", "4 fields"),
        ("9,9,9,9,9,9,9,9,9 0 0 W", "two rows"),
        ("9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 W", "9 holes"),
        ("9,9,9,9,9,9,9,9,a/9,9,9,9,9,9,9,9,9 0 0 W", "number of balls"),
        ("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 1 0 W", "163 balls"),
        ("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 X", "mover"),
        ("X,X,9,9,9,9,9,9,27/9,9,9,9,9,9,9,9,9 0 0 W", "two tuzduks"),
        ("9,9,9,9,9,9,9,9,X/9,9,9,9,9,9,9,9,18 0 0 W", "ninth hole"),
        ("X,9,9,9,9,9,9,9,18/X,9,9,9,9,9,9,9,18 0 0 W", "facing"),
        ("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 82 80 W", "already over"),
        ("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,2 80 80 W", "no ball to sow"),
    ],
)
def test_bad_positions_are_rejected_with_the_reason(position, message):
    with pytest.raises(PositionError, match=message):
        load(position)


def test_bad_options_name_the_allowed_values():
    with pytest.raises(ValueError, match="observation='pixels'"):
        togyz_kumalak_v0.raw_env(observation="pixels")
    with pytest.raises(ValueError, match="stop_at_majority"):
        togyz_kumalak_v0.raw_env(stop_at_majority="yes")
