"""Staging and projecting: the owner calls, the demonstration and its failures."""

from __future__ import annotations

import msgspec
import pytest
from procedure_kit import TOOL, staged

from cwgym import World
from cwgym.procedures import (
    Demonstration,
    Instance,
    load_procedure,
    parse_procedure,
    project,
    stage,
)
from cwgym.resources import load_world


def sh(command: str) -> dict:
    return {"family": "terminal.v1", "op": "execute", "payload": {"command": command}}


def test_stage_lays_the_setup_as_the_user():
    world, instance = staged(load_procedure("ops-backup-script"), 3)
    machine = world.machine("workstation")
    name = instance.params["what"]["name"]
    path = f"/home/ada/Downloads/backup-{name}.sh"
    stat = machine.fs.stat_path(path)
    assert (stat.uid, stat.gid, stat.mode & 0o777) == (1000, 1000, 0o644)
    assert machine.fs.read_path(path).startswith(b"#!/bin/sh\n")
    assert instance.instruction.startswith(f"Install the {name} backup script")
    assert "{{" not in instance.to_plain()["instruction"]


def test_if_absent_keeps_what_the_world_has():
    world = World(load_world("ubuntu-workstation"), seed=0)
    world.machine("workstation").fs.put_file("/home/ada/crontab.txt", b"# mine\n", 1000, 1000)
    stage(world, "ops-backup-script", 0)
    assert world.machine("workstation").fs.read_path("/home/ada/crontab.txt") == b"# mine\n"


def test_stage_refuses_another_world_and_bad_seeds():
    office = World(load_world("small-office"), seed=0)
    with pytest.raises(ValueError, match="runs in world 'ubuntu-workstation', not 'small-office'"):
        stage(office, "legal-engagement-letter", 0)
    world = World(load_world("ubuntu-workstation"), seed=0)
    with pytest.raises(ValueError, match="seed"):
        stage(world, "legal-engagement-letter", -1)


def test_a_demonstration_records_every_step():
    world, instance = staged(load_procedure("legal-engagement-letter"), 0)
    demo = project(world, instance, {"mode": "tool"})
    assert isinstance(demo, Demonstration)
    assert demo.completed and demo.failure is None and demo.verification.passed
    assert demo.state_hash == world.state_hash()  # the world is left in the end state
    assert [s.phase for s in demo.steps] == [p.label for p in instance.phases]
    step = demo.steps[1]
    assert (step.role, step.session, step.session_id, step.kind, step.success, step.exit_code) == ("ada", "main", "session-0", "tool", True, 0)
    assert step.action == {"family": "terminal.v1", "op": "execute", "machine": "workstation",
                           "payload": {"command": instance.phases[1].tool[0].payload["command"]}}
    assert demo.sessions[0].config["actions"] == ["filesystem.v1", "terminal.v1"]
    assert demo.counts["tool_calls"] == 5 and demo.counts["gui_actions"] == 0 and demo.counts["tool_call_bytes"] > 0
    plain = demo.to_plain()
    assert msgspec.json.decode(msgspec.json.encode(plain)) == plain
    assert plain["captures"] is None


def test_an_instance_round_trips_as_plain_data():
    world, instance = staged(load_procedure("books-invoice-timesheet"), 5)
    plain = instance.to_plain()
    assert Instance.from_plain(plain) == instance
    demo = project(world, plain, TOOL)
    assert demo.verification.passed


@pytest.mark.parametrize("options", [{"mode": "voice"}, {"colour": True}, {"mode": "tool", "width": 0}, {"typing": "telepathy"}])
def test_bad_options_are_refused(options):
    world, instance = staged(load_procedure("legal-engagement-letter"), 0)
    with pytest.raises(ValueError, match="invalid project options"):
        project(world, instance, options)


def test_a_failing_call_stops_the_run_and_names_the_phase():
    p = parse_procedure({
        "id": "fails", "domain": "office", "instruction": "Copy the memo.",
        "phases": [
            {"label": "Copy the memo", "tool": [sh("cp memo.txt copy.txt")]},
            {"label": "Never reached", "tool": [sh("echo no > later.txt")]},
        ],
        "verify": [{"file_exists": {"path": "copy.txt"}}],
    })
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert not demo.completed
    assert demo.failure.phase == "Copy the memo" and demo.failure.step == 0
    assert "exited with status 1" in demo.failure.reason and "memo.txt" in demo.failure.reason
    assert len(demo.steps) == 1 and not demo.steps[0].success
    assert not demo.verification.passed


def test_a_refused_call_is_a_failure_too():
    p = parse_procedure({
        "id": "refused", "domain": "office", "instruction": "Read it.",
        "phases": [{"label": "Read", "tool": [{"family": "filesystem.v1", "op": "read", "payload": {"path": "/nope"}}]}],
        "verify": [{"file_exists": {"path": "x"}}],
    })
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.failure.reason == "filesystem.v1 read failed (not_found)"
    assert demo.steps[0].error is not None


def test_roles_and_sessions_get_their_own_grants():
    p = parse_procedure({
        "id": "two-people", "domain": "office", "instruction": "Draft, then review.",
        "phases": [
            {"label": "Draft", "tool": [sh("echo draft > memo.txt")]},
            {"label": "Review", "role": "reviewer", "tool": [sh("echo reviewed >> memo.txt")]},
            {"label": "Draft again", "session": "second", "tool": [sh("echo final >> memo.txt")]},
        ],
        "verify": [{"file_equals": {"path": "memo.txt", "lines": ["draft", "reviewed", "final"]}}],
    })
    world, instance = staged(p, 0)
    demo = project(world, instance, TOOL)
    assert demo.verification.passed
    assert [(s.role, s.session, s.id) for s in demo.sessions] == [
        ("ada", "main", "session-0"), ("reviewer", "main", "session-1"), ("ada", "second", "session-2")]
    assert [s.session_id for s in demo.steps] == ["session-0", "session-1", "session-2"]
    assert world.inspect()["state"]["sessions"]["session-1"]["config"]["actor"] == "reviewer"


def test_project_refuses_an_instance_of_another_world():
    _, instance = staged(load_procedure("legal-engagement-letter"), 0)
    office = World(load_world("small-office"), seed=0)
    with pytest.raises(ValueError, match="belongs to world 'ubuntu-workstation', not 'small-office'"):
        project(office, instance, TOOL)


def test_stage_refuses_a_machine_the_world_lacks():
    p = parse_procedure({
        "id": "elsewhere", "domain": "office", "instruction": "Work on the server.",
        "phases": [{"label": "Look", "machine": "fileserver", "tool": [sh("ls")]}],
        "verify": [{"file_exists": {"path": "x"}}],
    })
    world = World(load_world("ubuntu-workstation"), seed=0)
    with pytest.raises(ValueError, match="has no machine 'fileserver'"):
        stage(world, p, 0)


def test_a_procedure_in_a_world_with_several_machines():
    p = parse_procedure({
        "id": "office-handbook-note", "domain": "office", "world": "small-office", "machine": "reception",
        "instruction": "Copy today's visitor count into the report on the file server.",
        "phases": [
            {"label": "Count the visitors", "tool": [sh("grep -c 2026-09-17 ~/Documents/visitors.csv > ~/count.txt")]},
            {"label": "Note it on the file server", "machine": "fileserver", "role": "admin",
             "tool": [sh("echo 'Visitors on 2026-09-17: 1' >> ~/visitors-report.txt")]},
        ],
        "verify": [{"file_equals": {"path": "count.txt", "content": "1\n"}}],
    })
    world = World(load_world("small-office"), seed=0)
    instance = stage(world, p, 0)
    demo = project(world, instance, TOOL)
    assert demo.completed and demo.verification.passed, demo.failure
    assert [s.config["machines"] for s in demo.sessions] == [["reception"], ["fileserver"]]
    assert world.machine("fileserver").fs.read_path("/home/admin/visitors-report.txt") == b"Visitors on 2026-09-17: 1\n"
