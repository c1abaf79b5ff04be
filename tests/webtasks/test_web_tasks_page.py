"""docs/web-tasks.md lists every registered kind with its MiniWoB++ counterpart and a
screenshot, as `python scripts/web_tasks_doc.py` writes it."""

from __future__ import annotations

from pathlib import Path

from cwgym.webtasks import TASK_KINDS

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "web-tasks.md").read_text()
TABLE = PAGE.partition("<!-- kinds:begin -->")[2].partition("<!-- kinds:end -->")[0]


def test_every_kind_has_its_row_and_its_picture():
    rows = {line.split("|")[1].strip().strip("`"): line for line in TABLE.splitlines() if line.startswith("| `")}
    for name, kind in TASK_KINDS.items():
        assert name in rows, f"{name}: no row in docs/web-tasks.md (run python scripts/web_tasks_doc.py)"
        assert f"`{kind.miniwob}`" in rows[name] and kind.family in rows[name]
        assert (ROOT / "docs" / "images" / "webtasks" / f"{name}.png").is_file()
    assert set(rows) <= set(TASK_KINDS.names()), "the page lists a kind that no longer exists"
    pictures = {p.stem for p in (ROOT / "docs" / "images" / "webtasks").glob("*.png")}
    assert pictures == set(TASK_KINDS.names()), "a picture of a kind that no longer exists"


def test_there_are_at_least_fifty_kinds_covering_every_family():
    families = {kind.family for _, kind in TASK_KINDS.items()}
    assert len(TASK_KINDS.names()) >= 50
    assert families == {"clicking", "typing", "forms", "navigation", "messaging", "reasoning", "widgets"}
