"""The scene layer imports only protocol, the kernel's digests (and, later, text), and
nothing that reads the clock, the host or a random source."""

from __future__ import annotations

import ast
from pathlib import Path

import cwgym.scene

ALLOWED_CWGYM = ("cwgym.scene", "cwgym.protocol", "cwgym.kernel.digest", "cwgym.text")
FORBIDDEN = {
    "random",
    "time",
    "datetime",
    "os",
    "uuid",
    "socket",
    "subprocess",
    "secrets",
    "threading",
}


def imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_scene_imports_stay_in_their_layer():
    package = Path(cwgym.scene.__file__).parent
    files = sorted(package.glob("*.py"))
    assert files
    for path in files:
        for name in imports(path):
            if name.startswith("cwgym"):
                assert name.startswith(ALLOWED_CWGYM), f"{path.name} imports {name}"
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
