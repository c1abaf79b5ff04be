"""The Terminal window, driven only through the actor handle (pointer, keyboard, application).

Controls are found in the scene (by interaction, by painted line provenance), never by
coordinates written into the test; results are checked through the scene, the
``terminal.v1`` channel and the owner's machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _textpane as tp
from cwgym.apps.terminal import MAX_SCROLLBACK_LINES, screen_lines
from cwgym.resources import load_world
from cwgym.scene import Scene
from cwgym.scene.text_lines import TextLine, join_lines

W, H = 1280, 800
PROMPT = "ada@workstation:~$ "


def _world() -> World:
    return World(load_world("ubuntu-workstation"), 7)


def _env(w: World, *, channel: bool = True):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    if channel:
        config["observations"] = [*config["observations"], "terminal.v1"]
    return w.environment(config)


def _launch_from_dock(env) -> int:
    at = point(env.scene(W, H), "shell:launch:terminal")
    assert at is not None
    return one(env, ptr("click", *at, width=W, height=H))["value"]["window"]


def _scene(env) -> dict:
    return env.scene(W, H)


def _buffer(env, wid: int = 0) -> dict:
    return next(b for b in _scene(env)["buffers"] if b["handle"] == f"window:{wid}:terminal")


def _lines(env, wid: int = 0) -> list[str]:
    return _buffer(env, wid)["lines"]


def _focus(env) -> dict:
    return _scene(env)["focus"]


def _run(env, line: str) -> dict:
    ok(env, type_(line))
    return one(env, key("Enter"))


def _channel(env) -> dict | None:
    return env.observe()["channels"]["terminal.v1"][M]


def _screen(node: dict) -> tuple[int, int, int, int]:
    b, t = node["bounds"], node["transform"]
    return b["x"] + t["tx"], b["y"] + t["ty"], b["width"], b["height"]


def _rows(scene: dict, wid: int = 0) -> list[dict]:
    """Painted text rows of the terminal window, top to bottom."""
    rows = [n for n in scene["nodes"] if n.get("line") and n.get("window") == wid]
    return sorted(rows, key=lambda n: _screen(n)[1])


def _row_of(scene: dict, logical: int, *, wid: int = 0) -> dict:
    return next(n for n in _rows(scene, wid) if n["line"].get("pane") and n["line"]["logical"] == logical and not n["line"].get("continuation"))


def _cell_point(node: dict, col: int) -> tuple[int, int]:
    """The middle-left of character cell ``col`` in a painted row."""
    x, y, _w, h = _screen(node)
    cw, _ch = tp.grid()
    return x + col * cw + 1, y + h // 2


# -- end to end ----------------------------------------------------------------------------


def test_a_pipeline_run_in_the_terminal_window_lands_in_the_buffer_and_the_channel():
    w = _world()
    env = _env(w)
    wid = _launch_from_dock(env)
    scene = _scene(env)
    win = next(x for x in scene["windows"] if x["id"] == wid)
    assert win["app"] == "terminal" and win["title"] == "ada@workstation: ~"
    assert scene["focus"]["keyboard"] == {"route": "terminal", "window": wid, "target": f"window:{wid}:content:terminal-input", "text_entry": True}
    out = one(env, type_("printf 'b\\na\\nb\\n' | sort | uniq -c"))
    assert out["effect"]["changed"] == ["content"]
    out = one(env, key("Enter"))
    assert out["effect"]["changed"] == ["content", "terminal"]
    assert _lines(env, wid) == [f"{PROMPT}printf 'b\\na\\nb\\n' | sort | uniq -c", "      1 a", "      2 b"]
    channel = _channel(env)
    assert channel["stdout"] == "      1 a\n      2 b\n" and channel["exit_code"] == 0
    # the painted rows say where each came from, and join back into the buffer
    scene = _scene(env)
    rows = [(n["primitive"]["text"], TextLine(**n["line"])) for n in _rows(scene, wid) if n["line"].get("pane")]
    assert join_lines(rows) == _lines(env, wid)


def test_typing_into_the_terminal_matches_the_reference_engine():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    assert one(env, type_("echo hello-from-keyboard"))["effect"]["changed"] == ["content"]
    assert one(env, key("Enter"))["effect"]["changed"] == ["content", "terminal"]
    assert _channel(env)["stdout"] == "hello-from-keyboard\n"
    buf = _buffer(env)
    assert buf["lines"] == [f"{PROMPT}echo hello-from-keyboard", "hello-from-keyboard"]
    assert buf["kind"] == "terminal" and buf["window"] == 0 and buf["truncated"] is False


def test_a_session_without_terminal_v1_still_runs_commands_through_the_window():
    w = _world()
    env = _env(w, channel=False)
    assert one(env, act("terminal.v1", "execute", command="true"))["error"]["code"] == "denied"
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo made-here > ~/from-window.txt && cat ~/from-window.txt")
    assert _lines(env)[-1] == "made-here"
    assert w.machine(M).fs.read_path("/home/ada/from-window.txt") == b"made-here\n"


def test_the_prompt_and_title_follow_the_shell_and_a_folder_argument_opens_there():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="terminal"))
    _run(env, "cd Documents")
    assert _scene(env)["windows"][0]["title"] == "ada@workstation: ~/Documents"
    _run(env, "pwd")
    assert _lines(env)[-2:] == ["ada@workstation:~/Documents$ pwd", "/home/ada/Documents"]
    ok(env, app("launch", kind="terminal", argument="/home/ada/Projects"))
    assert _scene(env)["windows"][1]["title"] == "ada@workstation: ~/Projects"
    assert w.machine(M).shell.cwd == "/home/ada/Projects"
    assert one(env, app("launch", kind="terminal", argument="/home/ada/notes.txt"))["error"]["code"] == "action_failed"


# -- keys ----------------------------------------------------------------------------------


def test_line_editing_keys_and_the_caret_cell():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    ok(env, type_("eco hi"))
    for _ in range(4):
        ok(env, key("ArrowLeft"))
    ok(env, type_("h"))
    assert _focus(env)["value"] == "echo hi" and _focus(env)["caret"]["offset"] == 3
    ok(env, key("End"))
    ok(env, key("Backspace"))
    ok(env, type_("ey"))
    ok(env, key("Home"))
    ok(env, key("Delete"))
    assert _focus(env)["value"] == "cho hey"
    ok(env, key("ArrowRight"))
    ok(env, key("ArrowRight"))
    focus = _focus(env)
    assert focus["caret"]["offset"] == 2 and focus["caret"]["column"] == len(PROMPT) + 2
    # the caret is the character cell at the insertion point, on the painted grid
    scene = _scene(env)
    row = next(n for n in _rows(scene) if n["line"].get("pane") is None)
    x, y, _w, _h = _screen(row)
    cw, ch = tp.grid()
    assert focus["caret"]["bounds"] == {"x": x + (len(PROMPT) + 2) * cw, "y": y, "width": cw, "height": ch}
    ok(env, key("Ctrl+e"))
    ok(env, key("Ctrl+w"))
    assert _focus(env)["value"] == "cho "
    ok(env, key("Ctrl+a"))
    ok(env, key("Ctrl+k"))
    assert _focus(env)["value"] == ""
    # Tab is taken (no completion); keys the terminal does not use go on to the desktop
    assert one(env, key("Tab"))["effect"]["changed"] == []
    assert one(env, key("Meta+Up"))["effect"]["changed"] == ["window.moved"]


def test_history_walks_with_arrow_up_and_down_and_keeps_the_draft():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo one")
    _run(env, "echo two")
    _run(env, "echo two")  # repeats are remembered once
    ok(env, type_("draft"))
    values = []
    for k in ("ArrowUp", "ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown"):
        ok(env, key(k))
        values.append(_focus(env)["value"])
    assert values == ["echo two", "echo one", "echo one", "echo two", "draft"]
    ok(env, key("ArrowUp"))
    ok(env, key("Enter"))
    assert _lines(env)[-2:] == [f"{PROMPT}echo two", "two"]


def test_ctrl_c_abandons_the_line_without_running_it():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    ok(env, type_("rm -rf ~/Documents"))
    out = one(env, key("Ctrl+C"))
    assert out["effect"]["changed"] == ["content"]
    assert _lines(env) == [f"{PROMPT}rm -rf ~/Documents^C"]
    assert _focus(env)["value"] == "" and _channel(env) is None


def test_clear_clears_the_scrollback_in_output_order():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo a")
    _run(env, "clear")
    assert _lines(env) == []
    assert _channel(env)["clear"] is True
    _run(env, "echo before; clear; echo after")
    assert _lines(env) == ["after"]
    _run(env, "echo b")
    assert _lines(env) == ["after", f"{PROMPT}echo b", "b"]


def test_typed_line_breaks_run_each_line():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    ok(env, type_("echo 1\necho 2\necho 3"))
    assert _lines(env) == [f"{PROMPT}echo 1", "1", f"{PROMPT}echo 2", "2"]
    assert _focus(env)["value"] == "echo 3"


def test_paste_and_copy_go_through_the_machine_clipboard():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="terminal"))
    w.machine(M).clipboard = "echo pasted"
    ok(env, key("Ctrl+Shift+V"))
    assert _focus(env)["value"] == "echo pasted"
    ok(env, key("Ctrl+U"))
    ok(env, key("Shift+Insert"))
    ok(env, key("Enter"))
    assert _lines(env) == [f"{PROMPT}echo pasted", "pasted"]
    w.machine(M).clipboard = ""
    out = one(env, key("Ctrl+Shift+C"))  # no selection: the last line the command printed
    assert out["effect"]["changed"] == ["clipboard"] and w.machine(M).clipboard == "pasted"
    # a drag over the scrollback selects; Ctrl+Shift+C copies the selection
    scene = _scene(env)
    row = _row_of(scene, 0)
    start, end = _cell_point(row, len(PROMPT)), _cell_point(row, len(PROMPT) + 4)
    ok(env, ptr("down", *start, width=W, height=H))
    ok(env, ptr("move", *end))
    ok(env, ptr("up", *end))
    ok(env, key("Ctrl+Shift+C"))
    assert w.machine(M).clipboard == "echo"
    # a second press on the same place selects the word
    at = _cell_point(_row_of(_scene(env), 1), 2)
    ok(env, ptr("click", *at))
    ok(env, ptr("click", *at))
    ok(env, key("Ctrl+Shift+C"))
    assert w.machine(M).clipboard == "pasted"


def test_the_context_menu_copies_pastes_and_clears():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo menu")
    w.machine(M).clipboard = "ls"
    at = point(_scene(env), "window:0:content:terminal-input")
    ok(env, ptr("down", *at, button=2, width=W, height=H))
    ok(env, ptr("up", *at, button=2))
    view = env.observe()["channels"]["semantic.v1"][M]
    items = {e["label"]: e for e in view["elements"] if e["role"] == "menuitem"}
    assert set(items) == {"Copy", "Paste", "Select All", "Reset and Clear"}
    assert items["Copy"]["id"] == "window:0:content:copy"
    out = one(env, ptr("click", *point(_scene(env), "window:0:content:paste")))
    assert out["success"] and _focus(env)["value"] == "ls"
    assert not any(n["interaction"] == "window:0:content:paste" for n in _scene(env)["nodes"])
    # a click outside the open menu only closes it
    ok(env, ptr("down", *at, button=2))
    ok(env, ptr("up", *at, button=2))
    ok(env, ptr("click", *point(_scene(env), "window:0:content:menu-dismiss")))
    assert _focus(env)["value"] == "ls" and _lines(env)[-1] == "menu"
    ok(env, ptr("down", *at, button=2))
    ok(env, ptr("up", *at, button=2))
    ok(env, ptr("click", *point(_scene(env), "window:0:content:clear")))
    assert _lines(env) == []
    # every control also answers application.v1 shell
    ok(env, app("shell", target="window:0:content:paste"))
    assert _focus(env)["value"] == "lsls"
    ok(env, app("shell", target="window:0:content:select-all"))
    ok(env, app("shell", target="window:0:content:copy"))
    assert w.machine(M).clipboard == f"{PROMPT}lsls"
    assert one(env, app("shell", target="window:0:content:nothing"))["error"]["reason"] == "unknown_shell_target"


# -- scrolling -----------------------------------------------------------------------------


def _cell_point_of_thumb(env, target: str) -> tuple[int, int]:
    knob = next(n for n in _scene(env)["nodes"] if n["interaction"] == target and not n["semantic"])
    x, y, _w, h = _screen(knob)
    return x + 3, y + h // 2


def _pane(env) -> dict:
    return next(a for a in _scene(env)["scrolls"] if a["target"] == "window:0:content:pane:scrollback")


def test_the_wheel_scrolls_whole_rows_and_long_output_keeps_the_view_at_the_bottom():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _, ch = tp.grid()
    _run(env, "seq 1 100")
    pane = _pane(env)
    assert pane["offset"] == pane["extent"] - pane["bounds"]["height"]  # following the output
    assert _lines(env)[-1] == "100"
    b = pane["bounds"]
    out = one(env, ptr("wheel", b["x"] + 20, b["y"] + 20, delta_y=-120, width=W, height=H))
    # the offset is the window's: the effect is a scroll, the content did not change
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    scrolled = _pane(env)
    assert scrolled["offset"] == pane["offset"] - (120 // ch) * ch
    first = _buffer(env)["first_visible"]
    # scrolled back, a command's output does not move the view
    ok(env, key("Enter"))
    assert _pane(env)["offset"] == scrolled["offset"] and _buffer(env)["first_visible"] == first
    # the wheel back down to the end follows the output again
    ok(env, ptr("wheel", b["x"] + 20, b["y"] + 20, delta_y=10_000))
    _run(env, "seq 1 5")
    after = _pane(env)
    assert after["offset"] == after["extent"] - after["bounds"]["height"]
    # past the top the wheel is not handled
    ok(env, ptr("wheel", b["x"] + 20, b["y"] + 20, delta_y=-100_000))
    assert _pane(env)["offset"] == 0
    assert one(env, ptr("wheel", b["x"] + 20, b["y"] + 20, delta_y=-120))["value"] == {"handled": False}
    # typing brings the view back to the prompt
    ok(env, type_("x"))
    end = _pane(env)
    assert end["offset"] == end["extent"] - end["bounds"]["height"]


def test_the_scroll_bar_drags_jumps_and_pages():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, "seq 1 300")
    scene = _scene(env)
    bar = next(n for n in scene["nodes"] if (n["interaction"] or "").startswith("window:0:content:pane:scrollback:") and n["semantic"])
    assert bar["semantic"]["role"] == "scrollbar"
    track, thumb, limit = (int(v) for v in bar["interaction"].split(":")[-3:])
    x, y, _w, h = _screen(bar)
    assert h == track and _pane(env)["offset"] == limit
    # a press on the track above the thumb jumps there; dragging the thumb to the top scrolls to 0
    out = one(env, ptr("down", x + 5, y + thumb // 2, width=W, height=H))
    assert out["success"]
    ok(env, ptr("move", x + 5, y - 50))
    ok(env, ptr("up", x + 5, y - 50))
    assert _pane(env)["offset"] == 0
    # a named click without a point pages forward
    target = next(n["interaction"] for n in _scene(env)["nodes"] if (n["interaction"] or "").startswith("window:0:content:pane:scrollback:"))
    ok(env, app("shell", target=target))
    pane = _pane(env)
    _, ch = tp.grid()
    rows = pane["bounds"]["height"] // ch
    assert pane["offset"] == (rows - 1) * ch
    # dragging the thumb by half the free track scrolls half the way
    knob = next(n for n in _scene(env)["nodes"] if n["interaction"] == target and not n["semantic"])
    kx, ky, _kw, kh = _screen(knob)
    grab = (kx + 3, ky + kh // 2)
    ok(env, ptr("down", *grab))
    assert one(env, ptr("move", grab[0], grab[1] + (track - thumb) // 2))["value"] == {"cursor": "default"}
    ok(env, ptr("up", grab[0], grab[1] + (track - thumb) // 2))
    moved = _pane(env)["offset"]
    half = (ky - y + (track - thumb) // 2) * limit // (track - thumb)
    assert abs(moved - half) <= ch and moved % ch == 0
    # cancel puts the view back where the press found it
    ok(env, ptr("down", *_cell_point_of_thumb(env, target)))
    ok(env, ptr("move", x + 5, y + track))
    ok(env, act("pointer.v1", "cancel", x=x + 5, y=y + track))
    assert _pane(env)["offset"] == moved


def test_the_scrollback_is_bounded_and_says_so():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, f"seq 1 {MAX_SCROLLBACK_LINES + 100}")
    buf = _buffer(env)
    assert len(buf["lines"]) == MAX_SCROLLBACK_LINES and buf["truncated"] is True
    assert buf["lines"][-1] == str(MAX_SCROLLBACK_LINES + 100)
    ok(env, app("shell", target="window:0:content:clear"))
    assert _buffer(env)["truncated"] is False


def test_long_lines_hard_wrap_at_the_cell_with_provenance():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    word = "abcdefghij" * 30
    _run(env, f"echo {word}")
    scene = _scene(env)
    rows = [n for n in _rows(scene) if n["line"].get("pane") == "window:0:terminal" and n["line"]["logical"] == 1]
    assert len(rows) >= 3
    head, *rest = rows
    cw, _ch = tp.grid()
    cols = head["bounds"]["width"] // cw
    assert head["line"]["continuation"] is False and head["line"]["offset"] == 0
    for i, n in enumerate(rest, 1):
        assert n["line"]["continuation"] is True and n["line"]["offset"] == i * cols
        assert n["line"]["wrapped_from"] == head["id"]
    assert "".join(n["primitive"]["text"] for n in rows) == word


def test_a_maximized_window_rewraps_and_scaled_viewports_reach_the_controls():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo " + "z" * 150)
    narrow = len([n for n in _rows(_scene(env)) if n["line"].get("logical") == 1 and n["line"].get("pane")])
    ok(env, app("maximize"))
    wide = len([n for n in _rows(_scene(env)) if n["line"].get("logical") == 1 and n["line"].get("pane")])
    assert narrow == 2 and wide == 1
    small = env.scene(640, 400)
    typed = Scene.from_plain(small)
    node = next(n for n in small["nodes"] if n["interaction"] == "window:0:content:terminal-input")
    at = typed.reachable_point(node["id"])
    ok(env, ptr("down", *at, button=2, width=640, height=400))
    ok(env, ptr("up", *at, button=2))
    assert point(env.scene(640, 400), "window:0:content:copy") is not None


# -- state ---------------------------------------------------------------------------------


def test_terminal_state_is_plain_data_that_snapshots_restore():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo saved")
    snap = w.snapshot()
    digest = _scene(env)["digest"]
    _run(env, "echo later")
    w.restore(snap)
    assert _scene(env)["digest"] == digest and _lines(env)[-1] == "saved"
    state = w.inspect()
    assert "echo saved" in repr(state)
    other = _env(_world())
    ok(other, app("launch", kind="terminal"))
    _run(other, "echo saved")
    assert _scene(other)["digest"] == digest


def test_screen_lines_strips_escapes_and_overstrikes():
    assert screen_lines("") == []
    assert screen_lines("a\nb\n") == ["a", "b"]
    assert screen_lines("a\tb\n") == ["a       b"]
    assert screen_lines("\x1b[1;31mred\x1b[0m\n") == ["red"]
    assert screen_lines("50%\r100%\n") == ["100%"]
    assert screen_lines("no newline") == ["no newline"]


def test_double_click_selects_a_word_and_shift_click_extends_it():
    w = _world()
    env = _env(w)
    ok(env, app("launch", kind="terminal"))
    _run(env, "echo alpha beta gamma")
    row = _row_of(_scene(env), 1)
    out = one(env, ptr("double_click", *_cell_point(row, 7), width=W, height=H))
    assert out["success"] and "content" in out["effect"]["changed"]
    ok(env, key("Ctrl+Shift+C"))
    assert w.machine(M).clipboard == "beta"
    # Shift+click moves the free end of the selection; its start stays
    ok(env, ptr("click", *_cell_point(row, 16), modifiers=["shift"]))
    ok(env, key("Ctrl+Shift+C"))
    assert w.machine(M).clipboard == "beta gamma"
    # without a selection Shift+click is a plain press
    ok(env, key("Escape"))
    ok(env, ptr("click", *_cell_point(row, 3), modifiers=["shift"]))
    ok(env, key("Ctrl+Shift+C"))  # no selection: the last line printed
    assert w.machine(M).clipboard == "alpha beta gamma"


def test_keys_that_scroll_report_scroll():
    env = _env(_world())
    ok(env, app("launch", kind="terminal"))
    _run(env, "seq 1 100")
    out = one(env, key("Shift+PageUp"))
    assert out["effect"]["changed"] == ["scroll"]
    pane = _pane(env)
    assert pane["offset"] < pane["extent"] - pane["bounds"]["height"]
    out = one(env, key("Ctrl+Shift+End"))
    assert out["effect"]["changed"] == ["scroll"]
    pane = _pane(env)
    assert pane["offset"] == pane["extent"] - pane["bounds"]["height"]
