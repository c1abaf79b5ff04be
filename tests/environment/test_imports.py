"""Imports check what they accept: snapshots refuse state no world could hold, naming the
field; signatures catch what structure cannot; malformed trajectories raise one error type
with the entry's index; definitions refuse seeded files outside their place."""

from __future__ import annotations

import contextlib
import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym import EnvironmentConfig, World
from cwgym.environment.replay import replay
from cwgym.environment.signing import sign_trajectory
from cwgym.protocol.definition import DefinitionError
from cwgym.protocol.errors import ReplayDiverged, TrajectoryError
from cwgym.resources import load_world

M = "workstation"
KEY = b"leaderboard-secret-key"
DEFINITION = load_world("ubuntu-workstation")


def _world() -> World:
    w = World(DEFINITION, seed=2)
    env = w.environment(EnvironmentConfig.terminal("ada", [M]))
    env.step([{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "mkdir -p d/e && echo x > d/f"}}])
    return w


@pytest.fixture
def world() -> World:
    return _world()


TRAJECTORY = _world().trajectory()


def _doc(world: World) -> dict:
    return json.loads(world.export_snapshot())


def _refused(world: World, doc: dict, needle: str) -> None:
    before = world.state_hash()
    with pytest.raises(ValueError, match=needle):
        world.import_snapshot(json.dumps(doc))
    assert world.state_hash() == before


def _inode(doc: dict, path: str) -> list:
    machine = doc["machines"][0]
    table = {i[0]: i for i in machine["inodes"]}
    node = table[1]
    for part in [p for p in path.split("/") if p]:
        node = table[node[12][part]]
    return node


def test_a_directory_that_contains_itself_is_refused(world):
    doc = _doc(world)
    d = _inode(doc, "/home/ada/d")
    d[12]["loop"] = d[0]
    _refused(world, doc, r"machines\[0\]\.inodes\[\d+\]\.entries\['loop'\]: directory \d+ is listed twice")


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda doc: _inode(doc, "/home/ada/d").__setitem__(12, {**_inode(doc, "/home/ada/d")[12], "ghost": 99999}), "names inode 99999, which does not exist"),
        (lambda doc: _inode(doc, "/home/ada/d/f").__setitem__(2, 0o777777), r"inodes\[\d+\]\[2\]"),
        (lambda doc: _inode(doc, "/home/ada/d/f").__setitem__(3, -1), r"inodes\[\d+\]\[3\]"),
        (lambda doc: _inode(doc, "/home/ada/d/f").__setitem__(5, 3), r"nlink: is 3, but 1 entries name it"),
        (lambda doc: _inode(doc, "/home/ada/d/f").__setitem__(1, "socket"), "is not one of"),
        (lambda doc: doc["machines"][0]["inodes"].append([424242, "file", 420, 0, 0, 1, 0, 0, 0, 0, 1, "", None, None]), "next_ino"),
        (lambda doc: doc["kernel"].__setitem__("clock", -5), r"kernel\.clock"),
        (lambda doc: doc["kernel"].__setitem__("seed", 2**64), r"kernel\.seed"),
        (lambda doc: doc["machines"][0]["shell"].__setitem__("cwd", "relative"), r"shell\.cwd"),
        (lambda doc: doc.__setitem__("surprise", 1), r"unknown \['surprise'\]"),
        (lambda doc: doc["sessions"][0]["config"]["actions"].append("pointer.v1"), r"sessions\[0\]\.config\.actions: differs from what the journal granted"),
        (lambda doc: doc["sessions"][0]["config"].__setitem__("machines", ["workstation", "ghost"]), r"unknown granted machine"),
        (lambda doc: doc["sessions"][0].__setitem__("focus", "ghost"), r"sessions\[0\]\.focus"),
    ],
)
def test_structural_forgeries_are_refused_naming_the_field(world, edit, needle):
    doc = _doc(world)
    edit(doc)
    _refused(world, doc, needle)


def test_a_consistent_forgery_passes_structure_but_not_a_signature():
    narrow = World(DEFINITION, seed=2)
    narrow.environment(EnvironmentConfig.terminal("ada", [M]))
    wide = World(DEFINITION, seed=2)
    wide.environment({"actor": "ada", "machines": [M], "observations": ["terminal.v1"],
                      "actions": ["terminal.v1", "application.v1", "keyboard.v1", "pointer.v1"]})
    signed = json.loads(narrow.export_snapshot(key=KEY))
    forged = json.loads(wide.export_snapshot())
    forged["signature"] = signed["signature"]
    target = World(DEFINITION, seed=2)
    target.import_snapshot(json.dumps(forged))  # well-formed: structure alone cannot tell
    with pytest.raises(ValueError, match="signature is missing or does not match"):
        target.import_snapshot(json.dumps(forged), key=KEY)
    with pytest.raises(ValueError, match="signature is missing"):
        target.import_snapshot(wide.export_snapshot(), key=KEY)
    target.import_snapshot(json.dumps(signed), key=KEY)
    assert target.state_hash() == narrow.state_hash()
    with pytest.raises(ValueError, match="at least 16 bytes"):
        narrow.export_snapshot(key=b"short")


def test_signed_trajectories_replay_only_with_their_signature(world):
    trajectory = world.trajectory()
    signature = sign_trajectory(world, KEY)
    assert replay(DEFINITION, 2, trajectory, key=KEY, signature=signature).state_hash() == world.state_hash()
    with pytest.raises(TrajectoryError, match="signature"):
        replay(DEFINITION, 3, trajectory, key=KEY, signature=signature)  # another seed
    edited = copy.deepcopy(trajectory)
    edited[-1]["data"]["success"] = False
    with pytest.raises(TrajectoryError, match="signature"):
        replay(DEFINITION, 2, edited, key=KEY, signature=signature)


def _malformations(trajectory: list[dict]) -> list[tuple[str, object]]:
    grant = next(i for i, e in enumerate(trajectory) if e["kind"] == "session.granted")
    action = next(i for i, e in enumerate(trajectory) if e["kind"] == "agent.action")
    cases: list[tuple[str, object]] = [("not a list", {"kind": "x"}), ("a string", "trajectory")]

    def edited(index: int, fn) -> list:
        out = copy.deepcopy(trajectory)
        fn(out[index])
        return out

    for index in (grant, action):
        for name, fn in [
            ("entry is a list", lambda e: e.clear() or e.update({"kind": 1})),
            ("no kind", lambda e: e.pop("kind")),
            ("data is a list", lambda e: e.__setitem__("data", [])),
            ("data is a string", lambda e: e.__setitem__("data", "x")),
            ("no session", lambda e: e["data"].pop("session")),
            ("session is a number", lambda e: e["data"].__setitem__("session", 3)),
            ("unknown session", lambda e: e["data"].__setitem__("session", "session-99")),
        ]:
            cases.append((f"{name} @{index}", edited(index, fn)))
    for name, fn in [
        ("config missing", lambda e: e["data"].pop("config")),
        ("config not a dict", lambda e: e["data"].__setitem__("config", "terminal")),
        ("config bad field", lambda e: e["data"]["config"].__setitem__("machines", "workstation")),
        ("config unknown family", lambda e: e["data"]["config"].__setitem__("actions", ["teleport.v1"])),
        ("config blank actor", lambda e: e["data"]["config"].__setitem__("actor", "")),
    ]:
        cases.append((name, edited(grant, fn)))
    cases.append(("entry not a dict", [*copy.deepcopy(trajectory), 7]))
    cases.append(("add_computer garbage", [*copy.deepcopy(trajectory), {"kind": "topology.add_computer", "data": {"computer": {}, "node": {}, "links": []}}]))
    cases.append(("add_computer links not list", [*copy.deepcopy(trajectory), {"kind": "topology.add_computer", "data": {"computer": {}, "node": {}, "links": 3}}]))
    cases.append(("remove unknown", [*copy.deepcopy(trajectory), {"kind": "topology.remove_computer", "data": {"computer": "ghost"}}]))
    return cases


def test_malformed_trajectories_raise_one_error_type_with_the_entry_index(world):
    trajectory = world.trajectory()
    for name, case in _malformations(trajectory):
        with pytest.raises(TrajectoryError) as info:
            replay(DEFINITION, 2, case)  # type: ignore[arg-type]
        if isinstance(case, list):
            assert info.value.index is not None, name


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.data())
def test_random_damage_to_a_trajectory_never_escapes_as_another_error(data):
    trajectory = copy.deepcopy(TRAJECTORY)
    index = data.draw(st.integers(0, len(trajectory) - 1))
    key = data.draw(st.sampled_from(["kind", "data", "sequence", "tick", "machine"]))
    value = data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2),
                                st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
    trajectory[index][key] = value
    with contextlib.suppress(TrajectoryError, ReplayDiverged):  # any other exception fails
        replay(DEFINITION, 2, trajectory)


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("../../etc/evil", "leaves the home folder"),
        ("../../etc/passwd", "leaves the home folder"),
        ("/etc/passwd", "would replace the system file /etc/passwd"),
        ("/dev/null", "would replace the system file"),
        ("/../../x", "leaves the computer's root"),
        ("a\x00b", "malformed file path"),
        ("x" * 300, "longer than 255 bytes"),
    ],
)
def test_seeded_files_outside_their_place_are_refused_with_the_json_path(name, needle):
    definition = copy.deepcopy(DEFINITION)
    definition["computers"][0]["initial_files"] = {name: "x"}
    with pytest.raises(DefinitionError, match=needle) as info:
        World(definition)
    assert info.value.path.startswith("$.computers[0].initial_files[")


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda d: d["computers"][0].__setitem__("id", "bad\ud800"), "$.computers[0].id"),
        (lambda d: d["computers"][0]["initial_files"].__setitem__("notes.txt", "\udfff"), "$.computers[0].initial_files['notes.txt']"),
        (lambda d: d["computers"][0]["initial_files"].__setitem__("k" * 5000, "x"), "$.computers[0].initial_files"),
        (lambda d: d.__setitem__("metadata", {1: 2}), "$.metadata"),
        (lambda d: d.__setitem__("metadata", {"x": float("nan")}), "$.metadata.x"),
        (lambda d: d.__setitem__("metadata", {"x": object()}), "$.metadata.x"),
    ],
)
def test_definitions_with_non_json_values_are_definition_errors(edit, path):
    definition = copy.deepcopy(DEFINITION)
    edit(definition)
    with pytest.raises(DefinitionError) as info:
        World(definition)
    assert info.value.path == path


def test_seeded_paths_are_normalized_in_the_definition_the_world_reports():
    definition = copy.deepcopy(DEFINITION)
    definition["computers"][0]["initial_files"] = {"./notes//drafts/../todo.txt": "x"}
    world = World(definition)
    assert world.definition()["computers"][0]["initial_files"] == {"notes/todo.txt": "x"}
    assert world.machine(M).fs.read_path("/home/ada/notes/todo.txt") == b"x"
