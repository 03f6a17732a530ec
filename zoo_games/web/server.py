"""``zoo-games serve``: the web app on uvicorn, on loopback unless asked otherwise."""

from __future__ import annotations

import ipaddress
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


def serve(host: str, port: int, settings: ServerSettings) -> int:
    """Serve the app until Ctrl-C; return the exit code."""
    import uvicorn

    from zoo_games.web.app import create_app

    warning = exposure_warning(host, port)
    if warning:
        print(warning, file=sys.stderr)
    print(f"zoo-games: open http://{host}:{port}/ in a browser (Ctrl-C stops the server)")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
    return 0
