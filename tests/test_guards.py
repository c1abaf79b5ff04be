"""Structural guards: the simulator reaches no host clock, randomness, network, process or
file; and no layer imports one above it (the table in DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cwgym"

#: layer -> the layers it may import (besides itself and cwgym._version).
ALLOWED: dict[str, set[str]] = {
    "protocol": set(),
    "kernel": {"protocol"},
    "machine": {"kernel", "protocol"},
    "net": {"kernel", "protocol"},
    "webtasks": {"kernel", "protocol"},
    "services": {"webtasks", "net", "kernel", "protocol"},
    "text": {"kernel", "protocol"},
    "scene": {"text", "kernel", "protocol"},
    "web": {"net", "scene", "text", "kernel", "protocol"},
    "desktop": {"machine", "net", "web", "scene", "text", "kernel", "protocol"},
    "apps": {"desktop", "machine", "net", "web", "scene", "text", "kernel", "protocol"},
    "render": {"scene", "text", "kernel", "protocol"},
    "environment": {"apps", "desktop", "render", "machine", "net", "services", "webtasks", "web", "scene", "text", "kernel", "protocol"},
    "procedures": {"environment", "apps", "desktop", "render", "machine", "net", "services", "webtasks", "web", "scene", "text", "kernel", "protocol", "resources"},
    "rl": {"procedures", "environment", "apps", "desktop", "render", "machine", "net", "services", "webtasks", "web", "scene", "text", "kernel", "protocol", "resources"},
    # host-side: the evaluator's process handling (host clock, subprocesses), never the simulator
    # host-side: agents that play envs (a language-model harness), above the envs they play
    "agents": {"rl", "procedures", "environment", "apps", "desktop", "render", "machine", "net", "services", "webtasks", "web", "scene", "text", "kernel", "protocol", "resources"},
    "leaderboard": {"rl", "procedures", "environment", "apps", "desktop", "render", "machine", "net", "services", "webtasks", "web", "scene", "text", "kernel", "protocol", "resources"},
}
SIMULATOR = [layer for layer in ALLOWED if layer not in ("procedures", "rl", "agents", "leaderboard")]

FORBIDDEN_MODULES = {
    "time", "random", "secrets", "uuid", "socket", "ssl", "subprocess", "os", "shutil", "tempfile",
    "glob", "pathlib", "threading", "multiprocessing", "asyncio", "signal", "select", "ctypes",
    "urllib", "http", "requests", "io",
}
FORBIDDEN_CALLS = {"open", "now", "today", "utcnow", "time_ns", "perf_counter", "urandom", "getrandbits"}

#: Submodules of forbidden packages that do no I/O at all, allowed everywhere -> why.
PURE = {
    "urllib.parse": "splits and quotes URL text; opens nothing",
}

#: Reviewed exceptions: (module file relative to cwgym/, forbidden import) -> why.
EXCEPTIONS = {
    ("text/fonts.py", "pathlib"): "loads the bundled font files from the package folder, nothing else",
    ("apps/_raster.py", "io"): "BytesIO around a simulated file's bytes, for Pillow to decode and encode; no host file",
    ("apps/_raster.py", "open"): "PIL.Image.open of that in-memory BytesIO only",
    ("apps/paint.py", "io"): "BytesIO around the bundled font's bytes for Pillow's text; no host file",
}


#: Reviewed upward imports: (module file relative to cwgym/, imported layer) -> why.
UPWARD = {
    ("environment/world.py", "procedures"): "World.stage/project/verify are owner facades over the procedures layer (lazy imports)",
}


def _modules(layer: str) -> list[Path]:
    folder = PACKAGE / layer
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found


@pytest.mark.parametrize("layer", SIMULATOR)
def test_simulator_reaches_no_host_clock_randomness_network_processes_or_files(layer):
    problems = []
    for path in _modules(layer):
        relative = path.relative_to(PACKAGE).as_posix()
        for module, line in _imports(path):
            top = module.split(".")[0]
            pure = any(module == p or module.startswith(p + ".") for p in PURE)
            if top in FORBIDDEN_MODULES and not pure and (relative, top) not in EXCEPTIONS:
                problems.append(f"{relative}:{line} imports {module}")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in FORBIDDEN_CALLS and (relative, name) not in EXCEPTIONS:
                    problems.append(f"{relative}:{node.lineno} calls {name}()")
    assert problems == []


@pytest.mark.parametrize("layer", list(ALLOWED))
def test_no_layer_imports_one_above_it(layer):
    problems = []
    for path in _modules(layer):
        for module, line in _imports(path):
            parts = module.split(".")
            if parts[0] != "cwgym" or len(parts) < 2:
                continue
            target = parts[1]
            if target in (layer, "_version") or target not in (*ALLOWED, "resources", "cli"):
                continue
            relative = path.relative_to(PACKAGE).as_posix()
            if target not in ALLOWED[layer] and (relative, target) not in UPWARD:
                problems.append(f"{path.relative_to(PACKAGE)}:{line} imports cwgym.{target}")
    assert problems == []


def test_the_guard_sees_a_violation(tmp_path):
    """The scanner itself works: a planted import of time is found."""
    bad = PACKAGE.parent / "tests" / "_planted.py"
    try:
        bad.write_text("import time\nfrom cwgym.rl import x\n")
        assert ("time", 1) in _imports(bad)
    finally:
        bad.unlink()
