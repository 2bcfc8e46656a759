"""A table in Chromium, Firefox and WebKit: the lobby opens it, two phones join, an action shows live on the other
phone and the display, and a server that went away is said, waited for and caught up with. Then one walked game's
phone checks in Firefox and WebKit, its pushes put together as a load shows them among them (Chromium's are in
test_walk.py)."""

import pytest

from tests.conftest import ServerProcess
from tests.e2e import conftest
from tests.e2e.test_walk import PLANS
from tests.e2e.walk import AT_SEQ, Walk, options_for

GAME = "form:has(input[name=game][value=secret-notes])"
NOTE = "form[data-action=write]"
SAYS = "(text) => document.body?.textContent.includes(text)"  # folded parts (the history) too
# The badge shown (or gone) and every button of the page held (or free again): a phone's note button among them.
AWAY = """(away) => {
  const badge = document.querySelector("[data-connection]");
  const buttons = [...document.querySelectorAll("#live button")];
  return (badge.getClientRects().length > 0) === away && buttons.every((button) => button.disabled === away);
}"""


@pytest.fixture
def devices(engine):
    """Devices at the table in the engine at hand (waits a little longer: a restarted server is awaited)."""
    yield from conftest.devices(engine, timeout=15_000)


def take_seat(phone, base: str, code: str, seat: str, name: str) -> None:
    phone.goto(f"{base}/t/{code}")
    claim = f"form.claim:has(input[name=seat][value={seat}])"
    phone.fill(f"{claim} input[name=name]", name)
    phone.click(f"{claim} button")
    phone.wait_for_function(SAYS, arg=f"You are {name}")


def write(phone, note: str) -> None:
    phone.fill(f"{NOTE} input[name=note]", note)
    phone.click(f"{NOTE} button")


def test_a_table_plays_live_and_rides_out_a_server_restart_in_every_engine(server, devices):
    display, anna, bea = devices(1280, 800), devices(360, 740), devices(360, 740)
    display.goto(server.url + "/")
    display.fill(f"{GAME} input[name=players]", "2")
    display.click(f"{GAME} button.primary")
    display.wait_for_function("() => /^\\/t\\/[A-Z0-9]{6}\\/display$/.test(location.pathname)")
    code = display.url.split("/")[-2]
    take_seat(anna, server.url, code, "player-1", "Šárka Přemyslovna")
    take_seat(bea, server.url, code, "player-2", "IJsbrand")
    display.wait_for_function(SAYS, arg="IJsbrand")

    write(anna, "hello")
    for screen in (display, anna, bea):
        screen.wait_for_function(AT_SEQ, arg=1)
    bea.wait_for_function(SAYS, arg="Šárka Přemyslovna wrote a note.")

    server.kill()  # every socket is closed from the server's side
    for screen in (display, anna, bea):
        screen.wait_for_function(AWAY, arg=True)
    assert anna.evaluate(f"() => document.querySelector('{NOTE} button').disabled")

    server.start()
    for screen in (display, anna, bea):
        screen.wait_for_function(AWAY, arg=False)  # the page's backoff is up to 10 s
    write(bea, "after the restart")
    for screen in (display, anna, bea):
        screen.wait_for_function(AT_SEQ, arg=2)
    anna.wait_for_function(SAYS, arg="IJsbrand wrote a note.")


@pytest.mark.parametrize("engine_name", ["firefox", "webkit"])
def test_a_walked_game_s_phones_show_their_controls_first_and_what_a_load_shows_in_firefox_and_webkit(
    request, tmp_path, engine_name
):
    """One seed of Scotland Yard with one detective player (two phones), fewer actions than the suite's walk: the
    controls in the first screen, and each phone's live part as the pushes left it the same as a fresh load's."""
    engine = request.getfixturevalue(engine_name)
    server = ServerProcess(tmp_path / "data", env={"COMPANION_REPLAY_SEED": "walk"}).start()
    seed = 6  # in English; options_for gives it one detective player
    table = Walk(server.url, engine, PLANS["scotland-yard"], seed, options_for("scotland-yard", seed), display=False)
    try:
        findings = table.play(limit=40)
    finally:
        table.close()
        server.stop()
    assert findings.actions >= 30, f"the walk stopped early: {findings.actions} actions"
    assert not findings.checks["phone"], findings.summary("phone")
    # The pushes as this engine puts them together (diffs, runs of history lines made one each: static/app.js).
    assert not findings.checks["whole"], findings.summary("whole")
