"""The batched engine's contract: positions in and out, errors, seeding, threads, memory."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from zoo_games import batched
from zoo_games.batched import batch
from zoo_games.batched import senet as senet_kernels
from zoo_games.batched import togyz_kumalak as togyz_kernels
from zoo_games.catalog import find_variant, variants
from zoo_games.core.adapter import AGENTS
from zoo_games.core.errors import PositionError
from zoo_games.core.game import GameState
from zoo_games.santorini.rules import play_action

LABELS = [v.label for v in variants()]


def random_position(label: str, seed: int, moves: int) -> GameState:
    """A state reached by up to ``moves`` random actions of the rules core (not finished)."""
    game = find_variant(label).raw_env().game
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
            continue
        previous = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return previous
    if state.is_chance_node():
        state.apply_action(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
    return state


def played(engine: batched.BatchedEngine, steps: int) -> batched.BatchedEngine:
    for _ in range(steps):
        engine.step(engine.sample_legal_actions())
    return engine


@settings(max_examples=150, deadline=None)
@given(
    label=st.sampled_from(LABELS),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 300),
    index=st.integers(0, 3),
)
def test_a_position_set_into_the_engine_is_seen_as_the_environment_sees_it(
    label: str, seed: int, moves: int, index: int
) -> None:
    state = random_position(label, seed, moves)
    engine = batched.make(label, batch_size=4, seed=seed)
    engine.set_position(index, state.position())
    env = find_variant(label).raw_env()
    env.reset(options={"position": state.position()})
    agent = env.agent_selection
    expected = env.observe(agent)
    assert engine.current_player[index] == AGENTS.index(agent)
    assert np.array_equal(engine.observation[index], expected["observation"])
    assert engine.observation.dtype == expected["observation"].dtype
    assert np.array_equal(engine.action_mask[index], expected["action_mask"])
    assert engine.position(index) == env.position()
    assert engine.states.dtype == np.uint8


def test_a_santorini_player_left_without_a_move_loses() -> None:
    # player_1's workers on 0 and 1 are hemmed in by domes on 2, 6, 7; player_0's worker on
    # 10 closes the last gap by moving to 5 (north, building on 10, south, the cell it left).
    engine = batched.make("santorini-fixed", batch_size=1, seed=0)
    engine.set_position(0, "00400/04400/00000/00000/00000 10,24;0,1 0 19,15,11,15")
    north, south = 1, 6
    rewards, terminated = engine.step(np.array([play_action(0, north, south)]))
    assert terminated[0] and tuple(rewards[0]) == (1.0, -1.0)


@pytest.mark.parametrize("label", ["togyz-kumalak", "togyz-kumalak-full"])
def test_a_togyz_kumalak_game_ending_81_81_by_atsis_kalu_is_a_draw(label: str) -> None:
    # White sows its last ball into Black's only ball and captures the pair (79 + 2 = 81):
    # Black, to move, has no ball left, and the kazans stand 81-81.
    engine = batched.make(label, batch_size=1, seed=0)
    engine.set_position(0, "0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 79 81 W")
    rewards, terminated = engine.step(np.array([8]))
    assert terminated[0] and tuple(rewards[0]) == (0.0, 0.0)


@pytest.mark.parametrize("module", [senet_kernels, togyz_kernels])
def test_games_that_always_leave_an_action_never_end_for_want_of_one(module) -> None:
    # Senet's mover passes and Togyz Kumalak's play ends the game before a mover runs out
    # of balls: the path of a mover without a legal action makes up no result.
    row = np.zeros(module.ROW_LENGTH, dtype=np.uint8)
    for mover in (0, 1):
        row[batch.MOVER] = mover
        assert module.outcome_without_moves(row, np.zeros(3, np.int64)) == batch.NO_WINNER


@pytest.mark.parametrize("label", LABELS)
def test_positions_round_trip(label: str) -> None:
    engine = played(batched.make(label, batch_size=16, seed=3), 60)
    positions = engine.positions()
    masks, observations = engine.action_mask.copy(), engine.observation.copy()
    other = batched.make(label, batch_size=16, seed=99)
    other.set_positions(positions)
    assert other.positions() == positions
    assert np.array_equal(other.action_mask, masks)
    assert np.array_equal(other.observation, observations)
    assert [other.state(i).position() for i in range(16)] == positions


def test_a_senet_position_without_a_throw_is_thrown_by_the_engine() -> None:
    engine = batched.make("senet-kendall-5", batch_size=2, seed=1)
    engine.set_position(1, "CSCSCSCSCS.................... C")
    board, mover, throw = engine.position(1).split()
    assert (board, mover) == ("CSCSCSCSCS....................", "C")
    assert throw in "12345"
    assert engine.current_player[1] == 1


@pytest.mark.parametrize("label", LABELS)
def test_an_illegal_action_raises_and_changes_nothing(label: str) -> None:
    engine = played(batched.make(label, batch_size=8, seed=5), 30)
    twin = played(batched.make(label, batch_size=8, seed=5), 30)
    actions = engine.sample_legal_actions()
    twin.sample_legal_actions()
    illegal = int(np.flatnonzero(engine.action_mask[5] == 0)[0])
    actions[5] = illegal
    before = (engine.states.copy(), engine.observation.copy(), engine.action_mask.copy())
    with pytest.raises(ValueError, match=rf"game 5: action {illegal} is illegal"):
        engine.step(actions)
    for out_of_range in (-1, engine.num_actions):
        actions[5] = out_of_range
        with pytest.raises(ValueError, match=rf"game 5: action {out_of_range} is illegal"):
            engine.step(actions)
    with pytest.raises(ValueError, match="shape"):
        engine.step(actions[:3])
    with pytest.raises(ValueError, match="integers"):
        engine.step(actions.astype(np.float64))
    after = (engine.states, engine.observation, engine.action_mask)
    for old, new in zip(before, after, strict=True):
        assert np.array_equal(old, new)
    # The generators are untouched too: the next random actions are the twin's.
    assert np.array_equal(engine.sample_legal_actions(), twin.sample_legal_actions())


def test_a_threaded_step_with_an_illegal_action_changes_no_game() -> None:
    """Every action is checked before any game moves: the first illegal game is named."""
    size = batched.engine.PARALLEL_MIN_BATCH
    engine = played(batched.make("senet-skyruk-7", batch_size=size, seed=2, threads=2), 5)
    actions = engine.sample_legal_actions()
    for game in (size - 1, 1500):
        actions[game] = int(np.flatnonzero(engine.action_mask[game] == 0)[0])
    before = (engine.states.copy(), engine.observation.copy(), engine.action_mask.copy())
    with pytest.raises(ValueError, match="game 1500: action"):
        engine.step(actions)
    after = (engine.states, engine.observation, engine.action_mask)
    for old, new in zip(before, after, strict=True):
        assert np.array_equal(old, new)


@pytest.mark.parametrize("label", ["senet-skyruk-7", "togyz-kumalak", "santorini-placement"])
def test_a_seed_reproduces_every_game_and_another_seed_does_not(label: str) -> None:
    first = played(batched.make(label, batch_size=32, seed=11), 80)
    again = played(batched.make(label, batch_size=32, seed=11), 80)
    other = played(batched.make(label, batch_size=32, seed=12), 80)
    assert first.positions() == again.positions()
    assert first.positions() != other.positions()


@pytest.mark.parametrize("label", ["senet-kendall-5", "togyz-kumalak", "santorini-fixed"])
def test_threads_do_not_change_the_games(label: str) -> None:
    size = batched.engine.PARALLEL_MIN_BATCH
    serial = batched.make(label, batch_size=size, seed=4, threads=1)
    threaded = batched.make(label, batch_size=size, seed=4, threads=2)
    for _ in range(20):
        actions = serial.sample_legal_actions()
        assert np.array_equal(actions, threaded.sample_legal_actions())
        rewards, terminated = serial.step(actions)
        threaded_rewards, threaded_terminated = threaded.step(actions)
        assert np.array_equal(rewards, threaded_rewards)
        assert np.array_equal(terminated, threaded_terminated)
    assert np.array_equal(serial.states, threaded.states)
    assert np.array_equal(serial.observation, threaded.observation)


def test_the_threading_layer_is_left_to_numba() -> None:
    """The layer is one setting for the whole process: importing the engine does not set it."""
    script = (
        "import numba; before = numba.config.THREADING_LAYER; import zoo_games.batched; "
        "assert numba.config.THREADING_LAYER == before, numba.config.THREADING_LAYER"
    )
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    subprocess.run([sys.executable, "-c", script], env=environment, check=True)


def test_a_long_run_keeps_its_arrays() -> None:
    engine = batched.make("togyz-kumalak", batch_size=64, seed=0)
    arrays = (engine.states, engine.observation, engine.action_mask)
    pointers = [a.__array_interface__["data"][0] for a in arrays]
    played(engine, 2000)
    assert [a.__array_interface__["data"][0] for a in arrays] == pointers
    assert engine.bytes_per_game == 23 + 8 + 9 + 93 + 8 + 1 + 8


def test_shapes_and_dtypes_follow_the_environment() -> None:
    for label in LABELS:
        engine = batched.make(label, batch_size=3, seed=0)
        space = find_variant(label).raw_env().observation_space("player_0")
        assert engine.observation.shape == (3, *space["observation"].shape)
        assert engine.observation.dtype == space["observation"].dtype
        assert engine.action_mask.shape == (3, space["action_mask"].shape[0])
        assert engine.action_mask.dtype == np.int8
        assert engine.current_player.shape == (3,)
        assert not engine.observation.flags.writeable


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant_label": "chess"}, "known variants: senet-kendall-5"),
        ({"batch_size": 0}, "batch_size must be a positive integer"),
        ({"batch_size": True}, "batch_size must be a positive integer"),
        ({"batch_size": 2.0}, "batch_size must be a positive integer"),
        ({"seed": -1}, "seed must be a non-negative integer or None"),
        ({"seed": "one"}, "seed must be a non-negative integer or None"),
        ({"threads": 0}, "threads must be an integer from 1 to"),
    ],
)
def test_bad_arguments_name_what_is_allowed(kwargs: dict, message: str) -> None:
    arguments = {"variant_label": "togyz-kumalak", "batch_size": 2, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        batched.make(**arguments)


def test_bad_positions_raise_the_rules_core_errors() -> None:
    engine = batched.make("togyz-kumalak", batch_size=2, seed=0)
    before = engine.positions()
    bad = "9,9,9/9 0 0 W"
    with pytest.raises(PositionError) as core:
        engine.game.state_from_position(bad)
    with pytest.raises(PositionError) as raised:
        engine.set_position(0, bad)
    assert str(raised.value) == str(core.value)
    with pytest.raises(PositionError, match=r"position 1: "):
        engine.set_positions([before[0], bad])
    with pytest.raises(ValueError, match="a list of 2 position strings"):
        engine.set_positions(before[:1])
    with pytest.raises(ValueError, match="out of range"):
        engine.set_position(2, before[0])
    assert engine.positions() == before


def test_without_numba_the_import_says_how_to_install_it() -> None:
    import subprocess
    import sys

    script = "import sys; sys.modules['numba'] = None; import zoo_games.batched"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode != 0
    assert 'pip install "zoo-games[batched]"' in result.stderr
