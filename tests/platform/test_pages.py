"""The HTML pages: lobby, join, seat, display, CSRF, headers, languages and the host's tools."""

import re
import threading
from types import SimpleNamespace

import pytest
from flask_babel import force_locale

from companion.web.app import create_app
from companion.web.frames import RENDERERS_KEPT, renderer
from companion.web.ws import PageSocket


def csrf(client, path="/"):
    page = client.get(path).get_data(as_text=True)
    return re.search(r'data-csrf="([^"]+)"', page).group(1)


def open_table(client, players=2):
    token = csrf(client)
    answer = client.post("/tables", data={"game": "secret-notes", "players": players, "csrf_token": token})
    assert answer.status_code == 302
    return answer.headers["Location"].split("/")[2]


def take_seat(client, code, seat, name):
    answer = client.post(f"/t/{code}/seats", data={"seat": seat, "name": name, "csrf_token": csrf(client)})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer


def test_the_lobby_lists_the_games_with_an_options_form(client):
    page = client.get("/").get_data(as_text=True)
    assert "Secret notes" in page
    assert 'name="players"' in page


def test_opening_a_table_makes_this_device_the_host(client):
    code = open_table(client)
    assert client.get_cookie(f"host_{code}") is not None
    display = client.get(f"/t/{code}/display").get_data(as_text=True)
    assert code in display
    assert f'href="/t/{code}/host"' in display
    host_page = client.get(f"/t/{code}/host").get_data(as_text=True)
    assert 'id="host-panel"' in host_page
    assert "Undo the last action" not in host_page  # nothing to undo yet


def test_the_host_tools_live_on_the_host_page_not_on_the_display(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    phone.post(f"/t/{code}/act", data={"type": "write", "note": "x", "csrf_token": csrf(phone, f"/t/{code}/seat")})
    display = client.get(f"/t/{code}/display").get_data(as_text=True)
    assert 'id="host-panel"' not in display
    assert 'id="history"' not in display
    assert "Free this seat" in client.get(f"/t/{code}/host").get_data(as_text=True)
    assert 'href="/t/' not in phone.get(f"/t/{code}/display").get_data(as_text=True).split('id="table-corner"')[1]
    assert phone.get(f"/t/{code}/host").status_code == 403


def test_the_display_shows_the_join_qr_large_while_a_seat_is_free_and_in_a_corner_once_all_are_taken(client, app):
    code = open_table(client, players=2)
    assert "join-open" in client.get(f"/t/{code}/display").get_data(as_text=True)
    take_seat(app.test_client(), code, "player-1", "Anna")
    take_seat(app.test_client(), code, "player-2", "Bea")
    display = client.get(f"/t/{code}/display").get_data(as_text=True)
    assert "join-open" not in display
    assert re.search(r'<details class="join-panel join-corner">\s*<summary', display)


def test_the_join_qr_code_is_an_svg_of_the_join_url(client):
    code = open_table(client)
    answer = client.get(f"/t/{code}/qr.svg")
    assert answer.mimetype == "image/svg+xml"
    assert b"<svg" in answer.data


def test_a_phone_takes_a_seat_and_a_rescan_lands_back_in_it(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    assert phone.get(f"/t/{code}").headers["Location"].endswith(f"/t/{code}/seat")
    page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "You are Anna" in page


def test_player_names_are_shown_escaped(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "<script>alert(1)</script>")
    page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page


def test_a_form_without_the_csrf_token_is_refused(client):
    answer = client.post("/tables", data={"game": "secret-notes"})
    assert answer.status_code == 403


def test_pages_send_a_strict_content_security_policy(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_pages_may_connect_only_to_their_own_host_s_socket(client):
    policy = client.get("/", base_url="http://table.local:8000").headers["Content-Security-Policy"]
    connect = next(part for part in policy.split("; ") if part.startswith("connect-src"))
    assert connect.split() == ["connect-src", "'self'", "ws://table.local:8000", "wss://table.local:8000"]


def test_the_csrf_token_is_masked_afresh_on_every_page_and_each_mask_is_accepted(client):
    """Pages go out compressed beside text others choose: one token repeated on every page would leak (BREACH)."""
    first, second = csrf(client), csrf(client)
    assert first != second
    with client.session_transaction() as session:
        assert session["csrf"] not in client.get("/").get_data(as_text=True)
    for token in (first, second):
        assert client.post("/tables", data={"game": "secret-notes", "csrf_token": token}).status_code == 302
    assert client.post("/tables", data={"game": "secret-notes", "csrf_token": first[:-4] + "AAAA"}).status_code == 403


def test_the_session_cookie_is_secure_behind_a_trusted_tls_proxy(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "TRUSTED_PROXIES": 1})
    client = app.test_client()
    client.get("/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.1"})
    assert client.get_cookie("session").secure
    plain = app.test_client()
    plain.get("/")
    assert not plain.get_cookie("session").secure


def test_cookies_are_samesite_and_httponly(client):
    code = open_table(client)
    cookie = client.get_cookie(f"host_{code}")
    assert cookie.http_only
    assert cookie.same_site == "Lax"


@pytest.mark.parametrize(("lang", "word"), [("cs", "Otevřít stůl"), ("nl", "Tafel openen")])
def test_the_language_can_be_switched_per_device(client, lang, word):
    assert word in client.get(f"/?lang={lang}").get_data(as_text=True)
    assert word in client.get("/").get_data(as_text=True)  # remembered in a cookie


def test_the_language_follows_the_browser(client):
    page = client.get("/", headers={"Accept-Language": "nl-BE,nl;q=0.9"}).get_data(as_text=True)
    assert 'lang="nl"' in page


def test_an_action_form_answers_with_the_fresh_live_part(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    token = csrf(phone, f"/t/{code}/seat")
    answer = phone.post(
        f"/t/{code}/act",
        data={"type": "write", "note": "hello", "seen_seq": 0},
        headers={"HX-Request": "true", "X-CSRF-Token": token},
    )
    assert answer.status_code == 200
    assert 'data-seq="1"' in answer.get_data(as_text=True)


def test_an_action_forms_answer_is_the_frame_its_page_is_pushed_rendered_once(client, app):
    """The phone's page gets the fresh live part twice, in the form's answer and pushed over its socket: one frame."""
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    token = csrf(phone, f"/t/{code}/seat")
    hub = app.extensions["companion.hub"]
    seat_token = phone.get_cookie(f"seat_{code}").value
    phone_socket = SimpleNamespace(wake=threading.Event().set)
    open_page = PageSocket(
        "player-1", seat_token, False, "en", "http://localhost/", False, ws=phone_socket, ping_interval=12
    )
    hub.watch(code, open_page)
    render, rendered = hub.render, []
    hub.render = lambda code, pages: rendered.extend(page.render_key for page in pages) or render(code, pages)
    answer = phone.post(
        f"/t/{code}/act",
        data={"type": "write", "note": "hello", "seen_seq": 0},
        headers={"HX-Request": "true", "X-CSRF-Token": token},
    ).get_data(as_text=True)
    assert rendered == [open_page.render_key]  # for the answer
    pushed = hub.frame(code, open_page)
    assert 'data-seq="1"' in pushed and answer.startswith(pushed)
    assert rendered == [open_page.render_key]  # and not again for the push
    hub.unwatch(code, open_page)


def test_a_form_at_a_table_nobody_watches_leaves_no_frames_in_the_hub(client, app):
    """The hub keeps a table's frames only while a page of it is open here: a form's answer alone does not."""
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    answer = phone.post(
        f"/t/{code}/act",
        data={"type": "write", "note": "hello", "seen_seq": 0},
        headers={"HX-Request": "true", "X-CSRF-Token": csrf(phone, f"/t/{code}/seat")},
    )
    assert 'data-seq="1"' in answer.get_data(as_text=True)
    hub = app.extensions["companion.hub"]
    assert code not in hub._frames and code not in hub._versions  # noqa: SLF001 - what it holds is the point


def test_a_refused_action_shows_a_clear_notice_and_the_current_state(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    token = csrf(phone, f"/t/{code}/seat")
    answer = phone.post(
        f"/t/{code}/act",
        data={"type": "next_round", "seen_seq": 0},
        headers={"HX-Request": "true", "X-CSRF-Token": token},
    )
    assert answer.status_code == 422
    body = answer.get_data(as_text=True)
    assert "Wait until every note is in." in body
    assert 'id="live"' in body


def test_the_host_undoes_with_a_confirm_step(client, app):
    code = open_table(client)
    phone = app.test_client()
    take_seat(phone, code, "player-1", "Anna")
    phone.post(f"/t/{code}/act", data={"type": "write", "note": "x", "csrf_token": csrf(phone, f"/t/{code}/seat")})
    assert "Yes, undo it" in client.get(f"/t/{code}/host").get_data(as_text=True)
    answer = client.post(
        f"/t/{code}/undo", data={"seen_seq": 1}, headers={"HX-Request": "true", "X-CSRF-Token": csrf(client)}
    )
    assert answer.status_code == 200
    assert "(undone)" in answer.get_data(as_text=True)


def test_only_the_host_can_undo(client, app):
    code = open_table(client)
    phone = app.test_client()
    answer = phone.post(f"/t/{code}/undo", data={"csrf_token": csrf(phone)})
    assert answer.status_code == 403


def test_the_host_frees_a_seat_and_reissues_it_with_a_one_time_qr(client, app):
    code = open_table(client)
    first, second, third = app.test_client(), app.test_client(), app.test_client()
    take_seat(first, code, "player-1", "Anna")
    invite_page = client.post(f"/t/{code}/seats/player-1/free", data={"csrf_token": csrf(client)})
    invite_url = re.search(r'class="url">[^<]*(/t/[^<]+)</p>', invite_page.get_data(as_text=True)).group(1)
    assert first.get(f"/t/{code}/seat").status_code == 302  # the old phone is out
    refused = third.post(f"/t/{code}/seats", data={"seat": "player-1", "name": "Sneaky", "csrf_token": csrf(third)})
    assert refused.status_code == 403
    invite = invite_url.rsplit("/", 1)[1]
    assert "Take this seat" in second.get(invite_url).get_data(as_text=True)
    second.post(
        f"/t/{code}/seats", data={"seat": "player-1", "name": "Bea", "invite": invite, "csrf_token": csrf(second)}
    )
    assert "You are Bea" in second.get(f"/t/{code}/seat").get_data(as_text=True)
    again = third.post(
        f"/t/{code}/seats", data={"seat": "player-1", "name": "X", "invite": invite, "csrf_token": csrf(third)}
    )
    assert again.status_code == 409  # used once


def test_polling_answers_204_when_nothing_changed(client):
    code = open_table(client)
    assert client.get(f"/t/{code}/live?view=display&since=0").status_code == 204
    assert 'id="live"' in client.get(f"/t/{code}/live?view=display&since=-1").get_data(as_text=True)


def test_an_unknown_table_is_a_friendly_404_page(client):
    answer = client.get("/t/ZZZZZZ")
    assert answer.status_code == 404
    assert "There is no table with the code ZZZZZZ." in answer.get_data(as_text=True)


def test_the_pwa_manifest_and_service_worker_are_served(client):
    with client.get("/manifest.webmanifest") as answer:
        manifest = answer.get_json(force=True)
    assert manifest["display"] == "standalone"
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    with client.get("/sw.js") as answer:
        assert b"caches" in answer.data


def test_made_up_host_headers_cannot_pile_up_in_memory(app, client, service):
    """A page's links follow the address it came by (the Host header, which any client may set)."""
    code, _host_token = service.create("secret-notes", {"players": 2})
    for n in range(3 * RENDERERS_KEPT):
        page = client.get(f"/t/{code}/display", headers={"Host": f"made-up-{n}.example"})
        assert page.status_code == 200
        assert f"made-up-{n}.example/t/{code}" in page.get_data(as_text=True)
    assert len(app.extensions["companion.renderers"]) <= RENDERERS_KEPT


def test_every_template_the_pages_loaded_has_every_global_of_the_app(app, client):
    """Templates keep a plain copy of the app's globals (web/app.Templates): one loaded before a global was set would
    miss it for good."""
    code = open_table(client)
    take_seat(client, code, "player-1", "Šárka")
    for path in (
        "/",
        f"/t/{code}",
        f"/t/{code}/seat",
        f"/t/{code}/display",
        f"/t/{code}/host",
        f"/t/{code}/live",
        f"/t/{code}/history",
        f"/t/{code}/record",
        "/no-such-page",
    ):
        assert client.get(path).status_code < 500, path
    loaded = list(app.jinja_env.cache.values())
    assert {"live.html", "seat.html", "host.html", "error.html"} <= {template.name for template in loaded}
    for template in loaded:
        assert template.globals.items() >= app.jinja_env.globals.items(), template.name


@pytest.mark.parametrize("locale", ["en", "cs", "nl"])
def test_the_live_parts_say_each_message_as_the_pages_do(app, locale):
    """A frame's `_` translates a message once per language (web/frames.Renderer.gettext): what it says, escaped or
    filled in, is what flask-babel's says in a request's page."""
    says = app.jinja_env.from_string("{% autoescape true %}{{ _(message, **variables) }}{% endautoescape %}")
    hostile = {"name": '<b>Šárka</b> & "100 %"'}
    cases = [("History", {}), ("You are %(name)s", hostile), ("100 %% sure", {}), ("<not in the catalogue>", {})]
    frame_says = renderer(app, locale, "http://127.0.0.1:8000/").gettext
    for message, variables in cases:
        with app.test_request_context("/"), force_locale(locale):
            in_the_page = says.render(message=message, variables=variables)
        for _again in range(2):  # translated, then remembered
            assert says.render(_=frame_says, message=message, variables=variables) == in_the_page, message
    assert "&lt;b&gt;" in says.render(_=frame_says, message="You are %(name)s", variables=hostile)


@pytest.mark.parametrize("locale", ["en", "cs", "nl"])
def test_the_live_parts_say_a_count_as_the_pages_do(app, locale):
    """A frame's `ngettext` (web/frames.Renderer.ngettext) is the i18n extension's, in a call and in a trans block."""
    says = app.jinja_env.from_string(
        "{% autoescape true %}{{ ngettext('%(num)s station', '%(num)s stations', number) }} "
        "{% trans count=number, name=name %}{{ name }}: {{ count }} ticket{% pluralize %}"
        "{{ name }}: {{ count }} tickets"
        "{% endtrans %}{% endautoescape %}"
    )
    frame_says = renderer(app, locale, "http://127.0.0.1:8000/")
    for number in (1, 2, 5):
        with app.test_request_context("/"), force_locale(locale):
            in_the_page = says.render(number=number, name="<Šárka>")
        in_the_frame = says.render(ngettext=frame_says.ngettext, number=number, name="<Šárka>")
        assert in_the_frame == in_the_page and "&lt;Šárka&gt;" in in_the_frame and str(number) in in_the_frame
