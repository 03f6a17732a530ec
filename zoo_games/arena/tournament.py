"""A tournament: every pairing of the agents (or a gauntlet), both seats equally, in parallel.

Reproducibility does not depend on the number of workers: game ``k`` of pairing ``p`` is
seeded from ``numpy.random.SeedSequence(seed, spawn_key=(p, k))``, which gives the seed of
its chance generator and of each of its two agents, and both agents are made afresh for it
(from their spec or factory). A game therefore depends only on ``(seed, p, k)`` and the
agents, never on which process plays it or what that process played before.

An opening (``opening_moves``, see :mod:`zoo_games.arena.play`) is drawn from
``SeedSequence(seed, spawn_key=(k // 2,))``: games ``2m`` and ``2m + 1``, which seat the two
agents the other way round, begin with the same opening, and so does game ``k`` of every
pairing. In a game without chance, each agent thus plays each opening once from each seat,
and every pairing meets the same openings.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing
import numbers
import pickle
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from zoo_games.agents.base import Agent
from zoo_games.agents.registry import make_from_spec, named_spec, parse_spec
from zoo_games.arena.play import PlayedGame, play_arena_game
from zoo_games.arena.results import ArenaResult, summarize
from zoo_games.catalog import find_variant
from zoo_games.core.game import Game

#: An agent as the arena accepts it: a spec (``"mcts:simulations=400"``), a factory called
#: with ``seed=...`` for every game (an Agent subclass is one), or an Agent instance (used as
#: is for every game, so only in-process: ``workers=1``).
AgentSource = str | Agent | Callable[..., Agent]

#: The longest opening a tournament accepts: enough to vary where games start, short of
#: replacing the agents' play with random moves.
MOST_OPENING_MOVES = 20
#: Name of the agent the Elo table is anchored on when it takes part.
ANCHOR_AGENT = "random"
#: Chunks of games handed to each worker process (more chunks even out slow games).
CHUNKS_PER_WORKER = 4
#: Worker processes start fresh (``spawn``), never as forks of this one: this process may have
#: run torch already (agents are made here to check them before any game), and a fork of a
#: process whose OpenMP threads have run hangs at its own first multi-threaded torch call.
WORKER_START_METHOD = "spawn"
#: Threads of numpy's BLAS in each worker process. A worker is one game at a time on one core;
#: OpenBLAS starts as many threads as there are cores for a product large enough, so two
#: workers on two cores ran four, and they spent their time waiting for each other: the
#: ``alphazero`` agent's moves, whose search scores its leaves in batches, took five times as
#: long in the arena as alone, and its opponent's half again as long (docs/arena.md).
WORKER_BLAS_THREADS = 1


@dataclass(frozen=True)
class Entrant:
    """One agent of the tournament: its display name and how to make it for a game."""

    name: str
    source: AgentSource
    #: The registry name of its kind (``"random"`` for ``"random"``), if known.
    kind: str | None

    def make(self, seed: int) -> Agent:
        """The agent for one game, seeded with ``seed`` (an instance is returned as is)."""
        if isinstance(self.source, Agent):
            return self.source
        if isinstance(self.source, str):
            return make_from_spec(self.source, seed=seed)
        agent = self.source(seed=seed)
        if not isinstance(agent, Agent):
            raise TypeError(f"the factory of {self.name!r} returned {agent!r}, not an Agent")
        return agent


def entrants(
    agents: Sequence[AgentSource] | Mapping[str, AgentSource], game: Game | None = None
) -> list[Entrant]:
    """The entrants of ``agents`` (a list, or a mapping from display name to source).

    Specs are checked by making each agent once, so an unknown agent, an unknown option or a
    bad option value raises ``ValueError`` before any game; given ``game``, so does an agent
    (made from a spec, or an instance) that cannot play it (:meth:`Agent.check_game`).
    Names of a list are the names given as ``NAME=SPEC``
    (:func:`~zoo_games.agents.registry.named_spec`), else the specs (``"random"``,
    ``"mcts:simulations=400"``) or the agents' names, with ``#2``, ``#3`` appended to
    repeats; a name given twice raises ``ValueError``.
    """
    named = (
        list(agents.items())
        if isinstance(agents, Mapping)
        else [named_spec(a) if isinstance(a, str) else (None, a) for a in agents]
    )
    found: list[Entrant] = []
    taken: set[str] = set()
    for given, source in named:
        if isinstance(source, str):
            try:  # a missing extra or a bad option value raises here, before any game
                kind: str | None = parse_spec(source)[0]
                made: Agent | None = make_from_spec(source, seed=0)
            except (OSError, ImportError) as error:  # e.g. a missing checkpoint or extra
                raise ValueError(f"agent {source!r} cannot be made: {error}") from error
            default = source.strip()
        elif isinstance(source, Agent) or callable(source):
            made = source if isinstance(source, Agent) else None
            kind = getattr(source, "name", None)
            default = str(kind or getattr(source, "__name__", type(source).__name__))
        else:
            raise TypeError(f"an agent must be a spec, an Agent or a factory, got {source!r}")
        if made is not None and game is not None:
            made.check_game(game)
        name = str(given) if given is not None else default
        if given is None:
            repeat = 2
            while name in taken:
                name = f"{default}#{repeat}"
                repeat += 1
        elif name in taken:
            raise ValueError(f"agent name {name!r} is given twice")
        taken.add(name)
        found.append(Entrant(name, source, kind))
    return found


def game_seeds(seed: int, pairing: int, index: int) -> tuple[int, int, int]:
    """The seeds of game ``index`` of pairing ``pairing``: chance, first agent, second agent."""
    sequence = np.random.SeedSequence(seed, spawn_key=(pairing, index))
    chance, first, second = (int(value) for value in sequence.generate_state(3))
    return chance, first, second


def opening_seed(seed: int, index: int) -> int:
    """The seed of game ``index``'s opening: shared by its pair of games and by every pairing."""
    return int(np.random.SeedSequence(seed, spawn_key=(index // 2,)).generate_state(1)[0])


def play_pairing_games(
    variant: str,
    pair: tuple[Entrant, Entrant],
    pairing: int,
    indices: Sequence[int],
    seed: int,
    opening_moves: int = 0,
) -> list[PlayedGame]:
    """Play games ``indices`` of one pairing; the first agent is ``player_0`` in even games."""
    game = find_variant(variant).game
    records = []
    for index in indices:
        chance_seed, first_seed, second_seed = game_seeds(seed, pairing, index)
        agents = (pair[0].make(first_seed), pair[1].make(second_seed))
        first_side = index % 2
        seated = (agents[first_side], agents[1 - first_side])
        played = play_arena_game(
            game, seated, chance_seed, opening_moves, opening_seed(seed, index)
        )
        result, moves, seconds = played.result, played.moves, played.seconds
        if first_side == 1:  # player_0 was the second agent
            result, moves, seconds = 1.0 - result, moves[::-1], seconds[::-1]
        records.append(
            PlayedGame(
                pairing,
                index,
                first_side,
                result,
                (moves[0], moves[1]),
                (seconds[0], seconds[1]),
                played.digest,
            )
        )
    return records


def run_arena(
    variant_label: str,
    agent_specs: Sequence[AgentSource] | Mapping[str, AgentSource],
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    gauntlet: bool = False,
    progress: Callable[[str], None] | None = None,
    opening_moves: int = 0,
) -> ArenaResult:
    """Play every pairing of ``agent_specs`` ``games`` times on variant ``variant_label``.

    Each pairing plays ``games`` games (an even number), each agent sitting as ``player_0``
    in half of them. With ``gauntlet=True`` only the first agent's pairings are played (the
    first agent against each of the others), which is what measuring one expensive agent
    against a field needs: its cost grows with the field, not with the field squared. The
    Elo fit works the same on either schedule, every agent being linked to the first.
    ``workers`` processes share the games (``workers=1`` plays them in this process); the
    result is the same for every number of workers, apart from the timings. The workers are
    spawned (:data:`WORKER_START_METHOD`): a script calling this with ``workers > 1`` does
    so under ``if __name__ == "__main__":``. ``progress``
    is told how many games are done each time another tenth of them is (a long tournament
    is otherwise silent until its table).
    Every argument is checked before the first game (``ValueError`` naming what is wrong).
    """
    game = find_variant(variant_label).game
    if not _is_integer(games) or games <= 0 or games % 2:
        raise ValueError(
            f"games must be a positive even number (half with each agent as player_0), "
            f"got {games!r}"
        )
    if not _is_integer(seed) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if not _is_integer(workers) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    if not _is_integer(opening_moves) or not 0 <= opening_moves <= MOST_OPENING_MOVES:
        raise ValueError(
            f"opening_moves must be an integer from 0 to {MOST_OPENING_MOVES}, got "
            f"{opening_moves!r}"
        )
    games, seed, workers = int(games), int(seed), int(workers)
    if isinstance(agent_specs, str):
        raise ValueError(f"agent_specs must be a list of agents, got the string {agent_specs!r}")
    players = entrants(agent_specs, game)
    if len(players) < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {len(players)}")
    if workers > 1 and any(isinstance(player.source, Agent) for player in players):
        raise ValueError(
            "agent instances are used as they are, in this process: with workers > 1 "
            "give a spec or a factory instead"
        )
    if workers > 1:
        for player in players:
            _check_importable_in_workers(player)
    pairs = list(itertools.combinations(range(len(players)), 2))
    if gauntlet:
        pairs = [(0, other) for other in range(1, len(players))]
    if workers > games * len(pairs):
        raise ValueError(
            f"workers must be from 1 to {games * len(pairs)}, the games to play (each worker "
            f"plays whole games), got {workers}"
        )
    chunk = max(1, -(-games * len(pairs) // (workers * CHUNKS_PER_WORKER)))
    tasks = [
        (
            variant_label,
            (players[i], players[j]),
            pairing,
            range(start, min(games, start + chunk)),
            seed,
            int(opening_moves),
        )
        for pairing, (i, j) in enumerate(pairs)
        for start in range(0, games, chunk)
    ]
    records: list[PlayedGame] = []
    total, reported = games * len(pairs), 0

    def keep(played: list[PlayedGame]) -> None:
        nonlocal reported
        records.extend(played)
        tenths = 10 * len(records) // total
        if progress is not None and tenths > reported:
            reported = tenths
            progress(f"{len(records)} of {total} games played")

    if workers == 1:
        for task in tasks:
            keep(play_pairing_games(*task))
    else:
        context = multiprocessing.get_context(WORKER_START_METHOD)
        with concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=context, initializer=_limit_blas_threads
        ) as pool:
            futures = [pool.submit(play_pairing_games, *task) for task in tasks]
            for future in futures:
                keep(future.result())
    anchor = next((index for index, player in enumerate(players) if player.kind == ANCHOR_AGENT), 0)
    names = [p.name for p in players]
    return summarize(variant_label, names, pairs, games, seed, records, anchor, int(opening_moves))


def _limit_blas_threads() -> None:
    """Keep a worker process's BLAS to :data:`WORKER_BLAS_THREADS` (numpy has no setting)."""
    threadpool_limits(WORKER_BLAS_THREADS, user_api="blas")


def _check_importable_in_workers(player: Entrant) -> None:
    """Refuse a factory that spawned workers could not receive, before any game.

    Workers get each factory pickled, that is by the name of its module and its own; a fresh
    process then imports it. A lambda or a function defined inside another cannot be pickled,
    and one defined in an interactive session or a notebook (``__main__`` without a file)
    pickles but cannot be found in the worker, which would otherwise break the pool with a
    traceback from deep inside ``multiprocessing``.
    """
    if isinstance(player.source, str):
        return
    remedy = "define it at the top level of a module (or use workers=1)"
    try:
        pickle.dumps(player.source)
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        raise ValueError(
            f"agent {player.name!r} cannot be sent to the worker processes ({error}): {remedy}"
        ) from error
    main = sys.modules.get("__main__")
    if getattr(player.source, "__module__", None) == "__main__" and not getattr(
        main, "__file__", None
    ):
        raise ValueError(
            f"agent {player.name!r} is defined in an interactive session, which the worker "
            f"processes cannot import: {remedy}"
        )


def _is_integer(value: object) -> bool:
    """Whether ``value`` is an integer (numpy's too), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
