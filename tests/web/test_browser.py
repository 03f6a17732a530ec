"""The page in a real browser: Debian's chromium, driven by Playwright, on a live server.

The server is uvicorn in a thread on a free loopback port. Games are played by clicking on
the boards, as a person would: a whole Santorini game against random, a Senet game through an
extra turn, a Togyz Kumalak game through a tuzduk; an illegal click changes nothing, undo goes
back, and a reloaded tab finds its game (or says that it is gone). With the environment
variable ``ZOO_GAMES_SCREENSHOTS`` set to a folder, a picture of each board is saved there
(``docs/_static/web`` holds the ones in the docs).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra's starlette serves the app")
pytest.importorskip("uvicorn", reason="the web extra's uvicorn runs the server")
pytest.importorskip("playwright", reason="the test extra's playwright drives the browser")
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from zoo_games.catalog import find_variant
from zoo_games.web.app import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: Without the networking flags chromium keeps trying to reach the outside world.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# White sows hole 3 (13 balls): the last ball makes Black's hole 6 three, White's tuzduk (36x).
BEFORE_TUZDUK = "5,0,13,13,0,13,2,0,1/12,11,11,11,2,2,1,1,14 10 40 W"
# The spools to move with a throw of 4, which gives an extra turn.
SENET_THROW_4 = "CSCSCSCSCS.................... S 4"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(
        base_url=server, viewport={"width": 900, "height": 1000}, reduced_motion="reduce"
    )
    opened = context.new_page()
    opened.goto("/")
    opened.wait_for_selector("#variant option", state="attached")
    yield opened
    context.close()


def start(page: Page, variant: str, opponent: str = "random", seed: int = 0, **more: str) -> None:
    page.select_option("#variant", variant)
    page.fill("#opponent", opponent)
    page.fill("#seed", str(seed))
    page.fill("#position", more.get("position", ""))
    page.select_option("#seat", more.get("seat", "first"))
    page.click("#start")
    page.wait_for_function("() => view !== null && view.variant === " + repr(variant))


def view(page: Page) -> dict[str, Any]:
    """What the page was last sent about its game."""
    answer: dict[str, Any] = page.evaluate("() => view")
    return answer


def click_move(page: Page, clicks: list[str]) -> dict[str, Any]:
    """Click the targets of one move on the board; return the page's view once answered."""
    played = len(view(page)["record"])
    for target in clicks:
        page.click(f'#board [data-target="{target}"]')
    page.wait_for_function(f"() => view.record.length > {played} || view.result !== null")
    return view(page)


def screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("ZOO_GAMES_SCREENSHOTS")
    if folder:
        page.locator("#board").screenshot(path=str(Path(folder) / f"{name}.png"))


def served_view(page: Page) -> dict[str, Any]:
    """The server's own view of the page's game, asked for afresh."""
    answer: dict[str, Any] = page.evaluate(
        "async () => (await fetch(`/api/games/${view.id}`)).json()"
    )
    return answer


def test_a_whole_santorini_game_against_random_by_clicks(page: Page) -> None:
    start(page, "santorini-fixed", seed=3)
    rng = random.Random(3)
    while (current := view(page))["result"] is None:
        choice = rng.choice(current["choices"])
        after = click_move(page, choice["clicks"])
        assert after["record"][len(current["record"])]["action"] == choice["action"]
        if after["result"] is None:  # the last of these pictures is the one kept
            screenshot(page, "santorini")
    env = find_variant("santorini-fixed").raw_env()
    env.reset(seed=3)
    for played in current["record"]:
        env.step(played["action"])
    assert env.game_state is not None and env.game_state.is_terminal()
    assert env.game_state.position() == current["position"]
    assert page.inner_text("#result").startswith("game over: player_")
    assert page.inner_text("#moves") == "none: the game is over"


def test_a_senet_move_with_an_extra_turn(page: Page) -> None:
    start(page, "senet-kendall-5", seed=1, position=SENET_THROW_4)
    assert page.inner_text("#turn") == "player_0 (spools) to move, throw 4"
    page.click('#board [data-target="h10"]')
    assert page.get_attribute('#board [data-target="h10"]', "class") == "target selected"
    assert "choosable" in (page.get_attribute('#board [data-target="h14"]', "class") or "")
    after = click_move(page, ["h14"])
    assert [p["name"] for p in after["record"]] == ["10-14"]
    assert after["to_act"] == 0  # the spools throw again
    assert page.inner_text("#news").startswith("extra turn: the spools threw 4 and throw again: ")
    assert page.inner_text("#turn").startswith("player_0 (spools) to move, throw ")
    screenshot(page, "senet")
    choice = after["choices"][0]
    after = click_move(page, choice["clicks"])
    assert after["record"][1]["name"] == choice["name"]


def test_a_togyz_kumalak_move_that_makes_a_tuzduk(page: Page) -> None:
    start(page, "togyz-kumalak", seed=2, position=BEFORE_TUZDUK)
    after = click_move(page, ["hole2"])  # White's hole 3
    assert after["record"][0]["name"] == "36x"
    tuzduk = page.locator('#board [data-target="hole14"]')  # Black's hole 6
    assert tuzduk.text_content() == "XWhite's"
    assert "makes a tuzduk" in after["record"][0]["description"]
    assert page.inner_text("#record").splitlines()[0] == "player_0 (White): 36x"
    screenshot(page, "togyz_kumalak")


def test_an_illegal_click_changes_nothing(page: Page) -> None:
    start(page, "togyz-kumalak", seed=4)
    before = served_view(page)
    for target in ("hole9", "hole12", "hole17"):  # Black's holes: not White's to sow
        page.click(f'#board [data-target="{target}"]')
    page.click("#board svg", position={"x": 300, "y": 120})  # the kazans: no target
    assert view(page) == before and served_view(page) == before
    assert page.inner_text("#selection") == ""
    assert "choosable" in (page.get_attribute('#board [data-target="hole0"]', "class") or "")
    assert hover_fill(page, "hole0") != hover_fill(page, "hole9") == "rgba(0, 0, 0, 0)"


def hover_fill(page: Page, target: str) -> str:
    """The fill of a target's hit area with the pointer over it: lit up only if choosable."""
    page.hover(f'#board [data-target="{target}"]')
    fill: str = page.eval_on_selector(
        f'#board [data-target="{target}"] > .hit', "hit => getComputedStyle(hit).fill"
    )
    return fill


def test_a_bad_field_is_told_and_starts_no_game(page: Page) -> None:
    page.fill("#opponent", "mcts:simulations=many")
    page.click("#start")
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message") == (
        "opponent 'mcts:simulations=many': mcts:simulations='many': expected int or none"
    )
    assert page.is_hidden("#game") and view(page) is None


def test_undo_and_reload(page: Page) -> None:
    start(page, "togyz-kumalak", seed=5)
    first = view(page)
    click_move(page, ["hole6"])
    assert view(page)["can_undo"]
    page.click("#undo")
    page.wait_for_function("() => view.record.length === 0")
    assert view(page) == first
    click_move(page, ["hole4"])
    played = view(page)
    page.reload()
    page.wait_for_function("() => view !== null")
    assert view(page) == played and page.input_value("#position-string") == played["position"]
    page.evaluate(f"() => fetch('/api/games/{played['id']}', {{method: 'DELETE'}})")
    page.reload()
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message").startswith("This tab's game is gone: there is no game")
    assert page.is_hidden("#game")
