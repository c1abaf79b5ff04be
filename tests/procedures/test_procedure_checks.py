"""Each check kind passes on the right world, fails on the wrong one, and says what it
expected and found."""

from __future__ import annotations

import pytest
from procedure_kit import TOOL, staged

from cwgym.procedures import parse_procedure, project, verify, verify_with


def with_checks(checks: list[dict], setup: list[dict] | None = None) -> object:
    return parse_procedure({
        "id": "checks-demo", "domain": "office", "instruction": "Check things.",
        "params": [{"name": "who", "kind": "choice", "choices": ["Rosa Santos"]}],
        "setup": setup or [
            {"path": "Office/list.txt", "lines": ["alpha", "beta", "gamma"]},
            {"path": "Office/people.csv", "lines": ["name,team,hours", "Kai Novak,sales,3", "Rosa Santos,finance,7.50"]},
            {"path": "Office/data.json", "content": "{\"rooms\": {\"Atlas\": {\"seats\": 8}, \"Delphi\": {\"seats\": 4}}}"},
            {"path": "Office/empty", "dir": True},
            {"path": "bin/run.sh", "lines": ["#!/bin/sh"], "mode": "0755"},
        ],
        "phases": [{"label": "Look", "writes": False, "tool": [
            {"family": "terminal.v1", "op": "execute", "payload": {"command": "ls Office"}}]}],
        "verify": checks,
    })


PASSING = [
    {"file_equals": {"path": "Office/list.txt", "content": "alpha\nbeta\ngamma\n"}},
    {"file_equals": {"path": "~/Office/list.txt", "lines": ["alpha", "beta", "gamma"]}},
    {"file_has_line": {"path": "Office/list.txt", "line": "be{{*}}"}},
    {"file_lacks_line": {"path": "Office/list.txt", "line": "delta"}},
    {"file_contains": {"path": "/home/ada/Office/list.txt", "text": "ta\ngam"}},
    {"file_absent": {"path": "Office/missing.txt"}},
    {"file_exists": {"path": "Office/list.txt"}},
    {"file_exists": {"path": "Office/empty", "dir": True}},
    {"file_mode": {"path": "bin/run.sh", "mode": "0755"}},
    {"file_sorted": {"path": "Office/list.txt"}},
    {"file_sorted": {"path": "Office/people.csv", "header": 1}},
    {"dir_entries": {"path": "Office", "entries": ["data.json", "empty", "list.txt", "people.csv"]}},
    {"state": {"pointer": "/state/computers/workstation/home", "equals": "/home/ada"}},
    {"state": {"pointer": "/state/computers/workstation/installed_apps", "contains": "editor"}},
    {"state": {"file": "Office/data.json", "pointer": "/rooms/Atlas/seats", "equals": 8}},
    {"find": {"file": "Office/people.csv", "where": {"/name": "{{who}}", "/hours": 7.5}, "count": 1}},
    {"find": {"file": "Office/people.csv", "where": {"/team": "{{*}}a{{*}}"}, "count": 2}},
    {"find": {"file": "Office/data.json", "pointer": "/rooms", "where": {"/seats": 4}}},
    {"find": {"file": "Office/list.txt", "where": {"": "gamma"}, "count": 1}},
    {"find": {"pointer": "/state/computers", "where": {"/user": "ada", "/installed_apps": "calendar"}, "count": 1}},
]

FAILING = [
    ({"file_equals": {"path": "Office/list.txt", "lines": ["alpha", "beta"]}}, "expected 2 lines, found 3"),
    ({"file_equals": {"path": "Office/nope.txt", "content": ""}}, "no such file"),
    ({"file_has_line": {"path": "Office/list.txt", "line": "delta"}}, "no line matches"),
    ({"file_lacks_line": {"path": "Office/list.txt", "line": "alpha"}}, "1 line(s) match"),
    ({"file_lacks_line": {"path": "Office/nope.txt", "line": "alpha"}}, "no such file"),
    ({"file_contains": {"path": "Office/list.txt", "text": "delta"}}, "not in the file"),
    ({"file_absent": {"path": "Office/list.txt"}}, "a file is there"),
    ({"file_exists": {"path": "Office/list.txt", "dir": True}}, "a file is there"),
    ({"file_mode": {"path": "Office/list.txt", "mode": "0755"}}, "the mode differs"),
    ({"file_sorted": {"path": "Office/people.csv"}}, "comes after"),
    ({"dir_entries": {"path": "Office", "entries": ["list.txt"]}}, "other entries"),
    ({"state": {"pointer": "/state/computers/workstation/home", "equals": "/root"}}, "differs"),
    ({"state": {"pointer": "/state/nowhere", "equals": 1}}, "nothing at /state/nowhere"),
    ({"state": {"file": "Office/list.txt.json", "equals": 1}}, "no file"),
    ({"find": {"file": "Office/people.csv", "where": {"/name": "{{who}}"}, "count": 2}}, "1 element(s) match"),
    ({"find": {"file": "Office/people.csv", "where": {"/name": "Nobody"}}}, "0 element(s) match"),
]


@pytest.mark.parametrize("check", PASSING, ids=lambda c: next(iter(c)))
def test_passes(check):
    world, instance = staged(with_checks([check]), 0)
    result = verify(world, instance)
    assert result.passed, result.checks[0]
    assert result.score == 1.0


@pytest.mark.parametrize(("check", "reason"), FAILING, ids=[next(iter(c)) for c, _ in FAILING])
def test_fails_and_says_why(check, reason):
    world, instance = staged(with_checks([check]), 0)
    result = verify(world, instance)
    assert not result.passed
    assert reason in result.checks[0].reason
    assert result.checks[0].kind == next(iter(check))


def test_results_carry_expected_and_found():
    checks = [
        {"file_equals": {"path": "Office/list.txt", "lines": ["alpha"]}},
        {"file_exists": {"path": "Office/list.txt"}},
        {"find": {"file": "Office/people.csv", "where": {"/team": "sales"}, "count": 1}},
    ]
    world, instance = staged(with_checks(checks), 0)
    result = verify(world, instance)
    first, second, third = result.checks
    assert (first.expected, first.found) == ("alpha\n", "alpha\nbeta\ngamma\n")
    assert first.reason == "expected 1 lines, found 3"
    assert first.subject == "Office/list.txt"
    assert second.passed and third.passed and third.found == {"count": 1, "keys": ["0"]}
    assert result.score == pytest.approx(2 / 3)
    assert [c.index for c in result.failures()] == [0]
    assert result.to_plain()["checks"][0]["kind"] == "file_equals"


def test_a_check_naming_a_capture_needs_verify_with():
    procedure = parse_procedure({
        "id": "capture-check", "domain": "office", "instruction": "Number the report.",
        "phases": [{"label": "Number it", "tool": [
            {"family": "terminal.v1", "op": "execute", "payload": {"command": "echo 'report 77' > report.txt"}}],
            "capture": [{"name": "n", "from": {"file": "report.txt"}, "pattern": "report {{?}}"}]}],
        "verify": [
            {"file_has_line": {"path": "report.txt", "line": "report {{@n}}"}},
            {"state": {"file": "count.json", "pointer": "/n", "equals": "{{#@n}}"}},
        ],
        "setup": [{"path": "count.json", "content": "{\"n\": 77}"}],
    })
    world, instance = staged(procedure, 0)
    demo = project(world, instance, TOOL)
    assert demo.captures == {"n": "77"}
    assert demo.verification.passed
    bare = verify(world, instance)
    assert not bare.passed
    assert "needs the captured value 'n'" in bare.checks[0].reason
    assert verify_with(world, instance, {"n": "77"}).passed
    assert not verify_with(world, instance, {"n": "78"}).passed


# -- window checks ---------------------------------------------------------------------------

AUTOSTART = {"path": ".config/autostart/a.desktop", "lines": [
    "[Desktop Entry]", "Exec=editor ~/Office/list.txt", "X-Cwgym-Bounds=700,100,400,300", "X-Cwgym-Once=true",
]}
WINDOW_SETUP = [{"path": "Office/list.txt", "lines": ["alpha"]}, AUTOSTART]


def _window_world(checks: list[dict], *, login: bool = True):
    from cwgym.protocol.config import EnvironmentConfig

    world, instance = staged(with_checks(checks, WINDOW_SETUP), 0)
    if login:
        world.environment(EnvironmentConfig.desktop("ada", ["workstation"]))
    return world, instance


@pytest.mark.parametrize("check", [
    {"app": "editor"},
    {"app": "editor", "document": "Office/list.txt", "title": "list", "focused": True, "maximized": False},
    {"app": "editor", "within": [640, 32, 1280, 800]},
    {"app": "files", "count": 0},
    {"app": "editor", "count": 1},
])
def test_window_check_passes(check):
    world, instance = _window_world([{"window": check}])
    result = verify(world, instance)
    assert result.passed, result.checks[0]


@pytest.mark.parametrize(("check", "reason"), [
    ({"app": "files"}, "0 window(s) match"),
    ({"app": "editor", "maximized": True}, "0 window(s) match"),
    ({"app": "editor", "within": [0, 0, 640, 800]}, "0 window(s) match"),
    ({"app": "editor", "document": "Office/other.txt"}, "0 window(s) match"),
    ({"app": "editor", "count": 0}, "1 window(s) match"),
])
def test_window_check_fails_and_says_why(check, reason):
    world, instance = _window_world([{"window": check}])
    result = verify(world, instance).checks[0]
    assert not result.passed and result.reason == reason
    assert result.subject.startswith("window") and result.found["windows"][0]["app"] == "editor"


def test_a_window_check_needs_a_graphical_login():
    world, instance = _window_world([{"window": {"app": "files", "count": 0}}], login=False)
    result = verify(world, instance).checks[0]
    assert not result.passed and result.reason == "no session has a desktop on this machine"


def test_a_window_check_looks_at_the_latest_login():
    from cwgym.protocol.config import EnvironmentConfig

    world, instance = _window_world([{"window": {"app": "editor"}}])
    assert verify(world, instance).passed
    world.environment(EnvironmentConfig.desktop("ada", ["workstation"]))  # a new login; the file started once
    assert not verify(world, instance).passed


@pytest.mark.parametrize(("check", "message"), [
    ({"count": 1}, "names at least one of"),
    ({"app": "editor", "count": -1}, "count must be 0 or more"),
    ({"app": "editor", "within": [0, 0, 10]}, "within is"),
    ({"app": "editor", "within": [10, 0, 0, 10]}, "within is"),
])
def test_a_malformed_window_check_is_refused_with_its_path(check, message):
    from cwgym.procedures import ProcedureError

    with pytest.raises(ProcedureError, match=message) as info:
        with_checks([{"window": check}])
    assert "$.verify[0].window" in str(info.value)
