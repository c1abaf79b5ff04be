"""Captures bind values the world assigns, for later phases and checks."""

from __future__ import annotations

import msgspec
import pytest
from procedure_kit import TOOL, staged

from cwgym.procedures import parse_procedure, project, replay
from cwgym.procedures.captures import run_capture
from cwgym.procedures.model import Capture


def procedure(phases: list[dict], checks: list[dict], setup: list[dict] | None = None):
    return parse_procedure({
        "id": "capture-demo", "domain": "operations", "instruction": "Do the work.",
        "setup": setup or [], "phases": phases, "verify": checks,
    })


def sh(command: str) -> dict:
    return {"family": "terminal.v1", "op": "execute", "payload": {"command": command}}


def capture(data: dict) -> Capture:
    return msgspec.convert(data, Capture)


def test_file_pattern_first_and_last():
    p = procedure(
        [{"label": "Number", "tool": [sh("printf 'Order A-1 placed\\nOrder A-2 placed\\nOrder B-3 held\\n' > orders.txt")],
          "capture": [
              {"name": "first", "from": {"file": "orders.txt"}, "pattern": "Order {{?}} placed"},
              {"name": "last", "last": True, "from": {"file": "orders.txt"}, "pattern": "Order {{?}} placed"},
              {"name": "held", "from": {"file": "orders.txt"}, "pattern": "{{*}}Order {{?}} held"},
          ]}],
        [{"file_has_line": {"path": "orders.txt", "line": "Order {{@last}} placed"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.captures == {"first": "A-1", "last": "A-2", "held": "B-3"}
    assert demo.verification.passed


def test_state_capture_with_where_and_value_feeds_a_later_phase():
    p = procedure(
        [
            {"label": "Start a long job", "tool": [sh("sleep 600 &")],
             "capture": [{"name": "pid", "last": True, "from": {"state": {
                 "pointer": "/state/computers/workstation/processes", "where": {"/command": "sleep {{*}}"}, "value": "/pid"}}}]},
            {"label": "Stop it", "tool": [sh("kill {{@pid}} && echo stopped {{@pid}} > job.log")]},
        ],
        [{"find": {"pointer": "/state/computers/workstation/processes", "where": {"/pid": "{{#@pid}}", "/exit_code": None}, "count": 0}},
         {"file_equals": {"path": "job.log", "content": "stopped {{@pid}}\n"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.completed, demo.failure
    assert demo.captures["pid"].isdigit()
    assert demo.steps[1].action["payload"]["command"] == f"kill {demo.captures['pid']} && echo stopped {demo.captures['pid']} > job.log"
    assert demo.verification.passed, demo.verification.failures()


def test_state_capture_over_an_object_gives_the_key():
    world, _ = staged(procedure([{"label": "Look", "writes": False, "tool": [sh("true")]}], [{"file_absent": {"path": "x"}}]), 0)
    value = run_capture(world, "workstation", capture({"name": "m", "from": {"state": {"pointer": "/state/computers", "where": {"/user": "ada"}}}}))
    assert value == "workstation"
    scalar = run_capture(world, "workstation", capture({"name": "h", "from": {"state": {"pointer": "/state/computers/workstation/home"}}, "pattern": "/home/{{?}}"}))
    assert scalar == "ada"


def test_a_command_capture_runs_on_a_fork():
    world, _ = staged(procedure([{"label": "Look", "writes": False, "tool": [sh("true")]}], [{"file_absent": {"path": "x"}}],
                                setup=[{"path": "Finance/INV-1041.txt", "content": "a"}, {"path": "Finance/INV-1042.txt", "content": "b"}]), 0)
    before = world.state_hash()
    value = run_capture(world, "workstation", capture({"name": "n", "last": True, "from": {"command": "ls ~/Finance"}, "pattern": "INV-{{?}}.txt"}))
    assert value == "1042"
    assert world.state_hash() == before


def test_a_capture_that_finds_nothing_stops_the_run_at_its_phase():
    p = procedure(
        [
            {"label": "Write the order", "tool": [sh("echo 'Order 5 held' > orders.txt")],
             "capture": [{"name": "order", "from": {"file": "orders.txt"}, "pattern": "Order {{?}} placed"}]},
            {"label": "Confirm it", "tool": [sh("echo confirmed {{@order}} >> orders.txt")]},
        ],
        [{"file_has_line": {"path": "orders.txt", "line": "confirmed {{@order}}"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert not demo.completed
    assert demo.failure.phase == "Write the order" and demo.failure.phase_index == 0
    assert "capture 'order'" in demo.failure.reason and "Order {{?}} placed" in demo.failure.reason
    assert len(demo.steps) == 1
    assert demo.captures is None
    assert not demo.verification.passed


def test_captures_do_not_enter_replay():
    p = procedure(
        [{"label": "Write", "tool": [sh("echo 'id 9' > id.txt")],
          "capture": [{"name": "id", "from": {"command": "cat id.txt; echo extra > side.txt"}, "pattern": "id {{?}}"}]}],
        [{"file_absent": {"path": "side.txt"}}, {"file_has_line": {"path": "id.txt", "line": "id {{@id}}"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.verification.passed  # the capture's own command wrote only on its fork
    again, _ = staged(p, 0)
    assert replay(again, demo) == demo.state_hash


def test_numeric_captures_render_as_json_numbers():
    p = procedure(
        [{"label": "Count", "tool": [sh("echo 'total 12' > t.txt")],
          "capture": [{"name": "total", "from": {"file": "t.txt"}, "pattern": "total {{?}}"}]},
         {"label": "Record", "tool": [{"family": "filesystem.v1", "op": "write",
                                       "payload": {"path": "{{home}}/n.txt", "content": "{{@total}}", "count": "{{#@total}}"}}]}],
        [{"file_equals": {"path": "n.txt", "content": "12"}}],
    )
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.steps[1].action["payload"]["count"] == 12
    assert demo.verification.passed


def test_one_binder_strict_for_a_run_lenient_for_checking_a_world():
    from cwgym.procedures.captures import CaptureMissed, bind_phase, read_captures
    from cwgym.rl.verifier import capture_values

    p = procedure(
        [{"label": "Write", "tool": [sh("echo 'Order 5 held' > orders.txt")],
          "capture": [{"name": "placed", "from": {"file": "orders.txt"}, "pattern": "Order {{?}} placed"},
                      {"name": "held", "from": {"file": "orders.txt"}, "pattern": "Order {{?}} held"},
                      {"name": "again", "from": {"file": "orders.txt"}, "pattern": "Order {{@held}} {{?}}"}]}],
        [{"file_has_line": {"path": "orders.txt", "line": "Order {{@held}} held"}}],
    )
    world, instance = staged(p, 0)
    project(world, instance, TOOL)
    bound: dict = {}
    with pytest.raises(CaptureMissed, match="capture 'placed'"):
        bind_phase(world, instance, instance.phases[0], bound)
    assert bound == {}
    assert read_captures(world, instance) == {"held": "5", "again": "held"}
    assert capture_values(world, instance) == read_captures(world, instance)


def test_a_phase_captures_from_the_machine_it_acts_on():
    from cwgym import World
    from cwgym.procedures import stage
    from cwgym.procedures.captures import read_captures
    from cwgym.resources import load_world

    p = parse_procedure({
        "id": "capture-machines", "domain": "operations", "instruction": "Do the work.", "world": "small-office",
        "machine": "reception",
        "setup": [{"path": "site.txt", "content": "site reception\n"},
                  {"path": "site.txt", "content": "site fileserver\n", "machine": "fileserver"}],
        "phases": [
            {"label": "Here", "writes": False, "tool": [sh("true")],
             "capture": [{"name": "here", "from": {"file": "site.txt"}, "pattern": "site {{?}}"}]},
            {"label": "There", "writes": False, "machine": "fileserver", "tool": [sh("true")],
             "capture": [{"name": "there", "from": {"file": "site.txt"}, "pattern": "site {{?}}"}]},
        ],
        "verify": [{"file_exists": {"path": "site.txt"}}],
    })
    world = World(load_world("small-office"), seed=0)
    instance = stage(world, p, 0)
    assert [instance.machine_of(phase) for phase in instance.phases] == ["reception", "fileserver"]
    assert [instance.machine_of(entry) for entry in instance.setup] == ["reception", "fileserver"]
    demo = project(world, instance, TOOL)
    assert demo.captures == {"here": "reception", "there": "fileserver"}
    assert read_captures(world, instance) == demo.captures
