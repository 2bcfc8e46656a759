"""Every byte a seat receives, gathered from every channel, to prove that secrets stay with their seat.

Games reuse this: open a table on a real server, let `Table` take the seats,
play, and after every step call `received()` and check what each screen got
(`json_frames` and `walk` find every JSON object in it).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import websocket

from tests.http import call, open_table, socket

DISPLAY = "display"


def json_frames(text: str) -> list[dict]:
    """The JSON documents among everything a screen received: socket frames, action answers, API views."""
    frames = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                frames.append(json.loads(line))
            except ValueError:
                continue
    return frames


def walk(value):
    """Every dict inside a JSON document."""
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


class Table:
    """One table on a real server, with a phone per seat and a display, each listening on two sockets."""

    def __init__(self, base: str, game: str, options: dict, seats: list[str]):
        self.base = base
        created = open_table(base, game, options, seats)
        self.code, self.host = created["code"], created["host"]
        self.tokens = {seat: created[seat] for seat in seats}
        self.sockets: dict[str, list[websocket.WebSocket]] = {}
        for viewer, token in [*self.tokens.items(), (DISPLAY, None)]:
            view = "seat" if token else "display"
            self.sockets[viewer] = [
                socket(base, self.code, token, f"format=json&since=-1&view={view}"),
                socket(base, self.code, token, f"since=-1&view={view}"),
            ]
        self.responses: dict[str, list[str]] = {viewer: [] for viewer in self.sockets}
        # Each socket is read all the time, as a phone does: one that stops reading is cut off by the server.
        self.frames: dict[str, list[str]] = {viewer: [] for viewer in self.sockets}
        self.frames_lock = threading.Lock()
        for viewer, pair in self.sockets.items():
            for ws in pair:
                threading.Thread(target=self._read, args=(viewer, ws), daemon=True).start()

    def act(self, seat: str, action: dict) -> tuple[int, dict]:
        """Send an action as a seat (or "host"); its answer counts as received by that seat."""
        token = self.host if seat == "host" else self.tokens[seat]
        status, body = call(self.base, "POST", f"/api/tables/{self.code}/actions", action, token)
        self.responses[DISPLAY if seat == "host" else seat].append(json.dumps(body))
        return status, body

    def received(self) -> dict[str, str]:
        """Everything each screen has received since the last call: frames, pages, fragments, JSON, errors."""
        time.sleep(0.1)  # pushes go out after the action is answered
        got = {viewer: self.responses[viewer] + self._drain(viewer) + self._fetch(viewer) for viewer in self.sockets}
        self.responses = {viewer: [] for viewer in self.sockets}
        return {viewer: "\n".join(parts) for viewer, parts in got.items()}

    def _read(self, viewer: str, ws: websocket.WebSocket) -> None:
        ws.settimeout(None)
        try:
            while True:
                frame = ws.recv()
                with self.frames_lock:
                    self.frames[viewer].append(frame)
        except (websocket.WebSocketException, OSError):
            return  # closed by close(), or by the server (a freed seat)

    def _drain(self, viewer: str) -> list[str]:
        with self.frames_lock:
            frames, self.frames[viewer] = self.frames[viewer], []
        return frames

    def _fetch(self, viewer: str) -> list[str]:
        token = self.tokens.get(viewer)
        cookie = f"seat_{self.code}={token}" if token else f"host_{self.code}={self.host}"
        view = "seat" if token else "display"
        pages = [
            f"/t/{self.code}/{view}",
            f"/t/{self.code}/live?view={view}",
            f"/t/{self.code}",
            f"/t/{self.code}/history",
        ]
        if not token:
            # The host's tools and the whole history, off the display, and the table's record.
            pages += [f"/t/{self.code}/host", f"/t/{self.code}/record", f"/t/{self.code}/record.json"]
        texts = [self._get(path, cookie) for path in pages]
        answers = [
            call(self.base, "GET", f"/api/tables/{self.code}/{path}", token=token or self.host)[1]
            for path in ("view", "history")
        ]
        return [*texts, *(json.dumps(body) for body in answers)]

    def _get(self, path: str, cookie: str) -> str:
        request = urllib.request.Request(self.base + path, headers={"Cookie": cookie})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.read().decode()

    def close(self) -> None:
        for pair in self.sockets.values():
            for ws in pair:
                ws.close()
