"""Agents in PettingZoo's loop, and the code of docs/agents.md as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zoo_games import agents
from zoo_games.catalog import find_variant, labels

DOC = Path(__file__).parents[2] / "docs" / "agents.md"


@pytest.mark.parametrize("label", labels())
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_play_game_returns_a_zero_sum_result_for_every_variant(label, wrapped):
    variant = find_variant(label)
    env = variant.env() if wrapped else variant.raw_env()
    seats = {"player_0": agents.make("greedy", seed=0), "player_1": agents.make("random", seed=1)}
    returns = agents.play_game(env, seats, seed=3)
    assert set(returns) == {"player_0", "player_1"}
    assert sum(returns.values()) == 0 and set(returns.values()) <= {-1.0, 0.0, 1.0}
    assert returns == agents.play_game(
        env,
        {"player_0": agents.make("greedy", seed=0), "player_1": agents.make("random", seed=1)},
        seed=3,
    )


def test_play_game_needs_an_agent_for_every_seat():
    with pytest.raises(ValueError, match="no agent for player_1"):
        agents.play_game(find_variant("senet-kendall-5").env(), {"player_0": agents.make("random")})


def test_policy_needs_a_started_game():
    with pytest.raises(ValueError, match=r"call env\.reset"):
        agents.policy(agents.make("random"))(find_variant("togyz-kumalak").raw_env())


@pytest.mark.parametrize(
    "block",
    re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL),
)
def test_the_python_blocks_of_the_agents_page_run(block, capsys, doc_block):
    doc_block(block, "docs/agents.md")
