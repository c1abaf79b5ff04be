"""Every Python example in the README and docs/ runs, top to bottom, one namespace a page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@pytest.mark.parametrize("page", [p for p in PAGES if BLOCK.search(p.read_text())], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_examples_run(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__docs__"}
    for block in BLOCK.findall(page.read_text()):
        exec(compile(block, str(page), "exec"), namespace)


def test_shell_page_lists_every_registered_command():
    from cwgym.machine import commands

    page = (ROOT / "docs" / "shell.md").read_text()
    assert [name for name in commands.names() if f"`{name}`" not in page] == []
