"""The key-name grammar: the names people write are keys, anything else is invalid."""

from __future__ import annotations

import pytest
from desktop_fixture import app, desktop, key, one, world

from cwgym.desktop.keys import parse_key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ctrl+S", "ctrl+s"),
        ("Ctrl+S", "Control+s"),
        ("ctrl+shift+k", "Shift+Ctrl+K"),
        ("Meta", "Super"),
        ("Cmd+Q", "meta+q"),
        ("Return", "Enter"),
        ("Esc", "escape"),
        ("Up", "ArrowUp"),
        ("pagedown", "PageDown"),
        ("PgUp", "PageUp"),
        ("Del", "Delete"),
        (" ", "Space"),
        ("A", "Shift+a"),
        ("Alt+Tab", "Option+Tab"),
    ],
)
def test_spellings_of_the_same_chord_are_equal(a, b):
    assert parse_key(a) == parse_key(b)
    assert parse_key(a).name == parse_key(b).name


@pytest.mark.parametrize(
    "name",
    ["Tab", "Escape", "F1", "F2", "F12", "Home", "End", "Insert", "Backspace", "Ctrl++", "+", "/", "`", "é", "Alt", "Shift+Alt+Tab", "Ctrl+Escape", "Meta+Space", "MediaPlayPause"],
)
def test_accepted_names(name):
    parse_key(name)


@pytest.mark.parametrize(
    "name", ["", "F13", "F0", "Ctrl+", "Ctrl+Ctrl", "Hyper+a", "foo", "Ctrl+Alt+foo", "ab", "\n", "Tab+Ctrl", "Shift+Shift+a"]
)
def test_rejected_names(name):
    with pytest.raises(KeyError):
        parse_key(name)


def test_canonical_names_and_typed_characters():
    assert parse_key("shift+ctrl+k").name == "Ctrl+Shift+k"
    assert parse_key("A").char == "A" and parse_key("a").char == "a"
    assert parse_key("Space").char == " " and parse_key("Ctrl+a").char is None
    assert parse_key("Enter").char is None
    assert parse_key("Ctrl+S").is_("ctrl+s", "Enter") and not parse_key("Ctrl+S").is_("Ctrl+Shift+S")
    assert parse_key("Meta").modifiers == () and parse_key("Ctrl+Alt+x").modifiers == ("Ctrl", "Alt")


def test_keyboard_v1_accepts_named_keys_and_refuses_unknown_ones():
    env = desktop(world())
    env.step([app("launch", kind="notepad_test")])
    for name in ("Ctrl+S", "ctrl+s", "Tab", "Escape", "PageDown", "F2", "Up", "Left", "Ctrl+z"):
        assert one(env, key(name))["success"], name
    for bad in ("F13", "Ctrl+", "NotAKey", 7, None):
        out = one(env, key(bad))
        assert out["error"] == {"code": "invalid", "message": "invalid action"}, bad
        assert out["effect"]["changed"] == []
