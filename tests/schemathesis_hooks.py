"""Schemathesis hooks (schemathesis.toml loads them): the tokens the API hands out count as real credentials.

The stateful phase sends the seat and host tokens it got from the API through the document's links.
Schemathesis 4.32 counts an Authorization header that a link supplied as a generated one, so its
`ignored_auth` check took every 2xx answer to such a token for "accepts invalid authentication". This
provider names the tokens the API issued for a table in this run as that table's credentials, and the check
then does what it should: it sends the same request without a token and with a wrong one, and expects a refusal.
"""

from __future__ import annotations

import threading

import schemathesis

ISSUED: dict[str, set[str]] = {}  # table code -> the host and seat tokens the API handed out for it
LOCK = threading.Lock()


def _table(code: object) -> str | None:
    return code.strip().upper() if isinstance(code, str) else None  # as companion.tables.normalise_code


@schemathesis.hook
def after_call(ctx, case, response):
    """Remember every token the API hands out: a new table's host token and a taken seat's token."""
    if response.status_code != 201:
        return
    try:
        body = response.json()
    except ValueError:
        return
    if not isinstance(body, dict):
        return
    code = _table(body.get("code") or (case.path_parameters or {}).get("code"))
    token = body.get("host_token") or body.get("token")
    if code and isinstance(token, str):
        with LOCK:
            ISSUED.setdefault(code, set()).add(token)


@schemathesis.auth(refresh_interval=None)
class IssuedTokens:
    """The request's own Bearer token when the API issued it for the table in the path (a link put it there)."""

    def get(self, case, ctx):
        token = (case.headers or {}).get("Authorization", "").removeprefix("Bearer ")
        with LOCK:
            issued = ISSUED.get(_table((case.path_parameters or {}).get("code")) or "", set())
            return token if token in issued else None

    def set(self, case, token, ctx):
        case.headers["Authorization"] = f"Bearer {token}"
