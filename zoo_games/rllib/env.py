"""Our environments as RLlib multi-agent environments (RLlib's new API stack).

RLlib's own ``PettingZooEnv`` works for our games, but two things of turn-based games matter
for training and it leaves them to chance: who receives a reward when the game ends, and
what happens to an agent that is selected several times in a row. This class makes both
explicit:

* the observation dict of each step names only the agent that must act now, so an extra
  turn (Senet) is simply the same agent observed again, and RLlib asks it for the next action;
* at the end of the game every agent gets its final observation, its reward and
  ``terminated=True`` in the same step, including an agent that was not the last to act
  (the loser of a game its opponent finished), so that no -1 is lost.

The environment is the unwrapped ``raw_env``: an illegal action raises ``ValueError`` instead
of silently ending the game, so a bug in masking can never hide inside training. RLlib's
environment checker, which steps once with an unmasked random action, is therefore switched
off in :func:`zoo_games.rllib.train.ppo_config`.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from zoo_games.catalog import find_variant
from zoo_games.core.adapter import BoardGameEnv
from zoo_games.rllib.shaping import Potential, potential_for

#: The ``env_config`` key with the number of games each batched runner plays
#: (:mod:`zoo_games.rllib.batched_runner`); the environment, made once per runner for its
#: spaces, ignores it.
GAMES_KEY = "batched_games"
#: The ``env_config`` key with the share of those games in which greedy plays one seat
#: (:class:`~zoo_games.rllib.batched_games.SelfPlayGames`); ignored here too.
GREEDY_SHARE_KEY = "greedy_share"
#: The ``env_config`` key with the share in which uniformly random play takes one seat.
RANDOM_SHARE_KEY = "random_share"


class TurnBasedMultiAgentEnv(MultiAgentEnv):
    """A zoo-games variant for RLlib; ``config={"variant": "senet-kendall-5"}``.

    ``config["shaping"] = True`` adds the game's potential-based shaping
    (:mod:`zoo_games.rllib.shaping`), which leaves each agent's return unchanged.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        label = config.pop("variant", "senet-kendall-5")
        shaping = bool(config.pop("shaping", False))
        config.pop(GAMES_KEY, None)
        config.pop(GREEDY_SHARE_KEY, None)
        config.pop(RANDOM_SHARE_KEY, None)
        self.game_env: BoardGameEnv = find_variant(label).raw_env(**config)
        self._potential: Potential | None = (
            potential_for(self.game_env.game.name) if shaping else None
        )
        self._last_potential: dict[str, float] = {}
        self._seats: list[str] = list(self.game_env.possible_agents)
        self.possible_agents = list(self._seats)
        self.agents = list(self._seats)
        # Keys typed Any: RLlib types agent ids as Hashable, our seats are strings.
        observation_spaces: dict[Any, gym.Space] = {
            seat: self.game_env.observation_space(seat) for seat in self._seats
        }
        action_spaces: dict[Any, gym.Space] = {
            seat: self.game_env.action_space(seat) for seat in self._seats
        }
        self.observation_spaces = dict(observation_spaces)
        self.action_spaces = dict(action_spaces)
        self.observation_space = gym.spaces.Dict(observation_spaces)
        self.action_space = gym.spaces.Dict(action_spaces)

    def reset(  # type: ignore[override]  # RLlib's multi-agent reset, not gymnasium's
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """Start a game; the first observation goes to the agent that moves first."""
        self.game_env.reset(seed=seed, options=options)
        self.agents = list(self._seats)
        self._last_potential = {seat: self._phi(seat) for seat in self._seats}
        agent = self.game_env.agent_selection
        return {agent: self.game_env.observe(agent)}, {}

    def step(  # type: ignore[override]  # RLlib's multi-agent step, not gymnasium's
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Play the action of the agent to act; at the end, every agent's final result."""
        env = self.game_env
        acting = env.agent_selection
        if acting not in action_dict:
            raise ValueError(
                f"no action for {acting}, the agent to act: got {sorted(map(str, action_dict))}"
            )
        env.step(int(action_dict[acting]))
        if all(env.terminations.values()):
            seats = self._seats
            observations: MultiAgentDict = {seat: env.observe(seat) for seat in seats}
            rewards: MultiAgentDict = {
                seat: float(env._cumulative_rewards[seat]) - self._last_potential[seat]
                for seat in seats
            }
            self.agents = []
            return (
                observations,
                rewards,
                {**dict.fromkeys(seats, True), "__all__": True},
                {**dict.fromkeys(seats, False), "__all__": False},
                {seat: {} for seat in seats},
            )
        agent = env.agent_selection
        potential = self._phi(agent)
        shaped = potential - self._last_potential[agent]
        self._last_potential[agent] = potential
        return (
            {agent: env.observe(agent)},
            {agent: shaped},  # RLlib wants a reward with every observation
            {"__all__": False},
            {"__all__": False},
            {},
        )

    def _phi(self, seat: str) -> float:
        """The shaping potential of ``seat`` now (0 without shaping)."""
        if self._potential is None:
            return 0.0
        state = self.game_env.game_state
        assert state is not None
        return self._potential(state, self._seats.index(seat))
