"""The greedy agent: one move of lookahead with the game's static evaluation."""

from __future__ import annotations

import random

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.agents.evaluation import evaluation_for, opponent_wins_next, winning_actions
from zoo_games.core.game import GameState

#: Values closer than this count as equal (ties are broken by the seeded generator).
TIE = 1e-9


class GreedyAgent(Agent):
    """Plays the move after which the game's evaluation is best for it.

    In order:

    1. a move that wins at once is played at once (Santorini: a climb onto level 3; Togyz
       Kumalak: a capture that reaches 82; Senet: bearing off the last dancer);
    2. a move after which the opponent, to act next, can win at once is worth a loss (-1),
       so such a move is played only when every move allows it (Santorini: a free level-3
       cell next to an opponent on level 2 must be domed);
    3. any other move is worth the evaluation of the state it leads to
       (:func:`zoo_games.agents.evaluation.evaluation_for`).

    Senet: after a move the next node is a chance node (the next throw). Its evaluation is
    taken directly: the evaluation is a function of the board, which a throw does not change,
    so the expectation over the throws of the evaluated states is the same number. Looking
    past the throw at the replies is what the ``mcts`` agent does.

    Ties (equal values) are broken by a ``random.Random(seed)``, so the agent is reproducible.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)

    def act(self, state: GameState) -> int:
        """The best legal action by one move of lookahead (see the class docstring)."""
        check_decision_node(state)
        wins = winning_actions(state)
        if wins:
            return self._rng.choice(wins)
        return self._rng.choice(self.best_actions(state))

    def action_values(self, state: GameState) -> dict[int, float]:
        """Each legal action's value for the mover: the evaluation after it, or -1 (see above)."""
        player = state.current_player()
        evaluate = evaluation_for(state.game.name)
        values = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            values[action] = -1.0 if opponent_wins_next(child, player) else evaluate(child, player)
        return values

    def best_actions(self, state: GameState) -> list[int]:
        """The legal actions of the highest value, ascending."""
        values = self.action_values(state)
        best = max(values.values())
        return [action for action, value in values.items() if value >= best - TIE]
