"""Every place of a real service state, holding each JSON type in turn or taken out: the
world builds, or refuses with a ValueError naming the path — never a TypeError or KeyError
from inside a kind's check. The states are the company world's and the public web's, one
service of each kind (up to 400 places a kind, evenly spread)."""

from __future__ import annotations

import copy
import functools

import pytest

from cwgym import World
from cwgym.resources import load_world
from tests.services.test_every_kind import world_with

_GONE = object()
#: what each place is replaced with: every JSON type, and nothing at all
MUTATIONS = (5, -1, "x", True, None, [], ["x"], {}, {"k": 1}, _GONE)
PLACES_KEPT = 400


@functools.cache
def samples() -> dict[str, dict]:
    """One non-empty ``initial_state`` of each kind, from the company world with the public web."""
    out: dict[str, dict] = {}
    for service in World(load_world("company"), 7).definition()["services"]:
        state = service.get("initial_state")
        if isinstance(state, dict) and state and service["kind"] not in out:
            out[service["kind"]] = state
    return out


def _places(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def test_the_company_world_gives_a_state_of_most_kinds():
    assert len(samples()) >= 12


@pytest.mark.parametrize("kind", sorted(samples()))
def test_any_value_in_any_place_builds_or_is_refused_naming_the_path(kind):
    places = list(_places(samples()[kind]))[1:]
    places = places[:: len(places) // PLACES_KEPT + 1]
    for path in places:
        for value in MUTATIONS:
            state = copy.deepcopy(samples()[kind])
            place = state
            for step in path[:-1]:
                place = place[step]
            if value is _GONE:
                del place[path[-1]]
            else:
                place[path[-1]] = copy.deepcopy(value)
            try:
                world_with(kind, state)
            except ValueError as exc:
                assert "$.services[1].initial_state" in str(exc), (path, value, str(exc))
