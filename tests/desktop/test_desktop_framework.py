"""The application framework's public API, exercised through the actor handle.

A small probe application (registered here, installed only in these tests' world) uses
each part: closing itself, being asked before the window manager closes it, the window's
scroll offsets, the painter's buffer/node-id/scroll helpers, the ``paint_key`` handed to
``paint``, the tab hooks, and pointer modifiers and click counts.
"""

from __future__ import annotations

import json

from desktop_fixture import M, act, app, definition, key, ok, one, point, ptr

from cwgym import EnvironmentConfig, World
from cwgym.apps import APPS, register
from cwgym.desktop.framework import App, UnknownTarget
from cwgym.scene import Box, Rect, Text
from cwgym.scene.text_lines import TextLine

W, H = 1280, 800
PAD = Rect(16, 60, 200, 60)
ITEMS = Rect(16, 140, 300, 120)
EXTENT = 1000


class Probe(App):
    id = "framework_probe"
    label = "Probe"
    catalogued = False
    default_size = (520, 420)

    def create(self, ctx, argument):
        return {"allow": True, "asked": 0, "log": [], "tabs": ["One", "Two"], "active": 1, "seen": None}

    def tabs(self, state):
        return state["tabs"]

    def active_tab(self, state):
        return state["active"]

    def paint_key(self, ctx, state):
        return ctx.clipboard

    def paint(self, p, state, key):
        p.text(f"key={key}", 16, 8, key="key")
        p.text("log=" + json.dumps(state["log"][-2:]), 16, 30, key="log")
        p.button("do", "Do", Rect(240, 8, 80, 32))
        p.button("close", "Close", Rect(330, 8, 80, 32))
        p.paint(Box((200, 200, 200, 255)), PAD, key="pad", target="pad")
        offset = p.scroll("items", ITEMS, EXTENT)
        p.text(f"offset={offset}", 240, 140, key="offset")
        head = p.paint(Text("head", 14, (0, 0, 0, 255), "mono"), Rect(16, 300, 40, 16), key="head", line=TextLine(0, False, 0, None, None))
        p.paint(
            Text("tail", 14, (0, 0, 0, 255), "mono"),
            Rect(16, 316, 40, 16),
            key="tail",
            line=TextLine(0, True, 4, p.node_id("head"), None),
        )
        assert head.id == p.node_id("head")
        p.buffer("editor", ["a", "b"], 0, 2, truncated=True)

    def activate(self, ctx, state, target, point, modifiers=()):
        if target == "close":
            ctx.close()
            return None
        if target in ("do", "pad"):
            state["log"].append(["activate", target, list(modifiers)])
            return None
        raise UnknownTarget(target)

    def double_click(self, ctx, state, target, point, modifiers=()):
        state["log"].append(["double_click", target, list(modifiers)])

    def is_drag_surface(self, target, button):
        return target == "pad" and button == 0

    def drag(self, ctx, state, target, phase, point, button, modifiers=(), clicks=1):
        state["log"].append(["drag", phase, list(modifiers), clicks])

    def key(self, ctx, state, chord):
        if chord.is_("End"):
            ctx.set_scroll_offset("items", 10_000)  # the painter clamps what it publishes
        elif chord.is_("Home"):
            ctx.set_scroll_offset("items", None)
        elif chord.is_("r"):
            state["seen"] = ctx.scroll_offset("items")
        elif chord.is_("v"):
            state["allow"] = not state["allow"]
        elif chord.is_("t"):
            state["tabs"].append("Three")
            state["active"] = 2
        else:
            return False
        return True

    def can_close(self, ctx, state):
        state["asked"] += 1
        return state["allow"]


if Probe.id not in APPS:
    register(Probe())


def _env():
    d = definition()
    d["computers"][0]["installed_apps"].append(Probe.id)
    w = World(d, 7)
    env = w.environment(EnvironmentConfig.desktop("ada", [M]))
    assert ok(env, app("launch", kind=Probe.id)) == {"window": 0}
    return w, env


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"] if t.get("window") == 0]


def _log(env) -> list:
    """The last two events the probe logged."""
    line = next(t for t in _texts(env) if t.startswith("log="))
    return json.loads(line[4:])


def _pane(env) -> dict:
    return next(a for a in env.scene(W, H)["scrolls"] if a["target"] == "window:0:content:pane:items")


def _pad(env) -> tuple[int, int]:
    at = point(env.scene(W, H), "window:0:content:pad")
    assert at is not None
    return at


def test_an_application_closes_its_own_window_after_the_event():
    _w, env = _env()
    ok(env, key("v"))  # it would refuse the window manager: closing itself is not asked
    out = one(env, app("shell", target="window:0:content:close"))
    assert out["success"] and out["effect"]["windows_closed"] == [0]


def test_can_close_is_asked_by_every_window_manager_close():
    _w, env = _env()
    ok(env, key("v"))  # refuse from now on
    other = ok(env, app("launch", kind="notepad_test"))["window"]
    for ask in (
        lambda: one(env, app("close", window=0)),
        lambda: one(env, app("shell", target="window:0:close")),
        lambda: one(env, ptr("click", *point(env.scene(W, H), "window:0:close"), width=W, height=H)),
        lambda: one(env, key("Alt+F4")),
    ):
        out = ask()
        assert out["success"] and out["value"] is None and not out["effect"].get("windows_closed")
        assert out["effect"]["focused_window"] == 0  # a refused close raises the window
    # the context panel's Close
    at = point(env.scene(W, H), "window:0:drag")
    ok(env, ptr("down", *at, button=2))
    ok(env, ptr("up", *at, button=2))
    out = one(env, act("application.v1", "shell", target="shell:context:close"))
    assert out["success"] and not out["effect"].get("windows_closed")
    ok(env, key("v"))  # allow again
    out = one(env, app("close", window=0))
    assert out["effect"]["windows_closed"] == [0] and out["effect"]["focused_window"] == other


def test_scroll_offsets_are_the_windows_and_report_scroll():
    w, env = _env()
    view = ITEMS.height
    assert _pane(env)["offset"] == 0
    # the application moves the offset: the painter clamps what it publishes
    out = one(env, key("End"))
    assert out["effect"]["changed"] == ["scroll"]
    assert _pane(env)["offset"] == EXTENT - view and f"offset={EXTENT - view}" in _texts(env)
    # the application reads what it stored
    ok(env, key("r"))
    ok(env, key("Home"))
    assert _pane(env)["offset"] == 0
    # the desktop's wheel moves the same offset, and the application reads it
    b = _pane(env)["bounds"]
    out = one(env, ptr("wheel", b["x"] + 5, b["y"] + 5, delta_y=120, width=W, height=H))
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    assert _pane(env)["offset"] == 120
    snap = w.snapshot()
    ok(env, key("Home"))
    w.restore(snap)
    assert _pane(env)["offset"] == 120


def test_paint_is_handed_the_paint_key_and_repaints_when_it_changes():
    w, env = _env()
    w.machine(M).clipboard = "first"
    assert "key=first" in _texts(env)
    w.machine(M).clipboard = "second"
    assert "key=second" in _texts(env)


def test_painter_buffer_truncated_and_node_ids_for_provenance():
    _w, env = _env()
    scene = env.scene(W, H)
    buf = next(b for b in scene["buffers"] if b["handle"] == "window:0:editor")
    assert buf["lines"] == ["a", "b"] and buf["truncated"] is True
    head = next(n for n in scene["nodes"] if n.get("line") and not n["line"].get("continuation") and n.get("window") == 0)
    tail = next(n for n in scene["nodes"] if n.get("line") and n["line"].get("continuation") and n.get("window") == 0)
    assert tail["line"]["wrapped_from"] == head["id"]


def test_window_tabs_come_from_the_application():
    _w, env = _env()
    entry = env.scene(W, H)["windows"][0]
    assert entry["tabs"] == ["One", "Two"] and entry["active_tab"] == 1
    ok(env, key("t"))
    entry = env.scene(W, H)["windows"][0]
    assert entry["tabs"] == ["One", "Two", "Three"] and entry["active_tab"] == 2
    # a minimized window keeps its tabs in the scene
    ok(env, app("minimize", window=0))
    entry = env.scene(W, H)["windows"][0]
    assert entry["minimized"] and entry["tabs"] == ["One", "Two", "Three"]


def test_pointer_modifiers_and_click_counts_reach_the_application():
    _w, env = _env()
    at = point(env.scene(W, H), "window:0:content:do")
    ok(env, ptr("click", *at, width=W, height=H, modifiers=["shift", "ctrl"]))
    assert _log(env)[-1] == ["activate", "do", ["Ctrl", "Shift"]]
    ok(env, ptr("click", *at))
    assert _log(env)[-1] == ["activate", "do", []]
    ok(env, ptr("double_click", *at, modifiers=["alt"]))
    assert _log(env)[-1] == ["double_click", "do", ["Alt"]]
    # a click counts the modifiers held when it was pressed
    ok(env, ptr("down", *at, modifiers=["meta"]))
    ok(env, ptr("up", *at))
    assert _log(env)[-1] == ["activate", "do", ["Meta"]]
    # a drag surface: each phase has its own modifiers
    pad = _pad(env)
    ok(env, ptr("down", *pad, modifiers=["shift"]))
    assert _log(env)[-1] == ["drag", "down", ["Shift"], 1]
    ok(env, ptr("move", pad[0] + 3, pad[1], modifiers=["ctrl"]))
    assert _log(env)[-1] == ["drag", "move", ["Ctrl"], 1]
    ok(env, ptr("up", pad[0] + 3, pad[1]))
    assert _log(env)[-1] == ["drag", "up", [], 1]
    # a double click on it is one press counting two clicks, then the release
    ok(env, ptr("double_click", *pad, modifiers=["shift"]))
    assert _log(env) == [["drag", "down", ["Shift"], 2], ["drag", "up", ["Shift"], 1]]
    # application.v1 shell reaches activate with no point and no modifiers
    ok(env, app("shell", target="window:0:content:pad"))
    assert _log(env)[-1] == ["activate", "pad", []]
