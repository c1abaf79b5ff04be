"""A theme owns behaviour, not only looks: a toy second theme (defined, registered and
unregistered here) changes the primary modifier, the shell's and the window manager's keys,
the clock's text, the wallpaper and the fonts, and the desktop and an application obey it."""

from __future__ import annotations

from typing import ClassVar

import pytest
from desktop_fixture import M, app, definition, desktop, key, ok, one

from cwgym import World
from cwgym.desktop.themes import THEMES, Theme, register, theme
from cwgym.desktop.themes.ubuntu import UbuntuTheme
from cwgym.scene import Box, Primitive

SKY = (20, 60, 110, 255)
LOCATION = "window:0:content:files-location-entry"


class ToyTheme(UbuntuTheme):
    """Ubuntu's looks with a Cmd-style keyboard, a minute counter for a clock and a plain sky."""

    name = "toy-cmd"
    primary = "Meta"
    shell_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "launcher": ("Ctrl+Space",),
        "switcher-next": ("Meta+Tab",),
        "switcher-previous": ("Shift+Meta+Tab",),
    }
    window_keys: ClassVar[dict[str, tuple[str, ...]]] = {"close": ("Meta+q",), "minimize": ("Meta+m",)}
    wallpaper: Primitive = Box(SKY)
    fonts: ClassVar[dict[str, str]] = {"ui": "mono", "ui-bold": "mono-bold"}

    def clock_text(self, unix_seconds: int) -> str:
        return f"minute {unix_seconds // 60}"


@pytest.fixture
def toy():
    register(ToyTheme())
    try:
        yield THEMES["toy-cmd"]
    finally:
        THEMES.unregister("toy-cmd")
    assert theme("toy-cmd") is None


def _env(theme_name: str):
    d = definition()
    d["metadata"]["desktop_themes"] = {M: theme_name}
    w = World(d, 7)
    return w, desktop(w)


def _semantic(env) -> dict:
    return env.observe()["channels"]["semantic.v1"][M]


def test_the_shell_paints_the_themes_clock_wallpaper_and_fonts(toy):
    w, env = _env("toy-cmd")
    scene = env.scene(1280, 800)
    assert scene["nodes"][0]["primitive"] == {"kind": "box", "color": list(SKY), "stroke": None, "stroke_width": 0}
    clock = f"minute {w.machine(M).clock.unix_seconds() // 60}"
    texts = {n["primitive"]["text"]: n["primitive"] for n in scene["nodes"] if "text" in n["primitive"]}
    assert texts[clock]["kind"] == "ui_text_bold" and texts[clock]["font"] == "mono-bold"
    assert texts["Home"]["font"] == "mono"  # the Home desktop icon's label
    _w, ubuntu = _env("ubuntu")
    assert not any(n["primitive"].get("text", "").startswith("minute ") for n in ubuntu.scene(1280, 800)["nodes"])


def test_the_shell_and_window_manager_keys_are_the_themes(toy):
    _w, env = _env("toy-cmd")
    ok(env, key("Meta"))  # Ubuntu's launcher key does nothing here
    assert _semantic(env)["focus"]["route"] != "panel"
    ok(env, key("Ctrl+Space"))
    assert _semantic(env)["focus"]["target"] == "shell:launcher:search"
    ok(env, key("Escape"))
    first = ok(env, app("launch", kind="terminal"))["window"]
    second = ok(env, app("launch", kind="files"))["window"]
    ok(env, key("Meta+Tab"))
    assert _semantic(env)["focus"]["route"] == "panel"
    ok(env, key("Enter"))
    assert _semantic(env)["focus"]["window"] == first
    ok(env, key("Alt+F4"))  # not this theme's close key: the terminal keeps its window
    assert sorted(w["id"] for w in _semantic(env)["windows"]) == [first, second]
    out = one(env, key("Meta+q"))
    assert out["success"] and out["effect"]["windows_closed"] == [first]


def test_an_application_takes_its_shortcuts_with_the_themes_primary_modifier(toy):
    for name, primary, other in (("toy-cmd", "Meta", "Ctrl"), ("ubuntu", "Ctrl", "Meta")):
        _w, env = _env(name)
        ok(env, app("launch", kind="files"))
        ok(env, key(f"{other}+l"))  # the other modifier is no shortcut of the file manager
        assert _semantic(env)["focus"]["target"] != LOCATION
        ok(env, key(f"{primary}+l"))  # Primary+L: type a location
        assert _semantic(env)["focus"]["target"] == LOCATION


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"primary": "Alt"}, "primary must be one of"),
        ({"shell_keys": {"launcher": ("Meta",), "dance": ("F9",)}}, "unknown action 'dance'"),
        ({"window_keys": {"close": ("Ctrl+NoSuchKey",)}}, "names no key"),
        ({"window_keys": {"close": ("Meta+q",), "minimize": ("meta+Q",)}}, "binds Meta\\+q to both"),
        ({"fonts": {"ui": "comic"}}, "fonts maps ui, ui-bold"),
    ],
)
def test_a_theme_that_names_what_does_not_exist_is_refused(changes, message):
    broken = type("Broken", (Theme,), {"name": "broken", **changes})()
    with pytest.raises(ValueError, match=message):
        register(broken)
    assert theme("broken") is None
