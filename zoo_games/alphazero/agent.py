"""The ``alphazero`` agent: a trained policy-value network, alone or guiding the batched search.

Given no ``checkpoint``, it plays the baseline the package ships for the game being played
(:mod:`zoo_games.alphazero.saved`); given one, the network of that run. It plays through a
:class:`~zoo_games.alphazero.player.NetworkPlayer`, as training's evaluation does: with
``simulations=0`` the legal action of the highest logit (numpy only), with more the choice of
the batched search, the network evaluating its leaves (numba, the ``batched`` extra).

A network reads the observations of the variant it was trained on, and the player shows it
those, whatever variant of the same rules the state comes from: a Togyz Kumalak network
plays ``togyz-kumalak-tesauro`` games, whose rules are the same, as well as ``togyz-kumalak``
ones. This module finds the network for a game, once per game, and says in one line why
there is none (:meth:`AlphaZeroAgent.check_game`, which the arena, ``zoo-games play`` and the
web app call before the first move).
"""

from __future__ import annotations

import os

import numpy as np

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.agents.budget import budget_text, checked_budget
from zoo_games.agents.registry import MissingExtraError
from zoo_games.agents.saved_folders import read_once_per_version
from zoo_games.alphazero import network as networks
from zoo_games.alphazero import saved
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.player import NetworkPlayer
from zoo_games.catalog import variants_of
from zoo_games.core.game import Game, GameState

#: Simulations per move by default: the budget the shipped baselines are measured with.
DEFAULT_SIMULATIONS = 64


class AlphaZeroAgent(Agent):
    """Plays a trained policy-value network (module docstring); ``seed`` seeds the search.

    ``simulations`` is the search's budget per move (0: the network's policy alone), or
    ``seconds`` the time a move may take, its budget chosen from the pace of the moves before
    (:mod:`zoo_games.alphazero.pace`; not both; neither means :data:`DEFAULT_SIMULATIONS`).
    The same ``simulations`` play the same moves on every machine; ``seconds`` do not.
    ``symmetries``: every position is scored as the mean of the network's readings of it in
    each symmetry of its board (:mod:`zoo_games.alphazero.symmetric`; Santorini's eight). By
    default (``None``) wherever the board has symmetries; ``False`` scores with the network
    alone, ``True`` refuses a board without any.
    ``waves``: the search runs each round of its Sequential Halving at once, the leaves of the
    round scored in one call of the network: the same search but for when a round's survivors
    are chosen, in a fraction of the time (:mod:`zoo_games.batched.search.alphazero`).
    ``checkpoint`` is a run folder of ``zoo-games train --algorithm alphazero`` (or any folder
    holding ``network.npz`` and ``network.json``); relative paths are read from the working
    folder when the agent is made. Without it, the agent plays the shipped baseline of the
    variant it is asked to play. :meth:`check_game` says, before a game, whether it can.
    """

    name = "alphazero"

    def __init__(
        self,
        simulations: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        seed: int | None = None,
        symmetries: bool | None = None,
        waves: bool = False,
        seconds: float | None = None,
    ) -> None:
        super().__init__(seed)
        budget = checked_budget(self.name, simulations, seconds, DEFAULT_SIMULATIONS)
        if budget is not None and budget < 0:
            raise ValueError(
                f"alphazero simulations={budget} is not allowed: expected 0 (the network's "
                "policy alone) or more"
            )
        if budget != 0:
            _check_search_installed()
        #: Simulations per move, ``None`` for a budget of ``seconds``.
        self.simulations = budget
        self.seconds = seconds
        self.symmetries = symmetries
        self.waves = waves
        self.checkpoint = None if checkpoint is None else saved.network_folder(checkpoint)
        self._own = None if self.checkpoint is None else _load(self.checkpoint)
        self._players: dict[tuple[str, str], NetworkPlayer] = {}
        self._seeds = np.random.default_rng(seed)

    def __repr__(self) -> str:
        source = "the shipped baseline" if self.checkpoint is None else str(self.checkpoint)
        return (
            f"AlphaZeroAgent({budget_text(self.simulations, self.seconds)}, "
            f"symmetries={self.symmetries}, waves={self.waves}, {source}, seed={self.seed!r})"
        )

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless a network for ``game`` is at hand (see :meth:`player_for`)."""
        self.player_for(game)

    def player_for(self, game: Game) -> NetworkPlayer:
        """The player of the network for ``game``, found once per game.

        ``ValueError`` in one line: the checkpoint's network was trained on other rules, or,
        without a checkpoint, no baseline ships for ``game`` (the message names those that do).
        """
        key = (game.name, repr(game.options()))
        if key not in self._players:
            network = self._network_for(game)
            seed = int(self._seeds.integers(2**31))
            # A budget of seconds starts from the default simulations, then follows the pace.
            first = DEFAULT_SIMULATIONS if self.simulations is None else self.simulations
            self._players[key] = NetworkPlayer(
                network, first, seed, self.symmetries, self.waves, self.seconds
            )
        return self._players[key]

    def act(self, state: GameState) -> int:
        """The network's choice (``simulations=0``) or the search's, for the player to act."""
        check_decision_node(state)
        return self.player_for(state.game).act(state)

    def _network_for(self, game: Game) -> PolicyValueNetwork:
        same_rules = variants_of(game)
        if self._own is not None:
            if self._own.variant not in [variant.label for variant in same_rules]:
                variant = same_rules[0]
                networks.check_plays(
                    self._own, variant.label, variant.observation_shape, game.num_actions
                )
            return self._own
        shipped = saved.baseline_variants()
        variant = next((v for v in same_rules if v.label in shipped), same_rules[0])
        return _load(saved.baseline_folder(variant.label))


#: The network in a folder, read once per process (the arena makes an agent per game), and
#: again once the folder is saved anew (a run resumed since it was read).
_load = read_once_per_version(networks.load)


def _check_search_installed() -> None:
    """:class:`MissingExtraError` unless the batched search (numba) can be imported."""
    try:
        import zoo_games.batched.search.alphazero  # noqa: F401
    except ImportError as error:
        raise MissingExtraError(
            "the alphazero agent searches with numba (simulations > 0): pip install "
            '"zoo-games[batched]", or play the network alone with simulations=0'
        ) from error
