"""A tiny JSON client for tests against real server processes (standard library only)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import websocket


def call(base: str, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path, method=method, data=None if body is None else json.dumps(body).encode()
    )
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def open_table(base: str, game: str = "secret-notes", options: dict | None = None, seats=()) -> dict:
    """A table with the named seats taken (seat ids, each its own player's name, or {seat id: name}):
    {"code", "host", seat id: token}."""
    status, created = call(base, "POST", "/api/tables", {"game": game, "options": options or {}})
    assert status == 201, created
    table = {"code": created["code"], "host": created["host_token"]}
    names = seats if isinstance(seats, dict) else {seat: seat for seat in seats}
    for seat, name in names.items():
        status, claimed = call(base, "POST", f"/api/tables/{table['code']}/seats", {"seat": seat, "name": name})
        assert status == 201, claimed
        table[seat] = claimed["token"]
    return table


def socket(base: str, code: str, token: str | None, query: str = "format=json&since=-1") -> websocket.WebSocket:
    url = base.replace("http", "ws", 1) + f"/t/{code}/ws?{query}"
    headers = [f"Authorization: Bearer {token}"] if token else []
    return websocket.create_connection(url, header=headers, timeout=10)


def send_form(ws, **fields) -> tuple[dict, str]:
    """A page's form over its socket, as static/app.js sends it; the answer that comes back, and the view that came
    with it (in one message, on the answer's next line) if any."""
    ws.send(json.dumps({"form": {name: [str(value)] for name, value in fields.items()}}))
    while not (message := ws.recv()).startswith("{"):
        pass  # a frame pushed before the answer: the host page's, when a phone comes or goes
    answer, _, frame = message.partition("\n")
    return json.loads(answer), frame


def post_form(base: str, code: str, cookie: str, path: str, form: dict | None = None) -> tuple[int, str]:
    """A page's form posted as htmx posts it (the page's cookie and CSRF token) to /t/CODE/path: status and body."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(urllib.request.Request(f"{base}/t/{code}/display", headers={"Cookie": cookie})) as page:
        token = re.search(rb'data-csrf="([^"]+)"', page.read()).group(1).decode()
    session = "; ".join(f"{each.name}={each.value}" for each in jar)
    posted = urllib.request.Request(
        f"{base}/t/{code}/{path}",
        data=urllib.parse.urlencode(form or {}).encode(),
        headers={"X-CSRF-Token": token, "HX-Request": "true", "Cookie": f"{cookie}; {session}"},
    )
    try:
        with browser.open(posted, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
