"""The OpenAPI 3 document of the JSON API: what the server takes and answers, with every game's action schemas.

The request bodies are the schemas the API checks bodies against (companion/forms.py), so the document and
the server agree by construction; the refusals are the README's table. Links say where a new table's code and
host token and a seat's token go, so that a client (or a fuzzer) can follow them.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.forms import SEAT_BODY, UNDO_BODY, action_body_schema, table_body_schema, text
from companion.games.base import Game

ERROR = {"$ref": "#/components/schemas/Error"}
REFUSALS = {
    400: "bad input: not a JSON object of the documented fields, a value of the wrong type or out of range, "
    "text with NUL or lone surrogates or too long, JSON nested deeper than 16, a non-finite number, an action type "
    "no installed game has",
    401: "no Bearer token",
    403: "a token that is not this table's or not allowed (`forbidden`), an action this seat may never take "
    "(`not_your_seat`), a seat set aside for an invite",
    404: "no such table or game",
    409: "a conflict: the seat is taken, nothing to undo, or `stale` (the table moved on since `seen_seq`)",
    413: "a body over 64 KiB",
    422: "the game's rules refuse (`illegal_action` or a more precise code such as `not_your_turn`; also an action "
    "type of another game; "
    "`bad_option`: options that do not go together), or the table has no such seat (`no_such_seat`)",
    429: "too many new tables, seat claims or unknown join codes from this address; wait a minute",
    503: "the database could not take the request for a moment (`unavailable`, with Retry-After): try again",
}
SEAT_OR_HOST = [{"seatToken": []}, {"hostToken": []}]


# The latest history lines of a view, oldest first; older ones come from /api/tables/{code}/history.
HISTORY = {"type": "array", "items": {"type": "object"}}
# A sequence number in a query string: digits (companion.web.common.before_seq).
BEFORE = {"type": "integer", "minimum": 0, "maximum": 10**12 - 1}


def _refusals(*codes: int) -> dict:
    return {
        str(code): {"description": REFUSALS[code], "content": {"application/json": {"schema": ERROR}}} for code in codes
    }


def _json_body(schema: dict, required: bool = True) -> dict:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _ok(schema: dict, status: str = "200", links: dict | None = None) -> dict:
    answer = {"description": "ok", "content": {"application/json": {"schema": schema}}}
    return {status: answer | ({"links": links} if links else {})}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(properties: dict) -> dict:
    """An answer's object: every field always there."""
    return {"type": "object", "properties": properties, "required": list(properties)}


def action_schemas(games: Iterable[Game]) -> dict:
    """One schema per game and action type, named `<game>.<type>`."""
    return {f"{game.id}.{kind}": action_body_schema(game, kind) for game in games for kind in game.actions}


def _links(code: str, token: str, *operations: str) -> dict:
    """Links to operations that take this table's code and a token as their Bearer credentials."""
    return {
        operation: {
            "operationId": operation,
            "parameters": {"path.code": code, "header.Authorization": f"Bearer {{{token}}}"},
        }
        for operation in operations
    }


def _table_links() -> dict:
    """From a new table: its first seat, and what its host token opens."""
    take_seat = {
        "operationId": "takeSeat",
        "parameters": {"path.code": "$response.body#/code"},
        "requestBody": {"seat": "$response.body#/seats/0/id"},
    }
    host = _links(
        "$response.body#/code",
        "$response.body#/host_token",
        "getView",
        "act",
        "undo",
        "getHistory",
        "getPlay",
        "playAgain",
    )
    return {"takeSeat": take_seat} | host


def document(games: Iterable[Game]) -> dict:
    games = list(games)
    actions = action_schemas(games)
    table_code = {"name": "code", "in": "path", "required": True, "schema": text(200) | {"minLength": 1}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Table Companion API", "version": "1"},
        "paths": {
            "/healthz": {
                "get": {
                    "operationId": "health",
                    "summary": "Alive, and able to store",
                    "responses": _ok(_ref("Health"))
                    | {
                        "503": {
                            "description": "the store cannot write (a full or read-only disk): `store` says why",
                            "content": {"application/json": {"schema": _ref("Health")}},
                        }
                    },
                },
            },
            "/api/games": {
                "get": {"operationId": "listGames", "summary": "The supported games", "responses": _ok(_ref("Games"))}
            },
            "/api/tables": {
                "post": {
                    "operationId": "openTable",
                    "summary": "Open a table; the answer's host token is the Bearer token of the host",
                    "requestBody": _json_body({"oneOf": [table_body_schema(game) for game in games]}),
                    "responses": _ok(_ref("NewTable"), "201", _table_links()) | _refusals(400, 404, 413, 422, 429, 503),
                }
            },
            "/api/tables/{code}/seats": {
                "post": {
                    "operationId": "takeSeat",
                    "summary": "Take a seat (`invite`: the host's one-time code for a freed seat)",
                    "parameters": [table_code],
                    "requestBody": _json_body(SEAT_BODY),
                    "responses": _ok(
                        _ref("SeatToken"),
                        "201",
                        _links(
                            "$request.path.code", "$response.body#/token", "getView", "act", "getHistory", "getPlay"
                        ),
                    )
                    | _refusals(400, 403, 404, 409, 413, 422, 429, 503),
                }
            },
            "/api/tables/{code}/actions": {
                "post": {
                    "operationId": "act",
                    "summary": "Send an action as a seat or the host (the table's game decides which types it has)",
                    "parameters": [table_code],
                    "security": SEAT_OR_HOST,
                    "requestBody": _json_body({"anyOf": [_ref(name) for name in actions]}),
                    "responses": _ok(_ref("Answer")) | _refusals(400, 401, 403, 404, 409, 413, 422, 429, 503),
                }
            },
            "/api/tables/{code}/view": {
                "get": {
                    "operationId": "getView",
                    "summary": "The caller's view (the host token alone: the public display view)",
                    "parameters": [table_code],
                    "security": SEAT_OR_HOST,
                    "responses": _ok(_ref("View")) | _refusals(400, 401, 403, 404, 429, 503),
                }
            },
            "/api/tables/{code}/again": {
                "post": {
                    "operationId": "playAgain",
                    "summary": "Play again: the host opens a new table of the finished game for the same players",
                    "parameters": [table_code],
                    "security": [{"hostToken": []}],
                    "responses": _ok(_ref("NextTable"), "201") | _refusals(400, 401, 403, 404, 409, 429, 503),
                }
            },
            "/api/tables/{code}/play": {
                "get": {
                    "operationId": "getPlay",
                    "summary": "The finished game as a play in BG Stats' createPlay format (409 while it runs)",
                    "parameters": [table_code],
                    "security": SEAT_OR_HOST,
                    "responses": _ok({"type": "object"}) | _refusals(400, 401, 403, 404, 409, 429, 503),
                }
            },
            "/api/tables/{code}/history": {
                "get": {
                    "operationId": "getHistory",
                    "summary": "Older history lines than a view carries: the latest 100 before seq `before`",
                    "parameters": [
                        table_code,
                        {"name": "before", "in": "query", "required": False, "schema": BEFORE},
                    ],
                    "security": SEAT_OR_HOST,
                    "responses": _ok(_ref("History")) | _refusals(400, 401, 403, 404, 429, 503),
                }
            },
            "/api/tables/{code}/undo": {
                "post": {
                    "operationId": "undo",
                    "summary": "The host undoes the last action",
                    "parameters": [table_code],
                    "security": [{"hostToken": []}],
                    "requestBody": _json_body(UNDO_BODY, required=False),
                    "responses": _ok(_ref("Answer")) | _refusals(400, 401, 403, 404, 409, 413, 422, 429, 503),
                }
            },
        },
        "components": {
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "a seat's token, from `POST /api/tables/{code}/seats`",
                },
                "hostToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the host's token, from `POST /api/tables`",
                },
            },
            "schemas": actions | _answer_schemas(),
        },
    }


def _answer_schemas() -> dict:
    string, integer = {"type": "string"}, {"type": "integer"}
    nullable_integer = {"type": "integer", "nullable": True}
    seat = _object({"id": string, "label": string, "role": string})
    option = _object(
        {
            "name": string,
            "kind": {"type": "string", "enum": ["int", "bool", "choice", "text"]},
            "default": {},
            "min": nullable_integer,
            "max": nullable_integer,
            "choices": {"type": "array", "items": string},
        }
    )
    game = _object(
        {
            "id": string,
            "name": string,
            "summary": string,
            "seats": {"type": "array", "items": seat},
            "options": {"type": "array", "items": option},
            "actions": {"type": "array", "items": string},
        }
    )
    history = {
        "history": HISTORY,
        "history_before": {
            "type": "integer",
            "nullable": True,
            "description": "older lines: GET /api/tables/{code}/history?before=this",
        },
    }
    view = {
        "seq": integer,
        "seat": {"type": "string", "nullable": True},
        "view": {"type": "object"},
        **history,
        "outcome": {"type": "object", "nullable": True},
        "next_table": {"type": "string", "nullable": True, "description": "the code of the table played next"},
    }
    return {
        "Error": _object({"error": _object({"code": string, "message": string})}),
        "Health": {
            "type": "object",
            "properties": {
                "ok": {"type": "boolean"},
                "store": string,
                "tables_in_memory": {"type": "integer", "minimum": 0},
            },
            "required": ["ok", "tables_in_memory"],
        },
        "Games": _object({"games": {"type": "array", "items": game}}),
        "NewTable": _object(
            {
                "code": string,
                "host_token": string,
                "join_url": string,
                "display_url": string,
                "seats": {"type": "array", "items": seat},
            }
        ),
        "SeatToken": _object({"seat": string, "token": string}),
        "View": _object(view),
        "History": _object(history),
        "NextTable": _object({"code": string, "join_url": string, "display_url": string}),
        "Answer": _object(view | {"applied_seq": integer, "repeated": {"type": "boolean"}}),
    }
