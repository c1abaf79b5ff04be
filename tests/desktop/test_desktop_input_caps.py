"""Bounded input: every text field, search box and text pane has a cap on what it holds.

Typing (or a key, or a paste) past a cap fails the action with ``invalid`` and changes
nothing; the next ordinary action works. (Before the caps, 600,000 characters typed into
the app grid's search raised ``MemoryError`` on that step and every later one.)
"""

from __future__ import annotations

from desktop_fixture import M, app, desktop, key, ok, one, type_, world

from cwgym.apps._textpane import FIELD_MAX
from cwgym.apps.editor import MAX_CHARS
from cwgym.apps.terminal import INPUT_MAX
from cwgym.desktop.launcher import SEARCH_MAX


def _desk(w) -> dict:
    """The acting session's desktop as plain data (windows with their application state)."""
    (session,) = w.inspect()["state"]["sessions"].values()
    return session["desktops"][M]


def _refused(w, env, action: dict) -> None:
    """``action`` fails with ``invalid`` and leaves the desktop as it was."""
    before = _desk(w)
    out = one(env, action)
    assert not out["success"] and out["error"]["code"] == "invalid", out
    assert _desk(w) == before


def _focused_state(w) -> dict:
    desk = _desk(w)
    return next(win["state"] for win in desk["windows"] if win["id"] == desk["focused"])


def test_the_app_grid_search_holds_at_most_its_cap():
    w = world()
    env = desktop(w)
    ok(env, key("Meta"))
    _refused(w, env, type_("x" * 600_000))  # the MemoryError of old
    ok(env, type_("x" * SEARCH_MAX))
    _refused(w, env, type_("y"))
    _refused(w, env, key("y"))
    ok(env, key("Backspace"))
    ok(env, type_("z"))
    assert _desk(w)["panel"]["search"] == "x" * (SEARCH_MAX - 1) + "z"
    ok(env, key("Escape"))
    assert env.scene(1280, 800)["focus"]["keyboard"]["route"] != "panel"


def test_the_file_managers_location_search_and_name_fields_hold_at_most_the_field_cap():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="files"))
    # typing in the list starts a search: too much starts nothing
    _refused(w, env, type_("q" * (FIELD_MAX + 1)))
    assert _focused_state(w)["focus"] == "list"
    ok(env, type_("q" * FIELD_MAX))
    _refused(w, env, type_("q"))
    ok(env, key("Escape"))
    # the location bar (Ctrl+L selects its text, which typing replaces)
    ok(env, key("Ctrl+l"))
    ok(env, type_("/" * FIELD_MAX))
    _refused(w, env, type_("/"))
    ok(env, key("Ctrl+a"))
    ok(env, key("Ctrl+c"))  # the whole long location to the clipboard
    ok(env, key("End"))
    _refused(w, env, key("Ctrl+v"))
    ok(env, key("Escape"))
    # the rename field of the first row
    ok(env, key("ArrowDown"))
    ok(env, key("F2"))
    assert _focused_state(w)["focus"] == "name"
    ok(env, key("Ctrl+a"))
    _refused(w, env, type_("n" * (FIELD_MAX + 1)))
    ok(env, type_("n" * FIELD_MAX))
    _refused(w, env, key("n"))
    ok(env, key("Escape"))
    assert _focused_state(w)["focus"] == "list"


def test_the_editor_document_and_its_find_field_hold_at_most_their_caps():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="editor"))
    ok(env, type_("a" * MAX_CHARS))
    _refused(w, env, type_("b"))
    _refused(w, env, key("b"))
    _refused(w, env, key("Enter"))
    ok(env, key("Backspace"))
    ok(env, type_("c"))
    state = _focused_state(w)
    assert len(state["text"]) == MAX_CHARS and state["text"].endswith("ac")
    ok(env, key("Ctrl+a"))
    ok(env, type_("short"))  # replacing the selection shrinks it
    ok(env, key("Ctrl+f"))
    _refused(w, env, type_("f" * (FIELD_MAX + 1)))
    ok(env, type_("f" * FIELD_MAX))
    _refused(w, env, key("f"))
    ok(env, key("Escape"))
    assert _focused_state(w)["text"] == "short"


def test_the_terminal_input_line_holds_at_most_its_cap_and_runs_nothing_past_it():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="terminal"))
    lines = len(_focused_state(w)["lines"])
    # the first line fits but the second does not: nothing runs
    _refused(w, env, type_("echo ran\n" + "y" * (INPUT_MAX + 1)))
    assert len(_focused_state(w)["lines"]) == lines
    ok(env, type_("e" * INPUT_MAX))
    _refused(w, env, type_("e"))
    _refused(w, env, key("e"))
    ok(env, key("Ctrl+u"))
    ok(env, type_("echo fine\n"))
    assert any("fine" in line for line in _focused_state(w)["lines"][lines:])
