"""Sparring partners on the batched engine: which games and seats they take, and their moves."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games.rllib.batched_games import SelfPlayGames


def test_each_partner_takes_its_share_of_the_games_from_both_seats():
    games = SelfPlayGames(
        "togyz-kumalak", games=10, seed=0, shaping=False, greedy_share=0.4, random_share=0.4
    )
    assert games.sparring_seat.tolist() == [0, 1, 0, 1, 0, 1, 0, 1, -1, -1]
    assert games.random_sparring.tolist() == [False] * 4 + [True] * 4 + [False] * 2
    # At the start seat 0 moves everywhere: the partners move in the games where they hold it.
    assert np.flatnonzero(games.sparring_to_move()).tolist() == [0, 2, 4, 6]


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        ({"random_share": 1.5}, "random_share must be from 0 to 1, got 1.5"),
        ({"greedy_share": -0.1}, "greedy_share must be from 0 to 1, got -0.1"),
        ({"greedy_share": 0.5, "random_share": 0.75}, "add up to more than 1"),
    ],
)
def test_shares_that_do_not_fit_the_games_are_refused(shares, message):
    with pytest.raises(ValueError, match=message):
        SelfPlayGames("togyz-kumalak", games=8, seed=0, shaping=False, **shares)


def test_shares_that_round_up_together_still_fit_the_games():
    games = SelfPlayGames(
        "togyz-kumalak", games=5, seed=0, shaping=False, greedy_share=0.3, random_share=0.7
    )
    assert (games.sparring_seat >= 0).sum() == 5
    assert games.random_sparring.tolist() == [False, False, True, True, True]


def test_random_play_draws_every_legal_move_about_equally_often():
    # Togyz Kumalak's first player has 9 legal moves; random play holds seat 0 in half of the
    # games, and draws each move in about a ninth of them.
    games = SelfPlayGames("togyz-kumalak", games=1800, seed=3, shaping=False, random_share=1.0)
    movers = np.flatnonzero(games.sparring_to_move())
    actions = np.full(games.games, -1, dtype=np.int64)
    games.play_sparring(actions, movers)
    counts = np.bincount(actions[movers], minlength=9)
    expected, spread = len(movers) / 9, np.sqrt(len(movers) * (1 / 9) * (8 / 9))
    assert len(counts) == 9 and bool((np.abs(counts - expected) <= 5 * spread).all()), counts
    assert (actions[games.sparring_seat == 1] == -1).all()  # the policy's games left alone


@pytest.mark.parametrize("label", ["senet-kendall-5", "togyz-kumalak", "santorini-fixed"])
def test_partners_play_only_legal_moves_through_whole_games(label):
    games = SelfPlayGames(
        label, games=12, seed=1, shaping=True, greedy_share=1 / 3, random_share=1 / 3
    )
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in games.action_mask])
        partners = np.flatnonzero(games.sparring_to_move())
        games.play_sparring(actions, partners)
        assert games.action_mask[partners, actions[partners]].all()
        ended += int(games.step(actions).terminated.sum())  # the engine refuses illegal moves
    assert ended > 0
