"""A page's tags as the tests read them (the action forms they fill in): found by regular expressions, in C.

html.parser takes each tag in Python: a Mice and Mystics seat page of 53 KB took 7.0 ms (2.9 ms here), and the
random games of the walk, the recorded games and the parts' tests read every seat's page after every action. What
html.parser would report is held to this by tests/platform/test_html_tags.py, through random games of every game.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

# What holds no tags a form could have: comments, the doctype, and the text of scripts and styles.
NOT_TAGS = re.compile(r"<!--.*?-->|<![^>]*>|<((script|style)\b[^>]*)>.*?</\2\s*>", re.S | re.I)
# A start or end tag; an attribute's quoted value may hold ">".
TAG = re.compile(r"""<(/?)([a-zA-Z][^\s/>]*)([^'">]*(?:(?:"[^"]*"|'[^']*')[^'">]*)*)>""")
# The tags of a form and its fields: all the tests' form readers read attributes of.
FORM_TAGS = frozenset(["form", "input", "textarea", "select", "option", "button"])
# An attribute: its name, and its "=" and value if it has one (quoted, or bare).
ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")


class TagReader:
    """html.parser's HTMLParser as the tests' form readers use it: fed a whole page, it calls handle_starttag (with the
    attributes as a dict, of the tags in `attributes_of` only: reading every tag's took most of the time),
    handle_endtag and handle_data."""

    attributes_of: frozenset[str] | None = None  # None: every tag's

    def feed(self, text: str) -> None:
        for tag, attrs, after in tags(text, self.attributes_of):
            if tag.startswith("/"):
                self.handle_endtag(tag[1:])
            elif tag:
                self.handle_starttag(tag, attrs)
            if after:
                self.handle_data(after)

    def handle_starttag(self, tag: str, attrs: dict[str, str | None]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        pass

    def handle_data(self, data: str) -> None:
        pass


def tags(text: str, attributes_of: frozenset[str] | None = None) -> Iterator[tuple[str, dict[str, str | None], str]]:
    """Each tag in order: its name (an end tag's with "/" before it, names in lower case), its attributes (valueless:
    None; values unescaped; the last of a name given twice) and the text after it up to the next tag, unescaped. The
    text before the first tag comes first, as a tag named "". attributes_of: the tags whose attributes are read (None:
    every tag's); any other's are given as {}."""
    text = NOT_TAGS.sub(_script_or_style_kept, text)
    matches = list(TAG.finditer(text))
    yield "", {}, html.unescape(text[: matches[0].start() if matches else len(text)])
    for match, following in zip(matches, [*matches[1:], None], strict=True):
        closing, name, attributes = match.groups()
        name = name.lower()
        after = text[match.end() : following.start() if following else len(text)]
        read = not closing and (attributes_of is None or name in attributes_of)
        yield closing + name, _attributes(attributes) if read else {}, html.unescape(after)


def _script_or_style_kept(match: re.Match) -> str:
    """A comment or the doctype goes; a script or a style keeps its tags, without what is between them."""
    return "" if match[1] is None else f"<{match[1]}></{match[2]}>"


def _attributes(text: str) -> dict[str, str | None]:
    return {
        name.lower(): html.unescape(double or single or bare) if given else None
        for name, given, double, single, bare in ATTRIBUTE.findall(text)
    }
