"""The actor handle: its attribute set, config validation, step semantics, refusals."""

from __future__ import annotations

import pytest

from cwgym import EnvironmentConfig, World
from cwgym.protocol import errors

M = "workstation"
FIXED_MESSAGES = set(errors.CODES.values()) | {m for _, m in errors.REASONS.values()}


def fs(op: str, machine: str = M, **payload) -> dict:
    return {"family": "filesystem.v1", "op": op, "machine": machine, "payload": payload}


@pytest.fixture
def world(workstation) -> World:
    return World(workstation, seed=7)


@pytest.fixture
def env(world):
    return world.environment(EnvironmentConfig.terminal("ada", [M]))


def test_actor_handle_has_exactly_five_attributes(env):
    assert {a for a in dir(env) if not a.startswith("_")} == {"id", "step", "observe", "scene", "render"}


def test_session_ids_are_stable_strings(world):
    ids = [world.environment(EnvironmentConfig.terminal("a", [M])).id for _ in range(3)]
    assert ids == ["session-0", "session-1", "session-2"]
    assert world.session("session-1").id == "session-1"


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"actions": ["teleport.v1"]}, "unknown action family"),
        ({"observations": ["smell.v1"]}, "unknown observation channel"),
        ({"machines": ["ghost"]}, "unknown granted machine"),
        ({"actor": "  "}, "blank actor"),
        ({"machines": []}, "no machines"),
        ({"action_budget": 0}, "action_budget"),
        ({"actions": "terminal.v1"}, "malformed environment config"),
    ],
)
def test_config_is_validated_at_grant_time(world, change, needle):
    config = {"actor": "ada", "machines": [M], "actions": ["terminal.v1"], "observations": [], **change}
    with pytest.raises(ValueError, match=needle):
        world.environment(config)


def test_a_network_node_that_is_not_a_computer_cannot_be_granted(office):
    world = World(office)
    with pytest.raises(ValueError, match="unknown granted machine"):
        world.environment({"actor": "x", "machines": ["wiki"], "actions": [], "observations": []})


def test_presets_exist():
    assert EnvironmentConfig.terminal("a", [M]).actions == ["terminal.v1", "filesystem.v1"]
    desktop = EnvironmentConfig.desktop("a", [M])
    assert {"pointer.v1", "keyboard.v1", "application.v1"} <= set(desktop.actions)


def test_step_returns_outcomes_observation_tick_pending(env):
    out = env.step([fs("write", path="a.txt", content="hi"), fs("read", path="a.txt")])
    assert set(out) == {"observation", "outcomes", "tick", "pending"}
    first, second = out["outcomes"]
    assert first == {"index": 0, "success": True, "value": None, "error": None, "effect": first["effect"]}
    assert second["value"]["content"] == "hi"
    assert out["observation"]["channels"]["filesystem.v1"] == {M: {"cwd": "/home/ada"}}
    assert out["pending"] == 0


def test_empty_batch(env):
    assert env.step([])["outcomes"] == []


def test_batch_is_ordered_and_not_atomic(env):
    out = env.step([fs("read", path="missing"), fs("write", path="b.txt", content="x"), fs("read", path="b.txt")])
    assert [o["success"] for o in out["outcomes"]] == [False, True, True]


def test_refusals_have_no_effect_and_change_nothing(world, env):
    before = world.state_hash()
    denied_machine = env.step([fs("write", machine="elsewhere", path="x", content="1")])["outcomes"][0]
    denied_family = env.step([{"family": "pointer.v1", "op": "click", "machine": M, "payload": {"x": 1, "y": 1}}])[
        "outcomes"
    ][0]
    assert denied_machine["error"]["reason"] == "machine_not_granted"
    assert denied_family["error"]["reason"] == "action_family_not_granted"
    assert "effect" not in denied_machine and "effect" not in denied_family
    assert world.state_hash() == before


def test_machine_grant_is_checked_before_family_grant(env):
    out = env.step([{"family": "pointer.v1", "op": "click", "machine": "elsewhere", "payload": {}}])
    assert out["outcomes"][0]["error"]["reason"] == "machine_not_granted"


@pytest.mark.parametrize(
    "raw",
    [5, "x", None, [], {}, {"family": "filesystem.v1"}, {"family": 1, "op": "read", "machine": M},
     {"family": "filesystem.v1", "op": "read", "machine": M, "payload": "path"}],
)
def test_malformed_envelopes_are_invalid_outcomes(env, raw):
    outcome = env.step([raw])["outcomes"][0]
    assert outcome["success"] is False
    assert outcome["error"] == {"code": "invalid", "message": "invalid action"}


def test_unknown_op_is_unsupported_with_an_effect(env):
    outcome = env.step([fs("teleport")])["outcomes"][0]
    assert outcome["error"]["reason"] == "unsupported_operation"
    assert outcome["effect"]["changed"] == []


def test_budget_and_unknown_session_raise_before_anything_runs(world):
    env = world.environment({"actor": "a", "machines": [M], "actions": ["filesystem.v1"], "observations": [], "action_budget": 2})
    before = world.state_hash()
    with pytest.raises(ValueError, match="denied: the batch is larger"):
        env.step([fs("write", path=f"f{i}", content="") for i in range(3)])
    assert world.state_hash() == before
    assert len(env.step([fs("stat", path="."), fs("stat", path=".")])["outcomes"]) == 2
    with pytest.raises(ValueError, match="denied: unknown actor session"):
        world.session("session-99")


def test_step_refuses_a_non_list(env):
    with pytest.raises(ValueError, match="list of action envelopes"):
        env.step({"family": "filesystem.v1"})


def test_scene_and_render_need_a_visual_grant(env):
    for call in (env.scene, env.render):
        with pytest.raises(ValueError, match="denied"):
            call(320, 240)


def test_filesystem_errors_follow_the_spec(world, env):
    machine = world.machine(M)
    machine.fs.put_file("/home/ada/secret", b"x", uid=0, gid=0, mode=0o600)
    codes = {
        "missing read": env.step([fs("read", path="nope")]),
        "missing list": env.step([fs("list", path="nope")]),
        "missing stat": env.step([fs("stat", path="nope")]),
        "denied read": env.step([fs("read", path="secret")]),
        "denied list": env.step([fs("list", path="/root")]),
        "dir read": env.step([fs("read", path="Documents")]),
        "bad payload": env.step([fs("read", path=3)]),
    }
    got = {k: v["outcomes"][0]["error"]["code"] for k, v in codes.items()}
    assert got == {
        "missing read": "not_found",
        "missing list": "not_found",
        "missing stat": "not_found",
        "denied read": "denied",
        "denied list": "denied",
        "dir read": "action_failed",
        "bad payload": "invalid",
    }


def test_filesystem_ops(env):
    out = env.step(
        [
            fs("mkdir", path="a/b", parents=True),
            fs("write", path="a/b/f.txt", content="1"),
            fs("write", path="a/b/f.txt", content="2", append=True),
            fs("move", **{"from": "a/b/f.txt", "to": "a"}),
            fs("list", path="a"),
            fs("read", path="a/f.txt"),
            fs("stat", path="a/f.txt"),
            fs("remove", path="a", recursive=True),
            fs("list", path="."),
        ]
    )
    values = [o["value"] for o in out["outcomes"]]
    assert all(o["success"] for o in out["outcomes"])
    assert values[4] == ["b", "f.txt"]
    assert values[5]["content"] == "12"
    assert values[6]["owner"] == "ada" and values[6]["mode"] == 0o644 and values[6]["size"] == 2
    assert "a" not in values[8]


def test_refusal_messages_are_fixed_constants(world, env):
    """Every error an actor can see uses a fixed message, whatever the world holds."""
    other = World(world.definition(), seed=1)
    other_env = other.environment(EnvironmentConfig.terminal("zed", [M]))
    messages = set()
    for e in (env, other_env):
        out = e.step(
            [fs("read", path="/home/ada/Documents/expenses.csv/x"), fs("read", path="zzz-unique-name"),
             fs("list", path="/root"), fs("nope"), fs("read"), 7,
             fs("read", machine="m-unique", path="x"),
             {"family": "f.unique", "op": "x", "machine": M, "payload": {}}]
        )
        for outcome in out["outcomes"]:
            assert "unique" not in str(outcome["error"])
            messages.add(outcome["error"]["message"])
    assert messages <= FIXED_MESSAGES


def test_observe_does_not_act(world, env):
    before = world.state_hash()
    assert env.observe() == {"tick": 0, "channels": {"terminal.v1": {M: None}, "filesystem.v1": {M: {"cwd": "/home/ada"}}}}
    assert world.state_hash() == before


def test_effect_state_is_content_derived(world, env):
    a = env.step([fs("write", path="x", content="1")])["outcomes"][0]["effect"]["state"]
    snap = world.snapshot()
    b = env.step([fs("write", path="x", content="2")])["outcomes"][0]["effect"]["state"]
    world.restore(snap)
    c = env.step([fs("stat", path="x")])["outcomes"][0]["effect"]["state"]
    assert isinstance(a, str) and a != b and a == c
