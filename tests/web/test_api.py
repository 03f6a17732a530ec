"""The web app's HTTP API through Starlette's test client: games, undo, positions, refusals.

Every refused request must get a 4xx answer with a one-sentence ``error`` and leave the game
exactly as it was (its whole view compared before and after); whole games of every variant
are played against the random agent and checked against the rules by replaying their record.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra's starlette serves the app")
pytest.importorskip("httpx2", reason="the test extra's httpx2 runs Starlette's test client")

from starlette.testclient import TestClient

from tests.agents.test_agents import AGENT_NAMES
from zoo_games.agents import Agent
from zoo_games.catalog import find_variant, labels
from zoo_games.core.game import GameState
from zoo_games.play.language import language_of
from zoo_games.play.menu import MoveMenu
from zoo_games.web.app import create_app
from zoo_games.web.settings import MOST_BODY_BYTES, ServerSettings
from zoo_games.web.store import GameGone, GameStore

# A Togyz Kumalak position (White to move) and one of Senet (the spools to move, throw 3).
TOGYZ_START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 W"
SENET_START = "CSCSCSCSCS.................... S 3"
# Santorini: yellow's worker A on level 2 at r0c0, beside a level-3 tower at r0c1.
CLIMB = "23000/00000/00000/00000/00000 0,24;12,18 0 20,16,13,18"


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def new_game(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=fields)
    assert response.status_code == 201, response.text
    return response.json()


def state_after(view: dict[str, Any]) -> GameState:
    """The game of ``view`` replayed from its record in a fresh environment with its seed."""
    env = find_variant(view["variant"]).raw_env()
    options = None if view["start"] is None else {"position": view["start"]}
    env.reset(seed=view["seed"], options=options)
    for played in view["record"]:
        state = env.game_state
        assert state is not None and state.current_player() == played["player"]
        env.step(played["action"])
    assert env.game_state is not None
    return env.game_state


def test_setup_lists_every_variant_opponent_and_limit(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["variants"] == labels()
    assert setup["opponents"] == [*AGENT_NAMES, "human"]
    assert setup["seats"] == ["first", "second"]
    assert (setup["most_games"], setup["idle_minutes"], setup["move_seconds"]) == (200, 60, 30)


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js">' in page.text
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)


@pytest.mark.parametrize("label", labels())
def test_a_whole_game_against_random_follows_the_rules(client: TestClient, label: str) -> None:
    rng = random.Random(label)
    view = new_game(client, variant=label, opponent="random", seat="second", seed=11)
    moves = 0
    while view["result"] is None:
        state = state_after(view)
        assert view["position"] == state.position()
        assert view["to_act"] == 1 == state.current_player()  # the agent has replied
        expected = MoveMenu(state, language_of(state.game)).entries
        assert [(c["name"], c["action"]) for c in view["choices"]] == [
            (entry.name, entry.action) for entry in expected
        ]
        choice = rng.choice(view["choices"])
        response = client.post(f"/api/games/{view['id']}/move", json={"action": choice["action"]})
        assert response.status_code == 200, response.text
        view = response.json()
        moves += 1
    final = state_after(view)
    assert final.is_terminal() and view["position"] == final.position()
    assert view["to_act"] is None and view["choices"] == [] and view["turn"] is None
    first, second = final.returns()
    winner = "a draw" if first == second else f"player_{0 if first > second else 1}"
    assert view["result"].startswith(winner)
    assert moves == sum(played["player"] == 1 for played in view["record"])


def test_the_last_turn_is_marked_with_its_clicks_and_extra_turns_announced(
    client: TestClient,
) -> None:
    view = new_game(client, variant="senet-kendall-5", position=SENET_START, seed=0)
    assert view["turn"] == "player_0 (spools) to move, throw 3" and view["last"] == []
    choices = {c["name"]: c for c in view["choices"]}
    assert choices["2-5"]["clicks"] == ["h2", "h5"]
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "2-5"}).json()
    replies = [p for p in view["record"] if p["player"] == 1]
    assert replies and view["record"][0]["name"] == "2-5"
    marked = {target for p in replies for target in _clicks_of(view, p)}
    assert set(view["last"]) == marked
    notes = [p["note"] for p in replies if p["note"]]
    assert view["news"] == notes  # an agent's extra turns are told, in the game's words
    assert all(note.startswith("extra turn: the cons threw") for note in notes)


def _clicks_of(view: dict[str, Any], played: dict[str, Any]) -> list[str]:
    """The clicks of a played move, worked out from the state it was played in."""
    from zoo_games.web.boards import board_of

    env = find_variant(view["variant"]).raw_env()
    env.reset(seed=view["seed"], options={"position": view["start"]})
    for earlier in view["record"]:
        state = env.game_state
        assert state is not None
        if earlier is played:
            return list(board_of(state.game).clicks(state, played["action"]))
        env.step(earlier["action"])
    raise AssertionError("not in the record")


@pytest.mark.parametrize(
    ("variant", "move", "clicks", "record"),
    [
        ("togyz-kumalak", "7", ["hole6"], "76"),
        ("santorini-fixed", "w0-N-S", ["r0c2", "r0c2"], None),
        ("santorini-fixed", "w0-S-N", ["r0c2", "r1c2", "r0c2"], "w0-S-N"),
        ("santorini-placement", "r2c3", ["r2c3"], "r2c3"),
    ],
)
def test_moves_are_named_and_clicked_as_the_game_names_them(
    client: TestClient, variant: str, move: str, clicks: list[str], record: str | None
) -> None:
    view = new_game(client, variant=variant, opponent="human", seed=0)
    by_name = {c["name"]: c for c in view["choices"]}
    if record is None:  # w0-N-S leaves the board from row 0: not a legal move
        assert move not in by_name
        return
    assert by_name[move]["clicks"] == clicks
    view = client.post(f"/api/games/{view['id']}/move", json={"move": move}).json()
    assert view["record"][-1]["name"] == record
    assert view["last"] == sorted(set(clicks))


def test_a_winning_climb_takes_two_clicks(client: TestClient) -> None:
    view = new_game(client, variant="santorini-fixed", opponent="human", position=CLIMB)
    climb = next(c for c in view["choices"] if c["name"] == "w0-E")
    assert climb["clicks"] == ["r0c0", "r0c1"]
    view = client.post(f"/api/games/{view['id']}/move", json={"action": climb["action"]}).json()
    assert view["result"] == "player_0 (yellow) wins; yellow climbed to level 3"


def test_undo_takes_back_the_persons_move_and_the_replies(client: TestClient) -> None:
    start = new_game(client, variant="senet-skyruk-5", seed=5)
    game = f"/api/games/{start['id']}"
    first = client.post(f"{game}/move", json={"action": start["choices"][0]["action"]}).json()
    second = client.post(f"{game}/move", json={"action": first["choices"][-1]["action"]}).json()
    assert len(second["record"]) > len(first["record"])
    undone = client.post(f"{game}/undo").json()
    assert undone == {**first, "can_undo": True}  # the same position, throw and record
    undone = client.post(f"{game}/undo").json()
    assert undone == start
    nothing = client.post(f"{game}/undo")
    assert nothing.status_code == 409
    assert nothing.json() == {"error": "nothing to undo: no person has played a move yet"}
    assert client.get(game).json() == start


def test_undo_with_two_people_takes_back_one_decision(client: TestClient) -> None:
    start = new_game(client, variant="togyz-kumalak", opponent="human")
    game = f"/api/games/{start['id']}"
    client.post(f"{game}/move", json={"move": "7"})
    after_two = client.post(f"{game}/move", json={"move": "1"}).json()
    assert [p["player"] for p in after_two["record"]] == [0, 1]
    undone = client.post(f"{game}/undo").json()
    assert [p["name"] for p in undone["record"]] == ["76"] and undone["to_act"] == 1


@pytest.mark.parametrize(
    ("variant", "position"),
    [("togyz-kumalak", TOGYZ_START), ("senet-kendall-7", SENET_START.replace("....", "CSCS", 1))],
)
def test_a_game_starts_from_a_pasted_position(
    client: TestClient, variant: str, position: str
) -> None:
    view = new_game(client, variant=variant, opponent="human", position=f"  {position} ")
    assert view["start"] == position and view["position"] == position
    assert view["record"] == [] and not view["can_undo"]


def test_the_agent_plays_first_when_the_person_takes_the_second_seat(client: TestClient) -> None:
    view = new_game(client, variant="togyz-kumalak", opponent="greedy", seat="second", seed=2)
    assert [p["player"] for p in view["record"]] == [0] and view["to_act"] == 1
    assert view["seats"][0]["by"] == "agent greedy" and view["seats"][1]["by"] == "person"


@pytest.mark.parametrize("opponent", ["greedy", "mcts:simulations=20", "random:seed=4"])
def test_agent_specs_are_read_as_at_the_terminal(client: TestClient, opponent: str) -> None:
    view = new_game(client, variant="santorini-fixed", opponent=opponent, seed=1)
    view = client.post(
        f"/api/games/{view['id']}/move", json={"action": view["choices"][0]["action"]}
    ).json()
    assert [p["player"] for p in view["record"]] == [0, 1] and view["to_act"] == 0


def test_games_at_once_never_mix(client: TestClient) -> None:
    games = [new_game(client, variant="togyz-kumalak", opponent="human") for _ in range(3)]
    for index, game in enumerate(games):
        client.post(f"/api/games/{game['id']}/move", json={"move": str(index + 1)})
    for index, game in enumerate(games):
        view = client.get(f"/api/games/{game['id']}").json()
        assert [(p["player"], p["action"]) for p in view["record"]] == [(0, index)]


# ---------------------------------------------------------------------- refusals
BAD_NEW_GAMES = [
    ({}, "variant is missing"),
    ({"variant": "chess"}, "unknown variant 'chess'; known variants: senet-kendall-5"),
    ({"variant": 3}, "variant must be a string, got 3"),
    ({"variant": "togyz-kumalak", "colour": "red"}, "unknown field 'colour'; the fields are"),
    ({"variant": "togyz-kumalak", "opponent": "deep-blue"}, "unknown opponent 'deep-blue'"),
    ({"variant": "togyz-kumalak", "opponent": ["random"]}, "opponent must be a string"),
    ({"variant": "togyz-kumalak", "opponent": "mcts:simulations=many"}, "mcts:simulations='many'"),
    ({"variant": "togyz-kumalak", "opponent": "greedy:depth=3"}, "has no option 'depth'"),
    (
        {"variant": "togyz-kumalak", "opponent": "mcts:seconds=31"},
        "seconds=31 is over the server's",
    ),
    ({"variant": "togyz-kumalak", "opponent": "human:seat=1"}, "a human takes no options"),
    ({"variant": "togyz-kumalak", "opponent": "rllib:checkpoint=/etc"}, "offers no trained agents"),
    ({"variant": "togyz-kumalak", "seat": "third"}, "seat 'third' is not allowed"),
    ({"variant": "togyz-kumalak", "seed": -1}, "seed -1 is not allowed"),
    ({"variant": "togyz-kumalak", "seed": "7"}, "seed '7' is not allowed"),
    ({"variant": "togyz-kumalak", "seed": 1.5}, "seed 1.5 is not allowed"),
    ({"variant": "togyz-kumalak", "seed": True}, "seed True is not allowed"),
    ({"variant": "togyz-kumalak", "seed": 2**53}, "a seed is a whole number from 0 to 2**53 - 1"),
    ({"variant": "togyz-kumalak", "position": "nonsense"}, "position 'nonsense': a position is"),
    ({"variant": "togyz-kumalak", "position": SENET_START}, f"position {SENET_START!r}:"),
    ({"variant": "senet-kendall-5", "position": 12}, "position must be a position string"),
    (
        {"variant": "togyz-kumalak", "position": "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 82 79 B"},
        "already over",
    ),
]


@pytest.mark.parametrize(("fields", "message"), BAD_NEW_GAMES)
def test_a_bad_new_game_is_refused_with_its_reason(
    client: TestClient, fields: dict[str, Any], message: str
) -> None:
    response = client.post("/api/games", json=fields)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    assert len(client.app.state.games) == 0  # type: ignore[attr-defined]


def test_a_checkpoint_outside_the_offered_folder_is_refused(tmp_path: Any) -> None:
    client = TestClient(create_app(ServerSettings(checkpoints=tmp_path)))
    response = client.post(
        "/api/games", json={"variant": "togyz-kumalak", "opponent": "rllib:checkpoint=../../etc"}
    )
    assert response.status_code == 400
    assert "outside the server's checkpoints folder" in response.json()["error"]


def _refusals(game: str) -> list[tuple[str, str, dict[str, Any], int, str]]:
    """Requests about the game at ``game``: method, path, request options, status, message."""
    big = "x" * (MOST_BODY_BYTES + 1)
    return [
        ("POST", f"{game}/move", {"json": {"action": 999}}, 400, "is not a legal action now"),
        ("POST", f"{game}/move", {"json": {"action": "5"}}, 400, "'5' is not a legal action"),
        ("POST", f"{game}/move", {"json": {"action": True}}, 400, "True is not a legal action"),
        ("POST", f"{game}/move", {"json": {"action": 1.0}}, 400, "1.0 is not a legal action"),
        ("POST", f"{game}/move", {"json": {}}, 400, "give either 'action'"),
        ("POST", f"{game}/move", {"json": {"action": 1, "move": "1"}}, 400, "not both"),
        ("POST", f"{game}/move", {"json": {"move": "10"}}, 400, "there is no move number 10"),
        ("POST", f"{game}/move", {"json": {"move": "36x"}}, 400, "'36x' is not a legal move"),
        ("POST", f"{game}/move", {"json": {"move": "undo"}}, 400, "a command at the terminal"),
        ("POST", f"{game}/move", {"json": {"move": 7}}, 400, "'move' must be a move's name"),
        ("POST", f"{game}/move", {"json": {"hole": 7}}, 400, "unknown field 'hole'"),
        ("POST", f"{game}/move", {"content": b"{not json"}, 400, "not JSON"),
        ("POST", f"{game}/move", {"content": b"[" * 5000}, 400, "not JSON"),
        ("POST", f"{game}/move", {"json": [7]}, 400, "must be a JSON object"),
        ("POST", f"{game}/move", {"json": {"move": big}}, 413, "over 16384 bytes"),
        ("POST", f"{game}/undo", {}, 409, "nothing to undo"),
        ("GET", f"{game}/move", {}, 405, "GET is not allowed on"),
        ("PUT", game, {}, 405, "PUT is not allowed on"),
        ("GET", "/api/games/nosuchgame", {}, 404, "there is no game 'nosuchgame'"),
        ("POST", "/api/games/nosuchgame/move", {"json": {"action": 0}}, 404, "no game"),
        ("POST", "/api/games/nosuchgame/undo", {}, 404, "no game"),
        ("DELETE", "/api/games/nosuchgame", {}, 404, "no game"),
        ("GET", "/static/../pyproject.toml", {}, 404, "nothing at /pyproject.toml"),
        ("GET", "/static/%2e%2e%2fpyproject.toml", {}, 404, "nothing at /static/"),
        ("GET", "/static/app.py", {}, 404, "no file 'app.py'"),
        ("GET", "/etc/passwd", {}, 404, "nothing at /etc/passwd"),
    ]


def test_every_bad_request_gets_a_4xx_with_a_message_and_changes_nothing(
    client: TestClient,
) -> None:
    view = new_game(client, variant="togyz-kumalak", opponent="random", seed=0)
    game = f"/api/games/{view['id']}"
    for method, path, options, status, message in _refusals(game):
        response = client.request(method, path, **options)
        assert response.status_code == status, (method, path, response.text)
        assert message in response.json()["error"], (method, path, response.text)
        assert client.get(game).json() == view, (method, path)


def test_no_move_after_the_end(client: TestClient) -> None:
    view = new_game(client, variant="santorini-fixed", opponent="human", position=CLIMB)
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "w0-E"}).json()
    assert view["result"] is not None and not view["choices"]
    response = client.post(f"/api/games/{view['id']}/move", json={"move": "w1-N-N"})
    assert response.status_code == 400 and "the game is over" in response.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == view


def test_a_deleted_game_is_gone(client: TestClient) -> None:
    view = new_game(client, variant="togyz-kumalak")
    assert client.delete(f"/api/games/{view['id']}").status_code == 204
    response = client.get(f"/api/games/{view['id']}")
    assert response.status_code == 404 and "kept in memory only" in response.json()["error"]


def test_the_server_keeps_a_bounded_number_of_games() -> None:
    client = TestClient(create_app(ServerSettings(most_games=2)))
    for _ in range(2):
        new_game(client, variant="togyz-kumalak")
    response = client.post("/api/games", json={"variant": "togyz-kumalak"})
    assert response.status_code == 429
    assert "already keeps 2 games" in response.json()["error"]


def test_idle_games_are_dropped() -> None:
    now = [0.0]
    store = GameStore(most_games=5, idle_seconds=60, clock=lambda: now[0])
    client = TestClient(create_app())
    view = new_game(client, variant="togyz-kumalak")
    match = client.app.state.games.get(view["id"]).match  # type: ignore[attr-defined]
    kept, dropped = store.add(match), store.add(match)
    now[0] = 50.0
    store.get(kept)
    now[0] = 100.0
    assert store.get(kept).match is match
    with pytest.raises(GameGone, match="idle for over 1 minutes"):
        store.get(dropped)
    assert len(store) == 1


class HeldAgent(Agent):
    """An agent that answers only once the test lets it: a search that outlasts any cap."""

    name = "held"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.release = threading.Event()

    def act(self, state: GameState) -> int:
        self.release.wait(timeout=30)
        return state.legal_actions()[0]


def test_an_agent_over_the_time_cap_leaves_the_game_as_it_was() -> None:
    client = TestClient(create_app(ServerSettings(move_seconds=0.2)))
    view = new_game(client, variant="togyz-kumalak", seed=0)
    game = f"/api/games/{view['id']}"
    agent = HeldAgent()
    client.app.state.games.get(view["id"]).match.agents[1] = agent  # type: ignore[attr-defined]
    view = client.get(game).json()
    response = client.post(f"{game}/move", json={"move": "7"})
    assert response.status_code == 503
    assert "over 0.2 s, the server's time cap per move" in response.json()["error"]
    assert client.get(game).json() == view
    busy = client.post(f"{game}/move", json={"move": "7"})
    assert busy.status_code == 409 and "still finishing" in busy.json()["error"]
    agent.release.set()
    for _ in range(100):  # the abandoned search ends at once once released
        if not client.app.state.games.get(view["id"]).searching():  # type: ignore[attr-defined]
            break
        threading.Event().wait(0.05)
    view = client.post(f"{game}/move", json={"move": "7"}).json()
    assert [p["player"] for p in view["record"]] == [0, 1]
