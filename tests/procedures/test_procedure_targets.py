"""Resolving gesture targets on a typed scene: what matches, which match wins, where the
click goes. The scenes are built by hand so every case is visible in the test."""

from __future__ import annotations

import pytest

from cwgym.procedures.model import Target
from cwgym.procedures.targets import resolve, screen_dump, wildcard
from cwgym.scene import Box, Rect, SceneBuilder, SceneWindow, Semantic, Text, Transform, UiText

WHITE = (255, 255, 255, 255)
BLACK = (0, 0, 0, 255)
GREY = (200, 200, 200, 255)


def _window(b: SceneBuilder, wid: int, app: str, bounds: Rect, z: int, paint) -> None:
    b.window(SceneWindow(wid, f"{app} {wid}", app, bounds, bounds, z=z))
    with b.group(window=wid, transform=Transform.translate(bounds.x, bounds.y), clip=bounds, z=1000 * (z + 1)):
        b.paint(Box(GREY), Rect(0, 0, bounds.width, bounds.height), key="frame")
        paint(b, wid)


def _button(b: SceneBuilder, wid: int, name: str, label: str, rect: Rect, **semantic) -> None:
    target = f"window:{wid}:content:{name}"
    b.paint(Box(WHITE), rect, key=(name, "bg"), interaction=target, semantic=Semantic("button", label, **semantic))
    b.paint(UiText(label, 13, BLACK), Rect(rect.x + 4, rect.y + 4, rect.width - 8, 16), key=(name, "label"), interaction=target)


def _files(b: SceneBuilder, wid: int) -> None:
    b.paint(Box(WHITE), Rect(10, 10, 200, 24), key="row0", interaction=f"window:{wid}:content:open:0",
            semantic=Semantic("row", "Matters/"))
    b.paint(Box(WHITE), Rect(10, 40, 200, 24), key="row1", interaction=f"window:{wid}:content:open:1",
            semantic=Semantic("row", "notes.md"))
    # A text area: the rows of text are painted over the textbox, and carry no interaction.
    b.paint(Box(WHITE), Rect(10, 80, 260, 60), key="text", interaction=f"window:{wid}:content:text",
            semantic=Semantic("textbox", "letter.txt"))
    b.paint(Text("Client: Okafor Ltd", 14, BLACK, "mono"), Rect(14, 84, 160, 16), key="line0")
    b.paint(Text("Scope:", 14, BLACK, "mono"), Rect(14, 100, 60, 16), key="line1")
    # Text on a plain panel, over nothing interactive.
    b.paint(Box(GREY), Rect(10, 150, 200, 30), key="panel")
    b.paint(UiText("Status: ready", 13, BLACK), Rect(14, 154, 120, 16), key="status")
    _button(b, wid, "save", "Save", Rect(300, 250, 80, 30))
    _button(b, wid, "undo", "Undo", Rect(300, 10, 80, 30), disabled=True)


def _editor(b: SceneBuilder, wid: int) -> None:
    _button(b, wid, "save", "Save", Rect(10, 10, 80, 30))
    b.paint(Box(WHITE), Rect(10, 50, 200, 40), key="text", interaction=f"window:{wid}:content:text",
            semantic=Semantic("textbox", "memo.txt"))
    b.paint(Text("Client: covered", 14, BLACK, "mono"), Rect(14, 54, 150, 16), key="line0")


def scene():
    """Files (window 1) under an editor (window 2) that hides the left half of the Files
    Save button; a dock launcher outside any window."""
    b = SceneBuilder(1280, 800)
    b.paint(Box((30, 30, 30, 255)), Rect(0, 0, 1280, 800), key="wallpaper")
    b.paint(Box(WHITE), Rect(0, 100, 48, 48), key="dock-files", interaction="shell:launch:files",
            semantic=Semantic("button", "Files"))
    _window(b, 1, "files", Rect(100, 100, 420, 300), 0, _files)
    _window(b, 2, "editor", Rect(100 + 300 + 40, 320, 300, 200), 1, _editor)
    return b.finish()


def t(**fields) -> Target:
    return Target(**fields)


def test_role_and_label_topmost_wins():
    found = resolve(scene(), t(role="button", label="Save"))
    assert (found.interaction, found.app, found.window) == ("window:2:content:save", "editor", 2)
    assert found.record() == {"interaction": "window:2:content:save", "role": "button", "name": "Save", "app": "editor", "window": 2}


def test_app_narrows_to_a_covered_control_clicked_where_it_shows():
    s = scene()
    found = resolve(s, t(label="Save", app="files"))
    assert found.interaction == "window:1:content:save"
    x, y = found.point
    # The editor covers x >= 440 of the button (400..480): the click lands on the part that shows.
    assert 400 <= x < 440 and 350 <= y < 380
    assert s.hit_test(x, y).interaction == "window:1:content:save"
    assert s.hit_reaches(found.node, x, y)


def test_label_is_exact_and_role_must_agree():
    s = scene()
    assert resolve(s, t(label="Matters/")).interaction == "window:1:content:open:0"
    assert resolve(s, t(label="Matters")) is None
    assert resolve(s, t(role="button", label="Matters/")) is None


def test_interaction_wildcards():
    s = scene()
    assert resolve(s, t(interaction="window:*:content:open:*")).interaction == "window:1:content:open:1"
    assert resolve(s, t(interaction="shell:launch:files")).app == "shell"
    assert resolve(s, t(interaction="window:?:content:open:0")) is None  # only * is special
    assert wildcard("a[b]*").fullmatch("a[b]c") and not wildcard("a[b]*").fullmatch("abc")


def test_app_of_the_shell():
    s = scene()
    assert resolve(s, t(label="Files", app="shell")).interaction == "shell:launch:files"
    assert resolve(s, t(label="Files", app="files")) is None


def test_a_disabled_control_is_not_a_match():
    assert resolve(scene(), t(label="Undo")) is None


def test_a_text_target_lands_on_the_control_under_it():
    s = scene()
    found = resolve(s, t(text="Client:", app="files"))
    assert (found.interaction, found.role, found.name, found.text) == ("window:1:content:text", "textbox", "letter.txt", "Client: Okafor Ltd")
    x, y = found.point
    # Where the matched characters are painted: over "Client:", not the middle of the line.
    assert 114 <= x < 114 + 7 * 9 and 184 <= y < 200
    assert s.hit_test(x, y).interaction == "window:1:content:text"


def test_a_text_target_is_topmost_first_and_must_be_visible():
    s = scene()
    # Both windows paint a line with "Client:"; the editor's is on top.
    assert resolve(s, t(text="Client:")).window == 2
    assert resolve(s, t(text="Scope:")).interaction == "window:1:content:text"
    # Text over no control resolves to nothing; so does text that is nowhere.
    assert resolve(s, t(text="Status:")) is None
    assert resolve(s, t(text="Retainer")) is None
    # The control under the text must match the other fields.
    assert resolve(s, t(text="Scope:", role="button")) is None


def test_a_button_label_text_resolves_to_its_button():
    found = resolve(scene(), t(text="Save", app="files"))
    assert found.interaction == "window:1:content:save"


def test_text_hidden_by_another_window_is_not_clicked():
    b = SceneBuilder(640, 400)
    _window(b, 1, "files", Rect(0, 0, 400, 300), 0, _files)
    _window(b, 2, "editor", Rect(0, 0, 400, 300), 1, _editor)  # covers window 1 completely
    s = b.finish()
    assert resolve(s, t(text="Scope:")) is None
    assert resolve(s, t(label="Save", app="files")) is None
    assert resolve(s, t(label="Save")).window == 2


@pytest.mark.parametrize("text", [True, False])
def test_the_screen_dump_lists_windows_controls_and_text(text):
    dump = screen_dump(scene(), text=text)
    assert [w["id"] for w in dump["windows"]] == [1, 2]
    assert dump["windows"][0] == {"id": 1, "app": "files", "title": "files 1", "bounds": [100, 100, 420, 300], "focused": False, "minimized": False}
    by_id = {c["interaction"]: c for c in dump["controls"]}
    assert by_id["window:1:content:open:0"]["name"] == "Matters/" and by_id["window:1:content:open:0"]["role"] == "row"
    assert by_id["window:1:content:undo"]["reachable"] is None and by_id["window:1:content:undo"]["enabled"] is False
    assert by_id["shell:launch:files"]["app"] == "shell"
    assert ("text" in dump) is text
    if text:
        assert "Status: ready" in [r["text"] for r in dump["text"]]
