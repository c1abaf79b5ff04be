"""The four properties every procedure in ``procedures/`` is held to, on screen and
through tools.

1. It verifies on screen (GUI mode) and through tools for three seeds.
2. It does not verify before anything is done.
3. Leaving out any phase that writes state fails verification (in either mode).
4. The recorded actions alone, sent to a freshly staged world, replay to the same hash.

Adding a file under ``procedures/`` puts it under these tests.
"""

from __future__ import annotations

import pytest
from procedure_kit import FILES, MODES, failures, file_id, load, run_mode, staged, without_phase

from cwgym.procedures import project, replay, verify, verify_with
from cwgym.procedures.files import content_digest

SEEDS = (0, 1, 2)


def test_the_library_is_collected():
    assert len(FILES) >= 12
    assert len({load(path).domain for path in FILES}) >= 4


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_every_writing_phase_acts_in_both_modes(path):
    """A phase that writes has gestures and a tool-mode equivalent."""
    procedure = load(path)
    for phase in procedure.phases:
        if phase.writes:
            assert phase.gui and phase.tool, f"phase {phase.label!r} needs both gui and tool"
        assert phase.gui or phase.tool or phase.capture, phase.label


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", SEEDS)
def test_verifies_on_screen_and_through_tools(path, mode, seed):
    world, _instance, demo = run_mode(load(path), seed, mode)
    assert demo.completed, demo.failure
    assert demo.verification.passed, failures(demo)
    assert demo.state_hash == world.state_hash()
    kind = "gui_actions" if mode == "gui" else "tool_calls"
    assert demo.counts[kind] == len(demo.steps) > 0
    assert all(step.kind == mode and step.success for step in demo.steps)


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_does_not_verify_before_anything_is_done(path):
    procedure = load(path)
    captured = {}
    for mode in MODES:
        captured.update(run_mode(procedure, 0, mode)[2].captures or {})
    world, instance = staged(procedure, 0)
    assert not verify(world, instance).passed
    # Not even with the values a finished run captured.
    assert not verify_with(world, instance, captured).passed


def _verified_state(world, instance) -> tuple:
    """What a procedure's checks look at: the files, the states of the services they read,
    and the current desktop's windows when a check looks at windows (opening a window to
    read a file is not a write)."""
    services = sorted({s for check in instance.verify if (s := getattr(check.spec(), "service", None))})
    read = tuple(repr(world.service_state(s)) for s in services)
    if all(check.kind() != "window" for check in instance.verify):
        return (content_digest(world), *read)
    windows = [{k: v for k, v in w.items() if k != "session"} for w in world.windows(instance.machine)]
    return content_digest(world), repr(windows), *read


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", (0, 1))
def test_leaving_out_a_phase_that_writes_state_fails_verification(path, mode, seed):
    procedure = load(path)
    world, instance = staged(procedure, seed)
    digests: list[tuple] = []
    demo = project(world, instance, MODES[mode], checkpoint=lambda k, w: digests.append(_verified_state(w, instance)))
    assert demo.completed, demo.failure
    writing = []
    for index, phase in enumerate(instance.phases):
        changed = digests[index + 1] != digests[index]
        # The ``writes`` flag is honest: a phase marked as only looking changes nothing the
        # checks look at, and one that writes changes it in this mode.
        assert changed == phase.writes, f"phase {index} ({phase.label}) writes={phase.writes} but changed={changed} in {mode} mode"
        if changed:
            writing.append(index)
    assert writing, "a procedure must change something"
    for index in writing:
        skipped_world, skipped = staged(procedure, seed)
        demo = project(skipped_world, without_phase(skipped, index), MODES[mode])
        assert not demo.verification.passed, f"still verifies without phase {index} ({instance.phases[index].label}) in {mode} mode"


@pytest.mark.parametrize("path", FILES, ids=file_id)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", (0, 7))
def test_recorded_actions_replay_to_the_same_state_hash(path, mode, seed):
    procedure = load(path)
    _, _, demo = run_mode(procedure, seed, mode)
    world, _ = staged(procedure, seed)
    assert replay(world, demo.to_plain()) == demo.state_hash


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_verifies_typing_one_key_at_a_time(path):
    """``typing: keys`` sends one action per character and reaches a verified end too."""
    _world, _instance, demo = run_mode(load(path), 1, "gui", typing="keys")
    assert demo.completed, demo.failure
    assert demo.verification.passed, failures(demo)
    texts = [s.action["payload"]["text"] for s in demo.steps if s.action["op"] == "type"]
    assert all(len(text) == 1 for text in texts)
