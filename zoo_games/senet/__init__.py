"""Senet: the rules core (:mod:`zoo_games.senet.rules`), positions, observation and rendering."""
