"""Togyz Kumalak: rules core, positions, notation, observations, rendering and master games."""

from zoo_games.togyz_kumalak.records import GameRecord, master_games

__all__ = ["GameRecord", "master_games"]
