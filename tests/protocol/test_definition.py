"""World definitions load into typed structs, and every error names its JSON path."""

from __future__ import annotations

import copy

import pytest

from cwgym.protocol import DefinitionError, load_definition
from cwgym.resources import load_world, world_names


def test_shared_example_loads_unchanged(example_definition):
    d = load_definition(example_definition)
    assert d.id == "agent-desktop"
    assert d.computers[0].initial_files["notes.txt"] == "Ask the handbook first\n"
    assert d.network.links[0].from_ == "workstation"
    assert d.to_plain()["network"]["links"][0]["from"] == "workstation"


@pytest.mark.parametrize("name", world_names())
def test_bundled_worlds_load(name):
    assert load_definition(load_world(name)).id == name


def test_bundled_worlds_cover_the_promised_shapes():
    office = load_definition(load_world("small-office"))
    assert len(office.computers) == 3
    assert len({c.profile for c in office.computers}) == 3
    assert any(c.presentation == "server" for c in office.computers)


def test_minimal_definition_is_an_empty_world():
    assert load_definition({"id": "x"}).computers == []


def test_json_text_and_bytes_load(example_definition):
    import json

    text = json.dumps(example_definition)
    assert load_definition(text).id == load_definition(text.encode()).id == "agent-desktop"


@pytest.mark.parametrize("version", [0, 2, "1"])
def test_other_schema_versions_are_refused(version):
    with pytest.raises(DefinitionError) as info:
        load_definition({"id": "x", "schema_version": version})
    assert info.value.path == "$.schema_version"


def _broken(example, edit):
    d = copy.deepcopy(example)
    edit(d)
    with pytest.raises(DefinitionError) as info:
        load_definition(d)
    return info.value


CASES = [
    ("$.computers[0].profile", "unknown profile", lambda d: d["computers"][0].update(profile="nope")),
    ("$.computers[0].profile", "Expected `str`", lambda d: d["computers"][0].update(profile=3)),
    ("$.computers[0]", "missing required field `user`", lambda d: d["computers"][0].pop("user")),
    ("$.computers[0].address", "malformed address", lambda d: d["computers"][0].update(address="10.0.0")),
    ("$.computers[0].address", "differs from its node", lambda d: d["computers"][0].update(address="10.0.0.99")),
    ("$.computers[1].id", "duplicate computer id", lambda d: d["computers"].append(dict(d["computers"][0]))),
    ("$.profiles[0]", "unknown field `colour`", lambda d: d["profiles"][0].update(colour="red")),
    ("$.network.nodes[1].address", "already belongs", lambda d: d["network"]["nodes"][1].update(address="10.0.0.10")),
    ("$.network.links[0].to", "unknown node", lambda d: d["network"]["links"][0].update(to="mars")),
    ("$.network.links[0].latency_us", "negative", lambda d: d["network"]["links"][0].update(latency_us=-1)),
    ("$.network.links[0].loss_per_million", "within", lambda d: d["network"]["links"][0].update(loss_per_million=2_000_000)),
    ("$.network.dns[0].name", "malformed DNS name", lambda d: d["network"]["dns"][0].update(name="bad name")),
    ("$.network.dns[0]", "exactly one of", lambda d: d["network"]["dns"][0].pop("address")),
    ("$.network.dns[0].resolver", "unknown node", lambda d: d["network"]["dns"][0].update(resolver="ghost")),
    ("$.services[0].kind", "unknown service kind", lambda d: d["services"][0].update(kind="teleporter")),
    ("$.services[0].node", "unknown node", lambda d: d["services"][0].update(node="ghost")),
    ("$.services[1].port", "already taken", lambda d: d["services"].append(dict(d["services"][0], id="wiki2"))),
    ("$.services[0].domains[0]", "malformed domain", lambda d: d["services"][0].update(domains=["no spaces"])),
    ("$.id", "blank", lambda d: d.update(id=" ")),
]


@pytest.mark.parametrize(("path", "problem", "edit"), CASES, ids=[c[1] for c in CASES])
def test_errors_name_the_path_and_problem(example_definition, path, problem, edit):
    error = _broken(example_definition, edit)
    assert error.path == path
    assert problem in error.problem
    assert str(error).startswith(path + ": ")


def test_not_json_is_refused_at_the_root():
    with pytest.raises(DefinitionError) as info:
        load_definition("{nope")
    assert info.value.path == "$"
