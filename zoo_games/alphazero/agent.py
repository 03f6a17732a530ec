"""The ``alphazero`` agent: a trained policy-value network, alone or guiding the batched search.

Given no ``checkpoint``, it plays the baseline the package ships for the game being played
(:mod:`zoo_games.alphazero.saved`); given one, the network of that run. A network reads the
observations of the variant it was trained on, so the agent shows it the observation that
variant's environment would give the player to act (its observer), whatever variant of the
same rules the state comes from: a Togyz Kumalak network plays ``togyz-kumalak-tesauro``
games, whose rules are the same, as well as ``togyz-kumalak`` ones.

With ``simulations=0`` the agent plays the legal action of the highest logit: numpy only, no
search, no seed needed. With more, it runs the batched search of :mod:`zoo_games.batched`
from the state, the network evaluating its leaves, with Gumbel root selection (which
improves on the network's policy even with a handful of simulations), and plays the action
the search chooses; that needs numba, the ``batched`` extra.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.agents.registry import MissingExtraError
from zoo_games.alphazero import network as networks
from zoo_games.alphazero import saved
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.catalog import Variant, variants
from zoo_games.core.game import Game, GameState

#: Simulations per move by default: the budget the shipped baselines are measured with.
DEFAULT_SIMULATIONS = 64
#: Root actions Gumbel's Sequential Halving starts from (the search's own default).
CONSIDERED = 16


@dataclass(frozen=True)
class NetworkPlayer:
    """A network and the variant whose observations it reads, ready to play that variant."""

    network: PolicyValueNetwork
    variant: Variant


class AlphaZeroAgent(Agent):
    """Plays a trained policy-value network (module docstring); ``seed`` seeds the search.

    ``simulations`` is the search's budget per move (0: the network's policy alone).
    ``checkpoint`` is a run folder of ``zoo-games train --algorithm alphazero`` (or any folder
    holding ``network.npz`` and ``network.json``); relative paths are read from the working
    folder when the agent is made. Without it, the agent plays the shipped baseline of the
    variant it is asked to play. :meth:`check_game` says, before a game, whether it can.
    """

    name = "alphazero"

    def __init__(
        self,
        simulations: int = DEFAULT_SIMULATIONS,
        checkpoint: str | os.PathLike[str] | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        if simulations < 0:
            raise ValueError(
                f"alphazero simulations={simulations} is not allowed: expected 0 (the network's "
                "policy alone) or more"
            )
        self.simulations = simulations
        self._search = _batched_search() if simulations > 0 else None
        self.checkpoint = None if checkpoint is None else saved.network_folder(checkpoint)
        self._own = None if self.checkpoint is None else _load(self.checkpoint)
        self._players: dict[tuple[str, str], NetworkPlayer] = {}
        self._searches: dict[str, Any] = {}
        self._seeds = np.random.default_rng(seed)

    def __repr__(self) -> str:
        source = "the shipped baseline" if self.checkpoint is None else str(self.checkpoint)
        return f"AlphaZeroAgent(simulations={self.simulations}, {source}, seed={self.seed!r})"

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless a network for ``game`` is at hand (see :meth:`player_for`)."""
        self.player_for(game)

    def player_for(self, game: Game) -> NetworkPlayer:
        """The network that plays ``game`` and the variant it reads, found once per game.

        ``ValueError`` in one line: the checkpoint's network was trained on other rules, or,
        without a checkpoint, no baseline ships for ``game`` (the message names those that do).
        """
        key = (game.name, repr(game.options()))
        if key not in self._players:
            self._players[key] = self._find_player(game)
        return self._players[key]

    def act(self, state: GameState) -> int:
        """The network's choice (``simulations=0``) or the search's, for the player to act."""
        check_decision_node(state)
        player = self.player_for(state.game)
        if self._search is None:
            return best_action(player, state)
        search_type, kernels_of = self._search
        label = player.variant.label
        if label not in self._searches:
            self._searches[label] = search_type(
                player.variant,
                1,
                self.simulations,
                selection="gumbel",
                considered=CONSIDERED,
                seed=int(self._seeds.integers(2**31)),
            )
        row = kernels_of(state.game).row_from_state(state)
        result = self._searches[label].run(row[None], player.network, explore=False)
        return int(result.actions[0])

    def _find_player(self, game: Game) -> NetworkPlayer:
        same_rules = variants_of(game)
        if self._own is not None:
            trained = next((v for v in same_rules if v.label == self._own.variant), None)
            return NetworkPlayer(self._own, _checked(self._own, trained or same_rules[0]))
        shipped = saved.baseline_variants()
        variant = next((v for v in same_rules if v.label in shipped), same_rules[0])
        network = _load(saved.baseline_folder(variant.label))
        return NetworkPlayer(network, _checked(network, variant))


def best_action(player: NetworkPlayer, state: GameState) -> int:
    """The legal action with the highest logit for the player to act (the first of equals)."""
    mask = np.frombuffer(state.legal_actions_mask(), dtype=np.int8)
    observation = player.variant.observer.observe(state, state.current_player())
    logits, _ = player.network(np.asarray(observation)[None], mask[None])
    return int(np.argmax(np.where(mask == 1, logits[0], -np.inf)))


def variants_of(game: Game) -> list[Variant]:
    """The variants whose rules are ``game``'s (they may differ in what players observe).

    ``ValueError`` if no variant of the catalog has these rules.
    """
    found = [
        variant
        for variant in variants()
        if variant.game.name == game.name and variant.game.options() == game.options()
    ]
    if not found:
        raise ValueError(f"no variant of the catalog plays {game!r}")
    return found


def _checked(network: PolicyValueNetwork, variant: Variant) -> Variant:
    """``variant``, once ``network`` is known to read its observations and actions."""
    shape = tuple(variant.observer.space.shape)
    networks.check_plays(network, variant.label, shape, variant.game.num_actions)
    return variant


@cache
def _load(folder: Path) -> PolicyValueNetwork:
    """The network in ``folder``, read once per process (the arena makes an agent per game)."""
    return networks.load(folder)


def _batched_search() -> tuple[type, Callable[[Game], Any]]:
    """The batched search's class and ``kernels_of``; :class:`MissingExtraError` without numba."""
    try:
        from zoo_games.batched import kernels_of
        from zoo_games.batched.alphazero import BatchedSearch
    except ImportError as error:
        raise MissingExtraError(
            "the alphazero agent searches with numba (simulations > 0): pip install "
            '"zoo-games[batched]", or play the network alone with simulations=0'
        ) from error
    return BatchedSearch, kernels_of
