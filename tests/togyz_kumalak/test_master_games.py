"""Every move of the 742 packaged master games (50,980 moves) replays with our rules."""

from __future__ import annotations

from zoo_games.togyz_kumalak import master_games
from zoo_games.togyz_kumalak.holes import WINNING_KAZAN
from zoo_games.togyz_kumalak.notation import replay
from zoo_games.togyz_kumalak.records import RESULTS
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame


def test_the_package_ships_all_742_records_with_their_fields():
    games = master_games()
    assert len(games) == 742
    assert sum(len(record.moves) for record in games) == 50_980
    assert {record.result for record in games} <= set(RESULTS)
    assert [record.number for record in games] == list(range(1, 743))
    first = games[0]
    assert first.event == "Кубок РК"  # noqa: RUF001 (the Republic's Cup, in Russian)
    assert first.date == "2018" and first.result == "0-1"
    assert first.moves[:3] == ("76", "98", "66")


def test_every_recorded_move_is_legal_and_named_as_recorded():
    for record in master_games():
        # Played out to the end: our default would stop at 82, which no record passes.
        state = replay(record.moves, TogyzKumalakGame(stop_at_majority=False))
        assert state.moves == list(record.moves)
        white, black = state.kazans
        if state.is_terminal() or max(white, black) >= WINNING_KAZAN:
            expected = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
            assert record.result == expected, (record.number, state.position())


def test_no_record_goes_on_after_a_kazan_reached_82():
    for record in master_games():
        state = TogyzKumalakGame().new_initial_state()
        for move in record.moves:
            assert not state.is_terminal(), record.number
            state.apply_action(int(move[0]) - 1)
