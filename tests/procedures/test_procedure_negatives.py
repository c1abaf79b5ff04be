"""Corrupted copies of every procedure are rejected by the procedure's own checks."""

from __future__ import annotations

import pytest
from procedure_kit import FILES, MODES, file_id, load, staged

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
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_every_negative_is_rejected(path, mode, kind):
    procedure = load(path)
    for seed in (0, 1):
        for corrupt_seed in range(3):
            world, instance = staged(procedure, seed)
            if kind == "substitute" and not typed_params(instance, mode):
                # Nothing is typed in this mode (a procedure of clicks only): no such negative.
                with pytest.raises(NoCorruption):
                    corrupt(instance, kind, corrupt_seed, mode)
                return
            negative = corrupt(instance, kind, corrupt_seed, mode)
            assert negative.corruption["kind"] == kind and negative.corruption["mode"] == mode
            demo = project(world, negative, MODES[mode])
            assert not demo.verification.passed, negative.corruption
            assert demo.corruption == negative.corruption


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", (3, 8))
def test_every_typed_value_matters(path, mode, seed):
    """Replacing any one value the expert types (or writes) by another draw's is caught."""
    procedure = load(path)
    _, instance = staged(procedure, seed)
    names = typed_params(instance, mode)  # may be empty: a procedure of clicks and keys only
    for name in names:
        world, fresh = staged(procedure, seed)
        negative = substitute(fresh, name, 11, mode)
        assert negative.params == fresh.params and negative.verify == fresh.verify and negative.setup == fresh.setup
        demo = project(world, negative, MODES[mode])
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
    assert "mode" not in skipped.corruption
    on_screen = corrupt(instance, "substitute", 5, "gui")
    assert on_screen.corruption["mode"] == "gui"
    assert [p.gui for p in on_screen.phases] != [p.gui for p in instance.phases]
    with pytest.raises(ValueError, match="unknown mode"):
        corrupt(instance, "skip", 0, "voice")
    with pytest.raises(ValueError, match="already corrupted"):
        corrupt(skipped, "skip", 0)
    with pytest.raises(ValueError, match="unknown corruption"):
        corrupt(instance, "shuffle", 0)


def test_a_mode_corrupts_only_what_it_performs():
    procedure = parse_procedure({
        "id": "typed-on-screen", "domain": "office", "instruction": "Note the {{colour}} one.",
        "params": [{"name": "colour", "kind": "choice", "choices": ["red", "green", "blue", "black"]},
                   {"name": "size", "kind": "choice", "choices": ["S", "M", "L", "XL"]}],
        "phases": [
            {"label": "Look", "writes": False, "gui": [{"do": "click", "target": {"interaction": "shell:launch:files"}}]},
            {"label": "Note it", "gui": [{"do": "type", "text": "{{colour}}"}],
             "tool": [{"family": "terminal.v1", "op": "execute", "payload": {"command": "echo {{size}} > n.txt"}}]},
        ],
        "verify": [{"file_exists": {"path": "n.txt"}}],
    })
    _, instance = staged(procedure, 0)
    assert typed_params(instance) == ["colour", "size"]
    assert typed_params(instance, "gui") == ["colour"] and typed_params(instance, "tool") == ["size"]
    assert writing_phases(instance, "gui") == writing_phases(instance, "tool") == [1]
    assert corrupt(instance, "substitute", 0, "tool").corruption["param"] == "size"
    with pytest.raises(ValueError, match="not a typed parameter"):
        substitute(instance, "size", 0, "gui")


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
