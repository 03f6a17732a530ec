"""The network as a player: its best legal action, from the observation of the player to move."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.player import NetworkPlayer
from zoo_games.arena import run_arena
from zoo_games.catalog import find_variant


def network_preferring(label: str, action: int) -> PolicyValueNetwork:
    """A network whose logits rank ``action`` first, then the actions in order, everywhere."""
    variant = find_variant(label)
    shape = tuple(variant.observer.space.shape)
    inputs, actions = int(np.prod(shape)), variant.game.num_actions
    logits = -np.arange(actions, dtype=np.float32)
    logits[action] = 10.0
    zero = np.zeros((1, inputs), np.float32)
    return PolicyValueNetwork(
        label,
        shape,
        actions,
        [(zero, np.ones(1, np.float32))],
        (np.zeros((actions, 1), np.float32), logits),
        (np.zeros((1, 1), np.float32), np.zeros(1, np.float32)),
    )


def test_the_player_plays_the_legal_action_the_network_rates_highest() -> None:
    variant = find_variant("togyz-kumalak")
    state = variant.game.new_initial_state()
    assert NetworkPlayer(network_preferring("togyz-kumalak", 4)).act(state) == 4
    while 4 in state.legal_actions():  # empty hole 5 of the player to move
        state.apply_action(4 if state.current_player() == 0 else state.legal_actions()[-1])
        if state.is_terminal():
            pytest.fail("no position without action 4 found")
    assert NetworkPlayer(network_preferring("togyz-kumalak", 4)).act(state) == min(
        state.legal_actions()
    )


@pytest.mark.parametrize("label", ["senet-kendall-5", "santorini-fixed", "togyz-kumalak"])
def test_the_player_finishes_games_in_the_arena(label: str) -> None:
    player = NetworkPlayer(network_preferring(label, 0))
    result = run_arena(label, {"network": player, "random": "random"}, games=2, seed=0)
    assert result.pairing("network", "random").games == 2


def test_a_network_of_another_variant_or_a_bad_option_is_refused() -> None:
    with pytest.raises(
        ValueError, match="network plays 'togyz-kumalak'; it was given a position of santorini"
    ):
        NetworkPlayer(network_preferring("togyz-kumalak", 0)).act(
            find_variant("santorini-fixed").game.new_initial_state()
        )
    with pytest.raises(ValueError, match="simulations"):
        NetworkPlayer(network_preferring("togyz-kumalak", 0), simulations=-1)


@pytest.mark.parametrize("label", ["senet-kendall-5", "santorini-fixed", "togyz-kumalak"])
def test_the_agent_searches_in_waves_in_the_arena(label: str) -> None:
    """The shipped baseline with its search in waves plays whole games, as one at a time."""
    specs = ["alphazero:simulations=24,waves=true", "alphazero:simulations=24", "random"]
    result = run_arena(label, specs, games=2, seed=1, gauntlet=True)
    assert [pairing.games for pairing in result.pairings] == [2, 2]
