"""deploy/nginx.conf's budget of connections per client address, in front of two processes that count none of their
own (behind a trusted proxy every connection comes from the proxy's address)."""

from __future__ import annotations

from tests.scale.test_nginx import behind_nginx, new_table, open_page, take_seat

__all__ = ["behind_nginx"]  # the fixture, shared with the other nginx tests

PER_ADDRESS = 100  # deploy/nginx.conf's limit_conn


def test_an_address_with_a_hundred_pages_open_through_nginx_is_refused_the_next_and_another_address_is_not(
    behind_nginx,
):
    code = new_table(behind_nginx)
    token = take_seat(behind_nginx, code)
    pages = []
    try:
        for _ in range(PER_ADDRESS):  # every one goes to the table's one process, which holds them all
            pages.append(open_page(behind_nginx, code, token))
        assert behind_nginx.request("GET", "/healthz")[0] == 429
        assert behind_nginx.request("GET", "/healthz", source="127.0.0.2")[0] == 200
    finally:
        for page in pages:
            page.close()
