"""What pyproject.toml cannot say: templates/ and static/ ship in the wheel as companion/templates and /static, and
each game package its own templates/, static/ and catalogues."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["companion", "companion.*"]), "companion.templates", "companion.static"],
    package_dir={"companion.templates": "templates", "companion.static": "static"},
    package_data={
        "companion.templates": ["**/*.html"],
        "companion.static": ["**/*"],
        # A game package's own parts: its board data, screens, styles and catalogues.
        "": ["*.json", "translations/*/LC_MESSAGES/*.mo", "templates/**/*.html", "static/**/*"],
    },
)
