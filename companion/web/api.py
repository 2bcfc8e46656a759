"""The JSON API: the same service as the pages, with Bearer tokens; described at /api/openapi.json."""

from __future__ import annotations

from flask import Blueprint

from companion import i18n
from companion.boundary import json_body
from companion.forms import (
    SEAT_BODY,
    UNDO_BODY,
    action_from_json,
    checked,
    optional_int,
    optional_str,
    parse_options,
    table_body_schema,
)
from companion.games.base import HOST, N_
from companion.openapi import document
from companion.security import rate_limited
from companion.tables import Forbidden, NotFound, TableError, Unauthorized
from companion.web.common import bearer_token, before_seq, external_url, sent_snapshot, tables
from companion.web.records import finished_play

bp = Blueprint("api", __name__)


@bp.get("/healthz")
def healthz():
    """Alive, and able to store: a full or read-only disk answers 503 with what is wrong, for the operator."""
    problem = tables().store.cannot_write()
    if problem:
        return {"ok": False, "store": problem, "tables_in_memory": tables().tables_in_memory}, 503
    return {"ok": True, "tables_in_memory": tables().tables_in_memory}


@bp.get("/api/openapi.json")
def openapi():
    return document(tables().games.values())


@bp.get("/api/games")
def games():
    return {"games": [_game_json(game) for game in tables().games.values()]}


def _game_json(game) -> dict:
    return {
        "id": game.id,
        "name": i18n.say({"msg": game.name, "args": {}}),
        "summary": i18n.say({"msg": game.summary, "args": {}}),
        "seats": _seats_json(game, parse_options(game, {}, from_form=False)),
        "options": [
            {
                "name": o.name,
                "kind": o.kind,
                "default": o.default,
                "min": o.min,
                "max": o.max,
                "choices": list(o.choices),
            }
            for o in game.options
        ],
        "actions": sorted(game.actions),
    }


def _seats_json(game, options: dict) -> list[dict]:
    return [{"id": spec.id, "label": i18n.say(spec.label), "role": spec.role} for spec in game.seats(options)]


@bp.post("/api/tables")
@rate_limited("new-tables")
def create_table():
    body = json_body()
    game_id = body.get("game")
    if not isinstance(game_id, str):
        raise TableError(N_("Send the game to play."))
    game = tables().games.get(game_id)
    if game is None:
        raise NotFound(N_("There is no game called %(game)s."), game=game_id)
    options = parse_options(game, checked(table_body_schema(game), body).get("options", {}), from_form=False)
    code, host_token = tables().create(game.id, options)
    return {
        "code": code,
        "host_token": host_token,
        "join_url": external_url("pages.join", code=code),
        "display_url": external_url("pages.display", code=code),
        "seats": _seats_json(game, options),
    }, 201


@bp.post("/api/tables/<code>/seats")
@rate_limited("seat-claims")
def claim_seat(code):
    body = checked(SEAT_BODY, json_body())
    token = tables().claim(code, body["seat"], body["name"], invite=body.get("invite"))
    return {"seat": body["seat"], "token": token}, 201


@bp.post("/api/tables/<code>/actions")
def act(code):
    actor = _bearer(code)
    body = json_body()
    action = action_from_json(tables().newest(code).game, body, tables().games.values())
    seq, repeated = tables().act(
        code,
        actor,
        action,
        client_action_id=optional_str(body, "client_action_id"),
        seen_seq=optional_int(body, "seen_seq"),
        token=bearer_token(),
    )
    return _view(code, actor) | {"applied_seq": seq, "repeated": repeated}


@bp.get("/api/tables/<code>/view")
def view(code):
    return _view(code, _bearer(code))


@bp.get("/api/tables/<code>/play")
def play(code):
    """The finished game as a play in BG Stats' format (409 while it runs)."""
    actor = _bearer(code)
    return finished_play(code, None if actor == HOST else actor)


@bp.post("/api/tables/<code>/again")
def play_again(code):
    """The host opens a new table of the finished game, same options, same host token, each seat set aside."""
    if _bearer(code) != HOST:
        raise Forbidden(N_("Only the host can do that."))
    new_code = tables().play_again(code)
    return {
        "code": new_code,
        "join_url": external_url("pages.join", code=new_code),
        "display_url": external_url("pages.display", code=new_code),
    }, 201


@bp.post("/api/tables/<code>/undo")
def undo(code):
    if _bearer(code) != HOST:
        raise Forbidden(N_("Only the host can undo."))
    body = checked(UNDO_BODY, json_body(allow_empty=True))
    seq, repeated = tables().undo(
        code, seen_seq=optional_int(body, "seen_seq"), client_action_id=optional_str(body, "client_action_id")
    )
    return _view(code, HOST) | {"applied_seq": seq, "repeated": repeated}


def _view(code: str, actor: str) -> dict:
    seat = None if actor == HOST else actor
    return {"seat": seat, **sent_snapshot(tables().view(code, seat))}


@bp.get("/api/tables/<code>/history")
def history(code):
    """Older history lines than a view carries: the latest 100 the caller may see before seq `before`."""
    actor = _bearer(code)
    window = tables().history(code, None if actor == HOST else actor, before_seq())
    return {"history": window.lines, "history_before": window.before}


def _bearer(code: str) -> str:
    token = bearer_token()
    if token is None:
        tables().newest(code)  # an unknown table is a 404 before it is a 401
        raise Unauthorized(N_("Send your seat or host token as a Bearer token."))
    return tables().authenticate(code, token)
