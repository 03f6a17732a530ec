"""A policy-value network as an :class:`~zoo_games.agents.Agent`: alone, or guiding the search.

With ``simulations=0`` the player plays the legal action the network rates highest, from the
observation the environment would give the player to move (the variant's observer): numpy
only. With more, it first settles what a read of the board settles
(:class:`~zoo_games.alphazero.guard.RootGuard`: a win in one is played at once, the moves
after which the opponent can win at once are left out while others remain), then runs the
batched search on the one position over the moves left, the network evaluating its leaves,
without exploration noise, and plays the search's choice. Only then is the batched engine
imported (numba, the ``batched`` extra), so that a shipped baseline plays alone without it.
Averaged over the board's symmetries, the search's leaves are scored by
:class:`~zoo_games.alphazero.folded.FoldedEvaluator` (the same means, in half the time) and
the position alone by :class:`~zoo_games.alphazero.symmetric.SymmetricEvaluator` (numpy).
Training evaluates its network through this player in the arena; the ``alphazero`` agent
plays a saved network through it.
"""

from __future__ import annotations

import time

import numpy as np

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.alphazero.network import PolicyValueNetwork, check_plays
from zoo_games.alphazero.pace import Pace, shared_paces
from zoo_games.alphazero.searching import Evaluator, Search, make_search
from zoo_games.alphazero.symmetric import SymmetricEvaluator
from zoo_games.catalog import find_variant
from zoo_games.core.game import GameState
from zoo_games.core.symmetry import symmetries_of


class NetworkPlayer(Agent):
    """Plays ``network`` on its variant, with ``simulations`` of search per move (0: none).

    ``symmetries``: the network's readings averaged over the board's symmetries (``None``:
    wherever the board has them, else not). ``waves``: the search runs each round of
    Sequential Halving at once (:func:`make_search`). ``seconds``: each move's budget is
    chosen to fill that time (:class:`~zoo_games.alphazero.pace.Pace`), ``simulations`` being
    the first move's; :attr:`last_simulations` says what the last search spent.
    """

    name = "network"

    def __init__(
        self,
        network: PolicyValueNetwork,
        simulations: int = 0,
        seed: int | None = None,
        symmetries: bool | None = False,
        waves: bool = False,
        seconds: float | None = None,
    ) -> None:
        super().__init__(seed)
        if simulations < 0:
            raise ValueError(f"simulations must be 0 or more, got {simulations}")
        if seconds is not None and not simulations:
            raise ValueError(
                "seconds per move budget a search; with simulations=0 there is none to budget"
            )
        variant = find_variant(network.variant)
        space = variant.observer.space
        check_plays(network, variant.label, tuple(space.shape), variant.game.num_actions)
        self.network = network
        #: What scores positions: the network, or its mean over the board's symmetries.
        self.evaluator: Evaluator = network
        turns = (
            () if symmetries is False else symmetries_of(variant.observer, variant.game.num_actions)
        )
        if symmetries and not turns:
            raise ValueError(
                f"symmetries=True averages over the board's symmetries; {variant.label}'s "
                "board has none (Santorini's has eight)"
            )
        self.simulations = simulations
        #: The simulations the last move searched (0: it needed no search).
        self.last_simulations = 0
        self._game = variant.game
        self._observer = variant.observer
        self._pace: Pace | None = None
        self._searches: dict[int, Search] = {}
        self._label, self._seed, self._waves = variant.label, seed or 0, waves
        if simulations:
            from zoo_games.alphazero.folded import FoldedEvaluator, can_fold  # numba, as below
            from zoo_games.alphazero.guard import RootGuard  # numba: only a search needs it
            from zoo_games.batched import kernels_of

            if turns and can_fold(network):
                self.evaluator = FoldedEvaluator(network, turns)
            self._guard = RootGuard(variant.label)
            self._kernels = kernels_of(variant.game)
            self._search_of(simulations)
        if turns and self.evaluator is network:  # the position alone, or a network not folded
            self.evaluator = SymmetricEvaluator(network, turns)
        if seconds is not None:  # a search, checked above
            paces = shared_paces(network, type(self.evaluator).__name__, waves)
            self._pace = Pace(seconds, simulations, paces)

    def act(self, state: GameState) -> int:
        """The network's (or its search's) action for the player to act in ``state``."""
        start = time.perf_counter()
        check_decision_node(state)
        if state.game.name != self._game.name or state.game.options() != self._game.options():
            raise ValueError(
                f"this network plays {self.network.variant!r}; it was given a position of "
                f"{state.game.name} {state.game.options()}"
            )
        self.last_simulations = 0
        if self.simulations:
            row = self._kernels.row_from_state(state)
            win, allowed = self._guard.allowed(row)
            if win >= 0:
                return win
            budget = self.simulations if self._pace is None else self._pace.budget()
            found = self._search_of(budget).run(
                row[None], self.evaluator, explore=False, root_masks=allowed[None]
            )
            self.last_simulations = budget
            if self._pace is not None:
                self._pace.record(budget, time.perf_counter() - start)
            return int(found.actions[0])
        player = state.current_player()
        mask = np.frombuffer(state.legal_actions_mask(), dtype=np.int8)
        observation = self._observer.observe(state, player)[None]
        logits, _ = self.evaluator(observation, mask[None])
        return int(np.argmax(np.where(mask > 0, logits[0], -np.inf)))

    def _search_of(self, budget: int) -> Search:
        """The search of one position with ``budget`` simulations, made once per budget."""
        if budget not in self._searches:
            self._searches[budget] = make_search(self._label, 1, budget, self._seed, self._waves)
        return self._searches[budget]
