"""Corrupted copies of every procedure are rejected by the procedure's own checks."""

from __future__ import annotations

import pytest
from procedure_kit import FILES, TOOL, file_id, load, staged

from cwgym.procedures import (
    CORRUPTIONS,
    NoCorruption,
    corrupt,
    parse_procedure,
    project,
    substitute,
)
from cwgym.procedures.negatives import typed_params, writing_phases


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_every_negative_is_rejected(path, kind):
    procedure = load(path)
    for seed in (0, 1):
        for corrupt_seed in range(4):
            world, instance = staged(procedure, seed)
            negative = corrupt(instance, kind, corrupt_seed)
            assert negative.corruption["kind"] == kind
            demo = project(world, negative, TOOL)
            assert not demo.verification.passed, negative.corruption
            assert demo.corruption == negative.corruption


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("seed", (3, 8))
def test_every_typed_value_matters(path, seed):
    """Replacing any one value the expert types by another draw's is caught."""
    procedure = load(path)
    _, instance = staged(procedure, seed)
    names = typed_params(instance)
    assert names, "a procedure types or writes at least one parameter"
    for name in names:
        world, fresh = staged(procedure, seed)
        negative = substitute(fresh, name, 11)
        assert negative.params == fresh.params and negative.verify == fresh.verify and negative.setup == fresh.setup
        demo = project(world, negative, TOOL)
        assert not demo.verification.passed, negative.corruption


def test_corruption_is_deterministic_and_marked():
    _world, instance = staged(load(FILES[0]), 0)
    a = corrupt(instance, "substitute", 5)
    b = corrupt(instance, "substitute", 5)
    assert a.to_plain() == b.to_plain()
    assert a.corruption["replacement"] != a.corruption["original"]
    skipped = corrupt(instance, "skip", 2)
    assert len(skipped.phases) == len(instance.phases) - 1
    assert skipped.corruption["phase_index"] in writing_phases(instance)
    with pytest.raises(ValueError, match="already corrupted"):
        corrupt(skipped, "skip", 0)
    with pytest.raises(ValueError, match="unknown corruption"):
        corrupt(instance, "shuffle", 0)


def test_nothing_to_corrupt_is_said():
    procedure = parse_procedure({
        "id": "look-only", "domain": "office", "instruction": "Look at the notes.",
        "phases": [{"label": "Look", "writes": False, "tool": [
            {"family": "terminal.v1", "op": "execute", "payload": {"command": "cat notes.txt"}}]}],
        "verify": [{"file_exists": {"path": "notes.txt"}}],
    })
    _, instance = staged(procedure, 0)
    with pytest.raises(NoCorruption):
        corrupt(instance, "skip", 0)
    with pytest.raises(NoCorruption):
        corrupt(instance, "substitute", 0)
