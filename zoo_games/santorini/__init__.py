"""Santorini: rules core, positions, observation and rendering."""
