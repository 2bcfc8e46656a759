"""Translation catalogues: one for the platform, one per game.

`python -m companion.catalogs update [package]` extracts every translatable string,
merges it into the Czech and Dutch .po files and compiles the .mo files;
`check` lists what is missing (the test suite fails on any).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

LOCALES = ("cs", "nl")
ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "msg": None, "RuleError": None}


@dataclass(frozen=True)
class Source:
    """A translations directory and the files whose strings it holds."""

    translations: Path
    python: tuple[Path, ...]
    templates: tuple[Path, ...]

    def messages(self) -> Catalog:
        catalog = Catalog(fuzzy=False)
        for files, method in ((self.python, "python"), (self.templates, "jinja2")):
            for path in files:
                options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
                for lineno, message, _comments, context in extract_from_file(
                    method, str(path), keywords=KEYWORDS, options=options
                ):
                    catalog.add(message, locations=[(str(path.relative_to(ROOT)), lineno)], context=context)
        return catalog


def sources() -> list[Source]:
    """The platform's catalogue and every game package's own."""
    games = ROOT / "companion" / "games"
    packages = sorted(p for p in games.iterdir() if (p / "__init__.py").exists())
    game_files = {f for p in packages for f in p.rglob("*.py")}
    core = Source(
        ROOT / "companion" / "translations",
        tuple(sorted(f for f in (ROOT / "companion").rglob("*.py") if f not in game_files)),
        tuple(sorted((ROOT / "templates").rglob("*.html"))),
    )
    return [core] + [
        Source(
            p / "translations",
            tuple(sorted(p.rglob("*.py"))),
            tuple(sorted((p / "templates").rglob("*.html"))),
        )
        for p in packages
    ]


def catalogues() -> dict[Path, Catalog]:
    """Every translations directory with all the strings its sources mark."""
    return {source.translations: source.messages() for source in sources()}


def update(only: str | None = None) -> None:
    """Merge the extracted strings into the .po files and compile the .mo files.

    only: a translations directory's package (e.g. "downforce"), to leave the others alone.
    """
    for directory, template in catalogues().items():
        if only and directory.parent.name != only:
            continue
        for locale in LOCALES:
            po = directory / locale / "LC_MESSAGES" / "messages.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            catalog = _read(po, locale)
            # Keep the header's date and leave out line numbers, so that an update changes only what changed.
            template.creation_date = catalog.creation_date
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            with po.open("wb") as out:
                write_po(out, catalog, sort_output=True, include_previous=False, include_lineno=False)
            compile_mo(po)


def compile_mo(po: Path) -> None:
    catalog = _read(po, po.parent.parent.name)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != buffer.getvalue():
        mo.write_bytes(buffer.getvalue())


def missing() -> list[str]:
    """Strings without a translation, stale .mo files: one line each."""
    problems = []
    for directory, template in catalogues().items():
        for locale in LOCALES:
            po = directory / locale / "LC_MESSAGES" / "messages.po"
            catalog = _read(po, locale)
            for message in template:
                if not message.id:
                    continue
                found = catalog.get(message.id, context=message.context)
                if (
                    found is None
                    or not found.string
                    or found.fuzzy
                    or (isinstance(found.string, tuple) and not all(found.string))
                ):
                    problems.append(f"{po.relative_to(ROOT)}: {message.id!r}")
            if po.exists():
                buffer = BytesIO()
                write_mo(buffer, catalog)
                mo = po.with_suffix(".mo")
                if not mo.exists() or mo.read_bytes() != buffer.getvalue():
                    problems.append(f"{mo.relative_to(ROOT)}: stale, run `python -m companion.catalogs update`")
    return problems


def _read(po: Path, locale: str) -> Catalog:
    if not po.exists():
        return Catalog(locale=locale)
    with po.open("rb") as handle:
        return read_po(handle, locale=locale)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "update":
        update(sys.argv[2] if len(sys.argv) > 2 else None)
    problems = missing()
    print("\n".join(problems) or "catalogues complete")
    sys.exit(1 if problems and command == "check" else 0)
