"""Play in the browser (``zoo-games serve``): a local web app drawing the boards as SVG.

:mod:`~zoo_games.web.app` is the Starlette app and its JSON API, :mod:`~zoo_games.web.match`
one game (the terminal's session logic: seed, record, undo by replay), :mod:`~zoo_games.web.store`
the games kept in memory, :mod:`~zoo_games.web.new_game` the checks of a new game's fields,
:mod:`~zoo_games.web.views` what the page is sent, :mod:`~zoo_games.web.boards` each game's
picture and clicks, :mod:`~zoo_games.web.page` the page's files, :mod:`~zoo_games.web.server`
the command. The page itself (``static/``) holds no rules: it draws what it is sent and
matches clicks against the legal moves listed with it. Needs the ``web`` extra (Starlette and
uvicorn); see ``docs/play.md``.
"""

from zoo_games.web.settings import ServerSettings

__all__ = ["ServerSettings"]
