"""Turning form fields and JSON bodies into table options and actions."""

from __future__ import annotations

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
            number = int(value)
            if (option.min is not None and number < option.min) or (option.max is not None and number > option.max):
                raise ValueError
            return number
        if option.kind == "bool":
            return value if isinstance(value, bool) else str(value).lower() in TRUE
        if option.kind == "choice":
            if value not in option.choices:
                raise ValueError
            return value
        return str(value)[:4000]
    except (TypeError, ValueError):
        raise TableError(N_("The option %(option)s has a value the game cannot use."), option=option.name) from None


def action_from_form(game: Game, form) -> dict:
    """An action from an HTML form: fields coerced to the types of the game's action schema."""
    kind = form.get("type", "")
    schema = game.actions.get(kind)
    if schema is None:
        raise TableError(N_("This game has no action %(type)s."), type=kind)
    action = {"type": kind}
    for name, prop in schema.get("properties", {}).items():
        action.update(_field(name, prop, form))
    return action


def _field(name: str, prop: dict, form) -> dict:
    kind = prop.get("type", "string")
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


def _scalar(name: str, kind: str, value: str):
    if kind == "integer":
        try:
            return int(value)
        except ValueError:
            raise TableError(N_("%(field)s must be a whole number."), field=name) from None
    return value


def action_from_json(game: Game, body) -> dict:
    """An action from a JSON body: only the declared fields, of roughly the declared types."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise TableError(N_("Send a JSON object with an action type."))
    schema = game.actions.get(body["type"])
    if schema is None:
        raise TableError(N_("This game has no action %(type)s."), type=body["type"])
    action = {"type": body["type"]}
    for name, prop in schema.get("properties", {}).items():
        if name in body:
            action[name] = _checked(name, prop, body[name])
    return action


JSON_TYPES = {"integer": int, "string": str, "boolean": bool, "array": list, "object": dict, "number": (int, float)}


def _checked(name: str, prop: dict, value):
    expected = JSON_TYPES.get(prop.get("type", "string"), object)
    if isinstance(value, bool) and prop.get("type") in ("integer", "number"):
        expected = ()
    if value is not None and not isinstance(value, expected):
        raise TableError(N_("%(field)s has the wrong type."), field=name)
    return value
