"""Every package companion/ imports is declared in pyproject.toml; a plain install starts without the scale extra's."""

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib

from tests.conftest import TESTS

ROOT = TESTS.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SCALE = PROJECT["optional-dependencies"]["scale"]


def distribution(name: str) -> str:
    """A requirement's distribution, by its normalised name ("Flask-Sock[x]>=1" is "flask-sock")."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", name).group()).lower()


def imported_modules() -> set[str]:
    """The top-level modules companion/ imports, besides its own and the standard library's."""
    modules = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules.add(node.module.split(".")[0])
    return modules - {"companion"} - sys.stdlib_module_names


def test_every_package_companion_imports_is_declared():
    declared = {distribution(requirement) for requirement in PROJECT["dependencies"] + SCALE}
    installed = importlib.metadata.packages_distributions()
    modules = imported_modules()
    assert {"flask", "wsproto", "psycopg"} <= modules  # the walk found imports, lazy ones too
    undeclared = {
        module: installed.get(module)
        for module in modules
        if not {*map(distribution, installed.get(module, []))} & declared
    }
    assert undeclared == {}


def test_a_plain_install_opens_a_table_without_importing_the_scale_extras_packages(tmp_path):
    scale_only = {*map(distribution, SCALE)} - {*map(distribution, PROJECT["dependencies"])}
    scale_modules = {
        module
        for module, names in importlib.metadata.packages_distributions().items()
        if {*map(distribution, names)} & scale_only
    }
    assert {"redis", "psycopg", "gevent"} <= scale_modules
    script = (
        "import sys; from companion.web.app import create_app;"
        "c = create_app({'DATA_DIR': sys.argv[1]}).test_client();"
        "code = c.post('/api/tables', json={'game': 'scotland-yard', 'options': {}}).json['code'];"
        "assert c.get(f'/t/{code}/display').status_code == 200;"
        "print(' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True, cwd=ROOT, timeout=60
    )
    loaded = {name.split(".")[0] for name in done.stdout.split()}
    assert loaded & scale_modules == set()
