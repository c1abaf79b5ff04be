"""The Calculator, driven only through the actor handle (pointer, keyboard, application).

Controls are found in the scene by interaction id, role and label; the history file is
checked through the owner's machine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world
from cwgym.text import measure

W, H = 1280, 800
HISTORY = "/home/ada/.local/share/gnome-calculator/history.json"


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("calculator")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = _env(w)
    payload = (
        {"kind": "calculator"} if argument is None else {"kind": "calculator", "argument": argument}
    )
    wid = ok(env, app("launch", **payload))["window"]
    return w, env, wid


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _display(env, wid: int = 0) -> str:
    return _elements(env)[f"window:{wid}:content:display"]["value"]


def _click(env, target: str, wid: int = 0) -> dict:
    at = point(env.scene(W, H), f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _history(w: World) -> list[dict]:
    return json.loads(w.machine(M).fs.read_path(HISTORY))["entries"]


# -- end to end ----------------------------------------------------------------------------


def test_compute_from_the_dock_with_pointer_and_keyboard_and_keep_the_history():
    w = _world()
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:calculator")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    scene = env.scene(W, H)
    assert scene["windows"][0]["title"] == "Calculator"
    focus = scene["focus"]
    assert focus["interaction"] == "window:0:content:display" and focus["keyboard"]["text_entry"]
    ok(env, type_("12"))
    _click(env, "key:multiply")
    _click(env, "key:3")
    ok(env, type_("+4"))
    assert _display(env) == "12×3+4"
    _click(env, "key:equals")
    assert _display(env) == "40"
    assert "12×3+4 =" in _texts(env)
    assert _history(w) == [{"n": 1, "expression": "12×3+4", "result": "40"}]
    # an operator continues from the result, a digit starts anew
    ok(env, type_("/8"))
    _keys(env, "Enter")
    assert _display(env) == "5"
    ok(env, type_("7"))
    assert _display(env) == "7"
    assert [e["result"] for e in _history(w)] == ["40", "5"]
    elements = _elements(env)
    assert elements["window:0:content:history:1"]["label"] == "12×3+4 = 40"
    assert elements["window:0:content:history:2"]["role"] == "listitem"


def test_every_basic_key_by_pointer_and_by_shell_target():
    _w, env, _wid = _open()
    labels = {e["id"]: (e["role"], e["label"]) for e in _elements(env).values()}
    for name, label in (
        ("plus", "Add"),
        ("minus", "Subtract"),
        ("multiply", "Multiply"),
        ("divide", "Divide"),
    ):
        assert labels[f"window:0:content:key:{name}"] == ("button", label)
    for digit in "0123456789":
        _click(env, f"key:{digit}")
    assert _display(env) == "0123456789"
    _click(env, "key:clear")
    assert _display(env) == ""
    for target in ("key:9", "key:point", "key:5", "key:minus", "key:1", "key:percent"):
        assert _shell(env, target)["success"]
    assert _display(env) == "9.5−1%"
    assert _shell(env, "key:backspace")["success"]
    assert _display(env) == "9.5−1"
    _click(env, "key:negate")
    assert _display(env) == "9.5−−1"
    _click(env, "key:negate")
    assert _display(env) == "9.5−1"
    _click(env, "key:divide")
    _click(env, "key:2")
    _click(env, "key:equals")
    assert _display(env) == "9"  # 9.5 − 1/2
    _click(env, "key:negate")
    assert _display(env) == "−9"
    assert _shell(env, "key:nothing")["error"]["reason"] == "unknown_shell_target"


def test_scientific_mode_keys():
    _w, env, _wid = _open()
    # the scientific keys are not there in Basic mode
    assert not _shell(env, "key:sin")["success"]
    _click(env, "mode:scientific")
    assert _elements(env)["window:0:content:mode:scientific"]["role"] == "tab"
    cases = [
        (["key:sin", "key:3", "key:0", "key:close"], "0.5"),
        (["key:cos", "key:6", "key:0"], "0.5"),  # the missing ")" is added
        (["key:tan", "key:4", "key:5", "key:close"], "1"),
        (["key:sqrt", "key:1", "key:6"], "4"),
        (["key:2", "key:power", "key:1", "key:0"], "1024"),
        (["key:7", "key:square"], "49"),
        (["key:pi"], "3.141592654"),
        (["key:ln", "key:e", "key:close"], "1"),
        (["key:log", "key:1", "key:0", "key:0", "key:0", "key:close"], "3"),
        (["key:5", "key:factorial"], "120"),
        (["key:abs", "key:minus", "key:3", "key:close"], "3"),
        (["key:4", "key:reciprocal"], "0.25"),
        (
            [
                "key:open",
                "key:1",
                "key:plus",
                "key:2",
                "key:close",
                "key:open",
                "key:3",
                "key:plus",
                "key:4",
                "key:close",
            ],
            "21",
        ),
    ]
    for keys, result in cases:
        _keys(env, "Escape")
        for target in keys:
            _click(env, target)
        _click(env, "key:equals")
        assert _display(env) == result, keys
    _click(env, "mode:basic")
    assert "window:0:content:key:sin" not in _elements(env)


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("0.1+0.2", "0.3"),
        ("1/3", "0.333333333"),
        ("2/3", "0.666666667"),
        ("1/3*3", "1"),
        ("200+10%", "220"),
        ("50%", "0.5"),
        ("-2^2", "−4"),
        ("2^3^2", "512"),
        ("2^64", "18446744073709551616"),
        ("2^100", "1.2676506×10^30"),
        ("2^1000", "1.071508607×10^301"),
        ("0.000000000125", "1.25×10^−10"),
        ("sqrt(2)^2", "2"),
        ("2pi", "6.283185307"),
        ("9^9^9", "Overflow"),
        ("1+*2", "Malformed expression"),
        ("sqrt(-1)", "Square root of a negative number is undefined"),
    ],
)
def test_exact_arithmetic_typed_at_the_keyboard(typed, shown):
    _w, env, _wid = _open()
    ok(env, type_(typed))
    _keys(env, "Enter")
    if shown[0].isdigit() or shown[0] == "−":
        assert _display(env) == shown
    else:  # an error: shown under the expression, which stays
        assert shown in _texts(env)
        assert _elements(env)["window:0:content:display"]["value"] != shown


def test_division_by_zero_is_a_message_not_a_crash_and_not_history():
    w, env, _wid = _open()
    ok(env, type_("7/0"))
    out = one(env, key("Enter"))
    assert out["success"]
    assert "Division by zero" in _texts(env)
    assert _display(env) == "7÷0"
    assert not w.machine(M).fs.exists(HISTORY)
    # the next edit clears the message
    _keys(env, "Backspace")
    assert "Division by zero" not in _texts(env) and _display(env) == "7÷"


def test_keyboard_shortcuts_copy_paste_clear_and_modes():
    w, env, _wid = _open()
    ok(env, type_("6*7"))
    _keys(env, "=")
    assert _display(env) == "42"
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "42"
    _keys(env, "Escape")
    assert _display(env) == ""
    w.machine(M).clipboard = "10 - 4\n"  # a line break in pasted text is =
    _keys(env, "Ctrl+v")
    assert _display(env) == "6"
    ok(env, type_("12"))
    _keys(env, "Delete")
    assert _display(env) == ""
    _keys(env, "Ctrl+a")
    assert "window:0:content:key:sqrt" in _elements(env)
    _keys(env, "Ctrl+b")
    assert "window:0:content:key:sqrt" not in _elements(env)
    ok(env, type_("sin(30"))
    _keys(env, "Backspace", "Backspace")
    assert _display(env) == "sin("
    _keys(env, "Backspace")  # a function name goes at once
    assert _display(env) == ""


def test_undo_and_redo_of_edits_to_the_expression():
    _w, env, _wid = _open()
    ok(env, type_("5"))
    _click(env, "key:plus")
    ok(env, type_("3"))
    _keys(env, "Enter")
    assert _display(env) == "8"
    _keys(env, "Ctrl+z")
    assert _display(env) == "5+3"
    _keys(env, "Ctrl+z")
    assert _display(env) == "5+"
    _keys(env, "Ctrl+Shift+z")
    assert _display(env) == "5+3"
    _keys(env, "Ctrl+y")
    assert _display(env) == "8"
    _keys(env, "Escape")
    _keys(env, "Ctrl+z")
    assert _display(env) == "8"


def test_history_entries_reuse_their_result_and_persist_across_windows():
    w, env, _wid = _open()
    ok(env, type_("12*12=100-1="))
    assert [e["result"] for e in _history(w)] == ["144", "99"]
    _click(env, "history:1")
    assert _display(env) == "144"  # after =, a result replaces the display
    _click(env, "key:plus")
    _click(env, "history:2")
    assert _display(env) == "144+99"
    _click(env, "history:1")
    assert _display(env) == "144+99×144"  # after a value, a result is multiplied in
    # a second window lists the same history
    second = ok(env, app("launch", kind="calculator"))["window"]
    labels = {
        e["label"]
        for e in _elements(env).values()
        if e["id"].startswith(f"window:{second}:content:history:")
    }
    assert labels == {"12×12 = 144", "100−1 = 99"}
    assert (
        one(env, app("shell", target=f"window:{second}:content:history:9"))["error"]["reason"]
        == "unknown_shell_target"
    )
    _click(env, "history-clear", second)
    assert _history(w) == []
    assert _elements(env)[f"window:{second}:content:history-clear"]["enabled"] is False


def test_a_damaged_history_file_is_reported_and_left_alone():
    bad = "{not json"
    w, env, _wid = _open({".local/share/gnome-calculator/history.json": bad})
    assert any("history file" in t for t in _texts(env)) and any(
        "damaged" in t for t in _texts(env)
    )
    ok(env, type_("2+2"))
    _keys(env, "Enter")
    assert _display(env) == "4"  # it still calculates
    assert w.machine(M).fs.read_path(HISTORY) == bad.encode()
    _shell(env, "history-clear")
    assert w.machine(M).fs.read_path(HISTORY) == bad.encode()
    wrong = json.dumps({"entries": [{"n": 1, "expression": "1+1"}]})
    w, env, _wid = _open({".local/share/gnome-calculator/history.json": wrong})
    assert any("no expression and result" in t for t in _texts(env))


def test_the_expression_cap_is_refused_as_invalid():
    _w, env, _wid = _open()
    ok(env, type_("1" * 199))
    before = _display(env)
    assert one(env, type_("23"))["error"]["code"] == "invalid"
    assert _display(env) == before
    ok(env, type_("+"))
    assert one(env, key("2"))["error"]["code"] == "invalid"
    assert _shell(env, "key:5")["error"]["code"] == "invalid"
    # text with = in it is refused whole when any part would pass the cap
    _keys(env, "Escape")
    assert one(env, type_("1+1=" + "2" * 201))["error"]["code"] == "invalid"
    assert _display(env) == ""
    _keys(env, "Ctrl+z")
    assert _display(env) == before + "+"


def test_a_long_expression_is_drawn_at_20_px_exactly_when_it_no_longer_fits_at_30():
    """Typed one character at a time, the expression is drawn at 30 px while its 30 px
    width fits inside the display and at 20 px from then on, right-aligned, whatever its
    characters (narrow points, wide digits, letters): the shortcut the painter takes for
    long expressions never decides otherwise."""
    _w, env, _wid = _open()
    for run in ("." * 70, "8" * 40, "sin(" * 12, "1+" * 30):
        _keys(env, "Escape")
        for ch in run:
            ok(env, type_(ch))
            scene = env.scene(W, H)
            box = next(
                n
                for n in scene["nodes"]
                if n["interaction"] == "window:0:content:display"
                and n["primitive"]["kind"] == "rounded_box"
            )
            text = next(
                n
                for n in scene["nodes"]
                if n["interaction"] == "window:0:content:display"
                and n["primitive"]["kind"] == "ui_text"
            )
            expr, inner = text["primitive"]["text"], box["bounds"]["width"] - 24
            size = 30 if measure(expr, "sans", 30) <= inner else 20
            assert (text["primitive"]["size"], text["bounds"]["width"]) == (
                size,
                measure(expr, "sans", size),
            ), expr
            assert text["bounds"]["x"] + text["bounds"]["width"] == box["bounds"]["x"] + 12 + inner


def test_a_launch_argument_is_solved_and_a_long_one_refused():
    w, env, wid = _open(argument="7*6")
    assert _display(env, wid) == "42"
    assert _history(w) == [{"n": 1, "expression": "7×6", "result": "42"}]
    out = one(env, app("launch", kind="calculator", argument="1" * 201))
    assert out["error"]["code"] == "action_failed"
