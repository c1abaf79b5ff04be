"""A standing fuzz suite over what the world imports: definitions, procedures and snapshots.

Each is damaged at random (a value replaced by another of any JSON type, a key dropped, a
value nested deep or made huge) and given to its loader, which must either accept it or
refuse it with its one documented error type, never another exception; a refused snapshot
leaves the world as it was. Envelopes are fuzzed in tests/environment/test_boundary.py,
trajectories in tests/environment/test_imports.py and shell lines in tests/machine. The
default profile takes a few seconds with a fixed seed; ``-m slow`` runs the long one.
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cwgym import EnvironmentConfig, World
from cwgym.procedures import ProcedureError
from cwgym.procedures.library import procedure_files
from cwgym.procedures.validate import parse_procedure
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world

DEFINITION = load_world("small-office")
PROCEDURE = json.loads(procedure_files()[0].read_text())


def _snapshot_world() -> World:
    world = World(load_world("ubuntu-workstation"), seed=4)
    env = world.environment(EnvironmentConfig.desktop("ada", ["workstation"]))
    env.step([{"family": "application.v1", "op": "launch", "machine": "workstation", "payload": {"kind": "terminal"}}])
    world.environment(EnvironmentConfig.terminal("ada", ["workstation"])).step(
        [{"family": "terminal.v1", "op": "execute", "machine": "workstation", "payload": {"command": "mkdir -p a/b; echo x > a/f"}}]
    )
    return world


SNAPSHOT = json.loads(_snapshot_world().export_snapshot())

anything = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
              st.sampled_from(["\ud800", "x" * 5000, "../../etc/passwd", "/", "", 2**70, -(2**70)])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside nested dicts and lists."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            out += _paths(item, (*prefix, index))
    return out


def _damage(document: Any, data: st.DataObject) -> Any:
    damaged = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(damaged) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = damaged
        for step in path[:-1]:
            parent = parent[step]
        how = data.draw(st.sampled_from(["replace", "drop", "nest"]))
        if how == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "nest":
            parent[path[-1]] = [[[[[[parent[path[-1]]]]]]]]
        else:
            parent[path[-1]] = data.draw(anything)
    return damaged


FAST = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def _definition_case(data: st.DataObject) -> None:
    damaged = _damage(DEFINITION, data)
    with contextlib.suppress(DefinitionError):
        World(damaged)


def _procedure_case(data: st.DataObject) -> None:
    damaged = _damage(PROCEDURE, data)
    with contextlib.suppress(ProcedureError):
        parse_procedure(damaged)


def _snapshot_case(data: st.DataObject) -> None:
    world = World(load_world("ubuntu-workstation"), seed=4)
    before = world.state_hash()
    damaged = _damage(SNAPSHOT, data)
    try:
        world.import_snapshot(json.dumps(damaged))
    except ValueError:
        assert world.state_hash() == before
    else:  # a damage the document can absorb must still hash to what it claims
        assert world.state_hash() == damaged["state_hash"]


@FAST
@given(st.data())
def test_damaged_definitions_load_or_raise_definition_errors(data):
    _definition_case(data)


@FAST
@given(st.data())
def test_damaged_procedures_load_or_raise_procedure_errors(data):
    _procedure_case(data)


@FAST
@given(st.data())
def test_damaged_snapshots_import_or_are_refused_leaving_the_world_unchanged(data):
    _snapshot_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_long_fuzz_definitions(data):
    _definition_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_long_fuzz_procedures(data):
    _procedure_case(data)


@pytest.mark.slow
@LONG
@given(st.data())
def test_long_fuzz_snapshots(data):
    _snapshot_case(data)
