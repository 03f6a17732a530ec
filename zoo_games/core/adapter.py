"""The one PettingZoo AEC adapter that turns any rules core into an environment.

Every game of zoo-games is a :class:`~zoo_games.core.game.Game` (pure rules), an
:class:`Observer` (how a player sees a state, as a numpy array) and a :class:`Renderer`
(text and picture). :class:`BoardGameEnv` joins them and owns everything PettingZoo asks of
an AEC environment, identically for every game:

* whose turn it is: ``agent_selection`` is simply the core's ``current_player()``, so an extra
  turn or a re-throw is the same agent selected again;
* chance: chance nodes are resolved inside ``reset``/``step`` with the environment's seeded
  generator, so ``reset(seed=s)`` reproduces every throw;
* observations ``{"observation", "action_mask"}`` (or, with ``action_mask="info"``, the bare
  array with the mask in ``infos[agent]["action_mask"]``, the form SuperSuit's wrappers need);
* zero-sum rewards at the end, terminations, dead steps;
* bad input: an illegal, out-of-range or non-integer action raises ``ValueError`` (or
  ``TypeError``) naming what is allowed, and leaves the game unchanged.

A game module adds nothing but ``parts(**options)``, which builds its three parts
(:class:`GameParts`) from its options, a ``raw_env`` subclass over them, and ``env()`` from
:func:`~zoo_games.core.standard_wrappers.standard_wrappers`.
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from zoo_games.core.chance import ChanceSampler
from zoo_games.core.errors import check_option
from zoo_games.core.game import CHANCE, PLAYERS, TERMINAL, Game, GameState

__all__ = ["AGENTS", "BoardGameEnv", "GameParts", "Observer", "Renderer"]

AGENTS = ("player_0", "player_1")
MASK_PLACES = ("observation", "info")
#: With at most this many actions, games repeat the same few masks (Senet, Togyz Kumalak):
#: their arrays are kept by mask bytes, a lookup being cheaper than a new array. Santorini's
#: 128 actions make masks that rarely recur, so its arrays are made each time.
MASK_CACHE_MAX_ACTIONS = 100
MASK_CACHE_SIZE = 4096
_INT8 = np.dtype(np.int8)


class _MaskArrays(dict[bytes, np.ndarray]):
    """Read-only int8 views of mask bytes (callers copy them), by the bytes.

    Looking an array up is one C-level ``dict`` lookup; a missing one is made by
    ``__missing__`` and kept while fewer than ``keep`` are (0: never kept).
    """

    def __init__(self, num_actions: int, keep: int) -> None:
        super().__init__()
        self._shape = (num_actions,)
        self._keep = keep

    def __missing__(self, legal: bytes) -> np.ndarray:
        # A shape tuple and a dtype object: np.ndarray has nothing to convert.
        mask = np.ndarray(self._shape, _INT8, legal)
        if len(self) < self._keep:
            self[legal] = mask
        return mask


#: The state type a game's observer and renderer read.
StateT = TypeVar("StateT", bound=GameState, contravariant=True)


class Observer(Protocol[StateT]):
    """Encodes a state as one player sees it."""

    @property
    def space(self) -> spaces.Box:
        """The space of the arrays :meth:`observe` returns (true bounds, the array's dtype)."""
        ...

    def observe(self, state: StateT, player: int) -> np.ndarray:
        """The observation of ``player`` (0 or 1) in ``state``, a fresh array."""
        ...


class Renderer(Protocol[StateT]):
    """Draws a state for people: as text and as a picture."""

    def ansi(self, state: StateT) -> str:
        """The state as text (several lines, no trailing newline)."""
        ...

    def rgb(self, state: StateT) -> np.ndarray:
        """The state as an ``H x W x 3`` ``uint8`` picture."""
        ...


class GameParts(NamedTuple):
    """The three parts of one variant, as each game module's ``parts(**options)`` makes them.

    Code that needs a variant's rules or its observations without an environment (agents,
    the batched engine, training) takes them from here (``catalog.Variant.game`` and
    ``.observer``) rather than building a whole environment to reach them.
    """

    game: Game
    observer: Observer[Any]
    renderer: Renderer[Any]


class BoardGameEnv(AECEnv):
    """A two-player, turn-based PettingZoo AEC environment over a rules core.

    Subclasses (each game's ``raw_env``) set ``metadata["name"]`` and call
    ``super().__init__(game, observer, renderer, ...)``.

    Attributes:
        game: the rules variant being played.
        game_state: the current :class:`~zoo_games.core.game.GameState` (``None`` before the
            first ``reset``). Search code may clone it; changing it in place bypasses the
            environment's bookkeeping.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "board_game_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: Game,
        observer: Observer[Any],
        renderer: Renderer[Any],
        render_mode: str | None = None,
        action_mask: str = "observation",
    ) -> None:
        super().__init__()
        check_option("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        check_option("action_mask", action_mask, MASK_PLACES)
        self.game = game
        self.render_mode = render_mode
        self.action_mask_place = action_mask
        self._masks_in_observations = action_mask == "observation"
        self._observer = observer
        self._renderer = renderer
        self.possible_agents = list(AGENTS)
        self._player_of = dict(zip(AGENTS, PLAYERS, strict=True))
        num_actions = game.num_actions
        mask_space = spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8)
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(num_actions) for agent in AGENTS
        }
        self.observation_spaces = {
            agent: (
                spaces.Dict({"observation": observer.space, "action_mask": mask_space})
                if action_mask == "observation"
                else observer.space
            )
            for agent in AGENTS
        }
        self._num_actions = num_actions
        self._no_moves = np.zeros(num_actions, dtype=np.int8)
        self.game_state: GameState | None = None
        # The legal actions of agent_selection as the game's mask bytes (all zeros before
        # reset and at the end): the one record of legality, so that checking an action is
        # one index, and the mask array (built on the first observation) a view of it.
        self._no_legal = bytes(num_actions)
        self._legal_mask = self._no_legal
        self._mask: np.ndarray | None = None
        self._mask_arrays = _MaskArrays(
            num_actions, MASK_CACHE_SIZE if num_actions <= MASK_CACHE_MAX_ACTIONS else 0
        )
        self._np_random: np.random.Generator | None = None
        self._seed_generator(None)
        self._chance = ChanceSampler()

    @property
    def observer(self) -> Observer[Any]:
        """How a player sees a state: agents that read observations apply it to any state."""
        return self._observer

    # ------------------------------------------------------------------ chance generator
    @property
    def np_random(self) -> np.random.Generator:
        """The seeded generator that resolves chance.

        ``reset(seed=s)`` records the seed and the generator is made from it on first use:
        seeding a numpy generator is a noticeable part of a whole Togyz Kumalak game, which
        has no chance and never asks for it (measured in docs/benchmarks.md, "The latest
        round"). The generator is the one
        ``gymnasium.utils.seeding.np_random(s)`` makes, whenever it is made.
        """
        generator = self._np_random
        if generator is None:
            generator = self._np_random = seeding.np_random(self.np_random_seed)[0]
        return generator

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        self._np_random = generator

    def _seed_generator(self, seed: int | None) -> None:
        """Seed :attr:`np_random` with ``seed`` (``None``: fresh entropy) as gymnasium does."""
        if type(seed) is int and seed >= 0:
            # gymnasium's np_random_seed is SeedSequence(seed).entropy: the seed itself.
            self._np_random, self.np_random_seed = None, seed
        else:  # None, or a seed gymnasium rejects with its own error
            self._np_random, self.np_random_seed = seeding.np_random(seed)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """The same space object on every call (``api_test`` checks identity)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(game.num_actions)`` for both agents."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game, from the initial position or from ``options["position"]``.

        ``seed`` seeds the generator that resolves chance; without it, the generator goes on
        from where it was, so consecutive games differ. Other option keys are ignored with a
        warning (PettingZoo's ``api_test`` passes one).
        """
        if seed is not None:
            self._seed_generator(seed)
        options = dict(options or {})
        position = options.pop("position", None)
        if options:
            # Not an error: PettingZoo's api_test itself resets with a made-up option.
            logger.warn(
                f"ignoring unknown reset option(s) {sorted(options)}; the only one is 'position'"
            )
        if position is None:
            state = self.game.new_initial_state()
        elif isinstance(position, str):
            state = self.game.state_from_position(position)
        else:
            raise ValueError(f"position must be a string, not {type(position).__name__}")
        self.game_state = state
        if state.is_terminal():
            raise ValueError(f"position {position!r} is already over: there is nothing to play")
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._after_transition()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection``; ``None`` for an agent whose game has ended."""
        if self.game_state is None:
            raise ValueError("step() before reset(): call reset() first")
        if not self.agents:
            raise ValueError("the game is over and every agent has left it: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.play_legal(self._checked_action(action))

    def play_legal(self, action: int) -> None:
        """Play ``action``, already known to be legal for the live ``agent_selection``.

        ``step`` checks the action and comes here; so does the one-call path of ``env()``'s
        wrappers (:mod:`zoo_games.core.standard_wrappers`), which has checked it already.

        PettingZoo's usual bookkeeping at the start of a step (zeroing the actor's cumulative
        reward, clearing ``rewards``) is left out on purpose: our games reward only at the
        end, so both are all zeros for as long as any agent is still to act.
        """
        state = self.game_state
        assert state is not None
        state.apply_action(action)
        player = state.current_player()
        if player >= 0 and self._masks_in_observations and self.render_mode != "human":
            # The common case, in one frame: what _after_transition does for a player to act.
            self._mask = None
            self._legal_mask = state.legal_actions_mask()
            self.agent_selection = AGENTS[player]
            return
        self._after_transition()
        if self.render_mode == "human":
            self.render()

    def _checked_action(self, action: Any) -> int:
        """``action`` as an ``int`` if it is a legal action now; otherwise a clear error."""
        if type(action) is not int:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError(f"action must be an integer, not a boolean ({action!r})")
            try:
                action = operator.index(action)
            except TypeError:
                raise TypeError(
                    f"action must be an integer in [0, {self._num_actions - 1}], "
                    f"not {type(action).__name__} {action!r}"
                ) from None
        if not 0 <= action < self._num_actions:
            raise ValueError(
                f"action {action} is out of range: actions are integers in "
                f"[0, {self._num_actions - 1}]"
            )
        if not self._legal_mask[action]:
            raise ValueError(
                f"action {action} ({self.action_to_string(action)}) is not legal for "
                f"{self.agent_selection} in {self.position()!r}; legal actions: "
                + ", ".join(f"{a} ({self.action_to_string(a)})" for a in self.legal_actions())
            )
        return action

    def _resolve_chance(self) -> None:
        """Apply chance outcomes, drawn from the seeded generator, until a player must act."""
        state = self.game_state
        assert state is not None
        generator = self.np_random
        while state.current_player() == CHANCE:
            state.apply_action(self._chance.sample(state.chance_outcomes(), generator))

    def _after_transition(self) -> None:
        """Resolve chance, then select the next agent, or end the game and hand out returns."""
        state = self.game_state
        assert state is not None
        player = state.current_player()
        if player == CHANCE:
            self._resolve_chance()
            player = state.current_player()
        self._mask = None
        if player == TERMINAL:
            self._legal_mask = self._no_legal
            returns = state.returns()
            self.rewards = {agent: float(r) for agent, r in zip(AGENTS, returns, strict=True)}
            self.terminations = dict.fromkeys(AGENTS, True)
            self._accumulate_rewards()
        else:
            self._legal_mask = state.legal_actions_mask()
            self.agent_selection = AGENTS[player]
        if self.action_mask_place == "info":
            for agent in AGENTS:
                self.infos[agent] = {"action_mask": self._mask_of(agent)}

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> Any:
        """``{"observation", "action_mask"}`` as ``agent`` sees the game now."""
        state = self.game_state
        if state is None:
            raise ValueError("observe() before reset(): call reset() first")
        observation = self._observer.observe(state, self._player_of[agent])
        if self.action_mask_place == "info":
            return observation
        return {"observation": observation, "action_mask": self._mask_of(agent)}

    def _mask_of(self, agent: str) -> np.ndarray:
        """A fresh int8 mask: the legal actions for the agent to act, zeros for the other."""
        if agent != self.agent_selection:
            return self._no_moves.copy()
        mask = self._mask
        if mask is None:
            mask = self._mask = self._mask_arrays[self._legal_mask]
        return mask.copy()

    # ------------------------------------------------------------------ conveniences
    def position(self) -> str:
        """The current position string; ``reset(options={"position": ...})`` reads it back."""
        if self.game_state is None:
            raise ValueError("position() before reset(): call reset() first")
        return self.game_state.position()

    def legal_actions(self) -> list[int]:
        """The legal actions of ``agent_selection``, ascending (empty once the game is over)."""
        return list(compress(range(self._num_actions), self._legal_mask))

    def action_to_string(self, action: int) -> str:
        """A readable name of ``action`` in the current state."""
        if self.game_state is None:
            raise ValueError("action_to_string() before reset(): call reset() first")
        return self.game_state.action_to_string(action)

    # ------------------------------------------------------------------ rendering
    def render(self) -> Any:
        """Text for ``"ansi"``, a picture for ``"rgb_array"``; ``"human"`` prints the text."""
        if self.render_mode is None:
            logger.warn(
                "render() was called without a render_mode; make the environment with "
                'render_mode="ansi", "rgb_array" or "human"'
            )
            return None
        if self.game_state is None:
            raise ValueError("render() before reset(): call reset() first")
        if self.render_mode == "rgb_array":
            return self._renderer.rgb(self.game_state)
        text = self._renderer.ansi(self.game_state)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: rendering keeps no window open."""
