"""companion/'s modules: none imports another that imports it back, however far round, and none grows past a size one
reads whole."""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent
LONGEST_MODULE = 400  # lines


def module_files() -> dict[str, Path]:
    """Each module of companion/ by its dotted name (a package by its __init__.py)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of companion/ that a module imports, at its top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])]
                )
            # `from package import module` imports the module; `from module import name` the module alone.
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names)
    return {module for module in found if module in modules and module != name}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of the graph meets (each through the module where the walk entered it)."""
    cycles, done, path = [], set(), []

    def walk(module: str) -> None:
        path.append(module)
        for other in sorted(graph[module]):
            if other in path:
                cycles.append([*path[path.index(other) :], other])
            elif other not in done:
                walk(other)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            walk(module)
    return cycles


def test_no_module_of_companion_imports_itself_back():
    modules = module_files()
    graph = {name: imported(name, path, modules) for name, path in modules.items()}
    assert graph["companion.web.app"] >= {"companion.web.ws", "companion.web.pages", "companion.web.render_worker"}
    assert "companion.redis_fanout" in graph["companion.web.app"]  # a function's import counts too
    assert import_cycles(graph) == []


def test_the_walk_finds_a_cycle_however_far_round():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]


def test_no_module_of_companion_is_over_its_length():
    lengths = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text().splitlines()) for path in PACKAGE.rglob("*.py")
    }
    assert {path: lines for path, lines in lengths.items() if lines > LONGEST_MODULE} == {}
    assert lengths["companion/web/ws.py"] > 100  # the walk reads the real modules
