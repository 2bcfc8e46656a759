"""Hidden information is guarded by construction: no seat ever receives another seat's secret."""

from tests.leaks import DISPLAY, Table


def test_no_byte_a_seat_receives_carries_another_seats_unrevealed_note(server):
    seats = ["player-1", "player-2", "player-3"]
    table = Table(server.url, "secret-notes", {"players": 3}, seats)
    table.received()
    for round_number in (1, 2):
        written = {}
        for seat in seats:
            note = f"zq{seat[-1]}secret{round_number}x"
            status, _ = table.act(seat, {"type": "write", "note": note})
            assert status == 200
            written[seat] = note
            refused, body = table.act(seat, {"type": "next_round"}) if len(written) < 3 else (422, {})
            assert refused == 422
            got = table.received()
            revealed = len(written) == len(seats)
            for viewer, text in got.items():
                for owner, secret in written.items():
                    if viewer != owner and not revealed:
                        assert secret not in text, f"{viewer} saw {owner}'s note"
            assert note in got[seat]
            if revealed:
                assert all(secret in got[DISPLAY] for secret in written.values())
        table.act("player-1", {"type": "next_round"})
    table.close()
