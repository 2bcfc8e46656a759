"""An acknowledged action survives kill -9 of the server."""

import http.client
import threading

from tests.http import call, open_table


def test_every_acknowledged_action_survives_kill_9(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    acknowledged: list[int] = []
    stop = threading.Event()

    def roll_until_killed():
        while not stop.is_set():
            try:
                status, body = call(
                    server.url, "POST", f"/api/tables/{table['code']}/actions", {"type": "roll"}, table["host"]
                )
            except (OSError, http.client.HTTPException):  # killed before its answer was whole: not acknowledged
                return
            if status == 200:
                acknowledged.append(body["applied_seq"])

    stream = threading.Thread(target=roll_until_killed)
    stream.start()
    while len(acknowledged) < 30:
        stream.join(0.01)
    server.kill()
    stop.set()
    stream.join()
    server.start()
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])
    assert status == 200
    assert view["seq"] >= max(acknowledged)
    assert len(view["view"]["dice"]) == view["seq"]
    assert acknowledged == list(range(1, len(acknowledged) + 1))
