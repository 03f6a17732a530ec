"""The web app: a Starlette ASGI app with a small JSON API and one page.

Starlette rather than FastAPI: the API is six routes with hand-checked bodies (each mistake
told in one sentence, as at the terminal), so FastAPI's schema generation and validation
layer would add dependencies and produce its own error format for nothing; FastAPI is built
on Starlette anyway.

Routes:

- ``GET /``, ``GET /static/{name}``: the page and its script and style, from the package's
  ``static`` folder (only the files of :data:`~zoo_games.web.page.STATIC_FILES`: no part of
  a path reaches the disk);
- ``GET /api/setup``: the variants, the agents, the seats, the server's limits;
- ``POST /api/games``: a new game (``{"variant", "opponent", "seat", "seed", "position"}``);
- ``GET /api/games/{id}``, ``DELETE /api/games/{id}``: a game, or forget it;
- ``POST /api/games/{id}/move`` (``{"action": n}`` or ``{"move": "14-17"}``): a person's
  move, and the agent's replies;
- ``POST /api/games/{id}/undo``: take back the person's last move (and the replies).

Every refused request gets a 4xx answer ``{"error": "..."}`` and changes nothing. An agent
thinks in a worker thread, so the event loop goes on serving other games; if it thinks for
longer than the time cap, the server stops waiting, takes the person's move back and answers
503 (the abandoned search finishes in the background; the game takes no move until then).
"""

from __future__ import annotations

import json
import threading
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zoo_games.agents import names
from zoo_games.catalog import labels
from zoo_games.play.command import HUMAN, SEATS
from zoo_games.web.new_game import new_match
from zoo_games.web.page import STATIC_FILES, read_static_files
from zoo_games.web.settings import MOST_BODY_BYTES, ServerSettings
from zoo_games.web.store import Entry, GameGone, GameStore, TooManyGames
from zoo_games.web.views import game_view

MOVE_FIELDS = ("action", "move")


class Refusal(Exception):
    """A request the server will not carry out: its HTTP status and a one-sentence reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(settings: ServerSettings | None = None) -> Starlette:
    """The app, with its own games in memory and the limits of ``settings``."""
    settings = settings or ServerSettings()
    store = GameStore(settings.most_games, settings.idle_minutes * 60)
    static = read_static_files()

    async def page(request: Request) -> Response:
        return _static_file(static, "index.html")

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            raise Refusal(404, f"no file {name!r}; the page's files are {', '.join(STATIC_FILES)}")
        return _static_file(static, name)

    async def setup(request: Request) -> Response:
        return JSONResponse(
            {
                "variants": labels(),
                "opponents": [*names(), HUMAN],
                "seats": list(SEATS),
                "most_games": settings.most_games,
                "idle_minutes": settings.idle_minutes,
                "move_seconds": settings.move_seconds,
            }
        )

    async def create(request: Request) -> Response:
        fields = await _body(request)
        try:
            match = await anyio.to_thread.run_sync(new_match, fields, settings)  # may load a model
        except ValueError as error:
            raise Refusal(400, str(error)) from None
        try:
            game_id = store.add(match)
        except TooManyGames as error:
            raise Refusal(429, str(error)) from None
        entry = store.get(game_id)
        async with entry.lock:
            try:
                await _agents_reply(entry, settings.move_seconds, 0)
            except Refusal:
                store.remove(game_id)
                raise
            return JSONResponse(game_view(game_id, entry.match), status_code=201)

    async def show(request: Request) -> Response:
        game_id, entry = _entry(store, request)
        if request.method == "DELETE":
            store.remove(game_id)
            return Response(status_code=204)
        async with entry.lock:
            return JSONResponse(game_view(game_id, entry.match))

    async def move(request: Request) -> Response:
        game_id, entry = _entry(store, request)
        fields = await _body(request)
        unknown = sorted(set(fields) - set(MOVE_FIELDS))
        if unknown:
            raise Refusal(
                400, f"unknown field {unknown[0]!r}; a move is {{'action': n}} or {{'move': name}}"
            )
        async with entry.lock:
            _check_not_searching(entry)
            match = entry.match
            try:
                action = match.person_action(fields.get("action"), fields.get("move"))
            except ValueError as error:
                raise Refusal(400, str(error)) from None
            before = len(match.history)
            match.play(action)
            await _agents_reply(entry, settings.move_seconds, before)
            return JSONResponse(game_view(game_id, match))

    async def undo(request: Request) -> Response:
        game_id, entry = _entry(store, request)
        await _body(request)
        async with entry.lock:
            _check_not_searching(entry)
            try:
                entry.match.undo()
            except ValueError as error:
                raise Refusal(409, str(error)) from None
            return JSONResponse(game_view(game_id, entry.match))

    routes = [
        Route("/", page),
        Route("/static/{name}", static_file),
        Route("/api/setup", setup),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}", show, methods=["GET", "DELETE"]),
        Route("/api/games/{game_id}/move", move, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
    ]
    handlers: dict[Any, Any] = {Refusal: _refused, HTTPException: _http_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.games = store  # for tests and the load benchmark to look at
    return app


def _static_file(static: dict[str, bytes], name: str) -> Response:
    return Response(
        static[name], media_type=STATIC_FILES[name], headers={"Cache-Control": "no-cache"}
    )


def _entry(store: GameStore, request: Request) -> tuple[str, Entry]:
    game_id = request.path_params["game_id"]
    try:
        return game_id, store.get(game_id)
    except GameGone as error:
        raise Refusal(404, str(error)) from None


def _check_not_searching(entry: Entry) -> None:
    if entry.searching():
        raise Refusal(
            409, "the agent is still finishing a search that went over the time cap; try again soon"
        )


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body), read up to the size limit."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MOST_BODY_BYTES:
        raise Refusal(413, f"the request body is over {MOST_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MOST_BODY_BYTES:
            raise Refusal(413, f"the request body is over {MOST_BODY_BYTES} bytes")
    if not body.strip():
        return {}
    try:
        fields = json.loads(body)
    except (ValueError, RecursionError):
        raise Refusal(400, "the request body is not JSON") from None
    if not isinstance(fields, dict):
        raise Refusal(400, "the request body must be a JSON object")
    return fields


async def _agents_reply(entry: Entry, cap: float, undo_to: int) -> None:
    """Let the agents play until a person is to act or the game ends, each within ``cap`` s.

    A search runs in a worker thread on a copy of the position. One that goes over the cap
    is abandoned: the game goes back to ``undo_to`` decisions and the request is refused.
    """
    match = entry.match
    while (agent := match.agent_to_act()) is not None:
        position = match.state.clone()
        done = threading.Event()

        def think(
            agent: Any = agent, position: Any = position, done: threading.Event = done
        ) -> int:
            try:
                return int(agent.act(position))
            finally:
                done.set()

        action = None
        with anyio.move_on_after(cap):
            action = await anyio.to_thread.run_sync(think, abandon_on_cancel=True)
        if action is None:
            entry.search_done = done
            match.rewind(undo_to)
            raise Refusal(
                503,
                f"agent {agent.name} thought for over {cap:g} s, the server's time cap per move; "
                "the game is back where it was: try again, or a smaller search",
            )
        match.play(action)


async def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refusal)
    return JSONResponse({"error": error.message}, status_code=error.status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = error.detail
    if error.status_code == 404:
        message = f"nothing at {request.url.path}: the page is at /, the API under /api/"
    elif error.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}"
    return JSONResponse({"error": message}, status_code=error.status_code)
