"""Santorini rule examples, one or more per rule of docs/santorini.md, and perft counts.

Positions are strings ``"<heights> <workers> <mover> <parts>"``; cells are numbered
``5 * row + column`` from the top-left. The perft counts are checked against the plain
statement of the rules (``zoo_games/santorini/reference.py``), which tries all 128 actions
against the rule text, and against counts worked out by hand.
"""

from __future__ import annotations

import pytest

from zoo_games import santorini_v0
from zoo_games.core.errors import PositionError
from zoo_games.santorini import reference
from zoo_games.santorini.cells import INITIAL_PARTS
from zoo_games.santorini.rules import SantoriniGame, SantoriniState, play_action

START = "00000/00000/00000/00000/00000 2,22;10,14 0 22,18,14,18"
N, NE, W, E, S, SE, NW, SW = 1, 2, 3, 4, 6, 7, 0, 5


def load(position: str, setup: str = "fixed") -> SantoriniState:
    return SantoriniGame(setup).state_from_position(position)


def after(position: str, action: int, setup: str = "fixed") -> SantoriniState:
    state = load(position, setup)
    assert action in state.legal_actions(), state.action_to_string(action)
    state.apply_action(action)
    return state


# ---------------------------------------------------------------------- the plain reference
def reference_legal(state: SantoriniState) -> list[int]:
    """The legal actions by zoo_games/santorini/reference.py: all 128 actions tried one by one."""
    return reference.legal_actions(reference.from_state(state))


def perft(state: SantoriniState, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


# ---------------------------------------------------------------------- perft
def test_perft_1_from_the_fixed_start_is_64_by_hand():
    # Worker on cell 2 (top middle): moves W, E (5 builds each: edge cells), SW (7: cell 10 is
    # taken), S (8), SE (7: cell 14 is taken) = 32; the worker on 22 mirrors it: 64.
    state = SantoriniGame().new_initial_state()
    assert len(state.legal_actions()) == 64
    assert state.legal_actions() == reference_legal(state)


def test_perft_2_from_the_fixed_start_matches_the_reference():
    state = SantoriniGame().new_initial_state()
    expected = 0
    for action in reference_legal(state):
        child = state.clone()
        child.apply_action(action)
        expected += len(reference_legal(child))
    assert perft(state, 2) == expected


@pytest.mark.parametrize(
    "position",
    [
        # A corner worker boxed in by domes except one cell.
        "04000/04000/00000/00000/00000 0,24;12,18 0 20,16,12,16",
        # A worker on level 2 next to a level-3 tower: the climb wins with any build direction.
        "23000/00000/00000/00000/00000 0,24;12,18 0 20,16,13,18",
        # No level-2 pieces left: a level-1 cell can no longer be built on.
        "11111/11111/11111/11100/00000 20,24;21,23 0 4,18,14,18".replace("4,18", "4,18"),
    ],
)
def test_perft_on_hand_built_positions_matches_the_reference(position):
    state = load(position)
    assert state.legal_actions() == reference_legal(state)
    for depth_2 in state.legal_actions()[:10]:
        child = state.clone()
        child.apply_action(depth_2)
        if not child.is_terminal():
            assert child.legal_actions() == reference_legal(child)


def test_boxed_in_worker_counts_by_hand():
    # player_0's worker 0 on cell 0, domes on 1 and 6; worker 1 on 24 is free.
    state = load("04000/04000/00000/00000/00000 0,24;12,18 0 20,16,12,16")
    worker_0 = [a for a in state.legal_actions() if a < 64]
    # only move S to cell 5; builds from 5: N (cell 0, just left), S (10), SE (11) = 3
    assert worker_0 == [play_action(0, S, N), play_action(0, S, S), play_action(0, S, SE)]


# ---------------------------------------------------------------------- moving
def test_a_worker_moves_to_a_neighbouring_cell_then_builds_there_next_to_it():
    state = after(START, play_action(0, S, S))
    assert state.position() == "00000/00000/00100/00000/00000 7,22;10,14 1 21,18,14,18"


def test_a_worker_cannot_move_onto_another_worker():
    state = load("00000/00000/00000/00000/00000 0,1;10,14 0 22,18,14,18")
    assert all(a // 8 != play_action(0, E, 0) // 8 for a in state.legal_actions())


def test_a_worker_climbs_at_most_one_level_and_descends_any_number():
    # worker on level 0 at cell 0; cell 1 is level 2: no; cell 5 is level 1: yes
    state = load("02000/10000/00000/00000/00000 0,24;12,18 0 20,17,14,18")
    moves = {a // 8 for a in state.legal_actions() if a < 64}
    assert play_action(0, E, 0) // 8 not in moves
    assert play_action(0, S, 0) // 8 in moves
    # from level 2 down to level 0 in one step is fine
    state = load("20000/00000/00000/00000/00000 0,24;12,18 0 21,17,14,18")
    assert play_action(0, E, W) in state.legal_actions()


def test_a_worker_never_moves_onto_a_dome():
    state = load("04000/00000/00000/00000/00000 0,24;12,18 0 21,17,13,17")
    assert all((a // 8) % 8 != E for a in state.legal_actions() if a < 64)


def test_workers_keep_their_identity():
    state = after(START, play_action(1, N, N))  # worker 1 (on 22) moves up to 17
    assert state.workers[:2] == [2, 17]


# ---------------------------------------------------------------------- building
def test_builds_go_one_level_up_and_a_dome_caps_level_3():
    base = "01230/00000/00000/00000/00000 5,24;12,18 0 19,16,13,18"
    state = after(base, play_action(0, E, N))  # to cell 6, build on 1: level 1 -> 2
    assert state.heights[1] == 2 and state.parts == [19, 15, 13, 18]
    state = after(base, play_action(0, E, NE))  # build on 2: level 2 -> 3
    assert state.heights[2] == 3 and state.parts == [19, 16, 12, 18]
    state = after(base, play_action(0, SE, N))  # 5 -> 11, build N of it on 6: level 0 -> 1
    assert state.heights[6] == 1


def test_a_dome_is_built_on_level_3():
    base = "00030/00000/00000/00000/00000 7,24;12,18 0 21,17,13,18"
    state = after(base, play_action(0, N, E))  # 7 -> 2, build E on 3 (level 3): a dome
    assert state.heights[3] == 4 and state.parts[3] == 17


def test_no_build_on_a_worker_or_a_dome():
    # a dome on cell 0; player_0's worker 0 on 6 is next to it and to player_1's worker on 12
    state = load("40000/00000/00000/00000/00000 6,24;12,18 0 21,17,13,17")
    built_on = set()
    for action in state.legal_actions():
        probe = state.clone()
        before = probe.heights[:]
        probe.apply_action(action)
        built_on |= {c for c in range(25) if probe.heights[c] != before[c]}
    assert not built_on & {0, 12, 18}  # the dome and player_1's workers
    assert {1, 5, 7, 11} <= built_on


def test_the_cell_just_left_can_be_built_on():
    state = after(START, play_action(0, S, N))  # 2 -> 7, build N on 2
    assert state.heights[2] == 1


def test_without_a_part_of_the_needed_kind_there_is_no_such_build():
    # No level-1 pieces left: only cells already at level 1+ can be built on.
    position = "11111/11111/11111/11111/11000 0,24;12,18 0 0,18,14,18"
    state = load(position)
    assert state.legal_actions()
    for action in state.legal_actions():
        probe = state.clone()
        probe.apply_action(action)
        changed = [c for c in range(25) if probe.heights[c] != state.heights[c]]
        assert [state.heights[c] for c in changed] == [1]  # only level 1 -> 2 builds remain
    assert state.legal_actions() == reference_legal(state)


# ---------------------------------------------------------------------- winning and losing
def test_moving_up_onto_level_3_wins_at_once_without_building():
    position = "23000/00000/00000/00000/00000 0,24;12,18 0 20,16,13,18"
    state = load(position)
    wins = [play_action(0, E, b) for b in range(8)]
    assert set(wins) <= set(state.legal_actions())  # every build direction: the build is moot
    state.apply_action(wins[0])
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    assert state.parts == [20, 16, 13, 18]  # nothing was built


def test_moving_level_with_level_2_does_not_win_only_climbing_onto_3_does():
    position = "22300/00000/00000/00000/00000 0,24;12,18 0 19,15,13,18"
    state = after(position, play_action(0, E, S))  # level 2 -> level 2: a plain move
    assert not state.is_terminal() and state.heights[6] == 1
    state = load("02300/00000/00000/00000/00000 1,24;12,18 0 20,16,13,18")
    state.apply_action(play_action(0, E, S))  # level 2 -> level 3
    assert state.winner == 0


def test_a_player_who_cannot_move_and_build_loses_at_the_start_of_its_turn():
    # player_1's workers on 0 and 1 are hemmed in by domes on 2, 6, 7; player_0's worker on
    # 10 closes the last gap by moving to 5 (building on 10, the cell it left).
    position = "00400/04400/00000/00000/00000 10,24;0,1 0 19,15,11,15"
    state = load(position)
    state.apply_action(play_action(0, N, S))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)


# ---------------------------------------------------------------------- placement
def test_placement_player_0_places_two_workers_then_player_1_then_player_0_moves():
    env = santorini_v0.raw_env(setup="placement")
    env.reset(seed=0)
    assert env.position() == "00000/00000/00000/00000/00000 -,-;-,- 0 22,18,14,18"
    assert env.legal_actions() == [128 + cell for cell in range(25)]
    for agent, cell in (("player_0", 12), ("player_0", 0), ("player_1", 24), ("player_1", 4)):
        assert env.agent_selection == agent
        env.step(128 + cell)
    assert env.position() == "00000/00000/00000/00000/00000 12,0;24,4 0 22,18,14,18"
    assert env.agent_selection == "player_0"
    assert all(a < 128 for a in env.legal_actions())


def test_placement_is_on_empty_cells_only():
    state = load("00000/00000/00000/00000/00000 12,-;-,- 0 22,18,14,18", setup="placement")
    assert 128 + 12 not in state.legal_actions()
    assert len(state.legal_actions()) == 24


# ---------------------------------------------------------------------- positions
@pytest.mark.parametrize(
    "position,setup,message",
    [
        ("00000/00000/00000/00000 2,22;10,14 0 22,18,14,18", "fixed", "5 rows"),
        ("00000/00000/00500/00000/00000 2,22;10,14 0 22,18,14,18", "fixed", "digits 0-3"),
        ("00000/00000/00000/00000/00000 2,22;10 0 22,18,14,18", "fixed", "a,b;c,d"),
        ("00000/00000/00000/00000/00000 2,22;10,25 0 22,18,14,18", "fixed", "0-24"),
        ("00000/00000/00000/00000/00000 2,2;10,14 0 22,18,14,18", "fixed", "two workers"),
        ("00000/00000/00000/00000/00000 2,22;10,14 2 22,18,14,18", "fixed", "mover"),
        ("00000/00000/00000/00000/00000 2,22;10,14 0 21,18,14,18", "fixed", "level-1"),
        ("00000/00000/00000/00000/00000 2,22;10,14 0 22,18,14", "fixed", "four numbers"),
        ("00000/00000/00000/00000/00000 2,-;-,- 0 22,18,14,18", "fixed", "placement"),
        ("00000/00000/00000/00000/00000 2,-;10,- 0 22,18,14,18", "placement", "in order"),
        ("00000/00000/00000/00000/00000 2,22;-,- 0 22,18,14,18", "placement", "mover must be 1"),
        ("00400/00000/00000/00000/00000 2,22;10,14 0 21,17,13,17", "fixed", "dome"),
        ("00300/00000/00000/00000/00000 2,22;10,14 0 21,17,13,18", "fixed", "level 3"),
        ("2,22;10,14 0 22,18,14,18", "fixed", "4 fields"),
    ],
)
def test_bad_positions_are_rejected_with_the_reason(position, setup, message):
    with pytest.raises(PositionError, match=message):
        load(position, setup)


def test_bad_setup_option_names_the_allowed_values():
    with pytest.raises(ValueError, match=r"setup='random'.*'fixed', 'placement'"):
        santorini_v0.raw_env(setup="random")


def test_initial_parts():
    assert INITIAL_PARTS == (22, 18, 14, 18)
    assert SantoriniGame().new_initial_state().position() == START
