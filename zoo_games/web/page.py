"""The page's files (``zoo_games/web/static/``), shipped as package data and read once.

Only the files named here are ever served: no part of a request's path reaches the disk.
"""

from __future__ import annotations

import importlib.resources

#: The files the page is made of, and their media types.
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


def read_static_files() -> dict[str, bytes]:
    """Each file of :data:`STATIC_FILES` by name, as shipped in the package."""
    folder = importlib.resources.files("zoo_games.web") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC_FILES}
