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
