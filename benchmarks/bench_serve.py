"""Load on ``zoo-games serve``: many games at once from one script, random moves to the end.

The server is started as a user would (``python -m zoo_games.cli serve`` on a free loopback
port, in its own process); this script then plays ``--games`` games at once against it, each
a game between two people (no agent search) of one variant in turn, every move drawn at
random from the legal moves the server lists. Every answer is checked against a replay of
the same game in this process (same variant, seed and moves): its id, its position and its
record must be this game's, so no game mixes with another, and each game must end where its
rules end it, with their result. Printed: requests per second over the whole run, and the
median and 95th-percentile time of a move request.

    python benchmarks/bench_serve.py --games 50
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx2

from zoo_games.catalog import find_variant, labels


@dataclass
class Tally:
    """Requests made and the time of each move request."""

    requests: int = 0
    move_seconds: list[float] = field(default_factory=list)


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(port: int, games: int) -> subprocess.Popen[bytes]:
    """``zoo-games serve`` on ``port``, keeping at least ``games`` games; wait until it answers."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zoo_games.cli",
            "serve",
            "--port",
            str(port),
            "--most-games",
            str(max(games, 200)),
        ],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("bench_serve.py: the server stopped before answering") from None
            time.sleep(0.1)
    server.kill()
    raise SystemExit("bench_serve.py: the server did not answer within 60 s")


def check(answer: dict[str, Any], game_id: str, env: Any, record: list[int]) -> None:
    """The answer is about this game, and in the position its own moves lead to."""
    assert answer["id"] == game_id, (answer["id"], game_id)
    assert [played["action"] for played in answer["record"]] == record, game_id
    assert answer["position"] == env.game_state.position(), (game_id, answer["position"])


async def play_one(
    client: httpx2.AsyncClient, label: str, seed: int, tally: Tally
) -> tuple[str, int]:
    """Play one game to its end with random moves; return its result and its move count."""
    response = await client.post(
        "/api/games", json={"variant": label, "opponent": "human", "seed": seed}
    )
    tally.requests += 1
    answer = response.json()
    assert response.status_code == 201, answer
    game_id = answer["id"]
    env = find_variant(label).raw_env()
    env.reset(seed=seed)
    rng = random.Random(seed)
    record: list[int] = []
    check(answer, game_id, env, record)
    while answer["result"] is None:
        action = rng.choice(answer["choices"])["action"]
        started = time.perf_counter()
        response = await client.post(f"/api/games/{game_id}/move", json={"action": action})
        tally.move_seconds.append(time.perf_counter() - started)
        tally.requests += 1
        answer = response.json()
        assert response.status_code == 200, answer
        env.step(action)
        record.append(action)
        check(answer, game_id, env, record)
    state = env.game_state
    assert state is not None and state.is_terminal(), (
        label,
        seed,
        "the server ended a game its rules go on with",
    )
    first, second = state.returns()
    winner = "a draw" if first == second else f"player_{0 if first > second else 1}"
    assert answer["result"].startswith(winner), (answer["result"], winner)
    await client.delete(f"/api/games/{game_id}")
    tally.requests += 1
    return label, len(record)


async def load(port: int, games: int, chosen: list[str], seed: int) -> tuple[Tally, float, list]:
    tally = Tally()
    limits = httpx2.Limits(max_connections=games)
    async with httpx2.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=120
    ) as client:
        started = time.perf_counter()
        ended = await asyncio.gather(
            *(play_one(client, chosen[i % len(chosen)], seed + i, tally) for i in range(games))
        )
        return tally, time.perf_counter() - started, ended


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive, default=50, help="games at once (50)")
    parser.add_argument("--seed", type=positive, default=1, help="seed of the first game (1)")
    parser.add_argument(
        "--only", action="append", metavar="VARIANT", help="play only these variants (repeatable)"
    )
    args = parser.parse_args(argv)
    chosen = args.only or labels()
    unknown = [label for label in chosen if label not in labels()]
    if unknown:
        parser.error(f"--only {unknown[0]!r} is not a variant; variants: {', '.join(labels())}")
    port = free_port()
    server = start_server(port, args.games)
    try:
        tally, seconds, ended = asyncio.run(load(port, args.games, chosen, args.seed))
    finally:
        server.terminate()
        server.wait(timeout=30)
    moves = len(tally.move_seconds)
    quantiles = statistics.quantiles(tally.move_seconds, n=20) if moves > 1 else [0.0] * 19
    played = len({label for label, _ in ended})
    print(f"{args.games} games at once, {played} variants, {moves} moves, all checked")
    print(
        f"{tally.requests} requests in {seconds:.1f} s: {tally.requests / seconds:.0f} requests/s"
    )
    print(
        f"move request: median {statistics.median(tally.move_seconds) * 1000:.1f} ms, "
        f"95th percentile {quantiles[18] * 1000:.1f} ms"
    )
    print(f"on {os.cpu_count()} cores; load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
