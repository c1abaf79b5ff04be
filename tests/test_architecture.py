"""The shape of the package: no import circles inside a layer, no module reaching into
another module's private names, and every extension point a registry.

Import edges are counted from the source, so ``TYPE_CHECKING`` and function-local imports
count too: a type-only circle still ties two modules together for a reader.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cwgym.kernel.registry import Registry

PACKAGE = Path(__file__).resolve().parents[1] / "cwgym"

#: Reviewed cross-module uses of private names: (file, name) -> why. Keep it short.
PRIVATE_ALLOWED: dict[tuple[str, str], str] = {
    ("apps/_ical.py", "_replace"): "NamedTuple's documented copy-with-changes method (underscored only to avoid field names)",
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        package = _package_of(name, path)
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(node, package)
                # ``from pkg import sub`` depends on the module ``sub``, as ``from pkg.sub import x``
                # does (neither counts the parent package's ``__init__``); any other name is pkg's
                names = [f"{module}.{alias.name}" for alias in node.names]
                targets = [n if n in MODULES else module for n in names]
            for target in targets:
                resolved = _resolve(target) if target.startswith("cwgym") else None
                if resolved and resolved != name:
                    edges[name].add(resolved)
    return edges


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _cycles_within_layers(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, edges kept inside a layer."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if _layer(w) != _layer(v):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_inside_a_layer():
    cycles = _cycles_within_layers(_edges())
    assert cycles == [], "import circles inside a layer (break them with a protocol or by moving the shared piece down):\n" + "\n".join(
        " -> ".join(c) for c in cycles
    )


def test_the_cycle_finder_sees_a_circle():
    edges = {"cwgym.x.a": {"cwgym.x.b"}, "cwgym.x.b": {"cwgym.x.a"}, "cwgym.y.c": {"cwgym.x.a"}}
    assert _cycles_within_layers(edges) == [["cwgym.x.a", "cwgym.x.b"]]


def _defined_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_"):
            names.add(node.value)  # __slots__ entries
    return names


def _foreign_modules(tree: ast.AST) -> set[str]:
    """Names bound to modules outside cwgym (``argparse._SubParsersAction`` is theirs)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {(alias.asname or alias.name).split(".")[0] for alias in node.names if not alias.name.startswith("cwgym")}
    return out


def private_uses(path: Path, module: str) -> list[tuple[int, str]]:
    """Uses of another module's private name in ``path``: ``obj._name`` (obj not self or
    cls) for a name this module does not define, and ``from cwgym.x import _name`` (a
    package's private module imported from inside that package is allowed)."""
    tree = ast.parse(path.read_text())
    defined = _defined_names(tree)
    foreign = _foreign_modules(tree)
    package = _package_of(module, path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if isinstance(base, ast.Name) and (base.id in ("self", "cls") or base.id in foreign):
                continue
            if node.attr not in defined:
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("cwgym"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and node.module != package:
                    found.append((node.lineno, alias.name))
    return found


def test_no_module_touches_another_modules_private_names():
    problems = []
    for module, path in MODULES.items():
        relative = path.relative_to(PACKAGE).as_posix()
        for line, name in private_uses(path, module):
            if (relative, name) not in PRIVATE_ALLOWED:
                problems.append(f"cwgym/{relative}:{line}: {name}")
    assert problems == [], "make these public (or move them) instead:\n" + "\n".join(problems)


def test_the_private_scan_sees_a_violation(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from cwgym.machine.shell.lexer import _hidden\n\ndef f(world):\n    return world._secret\n")
    assert private_uses(source, "cwgym.m") == [(1, "_hidden"), (4, "_secret")]


REGISTRIES = [
    ("cwgym.machine.commands", "COMMANDS"),
    ("cwgym.apps", "APPS"),
    ("cwgym.desktop.themes", "THEMES"),
    ("cwgym.environment.families", "FAMILIES"),
    ("cwgym.environment.channels", "CHANNELS"),
    ("cwgym.kernel.subsystem", "SUBSYSTEMS"),
    ("cwgym.rl.observation_keys", "OBSERVATION_KEYS"),
    ("cwgym.procedures.checks", "CHECK_KINDS"),
]


@pytest.mark.parametrize(("module", "name"), REGISTRIES, ids=[n for _, n in REGISTRIES])
def test_every_extension_point_is_a_registry_with_entries(module, name):
    registry = getattr(importlib.import_module(module), name)
    assert isinstance(registry, Registry)
    assert registry.names(), f"{module}.{name} found no entries"
