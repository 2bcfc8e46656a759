"""Every user-facing string has a Czech and a Dutch translation, and the compiled catalogues are fresh."""

import re

import pytest
from babel.messages.pofile import read_po

from companion import catalogs


def test_every_catalogue_translates_every_string():
    assert catalogs.missing() == []


def test_every_game_package_has_its_own_catalogue():
    translations = {source.translations for source in catalogs.sources()}
    for package in (catalogs.ROOT / "companion" / "games").iterdir():
        if (package / "__init__.py").exists():
            assert package / "translations" in translations


def test_a_placeholder_survives_translation(client):
    page = client.get("/?lang=cs").get_data(as_text=True)
    assert "Otevřít stůl" in page


# Second-person words of the form a language does not use: the product speaks to a player as "vy" in Czech and
# as "je" in Dutch on every screen, so one table never reads both "Jste" and "Jsi".
OTHER_FORM = {
    "cs": re.compile(
        r"\b(jsi|nejsi|máš|nemáš|budeš|smíš|tvůj|tvoje|tvá|tvé|tvého|tobě|tebe|ty|hoď|vyber|řekni|ťukni|pohni|"
        r"lízni|nech|zapisuješ|házíš|volíš|napadáš|ukončíš)\b",
        re.IGNORECASE,
    ),
    "nl": re.compile(r"\b(u|uw|bent u|heeft u)\b"),
}


@pytest.mark.parametrize("locale", sorted(OTHER_FORM))
def test_each_language_speaks_to_a_player_in_one_form(locale):
    found = []
    for source in catalogs.sources():
        po = source.translations / locale / "LC_MESSAGES" / "messages.po"
        with po.open("rb") as file:
            catalog = read_po(file, locale=locale)
        for message in catalog:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found += [f"{po.parent.parent.parent.parent.name}: {s}" for s in strings if OTHER_FORM[locale].search(s)]
    assert found == []
