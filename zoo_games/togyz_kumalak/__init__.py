"""Togyz Kumalak: rules core, positions, notation, observations and rendering."""
