"""Check kinds are a registry: a kind registered from outside the package (here, from this
file) is read, validated, judged and listed like the built-in ones, with no edit to
``cwgym.procedures``."""

from __future__ import annotations

import pkgutil
from pathlib import Path

import msgspec
import pytest
from procedure_kit import TOOL, staged

import cwgym.procedures.checks as checks_package
from cwgym.procedures import ProcedureError, parse_procedure, project, verify
from cwgym.procedures.checks import CHECK_KINDS, FILE_CHECKS, CheckKind, CheckResult, register
from cwgym.procedures.files import read_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "procedures.md"


class WordCount(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The file holds exactly ``words`` whitespace-separated words."""

    path: str
    words: int


def word_count_problems(payload: WordCount):
    if payload.words < 0:
        yield "words", "words must be 0 or more"


def judge_word_count(world, machine, spec, result: CheckResult) -> None:
    text = read_text(machine, spec["path"])
    result.expected = spec["words"]
    result.found = None if text is None else len(text.split())
    result.passed = result.found == result.expected
    if not result.passed:
        result.reason = "no such file" if text is None else "another number of words"


TOY = CheckKind("toy_word_count", WordCount, judge_word_count, word_count_problems, files_only=True)


@pytest.fixture
def toy_kind():
    register(TOY)
    yield TOY
    CHECK_KINDS.unregister(TOY.name)


def note_procedure(check: dict) -> dict:
    return {
        "id": "office-note", "domain": "office", "instruction": "Append {{word}} to note.txt.",
        "params": [{"name": "word", "kind": "choice", "choices": ["alpha", "beta"]}],
        "setup": [{"path": "note.txt", "lines": ["one two three"]}],
        "phases": [{"label": "Append", "tool": [
            {"family": "terminal.v1", "op": "execute", "payload": {"command": "echo {{word}} >> note.txt"}}]}],
        "verify": [check],
    }


def test_a_registered_kind_validates_and_passes_after_the_work(toy_kind):
    procedure = parse_procedure(note_procedure({"toy_word_count": {"path": "note.txt", "words": 4}}))
    assert procedure.verify[0].kind() == "toy_word_count"
    assert procedure.verify[0].spec() == WordCount(path="note.txt", words=4)
    world, instance = staged(procedure, 0)
    before = verify(world, instance)
    assert not before.passed
    assert (before.checks[0].expected, before.checks[0].found, before.checks[0].reason) == (4, 3, "another number of words")
    demo = project(world, instance, TOOL)
    assert demo.completed and demo.verification.passed
    assert demo.verification.checks[0].kind == "toy_word_count"


def test_a_registered_kind_fails_on_the_wrong_world(toy_kind):
    procedure = parse_procedure(note_procedure({"toy_word_count": {"path": "note.txt", "words": 9}}))
    world, instance = staged(procedure, 0)
    result = project(world, instance, TOOL).verification.checks[0]
    assert not result.passed and result.found == 4 and result.reason == "another number of words"
    missing = parse_procedure(note_procedure({"toy_word_count": {"path": "gone.txt", "words": 0}}))
    world, instance = staged(missing, 0)
    assert verify(world, instance).checks[0].reason == "no such file"


def test_its_placeholders_are_filled_and_it_round_trips(toy_kind):
    data = note_procedure({"toy_word_count": {"path": "{{folder}}/note.txt", "words": 4}})
    data["params"].append({"name": "folder", "kind": "choice", "choices": ["~"]})
    procedure = parse_procedure(data)
    world, instance = staged(procedure, 0)
    assert instance.verify[0].spec() == WordCount(path="~/note.txt", words=4)
    assert project(world, instance, TOOL).verification.passed
    assert parse_procedure(procedure.to_plain()) == procedure
    assert type(instance).from_plain(instance.to_plain()) == instance


@pytest.mark.parametrize(("payload", "path", "problem"), [
    ({"path": "note.txt", "words": "four"}, "$.verify[0].toy_word_count.words", "expected `int`, got `str`"),
    ({"path": "note.txt"}, "$.verify[0].toy_word_count", "missing required field `words`"),
    ({"path": "note.txt", "words": 1, "lines": 2}, "$.verify[0].toy_word_count", "unknown field `lines`"),
    ({"path": "note.txt", "words": -1}, "$.verify[0].toy_word_count.words", "words must be 0 or more"),
    ({"path": "note.txt", "words": 1, "count": 2}, "$.verify[0].toy_word_count", "unknown field `count`"),
])
def test_a_malformed_payload_is_refused_with_its_path(toy_kind, payload, path, problem):
    with pytest.raises(ProcedureError) as info:
        parse_procedure(note_procedure({"toy_word_count": payload}), "procedures/office/office-note.json")
    assert (info.value.file, info.value.path) == ("procedures/office/office-note.json", path)
    assert problem in info.value.problem


def test_an_unregistered_kind_is_refused_naming_the_known_ones(toy_kind):
    CHECK_KINDS.unregister(TOY.name)
    try:
        with pytest.raises(ProcedureError, match="unknown field `toy_word_count`") as info:
            parse_procedure(note_procedure({"toy_word_count": {"path": "note.txt", "words": 4}}))
        assert info.value.path == "$.verify[0]"
        assert "file_contains" in info.value.problem
    finally:
        register(TOY)


def test_what_a_kind_reads_is_part_of_its_entry(toy_kind):
    assert "toy_word_count" in FILE_CHECKS and "file_equals" in FILE_CHECKS
    assert "window" not in FILE_CHECKS and "state" not in FILE_CHECKS and "nope" not in FILE_CHECKS
    assert sorted(FILE_CHECKS) == [name for name, kind in CHECK_KINDS.items() if kind.files_only]


def test_a_name_is_registered_once(toy_kind):
    other = CheckKind("toy_word_count", WordCount, judge_word_count)
    with pytest.raises(LookupError, match="already registered"):
        register(other)


def test_each_module_of_the_package_is_the_kind_it_is_named_after():
    modules = sorted(m.name for m in pkgutil.iter_modules(checks_package.__path__) if not m.name.startswith("_"))
    builtin = [name for name in CHECK_KINDS.names() if name != TOY.name]
    assert modules == builtin
    for name in modules:
        module = __import__(f"cwgym.procedures.checks.{name}", fromlist=["KIND"])
        assert module.KIND is CHECK_KINDS[name]


def test_the_docs_list_every_builtin_kind():
    page = DOCS.read_text()
    assert [name for name in CHECK_KINDS.names() if name != TOY.name and f"| `{name}` |" not in page] == []
