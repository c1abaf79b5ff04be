"""Paint (``paint``), driven only through the actor handle.

Pictures are made here with Pillow and shipped in the world as data URLs; controls are
found in the scene by interaction id, role and label; the canvas is reached at points
computed from its painted bounds; files are checked through the owner's machine.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import paint
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
PICS = "/home/ada/Pictures"
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
RED = (237, 28, 36)
YELLOW = (255, 242, 0)
BLUE_BG = (0, 0, 200)


def _png(width: int = 200, height: int = 120, color=BLUE_BG, fmt: str = "PNG") -> bytes:
    im = Image.new("RGB", (width, height), color)
    buf = io.BytesIO()
    im.save(buf, fmt)
    return buf.getvalue()


def _url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    c = d["computers"][0]
    c["installed_apps"].append("paint")
    c["initial_files"].update(
        {
            "Pictures/blue.png": _url(_png()),
            "Pictures/photo.jpg": _url(_png(80, 60, (200, 40, 40), "JPEG"), "image/jpeg"),
            "Pictures/broken.png": _url(_png()[:60]),
            "Documents/notes.txt": "hello\n",
        }
        | (files or {})
    )
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _launch(env, argument: str | None = None) -> int:
    payload = {"kind": "paint"} | ({"argument": argument} if argument else {})
    wid = ok(env, app("launch", **payload))["window"]
    ok(env, app("maximize"))
    return wid


def _scene(env) -> dict:
    return env.scene(W, H)


def _title(env, wid: int = 0) -> str:
    return next(x for x in _scene(env)["windows"] if x["id"] == wid)["title"]


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, name: str, wid: int = 0) -> dict:
    at = point(_scene(env), f"window:{wid}:content:{name}")
    assert at is not None, f"{name} cannot be reached"
    return one(env, ptr("click", *at, width=W, height=H))


def _shell(env, name: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{name}"))


def _state(w: World, wid: int = 0) -> dict:
    """The window's application state, as the owner inspects it."""
    for session in w.inspect()["state"]["sessions"].values():
        for win in session.get("desktops", {}).get(M, {}).get("windows", []):
            if win["id"] == wid:
                return win["state"]
    raise AssertionError("no such window")


def _read(w: World, path: str) -> bytes:
    return w.machine(M).fs.read_path(path)


def _picture(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def _canvas(env, wid: int = 0) -> dict:
    nodes = [
        n
        for n in _scene(env)["nodes"]
        if n["interaction"] == f"window:{wid}:content:canvas" and n["semantic"]
    ]
    assert nodes, "no canvas"
    return nodes[0]


def _at(env, x: int, y: int, wid: int = 0) -> tuple[int, int]:
    """The screen point of picture pixel (x, y)."""
    node = _canvas(env, wid)
    b, t = node["bounds"], node["transform"]
    w, h = (int(v) for v in node["semantic"]["value"].split(" × "))
    return b["x"] + t["tx"] + x * b["width"] // w, b["y"] + t["ty"] + y * b["height"] // h


def _drag(env, *points: tuple[int, int], wid: int = 0) -> None:
    """Press at the first picture pixel, move through the others, release at the last."""
    screen = [_at(env, *p, wid=wid) for p in points]
    ok(env, ptr("down", *screen[0], width=W, height=H))
    for p in screen[1:]:
        ok(env, ptr("move", *p, width=W, height=H))
    ok(env, ptr("up", *screen[-1], width=W, height=H))


def _press(env, x: int, y: int) -> None:
    ok(env, ptr("click", *_at(env, x, y), width=W, height=H))


def _save_as(env, path: str) -> None:
    ok(env, key("Ctrl+Shift+s"))
    ok(env, key("Ctrl+a"))
    ok(env, type_(path))
    ok(env, key("Enter"))


def _canvas_pixels(env) -> Image.Image:
    prim = _canvas(env)["primitive"]
    return Image.frombytes("RGBA", (prim["width"], prim["height"]), bytes(prim["rgba"])).convert(
        "RGB"
    )


# -- drawing -------------------------------------------------------------------------------


def test_a_brush_stroke_by_pointer_drag_draws_and_saves_as_a_new_png():
    w = _world()
    env = _env(w)
    _launch(env)
    assert _title(env) == "Untitled — Paint"
    canvas = _canvas(env)
    assert (canvas["primitive"]["width"], canvas["primitive"]["height"]) == paint.NEW_SIZE
    move = one(env, ptr("move", *_at(env, 100, 100), width=W, height=H))
    assert move["value"] == {"cursor": "crosshair"}
    _drag(env, (50, 50), (100, 50), (150, 50))
    assert _title(env) == "• Untitled — Paint"
    pixels = _canvas_pixels(env)
    assert pixels.getpixel((100, 50)) == BLACK and pixels.getpixel((100, 70)) == WHITE
    state = _state(w)
    assert state["ops"][0]["tool"] == "brush" and state["ops"][0]["points"] == [
        50,
        50,
        100,
        50,
        150,
        50,
    ]
    _click(env, "save")  # untitled: asks for a path
    field = _elements(env)["window:0:content:save-path"]
    assert field["role"] == "textbox" and field["label"] == "File"
    assert _scene(env)["focus"]["keyboard"]["text_entry"]
    ok(env, key("Ctrl+a"))
    ok(env, type_("~/Pictures/stroke"))  # no suffix: .png is added
    _click(env, "save-confirm")
    assert _title(env) == "stroke.png — Paint"
    im = _picture(_read(w, f"{PICS}/stroke.png"))
    assert im.size == paint.NEW_SIZE
    assert im.getpixel((100, 50)) == BLACK and im.getpixel((10, 10)) == WHITE
    assert im.getpixel((149, 51)) == BLACK  # round end within the size
    assert recent(w.machine(M))[0]["path"] == f"{PICS}/stroke.png"
    # the save committed the drawing: the file is the base now, the list starts again
    assert _state(w)["ops"] == [] and _state(w)["base"] == f"{PICS}/stroke.png"


def test_shapes_outline_and_filled_with_palette_and_sizes_by_pointer():
    w = _world()
    env = _env(w)
    _launch(env)
    _click(env, "tool:rectangle")
    _click(env, "color:3")
    _click(env, "size:8")
    assert _elements(env)["window:0:content:tool:rectangle"]["checked"]
    assert _elements(env)["window:0:content:color:3"]["label"] == "Red"
    _drag(env, (100, 100), (200, 180))
    _click(env, "shape:filled")
    _click(env, "tool:ellipse")
    _drag(env, (300, 100), (400, 200))
    _click(env, "tool:line")
    _click(env, "color:0")
    _click(env, "size:2")
    _drag(env, (10, 300), (600, 300))
    px = _canvas_pixels(env)
    assert px.getpixel((100, 140)) == RED and px.getpixel((107, 140)) == RED  # an 8 px outline
    assert px.getpixel((150, 140)) == WHITE  # outline only
    assert px.getpixel((350, 150)) == RED  # the filled ellipse's centre
    assert px.getpixel((301, 101)) == WHITE  # outside the ellipse, inside its box
    assert px.getpixel((300, 300)) == BLACK
    ops = _state(w)["ops"]
    assert [(o["tool"], o.get("filled")) for o in ops] == [
        ("rectangle", False),
        ("ellipse", True),
        ("line", None),
    ]
    assert ops[0]["color"] == "#ed1c24" and ops[0]["size"] == 8


def test_a_release_where_the_press_was_draws_no_shape():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("r"))
    _press(env, 100, 100)
    assert _state(w)["ops"] == []
    assert _state(w)["stroke"] is None


def test_tools_sizes_colours_and_fill_mode_by_keys():
    w = _world()
    env = _env(w)
    _launch(env)
    expect = {
        "b": "brush",
        "e": "eraser",
        "l": "line",
        "r": "rectangle",
        "o": "ellipse",
        "f": "fill",
        "t": "text",
    }
    for k, tool in expect.items():
        ok(env, key(k))
        assert _state(w)["tool"] == tool
        assert _elements(env)[f"window:0:content:tool:{tool}"]["checked"]
    ok(env, key("4"))
    assert _state(w)["size"] == 16
    ok(env, key("]"))
    ok(env, key("]"))
    assert _state(w)["color"] == 2
    ok(env, key("["))
    assert _state(w)["color"] == 1
    ok(env, key("["))
    ok(env, key("["))
    assert _state(w)["color"] == 11
    ok(env, key("m"))
    assert _state(w)["filled"] is True
    for name in ("tool:brush", "size:2", "color:4", "shape:outline"):
        assert _shell(env, name)["success"]
    s = _state(w)
    assert (s["tool"], s["size"], s["color"], s["filled"]) == ("brush", 2, 4, False)
    for bad in ("tool:spray", "color:12", "color:01", "size:3", "shape:dotted", "nothing"):
        assert not _shell(env, bad)["success"]


def test_flood_fill_fills_the_region_under_the_click():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("r"))
    _drag(env, (100, 100), (300, 200))
    ok(env, key("f"))
    _click(env, "color:5")
    _press(env, 200, 150)  # inside the rectangle
    px = _canvas_pixels(env)
    assert px.getpixel((200, 150)) == YELLOW and px.getpixel((104, 104)) == YELLOW
    assert px.getpixel((100, 100)) == BLACK  # the outline stops it
    assert px.getpixel((50, 50)) == WHITE
    _press(env, 10, 10)  # outside
    px = _canvas_pixels(env)
    assert px.getpixel((50, 50)) == YELLOW and px.getpixel((200, 150)) == YELLOW


def test_the_eraser_paints_white():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    _shell(env, "tool:eraser")
    _shell(env, "size:16")
    _drag(env, (20, 60), (180, 60))
    px = _canvas_pixels(env)
    assert px.getpixel((100, 60)) == WHITE and px.getpixel((100, 10)) == BLUE_BG


def test_text_is_placed_by_a_click_typed_and_stamped_with_enter_deterministically():
    outs = []
    for _ in range(2):
        w = _world()
        env = _env(w)
        _launch(env)
        _click(env, "tool:text")
        _press(env, 40, 40)
        focus = _scene(env)["focus"]
        assert focus["keyboard"]["text_entry"]
        ok(env, type_("Hello"))
        ok(env, key("Space"))
        ok(env, key("W"))
        ok(env, key("o"))
        ok(env, key("Backspace"))
        ok(env, type_("orld"))
        assert "Hello World" in _texts(env)  # the preview
        assert _state(w)["ops"] == []
        ok(env, key("Enter"))
        op = _state(w)["ops"][-1]
        assert (op["tool"], op["text"], op["points"]) == ("text", "Hello World", [40, 40])
        _save_as(env, "~/Pictures/hello.png")
        outs.append(_read(w, f"{PICS}/hello.png"))
    assert outs[0] == outs[1]
    im = _picture(outs[0])
    inked = [im.getpixel((x, y)) for x in range(40, 200) for y in range(40, 80)]
    assert any(p[0] < 100 for p in inked)  # dark glyph pixels
    assert all(im.getpixel((x, 120)) == WHITE for x in range(0, 640, 7))


def test_text_escape_drops_it_and_typed_newline_stamps_it():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("t"))
    _press(env, 10, 10)
    ok(env, type_("gone"))
    ok(env, key("Escape"))
    assert _state(w)["text"] is None and _state(w)["ops"] == []
    _press(env, 10, 10)
    ok(env, type_("kept\nignored"))
    assert [o["text"] for o in _state(w)["ops"]] == ["kept"]


def test_undo_and_redo_by_keys_and_buttons():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("r"))
    _drag(env, (10, 10), (50, 50))
    _drag(env, (100, 10), (150, 50))
    assert len(_state(w)["ops"]) == 2
    ok(env, key("Ctrl+z"))
    assert len(_state(w)["ops"]) == 1 and len(_state(w)["redo"]) == 1
    assert _canvas_pixels(env).getpixel((100, 10)) == WHITE
    _click(env, "undo")
    assert _state(w)["ops"] == [] and _title(env) == "Untitled — Paint"
    assert not _elements(env)["window:0:content:undo"]["enabled"]
    ok(env, key("Ctrl+y"))
    _click(env, "redo")
    assert len(_state(w)["ops"]) == 2 and _canvas_pixels(env).getpixel((100, 10)) == BLACK
    ok(env, key("Ctrl+z"))
    ok(env, key("Ctrl+Shift+z"))
    assert len(_state(w)["ops"]) == 2
    ok(env, key("Ctrl+z"))
    _drag(env, (300, 10), (350, 50))  # a new operation drops what could be redone
    assert _state(w)["redo"] == []


# -- files ---------------------------------------------------------------------------------


def test_open_a_png_draw_on_it_and_save_it_in_place():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    assert _title(env) == "blue.png — Paint"
    assert recent(w.machine(M))[0] == {
        "path": f"{PICS}/blue.png",
        "app": "paint",
        "time_us": recent(w.machine(M))[0]["time_us"],
    }
    assert "200 × 120 px" in _texts(env)
    ok(env, key("r"))
    _drag(env, (10, 10), (60, 60))
    ok(env, key("Ctrl+s"))
    assert _title(env) == "blue.png — Paint"
    im = _picture(_read(w, f"{PICS}/blue.png"))
    assert im.size == (200, 120)
    assert (
        im.getpixel((10, 30)) == BLACK
        and im.getpixel((30, 30)) == BLUE_BG
        and im.getpixel((150, 100)) == BLUE_BG
    )
    # drawing goes on over the saved file
    _drag(env, (100, 10), (150, 60))
    ok(env, key("Ctrl+s"))
    im = _picture(_read(w, f"{PICS}/blue.png"))
    assert im.getpixel((10, 30)) == BLACK and im.getpixel((100, 30)) == BLACK


def test_a_jpeg_is_saved_as_a_jpeg_and_save_as_png_converts():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/photo.jpg")
    ok(env, key("f"))
    _click(env, "color:0")
    _press(env, 5, 5)
    ok(env, key("Ctrl+s"))
    data = _read(w, f"{PICS}/photo.jpg")
    assert data[:2] == b"\xff\xd8"
    r, g, b = _picture(data).getpixel((40, 30))
    assert r < 40 and g < 40 and b < 40
    _save_as(env, "~/Pictures/photo-copy.png")
    assert _read(w, f"{PICS}/photo-copy.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert _title(env) == "photo-copy.png — Paint"


def test_saving_twice_gives_the_same_bytes():
    w = _world()
    env = _env(w)
    _launch(env)
    _drag(env, (10, 10), (300, 200), (500, 50))
    _save_as(env, "~/Pictures/a.png")
    first = _read(w, f"{PICS}/a.png")
    _save_as(env, "~/Pictures/b.png")  # the same pixels, now read back from a.png
    assert _read(w, f"{PICS}/b.png") == first


def test_a_missing_argument_opens_a_blank_canvas_saved_there_on_the_first_save():
    w = _world()
    env = _env(w)
    _launch(env, "~/Pictures/new-sketch.png")
    assert _title(env) == "new-sketch.png — Paint"
    ok(env, key("Ctrl+s"))  # a blank canvas saves too
    im = _picture(_read(w, f"{PICS}/new-sketch.png"))
    assert im.size == paint.NEW_SIZE and im.getpixel((5, 5)) == WHITE
    for bad in ("~/Pictures/x.gif", "~/Pictures", "~/Nowhere/"):
        out = one(env, app("launch", kind="paint", argument=bad))
        assert not out["success"] and out["error"]["code"] == "action_failed", bad


@pytest.mark.parametrize("name", ["Pictures/broken.png", "Documents/notes.txt"])
def test_a_bad_file_argument_opens_blank_with_the_error_and_changes_nothing(name):
    w = _world()
    env = _env(w)
    path = f"/home/ada/{name}"
    before = _read(w, path)
    _launch(env, path)
    message = f"Could not load image: {path.rsplit('/', 1)[1]}"
    assert message in _texts(env)
    assert _state(w)["error"] == message and _state(w)["path"] is None
    assert _title(env) == "Untitled — Paint"
    _drag(env, (10, 10), (50, 50))
    ok(env, key("Ctrl+s"))  # untitled: asks, never writes the bad file
    assert _elements(env)["window:0:content:save-path"]["value"] == "~/Pictures/Untitled.png"
    ok(env, key("Escape"))
    assert _read(w, path) == before


def test_save_as_refusals_stay_in_the_dialog():
    w = _world()
    env = _env(w)
    _launch(env)
    _drag(env, (10, 10), (50, 50))
    ok(env, key("Ctrl+Shift+s"))
    ok(env, key("Ctrl+a"))
    ok(env, type_("~/Pictures/picture.gif"))
    ok(env, key("Enter"))
    assert "Paint saves PNG or JPEG files: end the name in .png, .jpg or .jpeg." in _texts(env)
    ok(env, key("Ctrl+a"))
    ok(env, type_("~/Missing/a.png"))
    _click(env, "save-confirm")
    assert "There is no folder “~/Missing”." in _texts(env)
    ok(env, key("Ctrl+a"))
    ok(env, type_("~/Pictures/"))
    ok(env, key("Enter"))
    assert "Type a file name, like ~/Pictures/drawing.png." in _texts(env)
    _click(env, "save-cancel")
    assert _state(w)["dialog"] is None
    assert not w.machine(M).fs.exists(f"{PICS}/picture.gif")
    # clicking into the field places the caret
    _click(env, "save-as")
    _click(env, "save-path")
    assert _scene(env)["focus"]["keyboard"]["text_entry"]


def test_a_refused_write_says_why():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    before = _read(w, f"{PICS}/blue.png")
    fs = w.machine(M).fs
    fs.set_mode(fs.resolve(f"{PICS}/blue.png"), 0o444)
    _drag(env, (10, 10), (50, 50))
    ok(env, key("Ctrl+s"))
    assert "Could not save “blue.png”: Permission denied" in _texts(env)
    assert _read(w, f"{PICS}/blue.png") == before
    assert _title(env) == "• blue.png — Paint"


def test_new_image_dialog_makes_a_blank_canvas_of_a_size():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    _click(env, "new")
    assert _elements(env)["window:0:content:new-width"]["value"] == "640"
    ok(env, type_("300"))  # the width is selected: typing replaces it
    ok(env, key("Tab"))
    ok(env, type_("abc"))
    ok(env, key("Enter"))
    assert "Width and height are whole numbers of pixels." in _texts(env)
    _click(env, "new-height")
    ok(env, key("Ctrl+a"))
    ok(env, type_("5000"))
    _click(env, "new-confirm")
    assert "Width and height are 1 to 4096 pixels." in _texts(env)
    ok(env, key("Ctrl+a"))
    ok(env, type_("150"))
    _click(env, "new-confirm")
    s = _state(w)
    assert (s["width"], s["height"], s["path"], s["base"]) == (300, 150, None, None)
    assert _title(env) == "Untitled — Paint"
    prim = _canvas(env)["primitive"]
    assert (prim["width"], prim["height"]) == (300, 150)
    ok(env, key("Ctrl+n"))
    _click(env, "new-cancel")
    assert _state(w)["dialog"] is None and _state(w)["width"] == 300


def test_a_big_picture_is_shown_scaled_down_and_drawn_in_picture_pixels():
    w = _world({"Pictures/big.png": _url(_png(2000, 1600, WHITE))})
    env = _env(w)
    _launch(env, f"{PICS}/big.png")
    prim = _canvas(env)["primitive"]
    assert prim["width"] < 2000 and prim["height"] < 1600
    ok(env, key("r"))
    _drag(env, (400, 400), (1600, 1200))
    op = _state(w)["ops"][0]
    assert all(abs(a - b) <= 4 for a, b in zip(op["points"], [400, 400, 1600, 1200]))


# -- caps, closing, state ------------------------------------------------------------------


def test_caps_refuse_as_invalid_and_change_nothing(monkeypatch):
    monkeypatch.setattr(paint, "MAX_OPS", 3)
    monkeypatch.setattr(paint, "MAX_POINTS", 4)
    w = _world()
    env = _env(w)
    _launch(env)
    screen = [_at(env, 10 + 10 * i, 10) for i in range(6)]
    ok(env, ptr("down", *screen[0], width=W, height=H))
    for p in screen[1:4]:
        ok(env, ptr("move", *p, width=W, height=H))
    out = one(env, ptr("move", *screen[4], width=W, height=H))
    assert not out["success"] and out["error"]["code"] == "invalid"
    ok(env, ptr("up", *screen[3], width=W, height=H))
    assert len(_state(w)["ops"][0]["points"]) == 8
    ok(env, key("f"))
    _press(env, 300, 300)
    _press(env, 300, 350)
    assert len(_state(w)["ops"]) == 3
    out = one(env, ptr("click", *_at(env, 200, 200), width=W, height=H))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert len(_state(w)["ops"]) == 3
    ok(env, key("Ctrl+s"))
    ok(env, key("Escape"))


def test_text_cap_refuses_as_invalid():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("t"))
    _press(env, 10, 10)
    ok(env, type_("x" * (paint.MAX_TEXT - 1)))
    out = one(env, type_("yz"))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _state(w)["text"]["value"] == "x" * (paint.MAX_TEXT - 1)
    ok(env, type_("y"))
    out = one(env, key("z"))
    assert not out["success"] and out["error"]["code"] == "invalid"


def test_closing_with_unsaved_changes_asks():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    _drag(env, (10, 10), (50, 50))
    ok(env, key("Ctrl+w"))
    assert _state(w)["dialog"] == {"kind": "close"}
    _click(env, "close-cancel")
    ok(env, app("close", window=0))
    assert _state(w)["dialog"] == {"kind": "close"}
    _click(env, "close-save")
    assert not _scene(env).get("windows")
    assert _picture(_read(w, f"{PICS}/blue.png")).getpixel((30, 30)) == BLACK
    wid = _launch(env)
    _drag(env, (10, 10), (50, 50), wid=wid)
    ok(env, key("Ctrl+w"))
    _click(env, "close-discard", wid)
    assert not _scene(env).get("windows")


def test_the_state_is_an_operation_list_not_pixels():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/blue.png")
    _drag(env, *[(10 + i, 10 + i) for i in range(0, 100, 10)])
    state = _state(w)
    text = json.dumps(state)
    assert len(text) < 3000
    assert set(state["ops"][0]) == {"tool", "color", "size", "points", "h"}


def test_undo_after_a_restore_rebuilds_the_picture_from_the_list():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("r"))
    _drag(env, (10, 10), (50, 50))
    _drag(env, (100, 10), (150, 50))
    paint._RASTERS.clear()
    ok(env, key("Ctrl+z"))
    px = _canvas_pixels(env)
    assert px.getpixel((10, 30)) == BLACK and px.getpixel((100, 30)) == WHITE
