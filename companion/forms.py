"""Turning form fields and JSON bodies into table options and actions, and the schemas of the API's bodies.

The JSON API checks every body against the same schema the OpenAPI document
publishes (companion/openapi.py), so the two cannot disagree: required fields,
no others, no nulls, types, ranges, lengths and patterns.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping

from companion.boundary import MAX_NUMBER, MAX_TEXT
from companion.games.base import N_, Game, Option, RuleError
from companion.tables import Refused, TableError

TRUE = {"1", "true", "on", "yes"}

# Text the boundary takes in (boundary.FORBIDDEN), as a JSON Schema pattern: no NUL. It refuses lone surrogates
# too, but those are not text (no UTF-8 holds them), so a pattern over text cannot name them.
CLEAN_TEXT = r"^[^\u0000]*$"
# The same with at least one character that is not a space: a player's name. The spaces are spelled out as
# Python's str.split() knows them (other regex engines' \s differ: U+0085, U+FEFF, U+001C to U+001F).
SPACES = r"\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SOME_TEXT = rf"^[^\u0000]*[^\u0000{SPACES}][^\u0000]*$"


def text(max_length: int = MAX_TEXT, pattern: str = CLEAN_TEXT) -> dict:
    return {"type": "string", "maxLength": max_length, "pattern": pattern}


def whole_number(minimum: int = -MAX_NUMBER, maximum: int = MAX_NUMBER) -> dict:
    return {"type": "integer", "minimum": minimum, "maximum": maximum}


def body_schema(properties: dict, required: tuple | list = ()) -> dict:
    """A JSON object with these fields and no others."""
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    return schema | ({"required": list(required)} if required else {})


CLIENT_ACTION_ID = text(100)
SEEN_SEQ = whole_number()
SEAT_BODY = body_schema({"seat": text(), "name": text(pattern=SOME_TEXT), "invite": text()}, ["seat", "name"])
UNDO_BODY = body_schema({"seen_seq": SEEN_SEQ, "client_action_id": CLIENT_ACTION_ID})


def options_schema(game: Game) -> dict:
    return body_schema({option.name: _option_schema(option) for option in game.options})


def _option_schema(option: Option) -> dict:
    if option.kind == "int":
        schema = whole_number(
            -MAX_NUMBER if option.min is None else option.min, MAX_NUMBER if option.max is None else option.max
        )
    elif option.kind == "bool":
        schema = {"type": "boolean"}
    elif option.kind == "choice":
        schema = {"type": "string", "enum": list(option.choices)}
    else:
        schema = text()
    return schema | {"default": option.default}


def table_body_schema(game: Game) -> dict:
    """The body that opens a table of this game."""
    return body_schema({"game": {"type": "string", "enum": [game.id]}, "options": options_schema(game)}, ["game"])


@functools.cache
def action_body_schema(game: Game, kind: str) -> dict:
    """The body of one of the game's actions: its fields as the boundary takes them, the retry id and the seen seq.

    Built once per game and action type (every socket action is checked against it) and shared: read it, never
    change it.
    """
    schema = game.actions[kind]
    fields = {name: _bounded(prop) for name, prop in schema.get("properties", {}).items()}
    kind_field = {"type": {"type": "string", "enum": [kind]}}
    extras = {"client_action_id": CLIENT_ACTION_ID, "seen_seq": SEEN_SEQ}
    return body_schema(kind_field | extras | fields, ["type", *schema.get("required", [])])


def _bounded(prop: dict) -> dict:
    """A game's field with what the boundary adds: strings clean and not too long, numbers JavaScript holds."""
    kind = prop.get("type", "string")
    if kind == "string" and "enum" not in prop:
        return text() | prop | {"type": kind}
    if kind == "integer":
        return whole_number() | prop
    if kind == "array":
        return prop | {"items": _bounded(prop.get("items", {}))}
    if kind == "object":
        fields = {name: _bounded(field) for name, field in prop.get("properties", {}).items()}
        rest = {key: value for key, value in prop.items() if key not in ("properties", "required")}
        return rest | body_schema(fields, prop.get("required", ()))
    return prop


def parse_options(game: Game, raw: Mapping, from_form: bool) -> dict:
    """The game's options from a lobby form or a JSON body, checked against their declaration."""
    options = {}
    for option in game.options:
        value = raw.get(option.name, None)
        if value is None or value == "":
            value = False if (from_form and option.kind == "bool") else option.default
        options[option.name] = _option_value(option, value)
    return options


def _option_value(option: Option, value):
    try:
        if option.kind == "int":
            number = _whole_number(value)
            if (option.min is not None and number < option.min) or (option.max is not None and number > option.max):
                raise ValueError
            return number
        if option.kind == "bool":
            return value if isinstance(value, bool) else str(value).lower() in TRUE
        if option.kind == "choice":
            if value not in option.choices:
                raise ValueError
            return value
        if not isinstance(value, str):
            raise TypeError(value)
        return value[:4000]
    except (TypeError, ValueError):
        raise TableError(N_("The option %(option)s has a value the game cannot use."), option=option.name) from None


def _whole_number(value) -> int:
    """A whole number from JSON (3, not 3.7 or true) or a form field ("3")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        return int(value)
    raise ValueError(value)


def action_from_form(game: Game, form, installed: Iterable[Game]) -> dict:
    """An action from an HTML form: fields coerced to the types of the game's action schema, then checked."""
    kind, schema = _schema(game, form.get("type", ""), installed)
    action = {"type": kind}
    for name, prop in schema.get("properties", {}).items():
        action.update(_field(name, prop, form))
    return checked(action_body_schema(game, kind), action)


def _field(name: str, prop: dict, form) -> dict:
    kind = prop.get("type", "string")
    if kind == "array" and prop.get("items", {}).get("type") == "object":
        return {name: _rows(name, prop["items"], form)}
    if kind == "array":
        values = [v for v in form.getlist(name) if v != ""]
        item = prop.get("items", {}).get("type", "string")
        return {name: [_scalar(name, item, v) for v in values]}
    if kind == "boolean":
        return {name: form.get(name, "").lower() in TRUE}
    value = form.get(name)
    if value is None or value == "":
        return {}
    return {name: _scalar(name, kind, value)}


def _rows(name: str, item: dict, form) -> list[dict]:
    """A list of objects from a form: the n-th `name.field` of every field makes the n-th row.

    A row that leaves one of its required fields blank is no row (a quick-pick line left at "none").
    """
    columns = {field: form.getlist(f"{name}.{field}") for field in item.get("properties", {})}
    rows = []
    for n in range(max(map(len, columns.values()), default=0)):
        row = {
            field: _scalar(f"{name}.{field}", item["properties"][field].get("type", "string"), values[n])
            for field, values in columns.items()
            if n < len(values) and values[n] != ""
        }
        if all(field in row for field in item.get("required", [])):
            rows.append(row)
    return rows


def _scalar(name: str, kind: str, value: str):
    if kind == "integer":
        try:
            return _whole_number(value)
        except ValueError:
            raise TableError(N_("%(field)s must be a whole number."), field=name) from None
    return value


def action_from_json(game: Game, body, installed: Iterable[Game]) -> dict:
    """An action from a JSON body (an API request or a socket frame), checked against its documented schema."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise TableError(N_("Send a JSON object with an action type."))
    kind, schema = _schema(game, body["type"], installed)
    checked(action_body_schema(game, kind), body)
    return {"type": kind} | {name: body[name] for name in schema.get("properties", {}) if name in body}


def _schema(game: Game, kind: str, installed: Iterable[Game]) -> tuple[str, dict]:
    """The table's game's schema of the action type; a type of another installed game is the rules' refusal (the
    API's document lists every installed game's actions: it is well formed), a type no game has is bad input."""
    schema = game.actions.get(kind)
    if schema is None:
        if all(kind not in other.actions for other in installed):
            raise TableError(N_("This game has no action %(type)s."), type=kind)
        raise Refused(RuleError(N_("This game has no action %(type)s."), type=kind))
    return kind, schema


JSON_TYPES = {"integer": int, "string": str, "boolean": bool, "array": list, "object": dict, "number": (int, float)}


def checked(schema: dict, value, name: str | None = None):
    """The value (a whole body when name is None), if it fits the schema, so that the tables and a game's rules
    only see well-formed input."""
    kind = schema.get("type", "string")
    shown = name or "body"
    wrong_type = isinstance(value, bool) and kind in ("integer", "number")
    if value is None or wrong_type or not isinstance(value, JSON_TYPES.get(kind, object)):
        raise TableError(N_("%(field)s has the wrong type."), field=shown)
    fits = (
        ("enum" not in schema or value in schema["enum"])
        and ("minimum" not in schema or value >= schema["minimum"])
        and ("maximum" not in schema or value <= schema["maximum"])
        and (kind != "string" or len(value) <= schema.get("maxLength", MAX_TEXT))
        and ("pattern" not in schema or _matches(schema["pattern"], value))
        and ("maxItems" not in schema or len(value) <= schema["maxItems"])
    )
    if not fits:
        raise TableError(N_("%(field)s has a value the game cannot use."), field=shown)
    for item in value if kind == "array" else ():
        checked(schema.get("items", {}), item, shown)
    if kind == "object":
        _check_fields(schema, value, f"{name}." if name else "")
    return value


def _check_fields(schema: dict, value: dict, prefix: str) -> None:
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            raise TableError(N_("%(field)s is missing."), field=prefix + name)
    for name, item in value.items():
        if name in properties:
            checked(properties[name], item, prefix + name)
        elif schema.get("additionalProperties") is False:
            raise TableError(N_("There is no field %(field)s here."), field=prefix + name)


def _matches(pattern: str, value: str) -> bool:
    return _search(pattern)(value) is not None


@functools.cache
def _search(pattern: str):
    """JSON Schema's `pattern`: a search, where `$` is the very end (Python's also matches before a last newline)."""
    return re.compile(re.sub(r"(?<!\\)\$$", r"\\Z", pattern)).search


def optional_str(body: dict, name: str) -> str | None:
    """An optional short string field of a JSON body (a client action id)."""
    value = body.get(name)
    if value is not None and (not isinstance(value, str) or len(value) > 100):
        raise TableError(N_("%(field)s has the wrong type."), field=name)
    return value or None


def optional_int(body: dict, name: str) -> int | None:
    """An optional whole-number field of a JSON body (the seq a screen saw)."""
    value = body.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise TableError(N_("%(field)s has the wrong type."), field=name)
    return value
