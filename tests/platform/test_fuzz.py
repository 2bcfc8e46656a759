"""Property-based: whatever a client sends (any game's actions, options, seat names), no 5xx, and other tables go on.

Values are drawn from each game's own schemas and options, mixed with what has
broken servers before: lone surrogates, NUL, very long text, deep nesting,
huge and non-finite numbers. On a SQLite file and on the real PostgreSQL.
"""

from __future__ import annotations

import json
import secrets

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web.app import create_app
from tests.conftest import TEST_GAMES
from tests.real_services import postgres_database

NASTY_TEXT = st.sampled_from(["\ud800", "\udfff", "\x00", "x" * 5000, "<script>", "", " ", "player-1", "host"])
TEXT = st.one_of(st.text(max_size=30), NASTY_TEXT, st.builds("".join, st.lists(NASTY_TEXT | st.text(max_size=3))))
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0, 1, 3, -1])
)
# Raw JSON text spliced in where a value goes: what json.dumps never writes.
RAW = {"__deep__": "[" * 5000 + "]" * 5000, "__huge__": "1e400", "__long__": "9" * 5000}
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, st.sampled_from(list(RAW))),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


def fitting(prop: dict):
    """Values a field's schema allows (so the rules get to look at them) or nearly allows."""
    kind = prop.get("type", "string")
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if kind == "integer":
        return st.integers(prop.get("minimum", -5) - 1, prop.get("maximum", 30) + 1)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(fitting(prop.get("items", {})), max_size=4)
    return TEXT


def field_value(prop: dict):
    return st.one_of(fitting(prop), fitting(prop), JSON_VALUES)


@st.composite
def action_bodies(draw, game) -> dict:
    kind = draw(st.sampled_from(sorted(game.actions)))
    properties = game.actions[kind].get("properties", {})
    names = draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
    body = {"type": kind} | {name: draw(field_value(properties[name])) for name in names}
    extras = {"client_action_id": TEXT, "seen_seq": NUMBERS, draw(TEXT): JSON_VALUES}
    for name, values in extras.items():
        if draw(st.booleans()):
            body[name] = draw(values)
    return body


@st.composite
def option_sets(draw, game) -> dict:
    fits = {"int": st.integers(-1, 8), "bool": st.booleans(), "choice": st.sampled_from(["x"])}
    options = {}
    for option in game.options:
        if draw(st.booleans()):
            right = st.sampled_from(list(option.choices)) if option.choices else fits.get(option.kind, TEXT)
            options[option.name] = draw(st.one_of(right, JSON_VALUES))
    return options


def as_json(value) -> bytes:
    """JSON text of a drawn value, with the raw fragments spliced in and surrogates kept as escapes."""
    text = json.dumps(value)
    for marker, raw in RAW.items():
        text = text.replace(json.dumps(marker), raw)
    return text.encode()


class Fuzzed:
    """One app on one store, with a witness table that must keep working whatever the fuzz did."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.games = app.extensions["companion"].games
        created = self.post("/api/tables", {"game": "secret-notes"})
        self.witness = created.get_json()["code"]
        self.witness_token = self.post(
            f"/api/tables/{self.witness}/seats", {"seat": "player-1", "name": "Witness"}
        ).get_json()["token"]
        self.tables = {}  # game id -> (code, host token, a seat's token)
        for game in self.games.values():
            created = self.post("/api/tables", {"game": game.id}).get_json()
            service = self.app.extensions["companion"]
            seat = service.seat_specs(service.cached(created["code"]))[-1]
            token = self.post(f"/api/tables/{created['code']}/seats", {"seat": seat.id, "name": "Fuzz"}).get_json()
            self.tables[game.id] = (created["code"], created["host_token"], token["token"])

    def post(self, path: str, body, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        answer = self.client.post(path, data=data, content_type="application/json", headers=headers)
        assert answer.status_code < 500, (path, data[:300], answer.get_data(as_text=True)[:300])
        return answer

    def get(self, path: str) -> None:
        answer = self.client.get(path)
        assert answer.status_code < 500, (path, answer.get_data(as_text=True)[:300])

    def witness_still_plays(self) -> None:
        answer = self.post(
            f"/api/tables/{self.witness}/actions",
            {"type": "write", "note": "still here", "client_action_id": secrets.token_hex(8)},
            self.witness_token,
        )
        assert answer.status_code == 200, answer.get_json()


def no_database():
    yield None  # SQLite in the data directory


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def fuzzed(request, tmp_path_factory):
    settings_ = {
        "DATA_DIR": str(tmp_path_factory.mktemp("fuzz")),
        "TESTING": True,
        "EXTRA_GAMES": TEST_GAMES,
        "RATE_LIMIT_TABLES": 10**6,
        "RATE_LIMIT_SEATS": 10**6,
        "RATE_LIMIT_PROBES": 10**6,
    }
    database = postgres_database() if request.param == "postgres" else no_database()
    settings_["DATABASE_URL"] = next(database)
    app = create_app(settings_)
    yield Fuzzed(app)
    app.extensions["companion"].store.close()
    database.close()


FUZZ = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=st.data())
def test_any_action_of_any_game_is_answered_without_a_5xx(fuzzed, data):
    game = data.draw(st.sampled_from(sorted(fuzzed.games)))
    code, host, seat_token = fuzzed.tables[game]
    body = data.draw(action_bodies(fuzzed.games[game]))
    fuzzed.post(f"/api/tables/{code}/actions", as_json(body), data.draw(st.sampled_from([host, seat_token])))
    for page in ("display", "live", "live?view=seat"):
        fuzzed.get(f"/t/{code}/{page}")
    fuzzed.witness_still_plays()


@FUZZ
@given(data=st.data())
def test_any_options_and_seat_names_are_answered_without_a_5xx(fuzzed, data):
    game = fuzzed.games[data.draw(st.sampled_from(sorted(fuzzed.games)))]
    created = fuzzed.post("/api/tables", as_json({"game": game.id, "options": data.draw(option_sets(game))}))
    code = created.get_json()["code"] if created.status_code == 201 else fuzzed.tables[game.id][0]
    service = fuzzed.app.extensions["companion"]
    seats = [spec.id for spec in service.seat_specs(service.cached(code))]
    seat = data.draw(st.sampled_from([*seats, "nobody"]))
    fuzzed.post(f"/api/tables/{code}/seats", as_json({"seat": seat, "name": data.draw(JSON_VALUES)}))
    fuzzed.get(f"/t/{code}/display")
    fuzzed.get(f"/t/{code}")
    fuzzed.witness_still_plays()
