"""Every page has one h1, the first thing a screen reader's heading list offers (axe: page-has-heading-one)."""

import re

import pytest

from tests.platform.test_host_devices import host_link
from tests.platform.test_pages import csrf, open_table, take_seat


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
def test_every_page_a_player_or_the_host_opens_has_one_h1(client, app, lang):
    code = open_table(client)
    phone = app.test_client()
    phone.get(f"/?lang={lang}")
    take_seat(phone, code, "player-1", "A" * 40)
    phone.post(f"/t/{code}/act", data={"type": "write", "note": "x", "csrf_token": csrf(phone, f"/t/{code}/seat")})
    freed = client.post(f"/t/{code}/seats/player-1/free", data={"csrf_token": csrf(client, f"/t/{code}/host")})
    pages = {
        "lobby": client.get(f"/?lang={lang}"),  # from here on in that language
        "join": client.get(f"/t/{code}"),
        "seat": phone.get(f"/t/{code}/seat"),
        "display": client.get(f"/t/{code}/display"),
        "host": client.get(f"/t/{code}/host"),
        "history": phone.get(f"/t/{code}/history?before=2"),
        "record": client.get(f"/t/{code}/record"),
        "invite": freed,
        "host link": client.post(f"/t/{code}/host-link", data={"csrf_token": csrf(client, f"/t/{code}/host")}),
        "host welcome": app.test_client().get(host_link(client, code)),
        "error": client.get("/t/NOSUCH/display"),
    }
    for name, page in pages.items():
        headings = re.findall(r"<h1\b[^>]*>(.*?)</h1>", page.get_data(as_text=True), re.S)
        assert len(headings) == 1 and re.sub(r"<[^>]+>|\s", "", headings[0]), (name, page.status_code, headings)
