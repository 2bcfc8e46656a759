"""The one way in for text from outside: JSON bodies, socket frames, forms, query strings and path parts.

Every string a phone sends is checked here before any store, game or template
sees it: valid UTF-8, no lone surrogates (they cannot be stored or rendered),
no NUL (PostgreSQL refuses it), not too long; JSON is nested only so deep and
holds only numbers a phone can mean. Anything else is a 400 with a clear message.
"""

from __future__ import annotations

import json
import math
import re

import flask
from flask import Flask, request
from werkzeug.datastructures import ImmutableMultiDict

from companion.games.base import N_
from companion.tables import TableError

MAX_TEXT = 4000  # characters in any one string: a long note fits, a flood does not
MAX_DEPTH = 16  # the deepest an action or option ever nests is 3
MAX_BODY = 64 * 1024  # bytes of a request body; deploy/nginx.conf allows the same
# The whole numbers JavaScript holds exactly: anything beyond is not a count a phone means.
MAX_NUMBER = 2**53 - 1

FORBIDDEN = re.compile(r"[\x00\ud800-\udfff]")
# A JSON string (skipped whole, brackets and all) or one bracket: counting depth without parsing.
STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class BadInput(TableError):
    """Text or JSON from outside that the app will not take in."""


def clean_text(value: str, field: str, max_length: int = MAX_TEXT) -> str:
    """The string, if it is one the stores and pages can keep: no NUL, no lone surrogate, not too long."""
    if FORBIDDEN.search(value):
        raise BadInput(N_("%(field)s contains characters that are not allowed."), field=_shown(field))
    if len(value) > max_length:
        raise BadInput(N_("%(field)s is too long (at most %(max)s characters)."), field=_shown(field), max=max_length)
    return value


def _shown(field: str) -> str:
    """A field name safe to put in an error message (it may itself be the bad text)."""
    return FORBIDDEN.sub("\ufffd", field[:40])


def parse_json_text(text: str) -> dict:
    """A JSON object from a socket frame or a request body; BadInput for anything else."""
    if not _shallow(text):
        raise BadInput(N_("The JSON is nested too deeply."))
    try:
        value = JSON.decode(text)
    except ValueError:  # JSONDecodeError, and int() of an absurdly long number
        raise BadInput(N_("Send a JSON object.")) from None
    if not isinstance(value, dict):
        raise BadInput(N_("Send a JSON object."))
    return _checked(value, "")


def _shallow(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # no deeper than its brackets: most frames, counted in C
        return True
    depth = 0
    for token in STRING_OR_BRACKET.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif bracket in "]}":
            depth -= 1
    return True


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadInput(N_("Numbers must be finite."))
    return number


def _no_constant(name: str):
    raise BadInput(N_("Numbers must be finite."))


# Made once: json.loads with these hooks makes a decoder for every frame.
JSON = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constant)


def _checked(value, field: str):
    """Every string (keys too) and number inside a parsed JSON value, checked; the value itself back."""
    if isinstance(value, str):
        return clean_text(value, field or "text")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise BadInput(N_("%(field)s is too large a number."), field=_shown(field or "number"))
    if isinstance(value, list):
        for item in value:
            _checked(item, field)
    if isinstance(value, dict):
        for key, item in value.items():
            _checked(item, clean_text(key, "field name", 100))
    return value


def json_body(allow_empty: bool = False) -> dict:
    """The request's JSON object (an empty body: {} when allowed)."""
    raw = request.get_data(cache=True)
    if not raw and allow_empty:
        return {}
    if not request.is_json:
        raise BadInput(N_("Send a JSON object."))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(N_("Send text in UTF-8.")) from None
    return parse_json_text(text)


def check_request_text() -> None:
    """Path parts, query strings and form fields of this request: each passes clean_text."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, str):
            clean_text(value, name, 200)
    for source in (request.args, request.form):
        for name, values in source.lists():
            clean_text(name, "field name", 100)
            for value in values:
                clean_text(value, name)


class Form(ImmutableMultiDict):
    """A form, posted or sent over a socket (and a query string): werkzeug's, but a field it lacks is got without
    raising werkzeug's HTTP error inside `get` (most forms lack most optional fields, and raising it cost a busy
    server's thread: bench/RESULTS.md, "Figures that were comments"). `form[name]` raises that error as before."""

    def get(self, key, default=None, type=None):  # noqa: A002 - werkzeug's name
        return super().get(key, default, type) if key in self else default


class Request(flask.Request):
    parameter_storage_class = Form


def form_from_json(value) -> Form:
    """A page's form sent over its socket, {"name": ["value", …]}, as the form a POST of it would have been.

    The value comes from parse_json_text, which has checked its names and texts as check_request_text checks a
    posted form's; what is left is its shape."""
    if not _lists_of_text(value):
        raise BadInput(N_("Send a form as an object of lists of text."))
    return Form(value)


def _lists_of_text(value) -> bool:
    """Whether the value is an object of lists of text (in loops, not generators: it is asked on every tap)."""
    if not isinstance(value, dict):
        return False
    for values in value.values():
        if not isinstance(values, list):
            return False
        for item in values:
            if not isinstance(item, str):
                return False
    return True


def init_app(app: Flask) -> None:
    app.request_class = Request
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_CONTENT_LENGTH"] or MAX_BODY
    app.before_request(check_request_text)
