"""A one-time host link: the host lets a phone in as a second host device, so nobody needs to touch the TV."""

import re

from companion.operator_chores import export_table
from tests.platform.test_pages import csrf, open_table, take_seat


def host_link(client, code) -> str:
    """The path of a new one-time host link, as the host's link page shows it."""
    page = client.post(f"/t/{code}/host-link", data={"csrf_token": csrf(client, f"/t/{code}/host")})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    path = re.search(r'class="url">[^<]*(/t/[^<]+)</p>', text).group(1)
    assert f'src="{path}/qr.svg"' in text
    return path


def use(phone, path):
    return phone.post(path, data={"csrf_token": csrf(phone, path)})


def test_the_host_page_offers_a_one_time_link_for_a_phone(client):
    code = open_table(client)
    assert f'action="/t/{code}/host-link"' in client.get(f"/t/{code}/host").get_data(as_text=True)


def test_a_phone_that_opens_the_host_link_becomes_a_host_of_the_table(client, app):
    code = open_table(client)
    path = host_link(client, code)
    phone = app.test_client()
    assert phone.get(f"/t/{code}/host").status_code == 403
    assert "Yes, run the table from here" in phone.get(path).get_data(as_text=True)
    answer = use(phone, path)
    assert answer.status_code == 302 and answer.headers["Location"] == f"/t/{code}/host"
    assert 'id="host-panel"' in phone.get(f"/t/{code}/host").get_data(as_text=True)
    assert phone.get(f"{path}/qr.svg").status_code == 200  # a host device may show links too
    assert client.get(f"/t/{code}/host").status_code == 200  # the display stays a host


def test_the_host_link_works_once(client, app):
    code = open_table(client)
    path = host_link(client, code)
    assert use(app.test_client(), path).status_code == 302
    second = app.test_client()
    assert second.get(path).status_code == 403
    assert "has been used already" in use(second, path).get_data(as_text=True)
    assert second.get(f"/t/{code}/host").status_code == 403


def test_only_the_host_makes_a_host_link_or_its_qr_code(client, app):
    code = open_table(client)
    path = host_link(client, code)
    guest = app.test_client()
    assert guest.post(f"/t/{code}/host-link", data={"csrf_token": csrf(guest)}).status_code == 403
    assert guest.get(f"{path}/qr.svg").status_code == 403
    assert guest.get(f"/t/{code}/host-link/not-a-link").status_code == 403


def test_a_host_device_is_no_seat(client, app, service):
    code = open_table(client, players=2)
    use(app.test_client(), host_link(client, code))
    take_seat(app.test_client(), code, "player-1", "Anna")
    assert set(service.seats(code)) == {"player-1"}
    assert export_table(service.store, code)["seats"] == {"player-1": "Anna"}
    assert "Scan to join" in client.get(f"/t/{code}/display").get_data(as_text=True)  # player-2 is still free


def test_a_host_action_from_the_host_page_is_answered_with_the_host_page(client, app):
    code = open_table(client)
    phone = app.test_client()
    use(phone, host_link(client, code))
    page = phone.get(f"/t/{code}/host").get_data(as_text=True)
    answer = phone.post(
        f"/t/{code}/act",
        data={"type": "roll", "as": "host"},
        headers={"HX-Request": "true", "X-CSRF-Token": re.search(r'data-csrf="([^"]+)"', page).group(1)},
    )
    assert answer.status_code == 200 and 'id="host-panel"' in answer.get_data(as_text=True)
    assert 'data-seq="1"' in answer.get_data(as_text=True)
