"""What the page is sent about a game: one JSON object, everything it draws and may click.

The page keeps nothing between answers but the game's id: each answer carries the board as
SVG, whose turn it is, the legal moves with the clicks that choose them (only when a person
is to act), the targets of the last move to mark, the record, and the result at the end.
"""

from __future__ import annotations

from typing import Any

from zoo_games.web.match import Match, Played


def game_view(game_id: str, match: Match) -> dict[str, Any]:
    """The JSON object the page draws ``match`` from."""
    state = match.state
    over = state.is_terminal()
    player = None if over else state.current_player()
    agent = match.agent_to_act()
    last = _last_turn(match.history)
    return {
        "id": game_id,
        "variant": match.variant.label,
        "game": match.env.game.name,
        "seed": match.seed,
        "start": match.start,
        "seats": [
            {
                "player": seat,
                "label": match.label(seat),
                "by": f"agent {match.agents[seat].name}" if seat in match.agents else "person",
            }
            for seat in (0, 1)
        ],
        "position": state.position(),
        "board": match.board.picture(state),
        "to_act": player,
        "turn": None
        if player is None
        else f"{match.label(player)} {match.language.turn_note(state)}",
        "choices": []
        if agent is not None
        else [
            {
                "name": choice.name,
                "description": choice.description,
                "action": choice.action,
                "clicks": list(choice.clicks),
            }
            for choice in match.choices()
        ],
        "last": sorted({target for played in last for target in played.clicks}),
        "news": [played.note for played in last if played.note],
        "record": [
            {
                "player": p.player,
                "action": p.action,
                "name": p.name,
                "description": p.description,
                "note": p.note,
            }
            for p in match.history
        ],
        "can_undo": any(p.player not in match.agents for p in match.history),
        "result": match.result(),
    }


def _last_turn(history: list[Played]) -> list[Played]:
    """The last run of decisions by one player: an agent's reply with its extra turns."""
    if not history:
        return []
    player = history[-1].player
    start = len(history)
    while start > 0 and history[start - 1].player == player:
        start -= 1
    return history[start:]
