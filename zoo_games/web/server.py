"""``zoo-games serve``: the web app on uvicorn, on loopback unless asked otherwise."""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys

from zoo_games.web.settings import ServerSettings

#: Host names that only this machine reaches.
LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is reached only from this machine."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str, port: int) -> str | None:
    """What to tell the operator of a server that other machines may reach; ``None`` if none."""
    if is_loopback(host):
        return None
    return (
        f"warning: serving on {host}:{port}, not on loopback: anyone who reaches this port can "
        "start games and spend this machine's CPU on agents' searches"
    )


def listening_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port``; ``None`` if it can.

    Tried by binding a socket as uvicorn will (``SO_REUSEADDR``, so a port left waiting by a
    server that just stopped is no problem) and closing it at once, so that a port in use
    says so in one line before anything starts, instead of uvicorn's log line and exit 3.
    """
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        return f"cannot serve on {host}: {error.strerror}"
    family, kind, protocol, _, address = addresses[0]
    try:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return (
                f"port {port} on {host} is in use by another program: "
                "stop it, or serve on another port with --port"
            )
        return f"cannot serve on {host}:{port}: {error.strerror}"
    return None


def serve(host: str, port: int, settings: ServerSettings) -> int:
    """Serve the app until Ctrl-C; return the exit code (1: it could not listen)."""
    import uvicorn

    from zoo_games.web.app import create_app

    problem = listening_problem(host, port)
    if problem:
        print(f"zoo-games serve: {problem}", file=sys.stderr)
        return 1
    warning = exposure_warning(host, port)
    if warning:
        print(warning, file=sys.stderr)
    print(f"zoo-games: open http://{host}:{port}/ in a browser (Ctrl-C stops the server)")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
    return 0
