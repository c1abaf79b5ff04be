"""The Image Viewer (``photos``), driven only through the actor handle.

Pictures are made here with Pillow and shipped in the world as data URLs; controls are
found in the scene by interaction id, role and label; files are checked through the
owner's machine.
"""

from __future__ import annotations

import base64
import io
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _raster as rs
from cwgym.apps import photos
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
PICS = "/home/ada/Pictures"
GREEN, RED, BLUE = (0, 200, 0), (220, 0, 0), (0, 0, 220)


def _marked(width: int = 60, height: int = 40, fmt: str = "PNG") -> bytes:
    """Red left half, blue right half, a green 10x10 square in the top-left corner."""
    im = Image.new("RGB", (width, height), BLUE)
    im.paste(RED, (0, 0, width // 2, height))
    im.paste(GREEN, (0, 0, 10, 10))
    buf = io.BytesIO()
    im.save(buf, fmt, **({"quality": 95} if fmt == "JPEG" else {}))
    return buf.getvalue()


def _url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def _files() -> dict[str, str]:
    good = _marked()
    return {
        "Pictures/a-marked.png": _url(good),
        "Pictures/b-square.png": _url(_marked(30, 30)),
        "Pictures/c-photo.jpg": _url(_marked(64, 48, "JPEG"), "image/jpeg"),
        "Pictures/d-broken.png": _url(good[: len(good) // 2]),
        "Pictures/e-fake.png": "this is not a picture\n",
        "Pictures/notes.txt": "not listed\n",
    }


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    c = d["computers"][0]
    c["installed_apps"].append("photos")
    c["initial_files"].update(_files() if files is None else files)
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _launch(env, argument: str | None = None) -> int:
    payload = {"kind": "photos"} | ({"argument": argument} if argument else {})
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
    return im


def _image_node(env, wid: int = 0) -> dict:
    nodes = [n for n in _scene(env)["nodes"] if n["interaction"] == f"window:{wid}:content:image"]
    assert nodes, "no picture shown"
    return nodes[0]


# -- the grid --------------------------------------------------------------------------------


def test_without_argument_the_pictures_folder_is_a_grid_and_a_click_opens_one():
    w = _world()
    env = _env(w)
    _launch(env)
    assert _title(env) == "Image Viewer"
    elements = _elements(env)
    items = [e for e in elements.values() if e["role"] == "listitem"]
    # sorted by name, pictures only (notes.txt is not one)
    assert [e["label"] for e in items] == [
        "a-marked.png",
        "b-square.png",
        "c-photo.jpg",
        "d-broken.png",
        "e-fake.png",
    ]
    assert "5 images" in _texts(env)
    _click(env, "open:b-square.png")
    assert _title(env) == "b-square.png — Image Viewer"
    assert _scene(env)["windows"][0]["document"] == f"{PICS}/b-square.png"
    assert recent(w.machine(M))[0]["path"] == f"{PICS}/b-square.png"


def test_grid_keyboard_selection_and_enter_and_back_to_the_grid():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, key("ArrowRight"))
    ok(env, key("ArrowRight"))
    selected = [e for e in _elements(env).values() if e["role"] == "listitem" and e.get("selected")]
    assert [e["label"] for e in selected] == ["c-photo.jpg"]
    ok(env, key("Enter"))
    assert _title(env) == "c-photo.jpg — Image Viewer"
    _click(env, "browse")
    assert _title(env) == "Image Viewer"
    selected = [e for e in _elements(env).values() if e["role"] == "listitem" and e.get("selected")]
    assert [e["label"] for e in selected] == ["c-photo.jpg"]
    assert not _shell(env, "open:notes.txt")["success"]  # not a picture of the grid


def test_a_folder_argument_shows_its_grid_and_a_missing_path_refuses_the_launch():
    w = _world({"Shots/x.png": _url(_marked())})
    env = _env(w)
    _launch(env, "~/Shots")
    assert [e["label"] for e in _elements(env).values() if e["role"] == "listitem"] == ["x.png"]
    out = one(env, app("launch", kind="photos", argument="~/Pictures/none.png"))
    assert not out["success"] and out["error"]["code"] == "action_failed"


def test_an_empty_folder_says_so():
    w = _world({"Empty/readme.txt": "hi\n"})
    env = _env(w)
    _launch(env, "~/Empty")
    assert "No PNG or JPEG images in Empty" in _texts(env)


def test_grid_thumbnails_show_at_full_size_from_half_the_pixels_a_side():
    wide = io.BytesIO()
    Image.new("RGB", (320, 200), RED).save(wide, "PNG")
    files = {
        "Pictures/wide.png": _url(wide.getvalue()),
        "Pictures/small.png": _url(_marked(30, 30)),
    }
    env = _env(_world(files))
    _launch(env)
    thumbs = {}
    for n in _scene(env)["nodes"]:
        if n["primitive"]["kind"] == "image":
            thumbs[n["interaction"].rsplit(":", 1)[1]] = n
    sizes = {
        name: (
            n["bounds"]["width"],
            n["bounds"]["height"],
            n["primitive"]["width"],
            n["primitive"]["height"],
        )
        for name, n in thumbs.items()
    }
    assert photos.THUMB_DETAIL == 2
    assert sizes == {"wide.png": (168, 105, 84, 52), "small.png": (30, 30, 15, 15)}
    # the box filter keeps the green top-left corner of the small picture
    assert bytes(thumbs["small.png"]["primitive"]["rgba"][:4]) == bytes((*GREEN, 255))


# -- viewing and moving ----------------------------------------------------------------------


def test_next_and_previous_walk_the_folder_in_name_order_by_pointer_and_keys():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    assert _title(env) == "a-marked.png — Image Viewer"
    _click(env, "next")
    assert _title(env) == "b-square.png — Image Viewer"
    ok(env, key("ArrowRight"))
    assert _title(env) == "c-photo.jpg — Image Viewer"
    ok(env, key("ArrowLeft"))
    assert _title(env) == "b-square.png — Image Viewer"
    _click(env, "previous")
    assert _title(env) == "a-marked.png — Image Viewer"
    ok(env, key("ArrowLeft"))  # the first: no wrap-around
    assert _title(env) == "a-marked.png — Image Viewer"
    ok(env, key("End"))
    assert _title(env) == "e-fake.png — Image Viewer"
    _shell(env, "next")
    assert _title(env) == "e-fake.png — Image Viewer"
    ok(env, key("Home"))
    assert _title(env) == "a-marked.png — Image Viewer"


def test_the_picture_is_shown_from_the_files_pixels():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    node = _image_node(env)
    prim = node["primitive"]
    assert (prim["width"], prim["height"]) == (60, 40)
    rgba = bytes(prim["rgba"])
    assert rgba[:4] == bytes((*GREEN, 255))  # the top-left corner
    assert rgba[(59) * 4 : 60 * 4] == bytes((*BLUE, 255))  # the top-right corner
    assert node["semantic"]["role"] == "img" and node["semantic"]["label"] == "a-marked.png"


def test_a_big_picture_is_downscaled_to_the_window_before_the_scene():
    big = Image.new("RGB", (3000, 2000), RED)
    buf = io.BytesIO()
    big.save(buf, "PNG")
    w = _world({"Pictures/big.png": _url(buf.getvalue())})
    env = _env(w)
    _launch(env, f"{PICS}/big.png")
    prim = _image_node(env)["primitive"]
    content = next(x for x in _scene(env)["windows"] if x["id"] == 0)["bounds"]
    assert prim["width"] <= content["width"] and prim["height"] <= content["height"]
    assert prim["width"] * 2000 // 3000 in (prim["height"], prim["height"] - 1, prim["height"] + 1)


# -- zoom ----------------------------------------------------------------------------------


def test_zoom_steps_through_the_fixed_levels_by_keys_buttons_and_typing():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    assert _state(w)["zoom"] is None
    assert "100 %" in _texts(env)  # best fit of a small picture is its own size
    ok(env, key("+"))
    assert _state(w)["zoom"] == 150
    _click(env, "zoom-in")
    assert _state(w)["zoom"] == 200
    ok(env, type_("+"))
    assert _state(w)["zoom"] == 300
    assert "300 %" in _texts(env)
    assert _image_node(env)["bounds"]["width"] == 180
    ok(env, key("-"))
    _click(env, "zoom-out")
    assert _state(w)["zoom"] == 150
    ok(env, key("Ctrl+-"))
    assert _state(w)["zoom"] == 100
    ok(env, key("0"))
    assert _state(w)["zoom"] is None
    _shell(env, "zoom-100")
    assert _state(w)["zoom"] == 100
    _click(env, "zoom-fit")
    assert _state(w)["zoom"] is None
    for _ in range(12):
        ok(env, key("Ctrl+="))
    assert _state(w)["zoom"] == photos.ZOOMS[-1]
    for _ in range(12):
        ok(env, key("-"))
    assert _state(w)["zoom"] == photos.ZOOMS[0]


def test_a_zoomed_picture_larger_than_the_view_pans_by_dragging():
    big = Image.new("RGB", (800, 600), RED)
    big.paste(GREEN, (0, 0, 400, 300))
    buf = io.BytesIO()
    big.save(buf, "PNG")
    w = _world({"Pictures/big.png": _url(buf.getvalue())})
    env = _env(w)
    _launch(env, f"{PICS}/big.png")
    ok(env, key("1"))  # 100 %: larger than the view
    assert _state(w)["zoom"] == 100
    node = _image_node(env)
    b, t = node["bounds"], node["transform"]
    cx, cy = b["x"] + t["tx"] + b["width"] // 2, b["y"] + t["ty"] + b["height"] // 2
    move = one(env, ptr("move", cx, cy, width=W, height=H))
    assert move["value"] == {"cursor": "grab"}
    ok(env, ptr("down", cx, cy, width=W, height=H))
    ok(env, ptr("move", cx + 200, cy + 150, width=W, height=H))
    ok(env, ptr("up", cx + 200, cy + 150, width=W, height=H))
    assert _state(w)["center"] == [200, 150]
    rgba = bytes(_image_node(env)["primitive"]["rgba"])
    assert rgba[:4] == bytes((*GREEN, 255))
    # a double click on the picture switches to best fit
    one(env, ptr("double_click", cx, cy, width=W, height=H))
    assert _state(w)["zoom"] is None


def test_primary_wheel_zooms():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    node = _image_node(env)
    b, t = node["bounds"], node["transform"]
    ok(
        env,
        ptr(
            "wheel",
            b["x"] + t["tx"] + 5,
            b["y"] + t["ty"] + 5,
            delta_y=-120,
            modifiers=["Ctrl"],
            width=W,
            height=H,
        ),
    )
    assert _state(w)["zoom"] == 150


# -- rotating and saving ---------------------------------------------------------------------


def test_rotate_right_with_the_button_marks_dirty_and_save_writes_the_turned_png():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    before = _read(w, f"{PICS}/a-marked.png")
    elements = _elements(env)
    assert not elements["window:0:content:save"]["enabled"]
    _click(env, "rotate-right")
    assert _title(env) == "• a-marked.png — Image Viewer"
    assert _read(w, f"{PICS}/a-marked.png") == before  # nothing written yet
    prim = _image_node(env)["primitive"]
    assert (prim["width"], prim["height"]) == (40, 60)
    _click(env, "save")
    assert _title(env) == "a-marked.png — Image Viewer"
    after = _read(w, f"{PICS}/a-marked.png")
    im = _picture(after)
    assert im.format == "PNG" and im.size == (40, 60) and im.mode == "RGB"
    assert im.getpixel((39, 0)) == GREEN  # the top-left corner went to the top right
    assert (
        im.getpixel((0, 0)) == RED and im.getpixel((0, 59)) == BLUE
    )  # the left half went to the top
    # exactly the deterministic encoding of the turned pixels
    assert after == rs.encode(
        Image.open(io.BytesIO(before)).transpose(Image.Transpose.ROTATE_270), "PNG"
    )
    assert recent(w.machine(M))[0] == {
        "path": f"{PICS}/a-marked.png",
        "app": "photos",
        "time_us": recent(w.machine(M))[0]["time_us"],
    }


def test_rotate_left_with_keys_and_primary_s_saves():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    ok(env, key("Ctrl+Shift+r"))
    assert _state(w)["rotation"] == 270
    ok(env, key("Ctrl+s"))
    im = _picture(_read(w, f"{PICS}/a-marked.png"))
    assert im.size == (40, 60)
    assert im.getpixel((0, 59)) == GREEN  # counter-clockwise: top-left to bottom-left
    assert _state(w)["rotation"] == 0


def test_four_quarter_turns_are_no_change_and_rotations_compose():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    before = _read(w, f"{PICS}/a-marked.png")
    for _ in range(4):
        _shell(env, "rotate-right")
    assert _title(env) == "a-marked.png — Image Viewer"
    ok(env, key("Ctrl+s"))  # nothing to save
    assert _read(w, f"{PICS}/a-marked.png") == before
    _shell(env, "rotate-right")
    _shell(env, "rotate-right")
    _shell(env, "save")
    im = _picture(_read(w, f"{PICS}/a-marked.png"))
    assert im.size == (60, 40) and im.getpixel((59, 39)) == GREEN


def test_a_jpeg_is_saved_back_as_a_jpeg_deterministically():
    w1, w2 = _world(), _world()
    outs = []
    for w in (w1, w2):
        env = _env(w)
        _launch(env, f"{PICS}/c-photo.jpg")
        ok(env, key("Ctrl+r"))
        ok(env, key("Ctrl+s"))
        outs.append(_read(w, f"{PICS}/c-photo.jpg"))
    assert outs[0] == outs[1]
    im = _picture(outs[0])
    assert im.format == "JPEG" and im.size == (48, 64)
    r, g, b = im.getpixel((44, 3))
    assert g > 150 and r < 80 and b < 80


def test_moving_to_another_picture_drops_an_unsaved_turn():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    before = _read(w, f"{PICS}/a-marked.png")
    ok(env, key("Ctrl+r"))
    ok(env, key("ArrowRight"))
    assert _title(env) == "b-square.png — Image Viewer" and _state(w)["rotation"] == 0
    assert _read(w, f"{PICS}/a-marked.png") == before


def test_a_refused_save_shows_a_banner_that_can_be_dismissed():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    before = _read(w, f"{PICS}/a-marked.png")
    w.machine(M).fs.set_mode(w.machine(M).fs.resolve(f"{PICS}/a-marked.png"), 0o444)
    ok(env, key("Ctrl+r"))
    ok(env, key("Ctrl+s"))
    assert "Could not save “a-marked.png”: Permission denied" in _texts(env)
    assert _read(w, f"{PICS}/a-marked.png") == before
    assert _title(env) == "• a-marked.png — Image Viewer"
    _click(env, "dismiss")
    assert not _state(w)["status"]


# -- properties ------------------------------------------------------------------------------


def test_properties_show_name_format_dimensions_and_size():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    size = len(_read(w, f"{PICS}/a-marked.png"))
    _click(env, "properties")
    texts = _texts(env)
    assert {
        "Image Properties",
        "a-marked.png",
        PICS,
        "PNG",
        "60 × 40 pixels",
        f"{size} bytes",
    } <= set(texts)
    assert _elements(env)["window:0:content:properties"]["checked"]
    ok(env, key("F9"))
    assert "60 × 40 pixels" not in _texts(env)
    ok(env, key("Alt+Enter"))
    assert "60 × 40 pixels" in _texts(env)
    ok(env, key("Escape"))
    assert not _state(w)["props"]


def test_file_sizes_read_as_gnome_writes_them():
    assert photos._file_size(860) == "860 bytes"
    assert photos._file_size(4223) == "4.2 kB"
    assert photos._file_size(2_500_000) == "2.5 MB"


# -- bad files -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["d-broken.png", "e-fake.png"])
def test_a_damaged_or_fake_picture_shows_the_error_and_changes_nothing(name):
    w = _world()
    env = _env(w)
    path = f"{PICS}/{name}"
    before = _read(w, path)
    _launch(env, path)
    message = f"Could not load image: {name}"
    assert message in _texts(env)
    assert _state(w)["error"] == message
    elements = _elements(env)
    for control in ("rotate-left", "rotate-right", "save", "zoom-in"):
        assert not elements[f"window:0:content:{control}"]["enabled"]
    ok(env, key("Ctrl+r"))
    ok(env, key("+"))
    _shell(env, "rotate-left")
    ok(env, key("Ctrl+s"))
    assert _state(w)["rotation"] == 0 and _state(w)["zoom"] is None
    assert _read(w, path) == before
    assert all(r["path"] != path for r in recent(w.machine(M)))
    # moving on still works
    ok(env, key("ArrowLeft"))
    assert _state(w)["error"] == "" or _state(w)["path"] != path


def test_a_non_image_argument_shows_the_error():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/notes.txt")
    assert "Could not load image: notes.txt" in _texts(env)
    ok(env, key("ArrowRight"))  # the next picture after notes.txt by name: none
    ok(env, key("ArrowLeft"))
    assert _title(env) == "e-fake.png — Image Viewer"


def test_a_picture_damaged_after_opening_shows_the_error_page():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    w.machine(M).fs.put_file(f"{PICS}/a-marked.png", b"\x89PNG broken", 1000, 1000)
    assert "Could not load image: a-marked.png" in _texts(env)
    ok(env, key("Ctrl+r"))
    assert _state(w)["rotation"] == 0


def test_unknown_targets_are_refused():
    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    assert not _shell(env, "explode")["success"]
    assert not _shell(env, "open:a-marked.png")["success"]  # a grid target, not shown now


# -- the raster helpers ----------------------------------------------------------------------


def test_encoding_is_deterministic_and_carries_no_metadata():
    im = _picture(_marked())
    im.info["dpi"] = (300, 300)
    im.info["icc_profile"] = b"fake"
    a, b = rs.encode(im, "PNG"), rs.encode(im, "PNG")
    assert a == b
    assert b"tIME" not in a and b"tEXt" not in a and b"iCCP" not in a and b"pHYs" not in a
    j1, j2 = rs.encode(im, "JPEG"), rs.encode(im, "JPEG")
    assert j1 == j2 and j1[:2] == b"\xff\xd8"
    rgba = Image.new("RGBA", (4, 4), (10, 20, 30, 128))
    assert _picture(rs.encode(rgba, "JPEG")).mode == "RGB"
    assert _picture(rs.encode(rgba, "PNG")).getpixel((0, 0)) == (10, 20, 30, 128)


def test_decode_refuses_damage_and_caches_by_content():
    data = _marked()
    first = rs.decode(data)
    assert rs.decode(bytes(data)) is first  # same content, same decoded picture
    assert (first.format, first.width, first.height) == ("PNG", 60, 40)
    for bad in (data[:50], b"GIF89a....", b""):
        with pytest.raises(rs.RasterError):
            rs.decode(bad)
    assert rs.fit(3000, 2000, 600, 600) == (600, 400)
    assert rs.fit(20, 10, 600, 600) == (20, 10)


def test_the_window_state_is_small_plain_data_and_primary_w_closes():
    import json

    w = _world()
    env = _env(w)
    _launch(env, f"{PICS}/a-marked.png")
    ok(env, key("Ctrl+r"))
    ok(env, key("+"))
    state = _state(w)
    assert len(json.dumps(state)) < 1000
    ok(env, key("Ctrl+w"))
    assert not _scene(env).get("windows")
