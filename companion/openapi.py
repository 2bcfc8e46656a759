"""The OpenAPI 3 document of the JSON API, with every game's action schema."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.base import Game

ERROR = {"$ref": "#/components/schemas/Error"}


# The latest history lines of a view, oldest first; older ones come from /api/tables/{code}/history.
HISTORY = {"type": "array", "items": {"type": "object"}}


def _error_responses(*codes: int) -> dict:
    return {str(code): {"description": "refused", "content": {"application/json": {"schema": ERROR}}} for code in codes}


def _json_body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _ok(schema: dict, status: str = "200") -> dict:
    return {status: {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def action_schemas(games: Iterable[Game]) -> dict:
    """One schema per game and action type, named `<game>.<type>`."""
    schemas = {}
    for game in games:
        for kind, schema in game.actions.items():
            properties = {
                "type": {"type": "string", "enum": [kind]},
                "client_action_id": {"type": "string", "maxLength": 100},
                "seen_seq": {"type": "integer"},
            } | schema.get("properties", {})
            schemas[f"{game.id}.{kind}"] = {
                "type": "object",
                "properties": properties,
                "required": ["type", *schema.get("required", [])],
            }
    return schemas


def document(games: Iterable[Game]) -> dict:
    games = list(games)
    actions = action_schemas(games)
    table_code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}
    secured = [{"bearer": []}]
    view = {"$ref": "#/components/schemas/View"}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Table Companion API", "version": "1"},
        "paths": {
            "/healthz": {"get": {"summary": "Liveness", "responses": _ok({"type": "object"})}},
            "/api/games": {"get": {"summary": "The supported games", "responses": _ok({"type": "object"})}},
            "/api/tables": {
                "post": {
                    "summary": "Open a table",
                    "requestBody": _json_body(
                        {
                            "type": "object",
                            "required": ["game"],
                            "properties": {
                                "game": {"type": "string", "enum": [g.id for g in games]},
                                "options": {"type": "object"},
                            },
                        }
                    ),
                    "responses": _ok(
                        {
                            "type": "object",
                            "properties": {
                                "code": {"type": "string"},
                                "host_token": {"type": "string"},
                                "join_url": {"type": "string"},
                                "display_url": {"type": "string"},
                            },
                        },
                        "201",
                    )
                    | _error_responses(400, 404, 422),
                }
            },
            "/api/tables/{code}/seats": {
                "post": {
                    "summary": "Take a seat",
                    "parameters": [table_code],
                    "requestBody": _json_body(
                        {
                            "type": "object",
                            "required": ["seat", "name"],
                            "properties": {
                                "seat": {"type": "string"},
                                "name": {"type": "string"},
                                "invite": {"type": "string"},
                            },
                        }
                    ),
                    "responses": _ok(
                        {"type": "object", "properties": {"seat": {"type": "string"}, "token": {"type": "string"}}},
                        "201",
                    )
                    | _error_responses(400, 403, 404, 409),
                }
            },
            "/api/tables/{code}/actions": {
                "post": {
                    "summary": "Send an action as a seat or the host",
                    "parameters": [table_code],
                    "security": secured,
                    "requestBody": _json_body(
                        {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in actions]}
                    ),
                    "responses": _ok(view) | _error_responses(400, 401, 403, 404, 409, 422),
                }
            },
            "/api/tables/{code}/view": {
                "get": {
                    "summary": "The caller's view (the host token alone: the public display view)",
                    "parameters": [table_code],
                    "security": secured,
                    "responses": _ok(view) | _error_responses(401, 403, 404),
                }
            },
            "/api/tables/{code}/again": {
                "post": {
                    "summary": "Play again: the host opens a new table of the finished game for the same players",
                    "parameters": [table_code],
                    "security": secured,
                    "responses": _ok({"type": "object"}, "201") | _error_responses(401, 403, 404, 409),
                }
            },
            "/api/tables/{code}/play": {
                "get": {
                    "summary": "The finished game as a play in BG Stats' createPlay format (409 while it runs)",
                    "parameters": [table_code],
                    "security": secured,
                    "responses": _ok({"type": "object"}) | _error_responses(401, 403, 404, 409),
                }
            },
            "/api/tables/{code}/history": {
                "get": {
                    "summary": "Older history lines than a view carries: the latest 100 before seq `before`",
                    "parameters": [
                        table_code,
                        {"name": "before", "in": "query", "required": False, "schema": {"type": "integer"}},
                    ],
                    "security": secured,
                    "responses": _ok(
                        {
                            "type": "object",
                            "properties": {
                                "history": HISTORY,
                                "history_before": {"type": "integer", "nullable": True},
                            },
                        }
                    )
                    | _error_responses(400, 401, 403, 404),
                }
            },
            "/api/tables/{code}/undo": {
                "post": {
                    "summary": "The host undoes the last action",
                    "parameters": [table_code],
                    "security": secured,
                    "requestBody": {
                        "required": False,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "seen_seq": {"type": "integer"},
                                        "client_action_id": {"type": "string"},
                                    },
                                }
                            }
                        },
                    },
                    "responses": _ok(view) | _error_responses(401, 403, 404, 409, 422),
                }
            },
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": actions
            | {
                "Error": {
                    "type": "object",
                    "properties": {
                        "error": {
                            "type": "object",
                            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                        }
                    },
                },
                "View": {
                    "type": "object",
                    "properties": {
                        "seq": {"type": "integer"},
                        "seat": {"type": "string", "nullable": True},
                        "view": {"type": "object"},
                        "history": HISTORY,
                        "history_before": {
                            "type": "integer",
                            "nullable": True,
                            "description": "older lines: GET /api/tables/{code}/history?before=this",
                        },
                        "outcome": {"type": "object", "nullable": True},
                        "next_table": {"type": "string", "nullable": True},
                    },
                },
            },
        },
    }
