"""The owner handle: snapshots, forks, reset, export/import, hashing, topology, extensions."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from cwgym import EnvironmentConfig, World, engine_version

M = "workstation"


def fs(op: str, machine: str = M, **payload) -> dict:
    return {"family": "filesystem.v1", "op": op, "machine": machine, "payload": payload}


@pytest.fixture
def world(workstation) -> World:
    return World(workstation, seed=7)


@pytest.fixture
def env(world):
    return world.environment(EnvironmentConfig.terminal("ada", [M]))


def test_restore_is_exact(world, env):
    snap = world.snapshot()
    before = world.state_hash()
    env.step([fs("write", path="x", content="1"), fs("remove", path="notes.txt")])
    assert world.state_hash() != before
    world.restore(snap)
    assert world.state_hash() == before
    assert env.step([fs("read", path="notes.txt")])["outcomes"][0]["success"]


def test_fork_is_independent_of_its_parent(world, env):
    snap = world.snapshot()
    child = world.fork(snap)
    child_env = child.session(env.id)
    child_env.step([fs("write", path="only-in-fork", content="")])
    env.step([fs("write", path="only-in-parent", content="")])
    listing = lambda e: e.step([fs("list", path=".")])["outcomes"][0]["value"]  # noqa: E731
    assert "only-in-fork" in listing(child_env) and "only-in-parent" not in listing(child_env)
    assert "only-in-parent" in listing(env) and "only-in-fork" not in listing(env)


def test_snapshot_restores_into_another_world_of_the_same_definition(world, env):
    env.step([fs("write", path="x", content="1")])
    snap = world.snapshot()
    other = World(world.definition(), seed=99)
    other.restore(snap)
    assert other.state_hash() == world.state_hash()


def test_snapshot_of_another_definition_is_refused(world, office):
    with pytest.raises(ValueError, match="different world definition"):
        World(office).restore(world.snapshot())


def test_reset_returns_to_the_blueprint_and_keeps_sessions(world, env):
    after_grant = world.state_hash()
    env.step([fs("write", path="x", content="1")])
    world.reset(7)
    assert world.state_hash() == after_grant
    assert env.step([fs("list", path=".")])["outcomes"][0]["success"]
    world.reset(8)
    assert world.state_hash() != after_grant


def test_state_hash_depends_on_seed_and_names_a_64_hex_digest(workstation):
    a, b = World(workstation, 1).state_hash(), World(workstation, 2).state_hash()
    assert a != b and len(a) == 64 and int(a, 16) >= 0


def test_bad_seeds(workstation):
    with pytest.raises(OverflowError):
        World(workstation, -1)
    with pytest.raises(TypeError):
        World(workstation, "7")


SCRIPT = textwrap.dedent(
    """
    import json, sys
    from cwgym import World, EnvironmentConfig
    from cwgym.resources import load_world
    w = World(load_world("ubuntu-workstation"), seed=7)
    e = w.environment(EnvironmentConfig.terminal("ada", ["workstation"]))
    for i in range(5):
        e.step([{"family": "filesystem.v1", "op": "write", "machine": "workstation",
                 "payload": {"path": f"f{i}.txt", "content": str(i) * i}}])
    print(json.dumps([w.state_hash(), e.step([])["observation"], len(w.export_snapshot())]))
    """
)


def test_state_hash_is_stable_across_processes_and_hash_seeds():
    outputs = []
    for hash_seed in ("1", "4242"):
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"},
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]


def test_export_import_round_trip(world, env, workstation):
    env.step([fs("write", path="x", content="1"), fs("mkdir", path="d")])
    text = world.export_snapshot()
    doc = json.loads(text)
    assert doc["engine_version"] == engine_version and doc["format"] == "cwgym-snapshot/1"
    other = World(workstation, seed=99)
    other.import_snapshot(text)
    assert other.state_hash() == world.state_hash()
    assert other.trajectory() == world.trajectory()
    assert other.session(env.id).step([fs("read", path="x")])["outcomes"][0]["value"]["content"] == "1"


def _refused(world, text, needle):
    before = world.state_hash()
    with pytest.raises(ValueError, match=needle):
        world.import_snapshot(text)
    assert world.state_hash() == before


def test_import_refusals_leave_the_world_unchanged(world, env, office):
    env.step([fs("write", path="x", content="1")])
    good = json.loads(world.export_snapshot())
    target = World(world.definition(), seed=3)
    _refused(target, "not json", "serialization")
    _refused(target, json.dumps({"hello": 1}), "not a cwgym snapshot")
    _refused(target, json.dumps(dict(good, engine_version="0.0.1")), "engine '0.0.1'")
    _refused(World(office), json.dumps(good), "different world definition")
    tampered = json.loads(json.dumps(good))
    tampered["journal"][-1]["data"]["action"]["payload"]["content"] = "2"
    _refused(target, json.dumps(tampered), "invalid action journal")
    edited = json.loads(json.dumps(good))
    edited["machines"][0]["clipboard"] = "sneaky"
    _refused(target, json.dumps(edited), "does not match its recorded state hash")
    broken = json.loads(json.dumps(good))
    broken["machines"][0]["inodes"] = "nope"
    _refused(target, json.dumps(broken), "serialization")


def test_trajectory_records_actions_and_grants(world, env):
    env.step([fs("write", path="x", content="1"), fs("read", machine="ghost", path="x")])
    kinds = [e["kind"] for e in world.trajectory()]
    assert kinds == ["session.granted", "filesystem.write", "agent.action", "agent.action"]
    last = world.trajectory()[-1]
    assert last["data"]["success"] is False and last["actor"] == "ada"
    assert set(last) == {"sequence", "tick", "kind", "machine", "actor", "data"}


def test_replay_reaches_the_same_hash_and_detects_divergence(world, env, workstation):
    from cwgym.environment.replay import replay
    from cwgym.protocol import ReplayDiverged

    world.enable_replay_verification()
    env.step([fs("write", path="a", content="1"), fs("mkdir", path="d"), fs("move", **{"from": "a", "to": "d"})])
    again = replay(workstation, 7, world.trajectory())
    assert again.state_hash() == world.state_hash()
    forged = world.trajectory()
    forged[2]["data"]["action"]["payload"]["content"] = "2"
    with pytest.raises(ReplayDiverged) as info:
        replay(workstation, 7, forged)
    assert info.value.step == 2


def test_inspect_and_definition(world):
    info = world.inspect()
    assert info["engine"] == f"cwgym/{engine_version}"
    assert info["state"]["computers"][M]["user"] == "ada"
    assert world.definition()["computers"][0]["node"] is None


NEW = {
    "id": "laptop", "profile": "ubuntu", "address": "10.0.0.20", "user": "bob",
    "initial_files": {"hello.txt": "hi\n"},
}


def test_add_and_remove_computer(world, env):
    snap = world.snapshot()
    world.add_computer(NEW, {"id": "laptop", "address": "10.0.0.20"}, [{"from": "laptop", "to": M}])
    laptop = world.environment(EnvironmentConfig.terminal("bob", ["laptop"]))
    both = world.environment(EnvironmentConfig.terminal("ops", [M, "laptop"]))
    assert laptop.step([fs("read", machine="laptop", path="hello.txt")])["outcomes"][0]["success"]
    world.remove_computer("laptop")
    with pytest.raises(ValueError, match="unknown actor session"):
        laptop.step([])
    out = both.step([fs("read", machine="laptop", path="hello.txt")])
    assert out["outcomes"][0]["error"]["reason"] == "machine_not_granted"
    assert "topology.remove_computer" in [e["kind"] for e in world.trajectory()]
    world.restore(snap)
    assert "laptop" not in world.inspect()["state"]["computers"]


def test_add_computer_is_atomic_and_validated(world):
    before = world.state_hash()
    with pytest.raises(ValueError, match="already exists"):
        world.add_computer(dict(NEW, id="x", address="10.0.0.21"), {"id": M, "address": "10.0.0.10"}, [])
    with pytest.raises(ValueError, match="unknown profile"):
        world.add_computer(dict(NEW, profile="beos"), {"id": "laptop", "address": "10.0.0.20"}, [])
    with pytest.raises(ValueError, match="unknown node"):
        world.add_computer(NEW, {"id": "laptop", "address": "10.0.0.20"}, [{"from": "laptop", "to": "mars"}])
    with pytest.raises(ValueError, match="malformed"):
        world.add_computer({"id": 1}, {}, [])
    assert world.state_hash() == before


def test_remove_refusals(office):
    world = World(office)
    with pytest.raises(ValueError, match="not_found"):
        world.remove_computer("ghost")
    with pytest.raises(ValueError, match="hosts services"):
        world.remove_computer("fileserver")
    world.runtime.scheduler.schedule(10, "pending-work")
    with pytest.raises(ValueError, match="continuations are pending"):
        world.remove_computer("reception")


def test_reset_returns_removed_computers(office):
    world = World(office)
    world.remove_computer("reception")
    world.reset(0)
    assert "reception" in world.inspect()["state"]["computers"]


class Echo:
    version = "2"

    def dispatch(self, ctx, op, payload):
        return {"op": op, "machine": ctx.machine.id}


class Clock:
    version = "1"

    def observe(self, runtime, session):
        return {"tick": runtime.clock.now_us}


def test_extensions_register_dispatch_and_bind_snapshots(world):
    snap = world.snapshot()
    world.register_action_family("echo.v1", Echo())
    world.register_observation_channel("clock.v1", Clock())
    env = world.environment({"actor": "a", "machines": [M], "actions": ["echo.v1"], "observations": ["clock.v1"]})
    out = env.step([{"family": "echo.v1", "op": "ping", "machine": M, "payload": {}}])
    assert out["outcomes"][0]["value"] == {"op": "ping", "machine": M}
    assert out["observation"]["channels"]["clock.v1"] == {"tick": 0}
    with pytest.raises(ValueError, match="other registered extensions"):
        world.restore(snap)


@pytest.mark.parametrize("name", ["terminal.v1", "pointer.v1", "browser.v1", ""])
def test_extension_names_colliding_with_builtins_are_refused(world, name):
    with pytest.raises(ValueError):
        world.register_action_family(name, Echo())


def test_extension_needs_a_version(world):
    with pytest.raises(ValueError, match="version"):
        world.register_observation_channel("x.v1", object())
