"""The plain-data form: exactly the keys the spec lists, optional ones only when non-empty."""

from __future__ import annotations

import json

from scene_fixture import BLACK, desktop_scene

from cwgym.scene import (
    KINDS,
    AssetImage,
    Backdrop,
    Box,
    Image,
    Node,
    NodeState,
    Path,
    Rect,
    Region,
    RoundedBox,
    RoundedClip,
    Scene,
    Shadow,
    Symbol,
    Text,
    TextLine,
    UiText,
    UiTextBold,
)

ALWAYS = {"width", "height", "revision", "background", "nodes", "focus", "digest"}
NODE_KEYS = {
    "id",
    "bounds",
    "primitive",
    "semantic",
    "interaction",
    "clip",
    "transform",
    "z",
    "opacity",
    "revision",
}
WINDOW_KEYS = {
    "id",
    "title",
    "app",
    "bounds",
    "content",
    "z",
    "focused",
    "minimized",
    "maximized",
    "active_tab",
}


def test_empty_scene_has_only_the_always_keys():
    s = Scene(320, 240, (1, 2, 3, 255))
    p = s.to_plain()
    assert set(p) == ALWAYS
    assert p["background"] == [1, 2, 3, 255] and p["nodes"] == [] and p["revision"] == 0
    assert p["focus"] == {"keyboard": {"route": "none", "text_entry": False}}
    assert isinstance(p["digest"], int) and p["digest"] != 0


def test_desktop_scene_top_level_keys():
    p = desktop_scene().to_plain()
    assert set(p) == ALWAYS | {"typeface", "windows", "buffers", "scrolls"}
    assert p["typeface"] == "ubuntu"
    json.dumps(p)  # plain data only


def test_node_keys():
    p = desktop_scene().to_plain()
    for n in p["nodes"]:
        assert NODE_KEYS <= set(n) <= NODE_KEYS | {"rounded_clip", "window", "state", "line"}
        assert set(n["bounds"]) == {"x", "y", "width", "height"}
        assert set(n["transform"]) == {"a", "b", "c", "d", "tx", "ty"}
        assert n["primitive"]["kind"] in KINDS
        if n["semantic"] is not None:
            assert set(n["semantic"]) == {"role", "label", "value", "disabled", "focusable"}
    wall = p["nodes"][0]
    assert "window" not in wall and "state" not in wall and "line" not in wall
    assert wall["semantic"] is None and wall["interaction"] is None and wall["clip"] is None
    assert wall["primitive"] == {"kind": "asset_image", "name": "wallpaper", "tint": None}
    check = next(n for n in p["nodes"] if n["interaction"] == "window:1:content:check")
    assert check["state"] == {"checked": True}
    assert check["window"] == 1
    assert check["transform"] == {"a": 1024, "b": 0, "c": 0, "d": 1024, "tx": 300, "ty": 228}
    cont = [n["line"] for n in p["nodes"] if "line" in n and n["line"]["continuation"]]
    assert cont == [
        {
            "logical": 2,
            "continuation": True,
            "offset": 40,
            "wrapped_from": cont[0]["wrapped_from"],
            "pane": "window:1:terminal",
        }
    ]


def test_nodes_are_in_painter_order():
    p = desktop_scene().to_plain()
    zs = [n["z"] for n in p["nodes"]]
    assert zs == sorted(zs)


def test_window_focus_buffer_scroll_shapes():
    p = desktop_scene().to_plain()
    w0, w1 = p["windows"]
    assert set(w0) == WINDOW_KEYS | {"document", "tabs", "occluded_by", "exposed"}
    assert w0["occluded_by"] == [1] and w0["exposed"] == {
        "x": 100,
        "y": 80,
        "width": 200,
        "height": 300,
    }
    assert "occluded_by" not in w1 and w1["exposed"] == w1["bounds"]
    assert [w["z"] for w in p["windows"]] == [0, 1]
    assert p["focus"] == {
        "window": 1,
        "interaction": "window:1:content:ok",
        "role": "button",
        "label": "OK",
        "keyboard": {
            "route": "application",
            "window": 1,
            "target": "window:1:content:ok",
            "text_entry": False,
        },
    }
    (buf,) = p["buffers"]
    assert set(buf) == {
        "handle",
        "window",
        "kind",
        "lines",
        "first_visible",
        "visible",
        "truncated",
    }
    (scroll,) = p["scrolls"]
    assert set(scroll) == {"target", "window", "bounds", "offset", "extent", "horizontal"}


def test_window_optional_keys_left_out_when_empty():
    from cwgym.scene import SceneWindow

    s = Scene(100, 100)
    s.add_window(
        SceneWindow(
            5, "t", "terminal", Rect(-500, -500, 10, 10), Rect(-500, -490, 10, 0), minimized=True
        )
    )
    (w,) = s.to_plain()["windows"]
    assert set(w) == WINDOW_KEYS


def test_every_primitive_kind_round_trips():
    prims = [
        Box((1, 2, 3, 4), stroke=(5, 6, 7, 8), stroke_width=1),
        RoundedBox((1, 2, 3, 4), 6),
        UiText("a", 12, BLACK),
        UiTextBold("b", 12, BLACK),
        Text("c", 13, BLACK, "mono"),
        AssetImage("folder", tint=(9, 9, 9, 255)),
        Shadow((0, 0, 0, 90), 8, 1, 2, 3, 4),
        Image(1, 2, bytes(range(8))),
        Path(
            (("M", 0, 0), ("L", 10, 0), ("Q", 5, 5, 0, 10), ("C", 1, 2, 3, 4, 5, 6), ("Z",)),
            fill=BLACK,
        ),
        Symbol("close", BLACK, 12),
        Backdrop((255, 255, 255, 128), 20),
        Region(),
    ]
    assert sorted(type(p).__struct_config__.tag for p in prims) == sorted(KINDS)
    s = Scene(100, 100)
    for i, prim in enumerate(prims):
        s.add(
            Node(
                i + 1,
                Rect(i, i, 10, 10),
                prim,
                clip=Rect(0, 0, 50, 50),
                rounded_clip=RoundedClip(0, 0, 50, 50, 4),
                window=3,
                state=NodeState(selected=False),
                line=TextLine(i),
            )
        )
    p = json.loads(json.dumps(s.to_plain()))
    assert p["nodes"][7]["primitive"] == {
        "kind": "image",
        "width": 1,
        "height": 2,
        "rgba": list(range(8)),
    }
    assert p["nodes"][8]["primitive"]["commands"][0] == ["M", 0, 0]
    assert p["nodes"][0]["rounded_clip"] == {"x": 0, "y": 0, "width": 50, "height": 50, "radius": 4}
    back = Scene.from_plain(p)
    assert [n.primitive for n in back.nodes] == prims
    assert back.stamp() == s.digest
    assert back.to_plain() == p


def test_full_scene_round_trip():
    s = desktop_scene()
    p = json.loads(json.dumps(s.to_plain()))
    assert Scene.from_plain(p).to_plain() == p


def test_plain_is_a_fresh_copy():
    s = desktop_scene()
    p = s.to_plain()
    p["nodes"][0]["primitive"]["name"] = "mutated"
    p["background"].append(9)
    q = s.to_plain()
    assert q["nodes"][0]["primitive"]["name"] == "wallpaper" and len(q["background"]) == 4
