"""Where the package's own files are: templates/, static/ and the translation catalogues."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> str:
    """templates/ or static/: inside the installed package, or beside it in a checkout."""
    installed = PACKAGE / name
    return str(installed if installed.is_dir() else PACKAGE.parent / name)
