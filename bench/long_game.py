"""A real game played long: what a push and a page load cost at action 20 and at action 2,000 (issue 20).

    .venv/bin/python -m bench.long_game [--at 20,200,1000,2000] [--window 50]

Mice and Mystics with two mice, played in process through the table service (no HTTP for the actions):
cheese on a mouse, a wound, healing, cheese spent, the next card of the initiative track, over and over.
At each checkpoint it prints one JSON line: the bytes of a seat's HTML frame, the display's, a seat's JSON
frame and a seat page's load, and the CPU per action of the last `--window` actions, each pushed the way
the live path does (the action, then one frame per open page: both seats and the display, HTML and JSON).
The host page is left out: it shows the whole history on purpose.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from types import SimpleNamespace

from companion.store import Event
from companion.tables import token_hash
from companion.web.app import create_app
from companion.web.frames import render_frames, render_key

GAME = "mice-and-mystics"
SEATS = ("player-1", "player-2")
SETUP = (
    ("player-1", {"type": "add_mouse", "hero": "collin", "life": 5}),
    ("player-2", {"type": "add_mouse", "hero": "nez", "life": 6}),
    ("player-1", {"type": "add_minions", "minion": "rats", "figures": 3, "life": 1}),
    ("player-1", {"type": "start_chapter"}),
)
# A turn that never ends the chapter: the cheese goes on a mouse, not on the wheel (a full wheel moves the hourglass).
TURN = (
    ("player-1", {"type": "mouse_cheese", "mouse": "collin", "count": 1}),
    ("player-2", {"type": "wound_mouse", "mouse": "nez", "count": 1}),
    ("player-2", {"type": "heal_mouse", "mouse": "nez", "count": 1}),
    ("player-1", {"type": "mouse_cheese", "mouse": "collin", "count": -1}),
    ("player-1", {"type": "next"}),
)


class LongGame:
    """One table of the game in an app of its own, with its seats' tokens and the frames a push renders."""

    def __init__(self, app):
        self.app = app
        self.service = app.extensions["companion"]
        self.code, _host = self.service.create(GAME, {"players": len(SEATS)})
        self.tokens = {seat: self.service.claim(self.code, seat, seat.title()) for seat in SEATS}
        self.actions = 0
        for seat, action in SETUP:
            self.service.act(self.code, seat, action)

    def play(self, count: int) -> None:
        """The next `count` actions of the endless turn."""
        for _ in range(count):
            seat, action = TURN[self.actions % len(TURN)]
            self.service.act(self.code, seat, action)
            self.actions += 1

    def fast_forward(self, count: int) -> None:
        """The next `count` actions appended to the log in one commit, and read back the way a restart does
        (each folded through the game and described): a long game without a durable commit per action."""
        table = self.service.newest(self.code)
        events = []
        for offset in range(count):
            seat, action = TURN[(self.actions + offset) % len(TURN)]
            events.append(Event(table.seq + 1 + offset, "action", seat, action))
        self.service.store.append(self.code, *events)
        self.service.newest(self.code)
        self.actions += count

    def page(self, seat: str | None, as_json: bool = False):
        """What render_frames needs to know of an open page."""
        hashed = token_hash(self.tokens[seat]) if seat else None
        return SimpleNamespace(
            seat=seat,
            seat_token_hash=hashed,
            is_host=False,
            locale="en",
            base_url="http://127.0.0.1/",
            as_json=as_json,
            host_page=False,
            render_key=render_key(seat, hashed, False, "en", as_json, False, "http://127.0.0.1/"),
        )

    def frame(self, seat: str | None, as_json: bool = False) -> str:
        page = self.page(seat, as_json)
        return render_frames(self.app, self.code, [page])[page.render_key]

    def push(self) -> None:
        """The frames one change renders: each seat's and the display's, as HTML and as JSON."""
        pages = [self.page(seat, as_json) for seat in (*SEATS, None) for as_json in (False, True)]
        render_frames(self.app, self.code, pages)

    def page_load(self, seat: str) -> bytes:
        client = self.app.test_client()
        client.set_cookie(f"seat_{self.code}", self.tokens[seat])
        return client.get(f"/t/{self.code}/seat").data

    def sizes(self) -> dict[str, int]:
        """The bytes of the frames a change pushes and of a seat page's load, now."""
        return {
            "seat_frame_bytes": len(self.frame(SEATS[0])),
            "display_frame_bytes": len(self.frame(None)),
            "json_frame_bytes": len(self.frame(SEATS[0], as_json=True)),
            "seat_page_bytes": len(self.page_load(SEATS[0])),
        }

    def measure(self, window: int) -> dict:
        """Sizes now, and the CPU per action (with its push) of the next `window` actions."""
        sizes = {"actions": self.actions, **self.sizes()}
        started = time.process_time()
        for _ in range(window):
            self.play(1)
            self.push()
        return sizes | {"cpu_ms_per_action": round((time.process_time() - started) * 1000 / window, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--at", default="20,200,1000,2000", help="checkpoints (actions played)")
    parser.add_argument("--window", type=int, default=50, help="actions timed at each checkpoint")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        # Every frame rendered here, so that the process time counts it (a render worker's would not).
        game = LongGame(create_app({"DATA_DIR": data, "RENDER_WORKERS": 0}))
        for checkpoint in sorted(int(at) for at in args.at.split(",")):
            game.fast_forward(max(0, checkpoint - game.actions))
            print(json.dumps(game.measure(args.window)), flush=True)


if __name__ == "__main__":
    main()
