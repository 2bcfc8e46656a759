"""Every user-facing string has a Czech and a Dutch translation, and the compiled catalogues are fresh."""

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
