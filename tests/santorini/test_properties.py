"""Santorini invariants over random legal play (Hypothesis draws the set-up and the seed)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from zoo_games.santorini.cells import DOME, INITIAL_PARTS
from zoo_games.santorini.position import parts_used
from zoo_games.santorini.rules import NEIGHBOUR, PLACEMENT_OFFSET, SantoriniGame

#: Every build uses a part and there are 72; each player needs a build per turn, and the
#: placements add 4: no game can be longer than this.
MAX_DECISIONS = sum(INITIAL_PARTS) + 4 + 1


@settings(max_examples=200, deadline=None)
@given(setup=st.sampled_from(["fixed", "placement"]), seed=st.integers(0, 2**32 - 1))
def test_random_play_conserves_parts_and_ends(setup, seed):
    rng = random.Random(seed)
    game = SantoriniGame(setup)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        used = parts_used(state.heights)
        assert [left + u for left, u in zip(state.parts, used, strict=True)] == list(INITIAL_PARTS)
        placed = [cell for cell in state.workers if cell >= 0]
        assert len(set(placed)) == len(placed)  # never two workers on one cell
        assert all(state.heights[cell] < 3 for cell in placed)  # level 3 only by winning
        assert all(state.heights[cell] != DOME for cell in placed)
        assert game.state_from_position(state.position()).legal_actions() == state.legal_actions()
        heights_before = state.heights[:]
        mover = state.mover
        action = rng.choice(state.legal_actions())
        source = state.workers[2 * mover + action // 64] if action < PLACEMENT_OFFSET else -1
        state.apply_action(action)
        decisions += 1
        assert decisions <= MAX_DECISIONS
        assert all(a >= b for a, b in zip(state.heights, heights_before, strict=True))
        if state.winner == mover and action < PLACEMENT_OFFSET:
            target = NEIGHBOUR[source][(action // 8) % 8]
            won_by_climbing = heights_before[target] == 3 and heights_before[source] == 2
            assert won_by_climbing or not state.legal_actions()
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert pickle.loads(pickle.dumps(state)).position() == state.position()


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(["fixed", "placement"]), seed=st.integers(0, 2**32 - 1))
def test_the_generated_mask_marks_exactly_the_legal_actions(setup, seed):
    rng = random.Random(seed)
    game = SantoriniGame(setup)
    state = game.new_initial_state()
    while True:
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_actions
        assert [a for a, legal in enumerate(mask) if legal] == state.legal_actions()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
