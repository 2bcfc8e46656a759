"""After the game: every phone's "Save to BG Stats" link and the play's download, for each of the four games.

Each game is played to its end through the JSON API (the games' own web tests' quick paths), on a clock that
moves one minute per logged event, so the date and duration the play carries can be checked exactly.
"""

from __future__ import annotations

import html
import json
import re
import time
from itertools import count
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.bgstats import CREATE_PLAY
from companion.tables import Tables
from tests.games import test_downforce_web, test_eat_your_tourist_web, test_mice_and_mystics_web
from tests.games import test_scotland_yard_web as scotland_yard
from tests.games.test_mice_and_mystics import on_turn
from tests.pages import api, browser

BGSTATS_LINK = re.compile(r'<a class="button" href="([^"]+)"[^>]*data-bgstats>')
START = 1_800_000_000.0  # the first event's time; each later event comes a minute after the one before


@pytest.fixture
def minutes(service):
    """The table's clock: every event (and every table opened) one minute after the one before."""
    ticks = count()
    service.clock = lambda: START + 60 * next(ticks)


# Each game played to its end: the table's code, its tokens, and the start player the screens showed when play began.


def downforce(client, app):
    code, tokens = test_downforce_web.finished(client, app)
    return code, tokens, first_race_starter(app, code)


def downforce_world_championship(client, app):
    """Two races; the first race's start player began the play, whoever starts the second."""
    code, tokens = test_downforce_web.championship_between(client, app)
    starter = first_race_starter(app, code)
    api(client, code, tokens["host"], type="next_race")
    view = api(client, code, tokens["host"])
    while view["phase"] == "auction":
        view = test_downforce_web.pass_round(client, code, tokens, view, bidder=view["auction"]["eligible"][0])
    for seat in ("player-1", "player-2"):
        for choice in api(client, code, tokens[seat])["my_power_choices"][:1]:
            api(client, code, tokens[seat], type="keep_power", power=choice["power"])
    api(client, code, tokens["host"], type="end_race")
    return code, tokens, starter


def first_race_starter(app, code: str) -> str:
    """The start player the history named when the first race started."""
    lines = app.extensions["companion"].history(code, None, None, limit=10_000).lines
    return next(line["args"]["seat"] for line in lines if line["msg"] == "The race starts. %(seat)s plays first.")


def eat_your_tourist(client, app):
    code, host, tokens = test_eat_your_tourist_web.open_table(client)
    test_eat_your_tourist_web.over(client, code, host, tokens)
    return code, {"host": host, **tokens}, "player-1"


def mice_and_mystics(client, app):
    """A single chapter (no campaign): Anna's Lily and Bea's Filch reach its goals; whoever's card came first began."""
    table = test_mice_and_mystics_web.open_table(client)
    test_mice_and_mystics_web.act(client, table, "player-1", type="add_mouse", hero="lily", life=4)
    test_mice_and_mystics_web.act(client, table, "player-2", type="add_mouse", hero="filch", life=4)
    shown = test_mice_and_mystics_web.act(client, table, "player-1", type="start_chapter")
    test_mice_and_mystics_web.act(client, table, "player-2", type="goals_done")
    return table.pop("code"), table, on_turn(shown)


def scotland_yard_game(client, app):
    code, tokens = scotland_yard.open_table(client)
    scotland_yard.play_to_the_end(client, code, tokens)
    return code, tokens, "mister-x"


GAMES = {
    "downforce": (downforce, "Downforce", 215311),
    "eat-your-tourist": (eat_your_tourist, "Eat your tourist!", None),
    "mice-and-mystics": (mice_and_mystics, "Mice and Mystics", 124708),
    "scotland-yard": (scotland_yard_game, "Scotland Yard", 438),
}


def score_sheet(view: dict) -> dict[str, int] | None:
    """Each seat's final score as the game's own score sheet shows it to the display (None: a game without points)."""
    if "results" in view and view["results"].get("final_table"):
        return {row["seat"]: row["total"] for row in view["results"]["final_table"]}
    if "scoreboard" in view:
        return {row["seat"]: row["points"] for row in view["scoreboard"]}
    return None


def decoded(link: str) -> dict:
    assert link.startswith(CREATE_PLAY), link
    return json.loads(parse_qs(urlsplit(link).query)["data"][0])


def seat_page(app, code: str, token: str) -> str:
    answer = browser(app, code, seat=token).get(f"/t/{code}/seat")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("game", GAMES)
def test_every_phone_gets_a_bg_stats_link_that_carries_the_final_score_sheet(client, app, service, minutes, game):
    play_to_the_end, name, bgg_id = GAMES[game]
    code, tokens, starter = play_to_the_end(client, app)
    display = client.get(f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {tokens['host']}"}).json
    sheet, winners = score_sheet(display["view"]), set(display["outcome"]["winners"])
    names = service.names(code)
    events = service.store.events(code)

    seats = [seat for seat in tokens if seat != "host"]
    plays = [decoded(html.unescape(BGSTATS_LINK.search(seat_page(app, code, tokens[seat])).group(1))) for seat in seats]
    assert all(found == plays[0] for found in plays), "every phone sends the same play"
    found = plays[0]

    assert found["sourceName"] == "Table Companion"
    assert found["sourceUrl"].endswith(f"/t/{code}/display")
    assert found["game"]["name"] == name and found["game"]["sourceGameId"] == game
    assert found["game"].get("bggId") == bgg_id
    assert found["playDate"] == time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(events[0].created))
    assert found["durationMin"] == len(events) - 1 > 0  # a minute between each two events
    assert [player["name"] for player in found["players"]] == [names[seat] for seat in seats]
    assert [player["sourcePlayerId"] for player in found["players"]] == seats
    assert {player["sourcePlayerId"] for player in found["players"] if player["winner"]} == winners
    assert [player["sourcePlayerId"] for player in found["players"] if player["startPlayer"]] == [starter]
    assert found["game"]["noPoints"] is (sheet is None)
    if sheet is not None:
        assert {player["sourcePlayerId"]: player["score"] for player in found["players"]} == sheet
    else:
        assert all("score" not in player for player in found["players"])
    if game == "scotland-yard":
        side = "Mister X" if winners == {"mister-x"} else "Detectives"
        assert {player["role"] for player in found["players"] if player["winner"]} == {side}
        assert {player["role"] for player in found["players"]} == {"Mister X", "Detectives"}

    download = browser(app, code, seat=tokens[seats[-1]]).get(f"/t/{code}/play.json")
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    assert download.json == found
    by_api = client.get(f"/api/tables/{code}/play", headers={"Authorization": f"Bearer {tokens[seats[0]]}"})
    assert by_api.status_code == 200 and by_api.json == found


def test_a_world_championship_s_play_names_the_first_race_s_start_player(client, app):
    code, tokens, starter = downforce_world_championship(client, app)
    answer = client.get(f"/api/tables/{code}/play", headers={"Authorization": f"Bearer {tokens['host']}"})
    assert answer.status_code == 200, answer.json
    assert [player["sourcePlayerId"] for player in answer.json["players"] if player["startPlayer"]] == [starter]


def test_the_play_is_offered_only_once_the_game_is_over_and_never_on_the_display(client, app, service, minutes):
    code, tokens = scotland_yard.open_table(client)
    assert "data-bgstats" not in seat_page(app, code, tokens["mister-x"])
    running = client.get(f"/api/tables/{code}/play", headers={"Authorization": f"Bearer {tokens['mister-x']}"})
    assert running.status_code == 409
    assert browser(app, code).get(f"/t/{code}/play.json").status_code == 401  # no seat, not the host

    scotland_yard.play_to_the_end(client, code, tokens)
    assert "data-bgstats" in seat_page(app, code, tokens["detective-1"])
    display = browser(app, code, host=tokens["host"]).get(f"/t/{code}/display").get_data(as_text=True)
    assert "data-bgstats" not in display  # nobody touches the TV
    assert api(client, code, tokens["host"])["over"]


def test_the_play_speaks_the_phones_language_but_keeps_the_games_published_name(client, app, minutes):
    code, tokens, _starter = scotland_yard_game(client, app)
    found = browser(app, code, seat=tokens["mister-x"]).get(f"/t/{code}/play.json?lang=cs").json
    assert found["game"]["name"] == "Scotland Yard"
    assert {player["role"] for player in found["players"] if player["sourcePlayerId"] != "mister-x"} == {"Detektivové"}


# -- the table's record (issue 18, item 7) ------------------------------------------------------------------


def test_the_host_reads_the_finished_games_whole_record_in_order_with_the_undo_audit(client, app, service, minutes):
    code, host, tokens = test_eat_your_tourist_web.open_table(client)
    api(client, code, host, type="roll_fright", value=4)
    undone = client.post(f"/api/tables/{code}/undo", json={}, headers={"Authorization": f"Bearer {host}"})
    assert undone.status_code == 200
    test_eat_your_tourist_web.over(client, code, host, tokens)
    history = service.view(code, None, full_history=True)["history"]  # the API's view carries the latest lines

    host_page = browser(app, code, host=host).get(f"/t/{code}/host").get_data(as_text=True)
    assert f'href="/t/{code}/record"' in host_page
    record = browser(app, code, host=host).get(f"/t/{code}/record.json")
    assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
    lines = record.json["lines"]
    assert [line["seq"] for line in lines] == [line["seq"] for line in history]  # every line, oldest first
    assert [line["seq"] for line in lines] == sorted(line["seq"] for line in lines)
    assert [line["undone"] for line in lines] == [line["undone"] for line in history]
    assert any(line["undone"] for line in lines)
    assert "The host undid the last action." in [line["text"] for line in lines]
    assert lines[0]["time"] == time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(START + 60))
    assert record.json["players"] == {"player-1": "Anna", "player-2": "Bea", "player-3": "Cyril"}
    assert "Anna" in record.json["outcome"]

    page = browser(app, code, host=host).get(f"/t/{code}/record").get_data(as_text=True)
    assert all(html.escape(line["text"], quote=False) in page for line in lines)
    assert "(undone)" in page
    czech = browser(app, code, host=host).get(f"/t/{code}/record?lang=cs").get_data(as_text=True)
    assert "Záznam stolu" in czech and "Hostitel vrátil poslední akci." in czech
    assert "The host undid the last action." not in czech


def test_the_record_is_the_hosts_alone_and_holds_no_line_meant_for_one_seat(client, app, service, minutes):
    code, tokens, _starter = scotland_yard_game(client, app)
    for who in ("mister-x", "detective-1"):
        assert browser(app, code, seat=tokens[who]).get(f"/t/{code}/record").status_code == 403
        assert browser(app, code, seat=tokens[who]).get(f"/t/{code}/record.json").status_code == 403
    record = browser(app, code, host=tokens["host"]).get(f"/t/{code}/record.json").json
    texts = [line["text"] for line in record["lines"]]
    own = service.view(code, "mister-x", full_history=True)  # the API's views carry only the latest lines
    public = service.view(code, None, full_history=True)
    public_seqs = {(line["seq"], line["msg"]) for line in public["history"]}
    private = [line for line in own["history"] if (line["seq"], line["msg"]) not in public_seqs]
    assert private, "Mister X's phone has lines of his own"
    assert len(texts) == len(public["history"])
    assert not {line["msg"] for line in private} & {line["msg"] for line in public["history"]}


# -- play again (issue 17, item 6) --------------------------------------------------------------------------


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_play_again_opens_the_same_game_and_options_for_the_same_host_once_the_game_is_over(client, app, service):
    code, tokens = scotland_yard.open_table(client)
    assert client.post(f"/api/tables/{code}/again", headers=bearer(tokens["host"])).status_code == 409
    scotland_yard.play_to_the_end(client, code, tokens)
    assert client.post(f"/api/tables/{code}/again", headers=bearer(tokens["mister-x"])).status_code == 403

    answer = client.post(f"/api/tables/{code}/again", headers=bearer(tokens["host"]))
    assert answer.status_code == 201
    new = answer.json["code"]
    assert new != code and answer.json["join_url"].endswith(f"/t/{new}")
    assert service.store.table(new).game == "scotland-yard"
    assert service.store.table(new).options == service.store.table(code).options
    assert client.post(f"/api/tables/{code}/again", headers=bearer(tokens["host"])).json["code"] == new  # one tap
    fresh = client.get(f"/api/tables/{new}/view", headers=bearer(tokens["host"]))  # the same host token
    assert fresh.status_code == 200 and fresh.json["seq"] == 0
    old = client.get(f"/api/tables/{code}/view", headers=bearer(tokens["detective-1"])).json
    assert old["next_table"] == new
    assert Tables(service.store, service.games).newest(code).next_table == new  # in the log: a restart keeps it
    undo = client.post(f"/api/tables/{code}/undo", json={}, headers=bearer(tokens["host"]))
    assert undo.status_code == 409  # everyone moved on: the game that led there stays as it ended


def test_each_seat_of_the_new_table_is_kept_for_the_phone_that_held_it_and_no_other(client, app, service):
    code, tokens = scotland_yard.open_table(client)
    scotland_yard.play_to_the_end(client, code, tokens)
    new = client.post(f"/api/tables/{code}/again", headers=bearer(tokens["host"])).json["code"]

    stranger = client.post(f"/api/tables/{new}/seats", json={"seat": "mister-x", "name": "Eve"})
    assert stranger.status_code == 403  # a phone that scans the new QR code cannot take a kept seat
    other = {"seat": "mister-x", "name": "Eve", "invite": tokens["detective-1"]}
    assert client.post(f"/api/tables/{new}/seats", json=other).status_code == 403  # nor with another seat's token

    phone = browser(app, code, seat=tokens["mister-x"])
    followed = phone.get(f"/t/{code}/next?view=seat")
    assert followed.status_code == 302 and followed.headers["Location"].endswith(f"/t/{new}/seat")
    page = phone.get(f"/t/{new}/seat").get_data(as_text=True)
    assert "You are Xena" in page
    assert service.names(new)["mister-x"] == "Xena"
    again = phone.get(f"/t/{code}/next?view=seat")  # a second tab or a reload lands in the same seat
    assert again.headers["Location"].endswith(f"/t/{new}/seat")

    own = {"seat": "detective-1", "name": "Dora", "invite": tokens["detective-1"]}
    assert client.post(f"/api/tables/{new}/seats", json=own).status_code == 201  # an API client, by its old token

    display = browser(app, code, host=tokens["host"])
    moved = display.get(f"/t/{code}/next?view=display")
    assert moved.headers["Location"].endswith(f"/t/{new}/display")
    assert "data-play-again" not in display.get(f"/t/{new}/host").get_data(as_text=True)
    assert display.get(f"/t/{new}/host").status_code == 200  # the display follows as host
    guest = browser(app, code).get(f"/t/{code}/next?view=seat")
    assert guest.headers["Location"].endswith(f"/t/{new}")  # no seat here: the join page, as anyone


def test_an_undone_end_of_scotland_yard_leaves_no_station_of_mister_x_in_the_record(client, app, minutes):
    for _table in range(5):  # each table deals its own start cards: one may end where Mister X had shown himself
        code, tokens, _starter = scotland_yard_game(client, app)
        over = client.get(f"/api/tables/{code}/view", headers=bearer(tokens["host"])).json
        ended_at, station = over["seq"], over["view"]["mister_x_station"]
        undone = client.post(f"/api/tables/{code}/undo", json={"seen_seq": ended_at}, headers=bearer(tokens["host"]))
        assert undone.status_code == 200
        if station not in {reveal["station"] for reveal in undone.json["view"]["known_reveals"]}:
            break
    else:
        pytest.fail("five tables ended where Mister X had shown himself")
    names_him = re.compile(rf"(?<!\d){station}(?!\d)")
    said = [english(line) for line in over["history"] if line["seq"] == ended_at and names_him.search(english(line))]
    assert said, "the end named his station"

    host = browser(app, code, host=tokens["host"])
    record = host.get(f"/t/{code}/record.json").json
    assert [line for line in record["lines"] if line["seq"] >= ended_at and names_him.search(line["text"])] == []
    page = host.get(f"/t/{code}/record").get_data(as_text=True)
    for sentence in said:  # the same words from earlier in the game (a bobby at that station before) are no secret
        earlier = [line for line in record["lines"] if line["seq"] < ended_at and line["text"] == sentence]
        assert page.count(html.escape(sentence, quote=False)) == len(earlier), sentence
    assert "(undone)" in page and record["outcome"] is None


def english(line: dict) -> str:
    """A history line as the English page says it (the names of seats aside)."""
    args = {name: english(value) if isinstance(value, dict) else value for name, value in line["args"].items()}
    return line["msg"] % args
