"""Stones: a toy game built by docs/adding_a_game.md's checklist, for tests/test_adding_a_game.py.

This folder is laid out as a game is inside ``zoo_games/`` (``stones/`` beside ``stones_v0.py``)
and imports itself as ``zoo_games.stones``: the test adds this folder to the package's search
path, as if the files had been copied there. A pile of stones; each turn takes 1, 2 or 3;
whoever takes the last stone wins.
"""
