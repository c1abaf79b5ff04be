"""The runtime's subsystems: a new one is snapshotted, forked, hashed, exported, imported
and inspected with no edit to the runtime; every built-in one moves the hash when it
changes and survives an export round trip."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym import EnvironmentConfig, World
from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.resources import load_world

M = "workstation"


class Counter(Subsystem):
    """A toy subsystem: one named counter per world."""

    name = "toy-counter"
    order = 90
    sections = ("toy_counter",)

    def __init__(self, value: int) -> None:
        self.value = value

    @classmethod
    def build(cls, runtime: Any) -> Counter:
        return cls(0)

    @classmethod
    def thaw(cls, runtime: Any, frozen: int) -> Counter:
        return cls(frozen)

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Counter:
        value = convert(sections["toy_counter"], int, "toy_counter")
        if value < 0:
            raise SnapshotError("toy_counter", "a counter cannot be negative")
        return cls(value)

    def freeze(self) -> int:
        return self.value

    def digest(self) -> list[Any]:
        return [self.value]

    def export(self) -> dict[str, Any]:
        return {"toy_counter": self.value}

    def inspect(self) -> dict[str, Any]:
        return {"toy": {"counter": self.value}}


@pytest.fixture
def toy():
    SUBSYSTEMS.register(Counter.name, Counter)
    try:
        yield
    finally:
        SUBSYSTEMS.unregister(Counter.name)


def _counter(world: World) -> Counter:
    return world.runtime.subsystems[Counter.name]  # type: ignore[return-value]


def test_a_registered_subsystem_is_snapshotted_forked_hashed_exported_and_inspected(toy):
    world = World(load_world("ubuntu-workstation"), seed=1)
    assert world.inspect()["state"]["toy"] == {"counter": 0}
    before, snap = world.state_hash(), world.snapshot()
    _counter(world).value = 5
    assert world.state_hash() != before
    fork = world.fork()
    assert _counter(fork).value == 5 and fork.state_hash() == world.state_hash()
    _counter(fork).value = 6
    assert _counter(world).value == 5  # the fork's subsystem is its own
    text = world.export_snapshot()
    assert json.loads(text)["toy_counter"] == 5
    world.restore(snap)
    assert _counter(world).value == 0 and world.state_hash() == before
    world.import_snapshot(text)
    assert _counter(world).value == 5 and world.inspect()["state"]["toy"] == {"counter": 5}
    broken = json.loads(text)
    broken["toy_counter"] = -1
    with pytest.raises(ValueError, match="toy_counter: a counter cannot be negative"):
        world.import_snapshot(json.dumps(broken))
    assert _counter(world).value == 5


def test_a_world_refuses_snapshots_of_another_subsystem_set(toy):
    plain = World(load_world("ubuntu-workstation"))
    SUBSYSTEMS.unregister(Counter.name)
    try:
        other = World(load_world("ubuntu-workstation"))
    finally:
        SUBSYSTEMS.register(Counter.name, Counter)
    with pytest.raises(ValueError, match="other subsystems"):
        other.restore(plain.snapshot())
    with pytest.raises(ValueError, match=r"unknown \['toy_counter'\]"):
        other.import_snapshot(plain.export_snapshot())


def _terminal(world: World) -> Any:
    return world.environment(EnvironmentConfig.terminal("ada", [M]))


# one mutation per built-in subsystem, each through the owner or actor API
MUTATIONS = {
    "kernel": lambda w, n: w.runtime.kernel.rng.next_u64(f"stream-{n}"),
    "topology": lambda w, n: w.add_computer(
        {**w.definition()["computers"][0], "id": f"extra-{n}", "address": f"10.9.0.{n + 1}"},
        {"id": f"extra-{n}", "address": f"10.9.0.{n + 1}"},
    ),
    "machines": lambda w, n: _terminal(w).step(
        [{"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": f"echo {n} > f{n}"}}]
    ),
    "sessions": lambda w, n: w.environment(EnvironmentConfig.terminal(f"actor-{n}", [M])),
}


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(sorted(MUTATIONS)), st.integers(0, 40)), min_size=1, max_size=6))
def test_every_subsystem_moves_the_hash_and_survives_export(mutations):
    world = World(load_world("ubuntu-workstation"), seed=3)
    for name, n in mutations:
        before = world.state_hash()
        try:
            MUTATIONS[name](world, n)
        except ValueError:  # a refused edit (the node exists already) changes nothing
            assert world.state_hash() == before, name
        else:
            assert world.state_hash() != before, name
    text = world.export_snapshot()
    other = World(load_world("ubuntu-workstation"), seed=3)
    other.import_snapshot(text)
    assert other.state_hash() == world.state_hash()
    assert msgspec.json.decode(other.export_snapshot()) == msgspec.json.decode(text)
