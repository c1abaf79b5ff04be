"""GUI mode in a real world: gestures become pointer and keyboard actions chosen from the
scene, misses stop the run with the screen, typing modes, counts and replay."""

from __future__ import annotations

import pytest
from procedure_kit import GUI, failures, staged

from cwgym.procedures import parse_procedure, project, replay

TERMINAL = [
    {"do": "click", "target": {"interaction": "shell:launch:terminal"}},
    {"do": "click", "target": {"role": "textbox", "app": "terminal"}},
]


def sh(command: str) -> dict:
    return {"family": "terminal.v1", "op": "execute", "payload": {"command": command}}


def procedure(phases: list[dict], verify: list[dict], **extra) -> object:
    return parse_procedure({"id": "gui-case", "domain": "office", "instruction": "Do it.", "phases": phases, "verify": verify, **extra})


NOTE = procedure(
    [
        {"label": "Write the note in the editor", "gui": [
            {"do": "click", "target": {"interaction": "shell:launch:editor"}},
            {"do": "type", "text": "one\ttwo\nthree"},
            {"do": "key", "key": "Ctrl+s"},
            {"do": "type", "text": "note.txt"},
            {"do": "key", "key": "Tab"},
            {"do": "type", "text": "~"},
            {"do": "key", "key": "Enter"},
        ], "tool": [sh("printf 'one\\ttwo\\nthree\\n' > note.txt")]},
    ],
    [{"file_equals": {"path": "note.txt", "content": "one\ttwo\nthree\n"}}],
)


def test_a_gui_demonstration_records_what_it_clicked():
    world, instance = staged(NOTE, 0)
    demo = project(world, instance, GUI)
    assert demo.completed and demo.verification.passed, (demo.failure, failures(demo))
    assert demo.mode == "gui" and demo.state_hash == world.state_hash()
    first = demo.steps[0]
    assert first.kind == "gui" and first.success and first.phase == "Write the note in the editor"
    assert first.action == {"family": "pointer.v1", "op": "click", "machine": "workstation",
                            "payload": {"x": first.point[0], "y": first.point[1], "width": 1280, "height": 800}}
    assert first.target == {"interaction": "shell:launch:editor", "role": "button", "name": "Text Editor", "app": "shell"}
    assert first.gesture == {"index": 0, "do": "click"}
    assert first.scene.isdigit()
    typed = demo.steps[1]
    assert typed.action["op"] == "type" and typed.action["payload"] == {"text": "one\ttwo\nthree"}
    assert typed.target is None and typed.point is None and typed.scene != first.scene
    session = demo.sessions[0]
    assert (session.role, session.session, session.machine) == ("ada", "main", "workstation")
    assert session.config["actions"] == ["application.v1", "keyboard.v1", "pointer.v1"]
    assert demo.counts == {
        "phases": 1, "steps": 7, "gui_actions": 7, "pointer_actions": 1, "key_actions": 6,
        "characters_typed": 22, "keyboard_share": round(6 / 7, 4), "gui_action_bytes": demo.counts["gui_action_bytes"],
        "tool_calls": 0, "tool_call_bytes": 0, "captures": 0,
    }


def test_typing_keys_sends_one_action_per_character():
    world, instance = staged(NOTE, 0)
    demo = project(world, instance, {"typing": "keys"})
    assert demo.verification.passed, failures(demo)
    sent = [s.action["payload"] for s in demo.steps if s.gesture["index"] == 1]
    assert sent == [{"text": "o"}, {"text": "n"}, {"text": "e"}, {"key": "Tab"}, {"text": "t"}, {"text": "w"},
                    {"text": "o"}, {"key": "Enter"}, {"text": "t"}, {"text": "h"}, {"text": "r"}, {"text": "e"}, {"text": "e"}]
    counts = demo.counts
    assert counts["characters_typed"] == 22  # the same characters as one action per text
    assert counts["key_actions"] == counts["gui_actions"] - 1 == 3 + 13 + 8 + 1
    text_world, text_instance = staged(NOTE, 0)
    assert project(text_world, text_instance, GUI).counts["gui_actions"] < counts["gui_actions"]


def test_a_miss_stops_the_run_naming_the_phase_and_the_target_with_the_screen():
    p = procedure(
        [
            {"label": "Open a terminal", "writes": False, "gui": TERMINAL},
            {"label": "Press the missing button", "gui": [{"do": "click", "target": {"label": "Launch rockets", "app": "terminal"}}],
             "tool": [sh("touch x")]},
        ],
        [{"file_exists": {"path": "x"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, GUI)
    assert not demo.completed and not demo.verification.passed
    f = demo.failure
    assert (f.phase, f.phase_index, f.step) == ("Press the missing button", 1, None)
    assert f.reason == "Press the missing button: nothing on screen matches {label: 'Launch rockets', app: 'terminal'}"
    assert f.target == {"label": "Launch rockets", "app": "terminal"}
    assert f.session == demo.sessions[0].id
    assert [(w["app"], w["title"]) for w in f.screen["windows"]] == [("terminal", "ada@workstation: ~")]
    controls = {c["interaction"]: c for c in f.screen["controls"]}
    assert controls["window:0:content:terminal-input"]["role"] == "textbox"
    x, y, w, h = controls["shell:launch:terminal"]["bounds"]
    assert controls["shell:launch:terminal"]["reachable"] == [x + w // 2, y + h // 2]
    assert any(run["text"] == "ada@workstation: ~" for run in f.screen["text"])
    assert len(demo.steps) == 2  # the two clicks that found their targets
    plain = demo.to_plain()
    assert plain["failure"]["screen"]["viewport"] == [1280, 800]


def test_a_command_that_fails_in_the_terminal_stops_the_run():
    p = procedure(
        [{"label": "Copy the memo", "gui": [*TERMINAL, {"do": "type", "text": "cp memo.txt copy.txt"}, {"do": "key", "key": "Enter"}],
          "tool": [sh("cp memo.txt copy.txt")]},
         {"label": "Never reached", "gui": [{"do": "key", "key": "Enter"}], "tool": [sh("true")]}],
        [{"file_exists": {"path": "copy.txt"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, GUI)
    assert demo.failure.phase == "Copy the memo" and demo.failure.step == 3
    assert "the command exited with status 1" in demo.failure.reason and "memo.txt" in demo.failure.reason
    assert demo.steps[-1].exit_code == 1 and not demo.steps[-1].success


def test_right_click_drag_and_scroll():
    p = procedure(
        [
            {"label": "Fill the terminal", "writes": False, "gui": [*TERMINAL, {"do": "type", "text": "seq 1 200\n"}]},
            {"label": "Scroll back", "writes": False, "gui": [{"do": "scroll", "target": {"role": "textbox", "app": "terminal"}, "dy": -150}]},
            {"label": "Open the menu", "writes": False, "gui": [{"do": "right_click", "target": {"role": "textbox", "app": "terminal"}}]},
            {"label": "Move the window", "writes": False, "gui": [
                {"do": "key", "key": "Escape"},
                {"do": "drag", "from": {"interaction": "window:*:drag"}, "dx": 100, "dy": 50}]},
        ],
        [{"file_exists": {"path": "nothing"}}],
    )
    world, instance = staged(p, 0)
    before = []

    def checkpoint(k, w):
        if k == 3:  # before the window is moved
            before.append(w.scene("session-0", 1280, 800).windows[0].bounds)

    demo = project(world, instance, GUI, checkpoint=checkpoint)
    assert demo.completed, demo.failure
    ops = [(s.action["op"], s.action["payload"].get("button")) for s in demo.steps]
    assert ops[3:] == [("wheel", None), ("down", 2), ("up", 2), ("key", None), ("down", None), ("move", None), ("up", None)]
    wheel = demo.steps[3].action["payload"]
    assert wheel["delta_y"] == -150 and wheel["delta_x"] == 0 and [wheel["x"], wheel["y"]] == demo.steps[3].point
    down, move, up = demo.steps[-3:]
    assert down.target["interaction"] == "window:0:drag" and move.target is None
    assert move.point == up.point == [down.point[0] + 100, down.point[1] + 50]
    window = world.scene(demo.sessions[0].id, 1280, 800).windows[0]
    assert (window.bounds.x, window.bounds.y) == (before[0].x + 100, before[0].y + 50)


def test_captured_values_fill_gestures():
    p = procedure(
        [
            {"label": "Make a ticket", "gui": [*TERMINAL, {"do": "type", "text": "echo 'ticket 417' > t.txt\n"}],
             "tool": [sh("echo 'ticket 417' > t.txt")],
             "capture": [{"name": "ticket", "from": {"file": "t.txt"}, "pattern": "ticket {{?}}"}]},
            {"label": "Note it", "gui": [{"do": "type", "text": "echo 'see {{@ticket}}' > n.txt\n"}],
             "tool": [sh("echo 'see {{@ticket}}' > n.txt")]},
        ],
        [{"file_equals": {"path": "n.txt", "content": "see {{@ticket}}\n"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, GUI)
    assert demo.captures == {"ticket": "417"} and demo.verification.passed
    assert demo.steps[-1].action["payload"]["text"] == "echo 'see 417' > n.txt\n"


@pytest.mark.parametrize("size", [(1024, 640), (800, 500)])
def test_other_viewports_resolve_on_their_own_scene(size):
    world, instance = staged(NOTE, 0)
    demo = project(world, instance, {"width": size[0], "height": size[1]})
    assert demo.verification.passed, failures(demo)
    click = demo.steps[0].action["payload"]
    assert (click["width"], click["height"]) == size
    again, _ = staged(NOTE, 0)
    assert replay(again, demo) == demo.state_hash


def test_checkpoints_see_every_phase():
    world, instance = staged(NOTE, 0)
    seen = []
    project(world, instance, GUI, checkpoint=lambda k, w: seen.append((k, w is world)))
    assert seen == [(0, True), (1, True)]
