"""Senet rule examples, one or more per rule sentence (docs/senet.md), for both rule sets.

Each test is a position and a throw, the expected legal actions, and the expected position
and side to act after the move. Positions are written with :func:`board`, which places
spools (``S``, player_0) and cons (``C``, player_1) on the listed houses. After a move the
sticks are still to be thrown, so the expected position has no throw and its second field
names the side that throws next.
"""

from __future__ import annotations

import numpy as np
import pytest

from zoo_games import senet_v0
from zoo_games.core.errors import PositionError
from zoo_games.core.game import CHANCE, TERMINAL
from zoo_games.senet.houses import OFF
from zoo_games.senet.rules import (
    SAFE_HOUSES,
    THROW_PROBABILITIES,
    SenetGame,
    SenetState,
    is_safe_house,
    protected,
)

BOTH = ("kendall", "skyruk")


def board(spools: tuple[int, ...] = (), cons: tuple[int, ...] = ()) -> str:
    """A 30-character board with spools and cons on the given houses (1-based)."""
    cells = ["."] * 30
    for house in spools:
        cells[house - 1] = "S"
    for house in cons:
        cells[house - 1] = "C"
    return "".join(cells)


def load(rules: str, position: str, num_pieces: int = 5) -> SenetState:
    return SenetGame(rules, num_pieces).state_from_position(position)


def legal(rules: str, position: str, num_pieces: int = 5) -> list[int]:
    return load(rules, position, num_pieces).legal_actions()


def after(rules: str, position: str, action: int, num_pieces: int = 5) -> str:
    state = load(rules, position, num_pieces)
    assert action in state.legal_actions(), (action, state.legal_actions())
    state.apply_action(action)
    return state.position()


# A far-away con keeps the cons in the game in positions that focus on the spools.
FAR_CON = 1


def wall(rules: str, first: int) -> tuple[int, ...]:
    """The shortest row of cons from ``first`` that no spool can land on or jump over.

    Kendall: three in a row (a blockade, all protected). Skyruk: two in a row (a blockade,
    both ends protected).
    """
    return tuple(range(first, first + (3 if rules == "kendall" else 2)))


# ---------------------------------------------------------------------- set-up and sticks
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("num_pieces", [5, 7])
def test_dancers_start_alternating_cons_first_and_spools_throw_first(rules, num_pieces):
    state = SenetGame(rules, num_pieces).new_initial_state()
    cons = tuple(range(1, 2 * num_pieces, 2))
    spools = tuple(range(2, 2 * num_pieces + 1, 2))
    assert state.position() == f"{board(spools, cons)} S"
    assert state.current_player() == CHANCE  # the spools' sticks are about to be thrown


def test_four_sticks_give_throws_with_binomial_probabilities():
    assert dict(THROW_PROBABILITIES) == {1: 4 / 16, 2: 6 / 16, 3: 4 / 16, 4: 1 / 16, 5: 1 / 16}
    assert sum(p for _, p in THROW_PROBABILITIES) == pytest.approx(1.0)


def test_environment_draws_throws_with_those_frequencies():
    env = senet_v0.raw_env()
    counts = dict.fromkeys(range(1, 6), 0)
    draws = 0
    for seed in range(4000):
        env.reset(seed=seed)
        counts[env.game_state.throw] += 1
        draws += 1
    for throw, probability in THROW_PROBABILITIES:
        # 4000 draws: a 4.5-sigma band is at most ~0.035 wide.
        assert abs(counts[throw] / draws - probability) < 0.035, (throw, counts)


def test_the_acting_agent_sees_its_throw_and_the_other_sees_none():
    env = senet_v0.raw_env()
    env.reset(seed=0, options={"position": f"{board((2, 4), (1, 3))} S 4"})
    mine = env.observe("player_0")["observation"]
    theirs = env.observe("player_1")["observation"]
    assert mine[60:65].tolist() == [0, 0, 0, 1, 0]
    assert theirs[60:65].tolist() == [0, 0, 0, 0, 0]


# ---------------------------------------------------------------------- turn order
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("throw,next_side", [(1, "S"), (2, "C"), (3, "C"), (4, "S"), (5, "S")])
def test_throws_of_1_4_5_give_an_extra_turn_2_and_3_pass_it(rules, throw, next_side):
    position = f"{board((10,), (FAR_CON,))} S {throw}"
    assert legal(rules, position) == [throw]
    assert after(rules, position, throw) == f"{board((10 + throw,), (FAR_CON,))} {next_side}"


def test_extra_turn_selects_the_same_agent_again_in_the_environment():
    env = senet_v0.raw_env()
    env.reset(seed=0, options={"position": f"{board((10, 20), (1,))} S 4"})
    env.step(4)
    assert env.agent_selection == "player_0"
    env.reset(seed=0, options={"position": f"{board((10, 20), (1,))} S 2"})
    env.step(2)
    assert env.agent_selection == "player_1"


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("throw,next_side", [(1, "S"), (2, "C"), (3, "C"), (4, "S"), (5, "S")])
def test_backward_moves_keep_or_pass_the_turn_by_the_same_rule(rules, throw, next_side):
    # The spool on 20 faces a wall of cons on 21.., so it can only move back.
    cons = wall(rules, 21)
    position = f"{board((20,), cons)} S {throw}"
    back = 10 * 0 + 11 - throw
    assert legal(rules, position) == [back]
    assert after(rules, position, back) == f"{board((20 - throw,), cons)} {next_side}"


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("throw", [1, 4, 5])
def test_a_pass_hands_the_turn_over_whatever_the_throw(rules, throw):
    # The spool on 1 cannot go back, and forward it meets a wall from house 2.
    cons = wall(rules, 2)
    position = f"{board((1,), cons)} S {throw}"
    assert legal(rules, position) == [0]
    assert after(rules, position, 0) == f"{board((1,), cons)} C"


@pytest.mark.parametrize("rules", BOTH)
def test_backward_moves_only_when_no_forward_move_exists(rules):
    cons = wall(rules, 21)
    # Spool on 20 is stuck forward; with a second spool free to move forward, no backward move.
    assert legal(rules, f"{board((5, 20), cons)} S 2") == [2]
    assert legal(rules, f"{board((20,), cons)} S 2") == [9]  # 10*0 + 11 - 2


# ---------------------------------------------------------------------- landing and beating
@pytest.mark.parametrize("rules", BOTH)
def test_a_dancer_cannot_land_on_its_own_side(rules):
    position = f"{board((5, 8), (FAR_CON,))} S 3"
    assert legal(rules, position) == [13]  # only the front spool (dancer 1) moves


@pytest.mark.parametrize("rules", BOTH)
def test_landing_on_a_lone_opponent_swaps_the_two_dancers(rules):
    position = f"{board((5,), (8, FAR_CON))} S 3"
    assert after(rules, position, 3) == f"{board((8,), (5, FAR_CON))} C"


@pytest.mark.parametrize("rules", BOTH)
def test_a_backward_move_onto_a_lone_opponent_also_swaps(rules):
    # forward blocked by the wall from 21; backward 3 lands on the lone con on 17
    cons = (17, *wall(rules, 21))
    position = f"{board((20,), cons)} S 3"
    assert legal(rules, position) == [8]
    assert after(rules, position, 8) == f"{board((17,), (20, *wall(rules, 21)))} C"


@pytest.mark.parametrize("rules", BOTH)
def test_no_dancer_can_be_beaten_on_the_house_of_rebirth(rules):
    # the lone con on 15 would be beaten anywhere else; the spool must move back instead
    assert legal(rules, f"{board((12,), (15, 3))} S 3") == [8]
    assert legal(rules, f"{board((11,), (14, 3))} S 3") == [3]


def test_no_dancer_can_be_beaten_on_the_house_of_happiness():
    # Kendall only: under Skyruk's rules no dancer ever rests on Happiness between turns
    assert legal("kendall", f"{board((23,), (26,))} S 3") == [8]


def test_kendall_two_opponents_in_a_row_protect_each_other():
    position = f"{board((5,), (8, 9))} S 3"
    assert 3 not in legal("kendall", position)
    position = f"{board((5,), (9, 10))} S 4"
    assert 4 not in legal("kendall", position)


def test_kendall_every_dancer_of_a_longer_row_is_protected():
    # cons on 8, 9, 10: any landing on them is forbidden, and the row blockades the path
    for throw in (3, 4, 5):
        assert legal("kendall", f"{board((5, 20), (8, 9, 10))} S {throw}") == [10 + throw]


@pytest.mark.parametrize(
    ("before", "after", "kendall", "skyruk"),
    [
        (False, False, False, False),  # alone
        (True, False, True, True),  # last of a row
        (False, True, True, True),  # first of a row
        (True, True, True, False),  # inside a row
    ],
)
def test_the_protection_rule_by_neighbours(before, after, kendall, skyruk):
    assert protected(before, after, False) == kendall
    assert protected(before, after, True) == skyruk


@pytest.mark.parametrize("skyruk", [False, True])
def test_protection_over_house_masks_is_protection_of_each_dancer(skyruk):
    # The batched kernels apply the rule to a whole side at once, bit h for house h.
    rng = np.random.default_rng(0)
    for _ in range(200):
        houses = int(rng.integers(0, 1 << 30)) << 1  # dancers on houses 1 to 30
        masked = houses & protected(houses << 1, houses >> 1, skyruk)
        for house in range(1, 31):
            if houses >> house & 1:
                before, after = bool(houses >> (house - 1) & 1), bool(houses >> (house + 1) & 1)
                assert bool(masked >> house & 1) == protected(before, after, skyruk)


def test_skyruk_first_and_last_of_a_row_are_protected_inner_dancers_are_not():
    # cons on 8, 9, 10: the spool on 7 may beat the inner con on 9 (throw 2) but neither end
    assert 1 not in legal("skyruk", f"{board((7, 20), (8, 9, 10))} S 1")
    assert legal("skyruk", f"{board((7, 20), (8, 9, 10))} S 2") == [2, 12]
    assert after("skyruk", f"{board((7, 20), (8, 9, 10))} S 2", 2) == (
        f"{board((9, 20), (7, 8, 10))} C"
    )
    assert 3 not in legal("skyruk", f"{board((7, 20), (8, 9, 10))} S 3")


def test_skyruk_two_in_a_row_are_both_protected():
    assert 3 not in legal("skyruk", f"{board((5, 20), (8, 9))} S 3")
    assert 4 not in legal("skyruk", f"{board((5, 20), (8, 9))} S 4")


def test_kendall_three_in_a_row_is_a_blockade_two_is_not():
    # jumping the pair 6-7 is fine
    assert after("kendall", f"{board((5,), (6, 7))} S 3", 3) == f"{board((8,), (6, 7))} C"
    # jumping the row 6-8 is not: the spool can only go back to 1
    assert legal("kendall", f"{board((5,), (6, 7, 8))} S 4") == [7]


def test_skyruk_two_in_a_row_is_already_a_blockade():
    # the spool can only go back to 2
    assert legal("skyruk", f"{board((5,), (6, 7))} S 3") == [8]
    assert legal("skyruk", f"{board((5,), (6, 7, 12))} S 3") == [8]
    # a lone con can be jumped
    assert legal("skyruk", f"{board((5,), (6, 12))} S 3") == [3]


def test_kendall_a_blockade_also_stops_backward_moves():
    # 7 dancers: cons 16-18 behind the spool on 19 and 20-22 in front; a 4 can go neither way
    assert legal("kendall", f"{board((19,), (16, 17, 18, 20, 21, 22))} S 4", 7) == [0]
    # without the row behind, the spool goes back to 15
    assert legal("kendall", f"{board((19,), (20, 21, 22))} S 4", 7) == [7]


def test_skyruk_a_blockade_also_stops_backward_moves():
    assert legal("skyruk", f"{board((19,), (17, 18, 20, 21))} S 3") == [0]
    assert legal("skyruk", f"{board((19,), (20, 21))} S 3") == [8]


@pytest.mark.parametrize("rules", BOTH)
def test_dancers_beyond_the_house_of_happiness_never_move_backward(rules):
    # With a 4 these dancers have no forward move; they still get no backward move.
    assert legal(rules, f"{board((28,), (1,))} S 4") == [0]
    assert legal(rules, f"{board((29,), (1,))} S 4") == [0]
    # Kendall: the dancer on Happiness with 4 blocked by its own dancer on 30
    assert legal("kendall", f"{board((26, 30), (1,))} S 4") == [0]


# ---------------------------------------------------------------------- the House of Happiness
def test_kendall_house_of_happiness_must_be_reached_exactly():
    assert legal("kendall", f"{board((24,), (1,))} S 3") == [8]  # only backward to 21
    for throw in (2, 3, 4, 5):
        assert throw not in legal("kendall", f"{board((25,), (1,))} S {throw}")
    assert after("kendall", f"{board((25,), (1,))} S 1", 1) == f"{board((26,), (1,))} S"
    assert after("kendall", f"{board((23,), (1,))} S 3", 3) == f"{board((26,), (1,))} C"


@pytest.mark.parametrize("throw", [1, 2, 3, 4, 5])
def test_skyruk_house_of_happiness_stops_every_dancer_that_would_pass_it(throw):
    position = f"{board((25,), (1,))} S {throw}"
    assert legal("skyruk", position) == [throw]
    # the same side throws again for the dancer's extra move, whatever the throw was
    assert after("skyruk", position, throw) == f"{board((26,), (1,))} S"


def test_skyruk_arrival_on_happiness_is_followed_by_a_rethrow_for_that_dancer_only():
    env = senet_v0.raw_env(rules="skyruk")
    env.reset(seed=0, options={"position": f"{board((10, 23), (1,))} S 3"})
    env.step(13)  # dancer 1: 23 -> 26, turn would pass on a 3
    assert env.agent_selection == "player_0"
    throw = env.game_state.throw
    assert throw in range(1, 6)
    assert env.legal_actions() == [10 + throw]  # only the dancer on Happiness moves
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [10 + throw]


@pytest.mark.parametrize("throw,landing", [(5, "off"), (4, 30), (3, 29), (2, 28)])
def test_kendall_from_happiness_throws_lead_to_the_last_houses(throw, landing):
    position = f"{board((26, 12), (1,))} S {throw}"
    spools = (12,) if landing == "off" else (12, landing)
    assert after("kendall", position, 10 + throw) == (
        f"{board(spools, (1,))} {'C' if throw in (2, 3) else 'S'}"
    )


@pytest.mark.parametrize("occupied,reborn", [((), 15), ((15,), 14), ((15, 14), 13), ((14,), 15)])
def test_kendall_a_1_from_happiness_drowns_and_is_reborn(occupied, reborn):
    cons = (*occupied, 1)
    position = f"{board((26,), cons)} S 1"
    assert after("kendall", position, 1) == f"{board((reborn,), cons)} S"


@pytest.mark.parametrize("house,throw", [(28, 3), (29, 2), (30, 1)])
def test_kendall_last_houses_bear_off_only_with_their_exact_throw(house, throw):
    for other in {1, 2, 3, 4, 5} - {throw}:
        assert legal("kendall", f"{board((house,), (1,))} S {other}") == [0]
    assert after("kendall", f"{board((house, 3), (1,))} S {throw}", 10 + throw) == (
        f"{board((3,), (1,))} {'C' if throw in (2, 3) else 'S'}"
    )


def test_kendall_a_dancer_leaving_happiness_cannot_land_on_a_taken_house():
    assert legal("kendall", f"{board((26, 28), (1,))} S 2") == [0]  # own dancer on 28
    assert legal("kendall", f"{board((26,), (28, 1))} S 2") == [0]  # 28 is safe


@pytest.mark.parametrize("throw,landing", [(1, 27), (2, 28), (3, 29), (4, 30)])
def test_skyruk_from_happiness_throws_1_to_4_lead_to_water_and_the_last_houses(throw, landing):
    position = f"{board((26,), (1,))} S {throw}"
    next_side = "C" if throw in (2, 3) else "S"
    assert after("skyruk", position, throw) == f"{board((landing,), (1,))} {next_side}"


def test_skyruk_from_happiness_a_5_bears_off():
    assert after("skyruk", f"{board((26, 4), (1,))} S 5", 15) == f"{board((4,), (1,))} S"


@pytest.mark.parametrize("throw", [2, 3, 4])
def test_skyruk_from_happiness_a_taken_landing_sends_the_dancer_to_the_water(throw):
    taken = 26 + throw
    position = f"{board((26,), (taken, 1))} S {throw}"
    assert after("skyruk", position, throw) == (
        f"{board((27,), (taken, 1))} {'C' if throw in (2, 3) else 'S'}"
    )


def test_skyruk_from_happiness_with_water_taken_too_the_dancer_is_reborn():
    cons = (27, 28, 1)
    assert after("skyruk", f"{board((26,), cons)} S 2", 12 - 10) == f"{board((15,), cons)} C"
    cons = (27, 15, 1)
    assert after("skyruk", f"{board((26,), cons)} S 1", 1) == f"{board((14,), cons)} S"


@pytest.mark.parametrize("throw", [1, 2, 3])
def test_skyruk_water_throws_1_to_3_send_the_dancer_to_rebirth(throw):
    position = f"{board((27,), (15, 1))} S {throw}"
    assert after("skyruk", position, throw) == (
        f"{board((14,), (15, 1))} {'C' if throw in (2, 3) else 'S'}"
    )


def test_skyruk_water_a_4_bears_off():
    assert after("skyruk", f"{board((27, 3), (1,))} S 4", 14) == f"{board((3,), (1,))} S"


def test_skyruk_water_a_5_leaves_the_dancer_in_the_water_and_passes_the_turn():
    position = f"{board((27,), (1,))} S 5"
    assert legal("skyruk", position) == [5]
    assert after("skyruk", position, 5) == f"{board((27,), (1,))} C"


def test_skyruk_water_a_5_is_optional_when_another_dancer_can_move():
    position = f"{board((3, 27), (1,))} S 5"
    assert legal("skyruk", position) == [5, 15]
    assert after("skyruk", position, 5) == f"{board((8, 27), (1,))} S"  # extra turn kept


@pytest.mark.parametrize("house,throw", [(28, 3), (29, 2)])
def test_skyruk_three_truths_and_re_atum_bear_off_only_with_their_throw(house, throw):
    for other in {1, 2, 3, 4, 5} - {throw}:
        assert legal("skyruk", f"{board((house,), (1,))} S {other}") == [0]
    assert legal("skyruk", f"{board((house,), (1,))} S {throw}") == [throw]


@pytest.mark.parametrize("throw", [1, 2, 3, 4, 5])
def test_skyruk_re_horakhty_bears_off_with_any_throw(throw):
    assert after("skyruk", f"{board((30, 5), (1,))} S {throw}", 10 + throw) == (
        f"{board((5,), (1,))} {'C' if throw in (2, 3) else 'S'}"
    )


def test_skyruk_after_the_rethrow_the_turn_follows_the_new_throw():
    # 23 + 3 reaches Happiness; the re-throw of 4 moves the dancer to 30 and keeps the turn.
    state = load("skyruk", f"{board((23,), (1,))} S 3")
    state.apply_action(3)
    assert state.current_player() == CHANCE and state.mover == 0
    state.apply_action(4)  # the re-throw
    assert state.legal_actions() == [4]
    state.apply_action(4)
    assert state.position() == f"{board((30,), (1,))} S"
    state = load("skyruk", f"{board((23,), (1,))} S 3")
    state.apply_action(3)
    state.apply_action(2)
    state.apply_action(2)
    assert state.position() == f"{board((28,), (1,))} C"


# ---------------------------------------------------------------------- the end
@pytest.mark.parametrize("rules", BOTH)
def test_bearing_off_the_last_dancer_wins(rules):
    state = load(rules, f"{board((30,), (1,))} S 1")
    state.apply_action(1)
    assert state.current_player() == TERMINAL
    assert state.returns() == (1.0, -1.0)
    assert state.legal_actions() == []


def test_the_environment_rewards_the_winner_plus_one_and_the_loser_minus_one():
    env = senet_v0.raw_env(rules="skyruk")
    env.reset(seed=0, options={"position": f"{board((5,), (30,))} C 2"})
    env.step(2)
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0}


def test_borne_off_dancers_are_counted_in_the_observation():
    env = senet_v0.raw_env(num_pieces=7)
    env.reset(seed=0, options={"position": f"{board((3, 4), (1, 2, 5))} C 2"})
    observation = env.observe("player_1")["observation"]
    assert observation[65:67].tolist() == [4, 5]  # cons: 7 - 3 off; spools: 7 - 2 off


def test_each_dancer_of_the_observer_has_its_own_plane_in_action_order():
    env = senet_v0.raw_env(num_pieces=7)
    env.reset(seed=0, options={"position": f"{board((3, 4), (1, 2, 5))} C 2"})
    planes = env.observe("player_1")["observation"][67 : 67 + 7 * 30].reshape(7, 30)
    # cons on 1, 2, 5 are dancers 0, 1, 2; dancers 3-6 are borne off
    assert [np.flatnonzero(plane).tolist() for plane in planes] == [[0], [1], [4], [], [], [], []]
    spool_planes = env.observe("player_0")["observation"][67 : 67 + 7 * 30].reshape(7, 30)
    assert [np.flatnonzero(p).tolist() for p in spool_planes[:3]] == [[2], [3], []]


# ---------------------------------------------------------------------- actions
def test_dancers_are_numbered_from_the_rear_and_backward_moves_use_11_minus_steps():
    state = load("kendall", f"{board((3, 9, 14), (1,))} S 2")
    assert state.legal_actions() == [2, 12, 22]
    assert [state.action_to_string(a) for a in (2, 12, 22)] == [
        "dancer 0: 3->5",
        "dancer 1: 9->11",
        "dancer 2: 14->16",
    ]
    state = load("kendall", f"{board((20,), (21, 22, 23, 24, 25))} S 5")
    assert state.legal_actions() == [6]  # backward 5 of dancer 0
    assert state.action_to_string(6) == "dancer 0: 20->15"


# ---------------------------------------------------------------------- positions
@pytest.mark.parametrize(
    "rules,position,message",
    [
        ("kendall", "CSCSCSCSCS S 3", "30 characters"),
        ("kendall", "CSCSCSCSCS....................X S", "30 characters"),
        ("kendall", "CSCSCSCSCS...........x........ S", "unknown board character"),
        ("kendall", "CSCSCSCSCS.................... X", "mover"),
        ("kendall", "CSCSCSCSCS.................... S 6", "throw"),
        ("kendall", "CSCSCSCSCS.................... S 0", "throw"),
        ("kendall", "CSCSCSCSCSS................... S", "6 spools"),
        ("kendall", "CCCCCCSSS..................... S", "6 cons"),
        ("kendall", "SSSSS......................... S", "already over"),
        ("kendall", "CSCSCSCSCS..........S......... S 3 extra", "2 or 3 fields"),
        ("kendall", f"{board((27,), (1,))} S", "House of Water"),
        ("skyruk", f"{board((1,), (26,))} S", "House of Happiness"),
    ],
)
def test_bad_positions_are_rejected_with_the_reason(rules, position, message):
    with pytest.raises(PositionError, match=message):
        load(rules, position)


def test_seven_dancer_games_accept_seven_per_side():
    position = f"{board((2, 4, 6, 8, 10, 12, 14), (1, 3, 5, 7, 9, 11, 13))} S"
    assert load("kendall", position, 7).position() == position


def test_skyruk_position_with_the_movers_dancer_on_happiness_is_the_rethrow():
    state = load("skyruk", f"{board((5, 26), (1,))} S 2")
    assert state.legal_actions() == [12]


def test_position_without_throw_is_thrown_by_the_environment():
    env = senet_v0.raw_env()
    env.reset(seed=5, options={"position": f"{board((5,), (1,))} C"})
    assert env.agent_selection == "player_1"
    assert env.position().startswith(f"{board((5,), (1,))} C ")


def test_bad_game_options_name_the_allowed_values():
    with pytest.raises(ValueError, match=r"rules='senet'.*'kendall', 'skyruk'"):
        senet_v0.raw_env(rules="senet")
    with pytest.raises(ValueError, match=r"num_pieces=6.*5, 7"):
        senet_v0.raw_env(num_pieces=6)
    with pytest.raises(ValueError, match="num_pieces=True"):
        senet_v0.raw_env(num_pieces=True)


def test_the_safe_houses_are_rebirth_and_happiness_onwards() -> None:
    # Rebirth (15), Happiness (26), the Water (27) and the three last houses; borne off too.
    assert {15, 26, 27, 28, 29, 30} == SAFE_HOUSES
    assert is_safe_house(OFF) and not any(is_safe_house(house) for house in (1, 14, 16, 25))
