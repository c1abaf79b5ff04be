"""Procedures share a world: what one makes is named by capture, so another running
before or after it does not break it."""

from __future__ import annotations

import pytest
from procedure_kit import MODES, TOOL

from cwgym import World
from cwgym.procedures import load_all, load_procedure, project, stage, verify, verify_with
from cwgym.resources import load_world


def _run(world, procedure_id, seed, options=TOOL):
    instance = stage(world, load_procedure(procedure_id), seed)
    demo = project(world, instance, options)
    assert demo.completed, demo.failure
    assert demo.verification.passed, [(c.subject, c.reason) for c in demo.verification.failures()]
    return instance, demo


@pytest.mark.parametrize("mode", MODES)
def test_two_invoicing_procedures_back_to_back_both_verify(mode):
    world = World(load_world("ubuntu-workstation"), seed=0)
    invoice, first = _run(world, "books-invoice-timesheet", 4, MODES[mode])
    retainer, second = _run(world, "legal-retainer-invoice", 4, MODES[mode])
    # Both took the next free number of the one register, so they hold different numbers.
    assert first.captures["invoice"] == "1043"
    assert second.captures["invoice"] == "1044"
    # The first still verifies in the world the second changed.
    assert verify_with(world, invoice, first.captures).passed
    assert verify_with(world, retainer, second.captures).passed
    # A check that names a captured value cannot pass without it.
    assert not verify(world, invoice).passed


def test_the_same_procedure_twice_in_one_world():
    world = World(load_world("ubuntu-workstation"), seed=0)
    a, first = _run(world, "books-invoice-timesheet", 1)
    b, second = _run(world, "books-invoice-timesheet", 2)
    assert first.captures != second.captures
    assert verify_with(world, a, first.captures).passed
    assert verify_with(world, b, second.captures).passed


@pytest.mark.parametrize("mode", MODES)
def test_the_whole_library_back_to_back_in_one_world(mode):
    world = World(load_world("ubuntu-workstation"), seed=0)
    done = []
    # the procedures of the default world (the web tasks have their own)
    for seed, procedure in enumerate(p for p in load_all() if p.world == "ubuntu-workstation"):
        instance = stage(world, procedure, seed)
        demo = project(world, instance, MODES[mode])
        assert demo.completed and demo.verification.passed, (procedure.id, demo.failure)
        done.append((instance, demo.captures))
    # Files outlive the run that made them; a window check describes the current login's
    # desktop, which every later run replaces with its own session.
    lasting = [(i, c) for i, c in done if all(check.kind() != "window" for check in i.verify)]
    assert len(lasting) < len(done)
    for instance, captures in lasting:
        result = verify_with(world, instance, captures)
        assert result.passed, (instance.id, [(c.subject, c.reason) for c in result.failures()])


def test_gui_and_tool_runs_mix_in_one_world():
    """A procedure performed on screen after another performed through tools (and back)."""
    world = World(load_world("ubuntu-workstation"), seed=0)
    first, a = _run(world, "books-invoice-timesheet", 1, MODES["tool"])
    second, b = _run(world, "books-invoice-timesheet", 2, MODES["gui"])
    third, c = _run(world, "legal-retainer-invoice", 3, MODES["tool"])
    assert [a.captures["invoice"], b.captures["invoice"], c.captures["invoice"]] == ["1043", "1044", "1045"]
    for instance, demo in ((first, a), (second, b), (third, c)):
        assert verify_with(world, instance, demo.captures).passed
