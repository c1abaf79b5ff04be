"""The four properties every procedure in ``procedures/`` is held to (tool mode for now).

1. It verifies through tools for three seeds.
2. It does not verify before anything is done.
3. Leaving out any phase that writes state fails verification.
4. The recorded actions alone, sent to a freshly staged world, replay to the same hash.

Adding a file under ``procedures/`` puts it under these tests.
"""

from __future__ import annotations

import pytest
from procedure_kit import FILES, TOOL, file_id, first_phases, load, run_tool, staged, without_phase

from cwgym.procedures import corrupt, project, replay, verify, verify_with
from cwgym.procedures.files import content_digest

SEEDS = (0, 1, 2)


def test_the_library_is_collected():
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_verifies_through_tools(path, seed):
    world, _instance, demo = run_tool(load(path), seed)
    assert demo.completed, demo.failure
    failures = [(c.kind, c.subject, c.reason) for c in demo.verification.failures()]
    assert demo.verification.passed, failures
    assert demo.state_hash == world.state_hash()
    assert demo.counts["tool_calls"] == len(demo.steps) > 0


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_does_not_verify_before_anything_is_done(path):
    procedure = load(path)
    _, _, done = run_tool(procedure, 0)
    world, instance = staged(procedure, 0)
    assert not verify(world, instance).passed
    # Not even with the values a finished run captured.
    assert not verify_with(world, instance, done.captures or {}).passed


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("seed", (0, 1))
def test_leaving_out_a_phase_that_writes_state_fails_verification(path, seed):
    procedure = load(path)
    _world, instance = staged(procedure, seed)
    writing = []
    for count in range(len(instance.phases)):
        trial, trial_instance = staged(procedure, seed)
        project(trial, first_phases(trial_instance, count), TOOL)
        before = content_digest(trial)
        after_world, after_instance = staged(procedure, seed)
        project(after_world, first_phases(after_instance, count + 1), TOOL)
        changed = content_digest(after_world) != before
        phase = instance.phases[count]
        # The ``writes`` flag is honest: a phase marked as only looking changes no file.
        assert changed == phase.writes, f"phase {count} ({phase.label}) writes={phase.writes} but changed={changed}"
        if changed:
            writing.append(count)
    assert writing, "a procedure must change something"
    for index in writing:
        skipped_world, skipped = staged(procedure, seed)
        demo = project(skipped_world, without_phase(skipped, index), TOOL)
        assert not demo.verification.passed, f"still verifies without phase {index} ({instance.phases[index].label})"
    for corrupt_seed in range(3):
        negative_world, negative = staged(procedure, seed)
        demo = project(negative_world, corrupt(negative, "skip", corrupt_seed), TOOL)
        assert not demo.verification.passed, demo.corruption


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("seed", (0, 7))
def test_recorded_actions_replay_to_the_same_state_hash(path, seed):
    procedure = load(path)
    _, _, demo = run_tool(procedure, seed)
    world, _ = staged(procedure, seed)
    assert replay(world, demo.to_plain()) == demo.state_hash
