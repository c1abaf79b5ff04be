"""Parameters: a seed is an episode, drawn without Python's ``random``."""

from __future__ import annotations

import random

import pytest
from procedure_kit import FILES, file_id, load, staged

from cwgym.procedures import parse_procedure
from cwgym.procedures.dates import format_date, is_weekday
from cwgym.procedures.params import draw_params
from cwgym.procedures.template import render


def proc(params: list[dict], instruction: str = "Do it.") -> object:
    return parse_procedure({
        "id": "params-demo", "domain": "office", "instruction": instruction, "params": params,
        "phases": [{"label": "Write", "tool": [{"family": "filesystem.v1", "op": "write", "payload": {"path": "x.txt", "content": "x"}}]}],
        "verify": [{"file_exists": {"path": "x.txt"}}],
    })


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_same_seed_same_instance_different_seeds_differ(path):
    procedure = load(path)
    _, a = staged(procedure, 42)
    random.seed(1)
    _, b = staged(procedure, 42)
    random.seed(2)
    assert a.to_plain() == b.to_plain()
    instances = {staged(procedure, seed)[1].to_plain().__repr__() for seed in range(6)}
    assert len(instances) == 6, "every seed is a distinct episode"
    params = [staged(procedure, seed)[1].params for seed in range(6)]
    assert all(p != params[0] for p in params[1:])


def test_each_parameter_has_its_own_stream():
    one = proc([{"name": "n", "kind": "integer", "min": 0, "max": 10**9}])
    two = proc([{"name": "m", "kind": "integer", "min": 0, "max": 5}, {"name": "n", "kind": "integer", "min": 0, "max": 10**9}])
    for seed in range(5):
        assert draw_params(one, seed)["n"] == draw_params(two, seed)["n"]


def test_kinds():
    procedure = proc([
        {"name": "pick", "kind": "choice", "choices": [{"iso": "2026-06", "name": "June"}]},
        {"name": "n", "kind": "integer", "min": 1000, "max": 2000, "step": 250},
        {"name": "d", "kind": "decimal", "min": 1, "max": 2, "places": 2},
        {"name": "ref", "kind": "format", "template": "{{pick.iso}}-{{n}}"},
        {"name": "day", "kind": "date", "start": "2026-09-19", "end": "2026-09-20", "weekdays": False},
        {"name": "work", "kind": "date", "start": "2026-09-18", "end": "2026-09-21", "weekdays": True},
        {"name": "due", "kind": "date", "from": "work", "add_days": 1, "weekdays": True},
        {"name": "who", "kind": "name", "of": "person"},
        {"name": "firm", "kind": "name", "of": "company"},
        {"name": "three", "kind": "sample", "of": "city", "k": 3},
        {"name": "other", "kind": "name", "of": "city", "distinct_from": ["three"]},
        {"name": "sum", "kind": "expr", "expr": "n + d * 2", "places": 2},
        {"name": "whole", "kind": "expr", "expr": "n / 250"},
    ])
    for seed in range(20):
        p = draw_params(procedure, seed)
        assert p["pick"] == {"iso": "2026-06", "name": "June"}
        assert p["n"] in (1000, 1250, 1500, 1750, 2000)
        assert len(p["d"]) == 4 and 1 <= float(p["d"]) <= 2
        assert p["ref"] == f"2026-06-{p['n']}"
        assert p["day"] in ("2026-09-19", "2026-09-20")
        assert p["work"] in ("2026-09-18", "2026-09-21") and is_weekday(p["due"])
        assert p["due"] in ("2026-09-21", "2026-09-22")
        assert len(p["who"].split()) == 2
        assert len(set(p["three"])) == 3 and p["other"] not in p["three"]
        assert p["sum"] == f"{p['n'] + 2 * float(p['d']):.2f}"
        assert p["whole"] == p["n"] // 250 and isinstance(p["whole"], int)


def test_decimal_arithmetic_is_exact():
    procedure = proc([
        {"name": "a", "kind": "choice", "choices": ["0.10"]},
        {"name": "b", "kind": "choice", "choices": ["0.20"]},
        {"name": "c", "kind": "expr", "expr": "a + b", "places": 2},
        {"name": "half", "kind": "expr", "expr": "0.125 * 1", "places": 2},
    ])
    p = draw_params(procedure, 0)
    assert p["c"] == "0.30"
    assert p["half"] == "0.13"  # half up, not to even


def test_placeholders_and_filters():
    scope = {"client": "Okafor Logistics Ltd", "n": 7, "day": "2026-09-21", "names": ["Ana", "Bo"], "amount": "1234.5"}
    assert render("{{client|slug}}", scope) == "okafor-logistics-ltd"
    assert render("{{client|upper}} {{client|first}}", scope) == "OKAFOR LOGISTICS LTD Okafor"
    assert render("{{n|pad:3}}", scope) == "007"
    assert render("{{day|date:%A %e %B %Y}}", scope) == "Monday 21 September 2026"
    assert render("{{names|join: and }}", scope) == "Ana and Bo"
    assert render("{{names.1}}", scope) == "Bo"
    assert render("{{amount|money}}", scope) == "1,234.50"
    assert render("echo {{client|sh}}", scope) == "echo 'Okafor Logistics Ltd'"
    assert render("{{#n}}", scope) == 7
    assert render("{{#amount}}", scope) == 1234.5
    assert render("n={{#n}}", scope) == "n=7"
    # Pattern tokens and captured values wait.
    assert render("{{?}},{{*}},{{@inv}}", scope) == "{{?}},{{*}},{{@inv}}"
    assert render("INV-{{@inv}}", scope, {"inv": "1043"}) == "INV-1043"
    assert render("{{#@inv}}", scope, {"inv": "1043"}) == 1043


def test_dates_are_english_whatever_the_locale():
    assert format_date("2026-09-17", "%a %d %b, day %j") == "Thu 17 Sep, day 260"


def test_a_distinct_parameter_that_cannot_be_distinct_is_an_error():
    procedure = proc([
        {"name": "a", "kind": "choice", "choices": ["x"]},
        {"name": "b", "kind": "choice", "choices": ["x"], "distinct_from": ["a"]},
    ])
    with pytest.raises(ValueError, match="no value distinct"):
        draw_params(procedure, 0)
