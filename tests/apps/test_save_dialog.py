"""The document applications' shared Save As dialog (:mod:`cwgym.apps._save_dialog`): the
text editor, the document editor and the spreadsheet show the same controls in the same
places, and a refused save says why in an alert, in each of them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import app, key, ok, type_

from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world

M = "workstation"
TARGETS = ("save-name", "save-folder", "save-cancel", "save-confirm")


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _roles(env, role: str) -> list[str]:
    """The labels of the scene's nodes of ``role`` (a dialog or an alert is no control)."""
    return [n["semantic"]["label"] for n in env.scene(1280, 800)["nodes"] if n["semantic"] and n["semantic"]["role"] == role]


def _shell(env, target: str) -> None:
    ok(env, app("shell", machine=M, target=f"window:0:content:{target}"))


def _bounds(env, target: str) -> tuple[int, int, int, int]:
    node = next(n for n in env.scene(1280, 800)["nodes"] if n["interaction"] == f"window:0:content:{target}")
    b, t = node["bounds"], node["transform"]
    return b["x"] + t["tx"], b["y"] + t["ty"], b["width"], b["height"]


@pytest.mark.parametrize("kind", ["editor", "docs", "spreadsheet"])
def test_save_as_shows_the_shared_controls_and_an_alert_when_refused(kind):
    env = World(load_world("ubuntu-apps"), 7).environment(EnvironmentConfig.desktop("ada", [M]))
    ok(env, app("launch", machine=M, kind=kind))
    ok(env, type_("7"))
    if kind == "spreadsheet":
        ok(env, {**key("Enter"), "machine": M})
    _shell(env, "save-as")
    elements = _elements(env)
    assert all(f"window:0:content:{t}" in elements for t in TARGETS)
    assert _roles(env, "dialog") == ["Save As"]
    name, folder, cancel, confirm = (_bounds(env, t) for t in TARGETS)
    assert name[0] == folder[0] and name[2] == folder[2] and folder[1] - name[1] == 60
    assert cancel[1] == confirm[1] and cancel[0] + cancel[2] + 8 == confirm[0]  # right-aligned, Save last
    assert not _roles(env, "alert")
    _shell(env, "save-folder")
    ok(env, {**key("Ctrl+a"), "machine": M})
    ok(env, type_("~/Nowhere"))
    _shell(env, "save-confirm")
    alerts = _roles(env, "alert")
    assert len(alerts) == 1 and "Nowhere" in alerts[0]
    _shell(env, "save-cancel")
    assert "window:0:content:save-name" not in _elements(env)
