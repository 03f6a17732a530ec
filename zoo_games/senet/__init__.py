"""Senet: the rules core (:mod:`.rules`), positions, observation and rendering."""
