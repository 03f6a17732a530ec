"""The batched path builds the episodes the environment path builds, step for step.

For every variant, a few games are played on the batched engine with scripted (seeded
random) legal actions, recorded in short rollouts so that games run across several episode
chunks, and built into ``MultiAgentEpisode`` chunks by :class:`EpisodeBuilder`. The same
games are then replayed through :class:`TurnBasedMultiAgentEnv`, recorded by RLlib's own
``MultiAgentEpisode.add_env_step`` as RLlib's runner records them, and every finished game is
compared seat by seat: observations, masks, actions, rewards (shaped), and the end. Who moved
is checked at every step (the environment's agent to act is the engine's mover).

Senet's throws come from two different generators (the engine's per game, the environment's
own), so the replay takes its throws from the engine: after every engine step the throw of
each game's next decision is read from its position (``engine.state(game).throw``; after a
finished game, the first throw of the next), and the environment's chance sampler is replaced
by one that hands these out in order, checking each is a possible outcome. The two paths then
play the same games, and everything else is compared as for the other games.

With a sparring partner (greedy, or uniformly random play) taking one seat in some games
(``greedy_share``, ``random_share``), the other seats' chunks are compared the same way, and
the partners' seats must make none.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    pytest.importorskip("numba")

from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

from zoo_games.catalog import variants
from zoo_games.core.adapter import AGENTS
from zoo_games.rllib.batched_episodes import EpisodeBuilder, Rollout
from zoo_games.rllib.batched_games import SelfPlayGames
from zoo_games.rllib.chunks import ModuleChunks
from zoo_games.rllib.env import TurnBasedMultiAgentEnv

GAMES = 6
ROLLOUT_STEPS = 7
LABELS = [variant.label for variant in variants()]


#: (label, seed) -> per rollout of ``play_batched``: the episodes built, the same chunks as
#: arrays from a twin builder, and the games the twin saw end.
PLAYED: dict[tuple[str, int], list] = {}


def marked_values(observations: np.ndarray) -> np.ndarray:
    """A "value" per row that only its observation decides."""
    flat = observations.reshape(observations.shape[0], -1).astype(np.float64)
    weights = np.random.default_rng(0).random(flat.shape[1])
    return (flat @ weights).astype(np.float32)


def shared(agent, episode=None, **kwargs):
    return "shared"


class EngineThrows:
    """A chance sampler that hands out the throws the engine drew, in order."""

    def __init__(self, throws: list[int]) -> None:
        self._throws = iter(throws)

    def sample(self, table, generator) -> int:
        throw = next(self._throws)
        assert throw in [outcome for outcome, _ in table]
        return throw


def play_batched(label: str, seed: int, shares: dict[str, float]):
    """Games on the batched engine: the built chunks, per game its actions and throws, and
    the seat the sparring partner plays in each game (-1: none)."""
    games = SelfPlayGames(label, games=GAMES, seed=seed, shaping=True, **shares)
    env = TurnBasedMultiAgentEnv({"variant": label})

    def new_builder() -> EpisodeBuilder:
        return EpisodeBuilder(
            GAMES,
            {agent: env.get_observation_space(agent) for agent in AGENTS},
            {agent: env.get_action_space(agent) for agent in AGENTS},
            shared,
            opponent_seat=games.sparring_seat,
        )

    builder = new_builder()
    rng = np.random.default_rng(seed)
    is_senet = games.engine.game.name == "senet"

    def throws_now() -> list[int]:
        return [games.engine.state(game).throw if is_senet else 0 for game in range(GAMES)]

    actions_of: list[list[int]] = [[] for _ in range(GAMES)]
    movers_of: list[list[int]] = [[] for _ in range(GAMES)]
    throws_of: list[list[int]] = [[throw] for throw in throws_now()]
    chunks: list[MultiAgentEpisode] = []
    twin = new_builder()  # given the same rollouts, it hands them out as arrays
    PLAYED[label, seed] = []
    finished = np.zeros(GAMES, dtype=np.int64)
    while finished.min() < 2:
        rollout = Rollout(ROLLOUT_STEPS, GAMES, games.observation, games.action_mask.shape[1])
        for t in range(ROLLOUT_STEPS):
            rollout.observe(t, games.observation, games.action_mask, games.current_player)
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in games.action_mask])
            games.play_sparring(actions, np.flatnonzero(games.sparring_to_move()))
            # Marked outputs: each decision's "logp" is its action, and each position's "value"
            # a function of its observation, to check they stay paired.
            outputs = {
                Columns.ACTION_LOGP: actions.astype(np.float32),
                Columns.ACTION_DIST_INPUTS: np.zeros(games.action_mask.shape, np.float32),
                Columns.VF_PREDS: marked_values(games.observation),
            }
            for game in range(GAMES):
                actions_of[game].append(int(actions[game]))
                movers_of[game].append(int(games.current_player[game]))
            step = games.step(actions)
            for game, throw in enumerate(throws_now()):
                throws_of[game].append(throw)
            finished += step.terminated
            rollout.record(t, actions, outputs, step)
        rollout.observe(ROLLOUT_STEPS, games.observation, games.action_mask, games.current_player)
        rollout.close(marked_values(games.observation))
        built = builder.build(rollout)
        chunks.extend(built)
        PLAYED[label, seed].append((built, twin.build_arrays(rollout), twin.finished_games()))
    return chunks, actions_of, movers_of, throws_of, games.sparring_seat.tolist()


def stitched(chunks: list[MultiAgentEpisode]) -> list[dict[str, dict[str, np.ndarray]]]:
    """Each finished game, per seat: its chunks joined (a chunk starts with the last
    observation of the one before)."""
    by_game: dict[str, list[MultiAgentEpisode]] = {}
    for chunk in chunks:
        by_game.setdefault(chunk.id_, []).append(chunk)
    games = []
    for parts in by_game.values():
        if not parts[-1].is_terminated:
            continue
        seats = {}
        for agent in AGENTS:
            pieces = [part.agent_episodes[agent] for part in parts if agent in part.agent_episodes]
            if not pieces:
                continue  # a seat greedy played
            observations = [pieces[0].get_observations()]
            observations += [
                {k: v[1:] for k, v in p.get_observations().items()} for p in pieces[1:]
            ]
            seats[agent] = {
                "observation": np.concatenate([o["observation"] for o in observations]),
                "action_mask": np.concatenate([o["action_mask"] for o in observations]),
                "actions": np.concatenate([p.get_actions() for p in pieces]),
                "rewards": np.concatenate([p.get_rewards() for p in pieces]),
                "logp": np.concatenate(
                    [p.get_extra_model_outputs(Columns.ACTION_LOGP) for p in pieces]
                ),
                "terminated": pieces[-1].is_terminated,
                "t_started": [p.t_started for p in pieces],
                "lengths": [len(p) for p in pieces],
            }
        games.append(seats)
    return games


def replay(label, actions, movers, throws):
    """The environment path's episodes of one engine column's games (finished ones)."""
    env = TurnBasedMultiAgentEnv({"variant": label, "shaping": True})
    env.game_env._chance = EngineThrows(throws)
    spaces = {agent: env.get_observation_space(agent) for agent in AGENTS}
    action_spaces = {agent: env.get_action_space(agent) for agent in AGENTS}
    episodes: list[MultiAgentEpisode] = []
    ends: list[str] = []
    moves = iter(zip(actions, movers, strict=True))
    while True:
        episode = MultiAgentEpisode(
            observation_space=spaces,  # type: ignore[arg-type]  # RLlib takes a dict per agent
            action_space=action_spaces,  # type: ignore[arg-type]
            agent_to_module_mapping_fn=shared,
        )
        observations, infos = env.reset()
        episode.add_env_reset(observations=observations, infos=infos)
        while True:
            try:
                action, mover = next(moves)
            except StopIteration:
                return episodes, ends
            (agent,) = observations
            assert agent == AGENTS[mover]  # who moves
            observations, rewards, terminateds, truncateds, infos = env.step({agent: action})
            episode.add_env_step(
                observations=observations,
                actions={agent: action},
                rewards=rewards,
                infos=infos,
                terminateds=terminateds,
                truncateds=truncateds,
            )
            if terminateds["__all__"]:
                episode.to_numpy()
                episodes.append(episode)
                ends.append(agent)
                break


@pytest.mark.parametrize("label", LABELS)
def test_batched_episodes_equal_the_environment_paths(label):
    built, compared, enders, extra_turns = compare_with_the_environment(label, {})
    assert compared >= 2 * GAMES
    assert enders == set(AGENTS)  # games ended on either seat's move
    # Games ran across several chunks (and so across waiting actions).
    assert any(len(seats[AGENTS[0]]["lengths"]) > 1 for seats in built)
    if label.startswith("senet"):
        assert extra_turns > 0  # the same seat acted twice in a row


@pytest.mark.parametrize(
    "shares",
    [{"greedy_share": 0.5}, {"greedy_share": 1 / 3, "random_share": 1 / 3}],
    ids=["greedy", "greedy-and-random"],
)
@pytest.mark.parametrize("label", ["senet-kendall-5", "togyz-kumalak", "santorini-fixed"])
def test_seats_sparring_partners_play_make_no_chunks_and_the_others_are_the_environments(
    label, shares
):
    built, compared, enders, _ = compare_with_the_environment(label, shares)
    assert compared >= 2 * GAMES
    assert enders == set(AGENTS)
    assert any(len(seats) == 1 for seats in built)  # games against a sparring partner
    assert any(len(seats) == 2 for seats in built)  # self-play games


def compare_with_the_environment(label: str, shares: dict[str, float]):
    """Play, build and replay ``label``'s games; compare every built seat with the replay's.

    Returns the built games, how many were compared, which seats ended games and how many
    times a seat moved twice in a row.
    """
    seed = LABELS.index(label)
    chunks, actions_of, movers_of, throws_of, sparring_seat = play_batched(label, seed, shares)
    built = stitched(chunks)
    by_record: dict[tuple[str, bytes], tuple[MultiAgentEpisode, int]] = {}
    compared, enders, extra_turns = 0, set(), 0
    for game in range(GAMES):
        expected, ends = replay(label, actions_of[game], movers_of[game], throws_of[game])
        enders.update(ends)
        extra_turns += sum(
            a == b for a, b in zip(movers_of[game], movers_of[game][1:], strict=False)
        )
        for episode in expected:
            for agent, single in episode.agent_episodes.items():
                record = single.get_observations()["observation"].tobytes()
                by_record[agent, record + single.get_actions().tobytes()] = (episode, game)
    for seats in built:
        agent, first = next(iter(seats.items()))
        episode, game = by_record[
            agent, first["observation"].tobytes() + first["actions"].tobytes()
        ]
        assert set(seats) == {a for seat, a in enumerate(AGENTS) if seat != sparring_seat[game]}
        for agent in seats:
            mine, theirs = seats[agent], episode.agent_episodes[agent]
            observations = theirs.get_observations()
            np.testing.assert_array_equal(mine["observation"], observations["observation"])
            np.testing.assert_array_equal(mine["action_mask"], observations["action_mask"])
            np.testing.assert_array_equal(mine["actions"], theirs.get_actions())
            np.testing.assert_array_equal(mine["rewards"], theirs.get_rewards())
            np.testing.assert_array_equal(mine["logp"], mine["actions"].astype(np.float32))
            assert mine["terminated"] and theirs.is_terminated
            # Chunks continue each other's seat steps.
            assert mine["t_started"] == list(np.cumsum([0, *mine["lengths"][:-1]]))
            assert not observations["action_mask"][-1].any()  # nothing to play at the end
        compared += 1
    return built, compared, enders, extra_turns


@pytest.mark.parametrize("shares", [{}, {"greedy_share": 0.5}], ids=["self-play", "greedy"])
@pytest.mark.parametrize("label", ["senet-kendall-5", "togyz-kumalak", "santorini-fixed"])
def test_the_arrays_hold_the_episodes_chunks_and_the_finished_games_their_totals(label, shares):
    seed = LABELS.index(label)
    chunks, *_ = play_batched(label, seed, shares)
    ended = [game for _, _, games in PLAYED[label, seed] for game in games]
    assert len(ended) == sum(episode.is_terminated for episode in chunks) >= 2 * GAMES
    for episodes, arrays, _ in PLAYED[label, seed]:
        singles = [s for episode in episodes for s in episode.agent_episodes.values()]
        assert arrays.env_steps() == len(arrays) == ROLLOUT_STEPS * GAMES
        if not singles:
            assert not arrays.modules
            continue
        expected = ModuleChunks.of_episodes(singles)
        (got,) = arrays.modules.values()
        for key, seen in expected.observations.items():
            np.testing.assert_array_equal(got.observations[key], seen)
        np.testing.assert_array_equal(got.actions, expected.actions)
        np.testing.assert_array_equal(got.rewards, expected.rewards)
        for name, value in expected.outputs.items():
            np.testing.assert_array_equal(got.outputs[name], value)
        np.testing.assert_array_equal(got.lengths, expected.lengths)
        np.testing.assert_array_equal(got.terminated, expected.terminated)
        # Each observation keeps the value given with it; a game's final one has 0.
        assert got.values is not None and expected.values is None
        finals = np.cumsum(got.lengths + 1) - 1
        wanted = marked_values(got.observations["observation"])
        wanted[finals[got.terminated]] = 0.0
        np.testing.assert_array_equal(got.values, wanted)
    # Each finished game's totals are those of its stitched chunks, in the order they ended.
    by_game: dict[str, list[MultiAgentEpisode]] = {}
    order = []
    for episode in chunks:
        by_game.setdefault(episode.id_, []).append(episode)
        if episode.is_terminated:
            order.append(episode.id_)
    for game, game_id in zip(ended, order, strict=True):
        parts = by_game[game_id]
        # Its steps: the last chunk's env_t (a chunk in which no seat finished an action
        # is handed out by neither form, so the chunks' lengths may sum to fewer).
        assert game.length == parts[-1].env_t >= sum(len(part) for part in parts)
        seats = {agent for part in parts for agent in part.agent_episodes}
        assert set(game.returns) == set(game.agent_steps) == seats
        for agent in seats:
            pieces = [part.agent_episodes[agent] for part in parts if agent in part.agent_episodes]
            assert game.returns[agent] == pytest.approx(sum(p.get_return() for p in pieces))
            assert game.agent_steps[agent] == sum(len(p) for p in pieces)
        assert game.seconds >= 0
