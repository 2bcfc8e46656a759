"""Turning form fields and JSON bodies into table options and actions."""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.games.base import N_, Game, Option
from companion.tables import TableError

TRUE = {"1", "true", "on", "yes"}


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


def action_from_form(game: Game, form) -> dict:
    """An action from an HTML form: fields coerced to the types of the game's action schema, then checked."""
    kind, schema = _schema(game, form.get("type", ""))
    action = {"type": kind}
    for name, prop in schema.get("properties", {}).items():
        action.update(_field(name, prop, form))
    return _checked(schema, action)


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


def action_from_json(game: Game, body) -> dict:
    """An action from a JSON body: only the declared fields, checked against the game's action schema."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise TableError(N_("Send a JSON object with an action type."))
    kind, schema = _schema(game, body["type"])
    fields = schema.get("properties", {})
    return _checked(schema, {"type": kind} | {name: body[name] for name in fields if name in body})


def _schema(game: Game, kind: str) -> tuple[str, dict]:
    schema = game.actions.get(kind)
    if schema is None:
        raise TableError(N_("This game has no action %(type)s."), type=kind)
    return kind, schema


JSON_TYPES = {"integer": int, "string": str, "boolean": bool, "array": list, "object": dict, "number": (int, float)}


def _checked(schema: dict, action: dict, prefix: str = "") -> dict:
    """The action (or an object in it), if its fields fit the schema, so that a game's rules only see well-formed
    actions."""
    for name in schema.get("required", []):
        if name not in action:
            raise TableError(N_("%(field)s is missing."), field=prefix + name)
    for name, prop in schema.get("properties", {}).items():
        if name in action:
            _check_value(prefix + name, prop, action[name])
    return action


def _check_value(name: str, prop: dict, value) -> None:
    kind = prop.get("type", "string")
    wrong_type = isinstance(value, bool) and kind in ("integer", "number")
    if value is None or wrong_type or not isinstance(value, JSON_TYPES.get(kind, object)):
        raise TableError(N_("%(field)s has the wrong type."), field=name)
    fits = (
        ("enum" not in prop or value in prop["enum"])
        and ("minimum" not in prop or value >= prop["minimum"])
        and ("maximum" not in prop or value <= prop["maximum"])
        and (kind != "string" or len(value) <= prop.get("maxLength", 4000))
        and ("pattern" not in prop or re.fullmatch(prop["pattern"].strip("^$"), value) is not None)
        and ("maxItems" not in prop or len(value) <= prop["maxItems"])
    )
    if not fits:
        raise TableError(N_("%(field)s has a value the game cannot use."), field=name)
    for item in value if kind == "array" else ():
        _check_value(name, prop.get("items", {}), item)
    if kind == "object":
        _checked(prop, value, prefix=f"{name}.")


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
