"""The actor boundary: no input breaks the world.

Malformed envelopes are ``invalid`` outcomes, never exceptions; an invalid or refused
action changes nothing; the journal records what the world saw, so a fuzzed run replays
to the same state; and nothing handed back to a caller aliases world state. The default
profile runs a few seconds with a fixed seed; ``-m slow`` runs the long one.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cwgym import EnvironmentConfig, World
from cwgym.environment.replay import replay
from cwgym.protocol import errors
from cwgym.protocol.plain import MAX_DEPTH, MAX_STRING
from cwgym.resources import load_world

M = "workstation"
DEFINITION = load_world("ubuntu-workstation")
SETTINGS = {"deadline": None, "derandomize": True, "suppress_health_check": [HealthCheck.too_slow]}


class Sneaky(str):
    """A str subclass whose methods could run inside dispatch."""

    def __eq__(self, other: object) -> bool:  # pragma: no cover - must never be called
        raise AssertionError("a str subclass reached dispatch")

    __hash__ = str.__hash__


def _nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"x": value}
    return value


# values no envelope may carry, each placed in a payload
POISON = [
    2**64,
    -(2**63) - 1,
    math.nan,
    math.inf,
    "\ud800",
    {1: "non-string key"},
    Sneaky("text"),
    b"bytes",
    {"a", "set"},
    object(),
    _nested(MAX_DEPTH + 2),
    "x" * (MAX_STRING + 1),
    bytearray(b"x"),
]

FAMILIES = ["terminal.v1", "filesystem.v1", "application.v1", "keyboard.v1", "pointer.v1"]
OPS = ["execute", "read", "write", "list", "stat", "mkdir", "remove", "move", "launch", "focus", "close",
       "minimize", "maximize", "restore", "home", "launcher", "switcher", "shell", "type", "key", "click",
       "double_click", "down", "move", "up", "cancel", "wheel", "nope", ""]
KEYS = ["command", "path", "content", "append", "parents", "recursive", "from", "to", "kind", "argument",
        "window", "target", "text", "key", "x", "y", "width", "height", "button", "modifiers", "delta_x",
        "delta_y", "installed"]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.integers(-3, 3000),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["ls", "/home/ada", "notes.txt", "terminal", "files", "editor", "Enter", "Escape",
                     "ctrl+s", "Meta", "shell:launcher", "window:0:close", "a\u00e9\u4e2d", "/", "..", "~"]),
)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
payloads = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5)
envelopes = st.fixed_dictionaries({
    "family": st.sampled_from(FAMILIES),
    "op": st.sampled_from(OPS),
    "machine": st.sampled_from([M, M, M, "ghost"]),
    "payload": payloads,
})
poisoned = st.builds(lambda e, k, p: {**e, "payload": {**e["payload"], k: p}},
                     envelopes, st.sampled_from(KEYS), st.sampled_from(POISON))
malformed = st.one_of(
    poisoned,
    st.builds(lambda e, v: {**e, "family": v}, envelopes, st.sampled_from([1, None, Sneaky("terminal.v1"), b"x"])),
    st.builds(lambda e: {**e, "extra": 1}, envelopes),
    st.sampled_from([None, 1, "terminal.v1", [], (), {"family": "terminal.v1"}, object()]),
)


def _world() -> tuple[World, object]:
    world = World(DEFINITION, seed=5)
    config = EnvironmentConfig(actor="ada", machines=[M], actions=FAMILIES,
                               observations=["terminal.v1", "filesystem.v1", "semantic.v1", "pixels.v1"])
    return world, world.environment(config)


def _check_batch(world: World, env, batch: list) -> None:
    out = env.step(batch)
    assert len(out["outcomes"]) == len(batch)
    for outcome in out["outcomes"]:
        error = outcome["error"]
        assert outcome["success"] or error is not None
        if error is not None:
            assert error["code"] in errors.CODES
            assert error["message"] in {*errors.CODES.values(), *(m for _, m in errors.REASONS.values())}


@settings(max_examples=60, **SETTINGS)
@given(st.lists(st.one_of(envelopes, malformed), min_size=1, max_size=6))
def test_no_batch_raises_out_of_step_and_the_run_replays(batch):
    world, env = _world()
    _check_batch(world, env, batch)
    replayed = replay(DEFINITION, 5, world.trajectory())
    assert replayed.state_hash() == world.state_hash()


@settings(max_examples=80, **SETTINGS)
@given(st.one_of(malformed, envelopes))
def test_an_invalid_or_refused_action_changes_nothing(action):
    world, env = _world()
    env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": "terminal"}}])
    before = world.state_hash()
    outcome = env.step([action])["outcomes"][0]
    error = outcome["error"]
    if error is not None and (error["code"] == errors.INVALID or error["code"] == errors.DENIED):
        assert world.state_hash() == before, outcome


@pytest.mark.parametrize(
    "action",
    [
        {"family": "pointer.v1", "op": "click", "payload": {"x": 5, "y": 5, "width": 800, "height": 600, "button": "left"}},
        {"family": "pointer.v1", "op": "click", "payload": {"x": 5, "y": 5, "width": 800, "height": 600, "modifiers": ["Hyper"]}},
        {"family": "keyboard.v1", "op": "key", "payload": {"key": "NoSuchKey"}},
        {"family": "keyboard.v1", "op": "type", "payload": {"text": 5}},
        {"family": "application.v1", "op": "focus", "payload": {"window": 42}},
        {"family": "application.v1", "op": "shell", "payload": {"target": "shell:nope"}},
    ],
)
def test_an_invalid_gui_action_on_a_fresh_session_creates_no_desktop_and_stores_nothing(action):
    world = World(DEFINITION, seed=5)
    env = world.environment(EnvironmentConfig.desktop("ada", [M]))
    before = world.state_hash()
    outcome = env.step([{**action, "machine": M}])["outcomes"][0]
    assert outcome["error"]["code"] == errors.INVALID, outcome
    assert world.state_hash() == before


def test_each_malformed_class_is_an_invalid_outcome_with_the_fixed_message():
    world, env = _world()
    base = {"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "touch made"}}
    for poison in POISON:
        outcome = env.step([{**base, "payload": {"command": "touch made", "extra": poison}}])["outcomes"][0]
        assert outcome["error"] == {"code": "invalid", "message": errors.CODES[errors.INVALID]}, poison
    outcome = env.step([{**base, "family": Sneaky("terminal.v1")}])["outcomes"][0]
    assert outcome["error"]["code"] == "invalid"
    assert not world.machine(M).fs.exists("/home/ada/made")  # nothing ran


def test_the_journal_records_what_the_world_saw_not_what_the_caller_keeps():
    world, env = _world()
    payload = {"command": "echo hi"}
    batch = [{"family": "terminal.v1", "op": "execute", "machine": M, "payload": payload}]
    env.step(batch)
    payload["command"] = "rm -rf ~"
    batch[0]["machine"] = "ghost"
    actions = [e["data"]["action"] for e in world.trajectory() if e["kind"] == "agent.action"]
    assert actions == [{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hi"}}]
    world.import_snapshot(world.export_snapshot())  # the journal still verifies


def test_values_handed_back_never_alias_world_state():
    world, env = _world()
    out = env.step([{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hi"}}])
    before = world.state_hash()
    out["outcomes"][0]["value"]["stdout"] = "forged"
    out["observation"]["channels"]["terminal.v1"][M]["stdout"] = "forged"
    observed = env.observe()
    assert observed["channels"]["terminal.v1"][M]["stdout"] == "hi\n"
    observed["channels"]["terminal.v1"][M]["exit_code"] = 99
    scene = env.scene(640, 400)
    scene["nodes"].clear()
    scene.setdefault("windows", []).append({"forged": True})
    assert env.scene(640, 400)["nodes"] and "windows" not in env.scene(640, 400)
    typed = world.scene(env.id, 640, 400)
    typed.nodes.clear()
    assert world.scene(env.id, 640, 400).nodes
    journal = world.trajectory()
    journal[-1]["data"]["success"] = False
    journal.clear()
    assert world.trajectory()
    inspected = world.inspect()
    inspected["state"]["sessions"][env.id]["terminal"][M]["stdout"] = "forged"
    inspected["state"]["computers"][M]["clipboard"] = "forged"
    definition = world.definition()
    definition["computers"].clear()
    assert world.state_hash() == before
    assert env.observe()["channels"]["terminal.v1"][M]["stdout"] == "hi\n"
    world.import_snapshot(world.export_snapshot())


def _scribble(value: object) -> None:
    """Empty every dict and list inside ``value``, innermost first."""
    if isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.clear()


def test_no_observation_channel_hands_out_world_state():
    """Built-in channels build their values afresh (``owned``); any other channel's value is
    copied, so even an owner's channel that returns a live object cannot be reached through it."""
    world = World(load_world("ubuntu-workstation"), seed=5)
    shared = {"notes": ["kept"]}

    class Live:
        version = "1"

        def observe(self, runtime, session):
            return shared

    world.register_observation_channel("live.v1", Live())
    channels = ["semantic.v1", "pixels.v1", "terminal.v1", "filesystem.v1", "live.v1"]
    env = world.environment({"actor": "ada", "machines": [M], "actions": ["terminal.v1", "application.v1"],
                             "observations": channels})
    env.step([{"family": "application.v1", "op": "launch", "machine": M, "payload": {"kind": "files"}}])
    out = env.step([{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hi"}}])
    before, expected = world.state_hash(), env.observe()
    for observation in (out["observation"], env.observe()):
        for name in channels:
            value = observation["channels"][name]
            _scribble(value)
    assert shared == {"notes": ["kept"]}
    assert env.observe() == expected and world.state_hash() == before


def test_a_batch_that_is_not_a_list_and_an_oversized_batch_are_the_only_raises():
    world, env = _world()
    with pytest.raises(ValueError):
        env.step({"family": "terminal.v1"})
    small = world.environment({"actor": "a", "machines": [M], "actions": ["terminal.v1"], "observations": [], "action_budget": 1})
    with pytest.raises(errors.Refused):
        small.step([{}, {}])


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(envelopes, malformed), min_size=1, max_size=12))
def test_long_fuzz_no_batch_raises_and_the_run_replays(batch):
    world, env = _world()
    _check_batch(world, env, batch)
    assert replay(DEFINITION, 5, world.trajectory()).state_hash() == world.state_hash()
