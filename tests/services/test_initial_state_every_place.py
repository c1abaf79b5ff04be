"""Every place of a real service state, holding each JSON type in turn or taken out: the
world builds, or refuses with a ValueError naming the path — never a TypeError or KeyError
from inside a kind's check. The states are the company world's and the public web's, one
service of each kind (up to 400 places a kind, evenly spread)."""

from __future__ import annotations

import functools

import pytest

from cwgym import World
from cwgym.resources import load_world
from tests.services.every_place import places, sweep

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


def test_the_company_world_gives_a_state_of_most_kinds():
    assert len(samples()) >= 12


@pytest.mark.parametrize("kind", sorted(samples()))
def test_any_value_in_any_place_builds_or_is_refused_naming_the_path(kind):
    paths = list(places(samples()[kind]))[1:]
    sweep(kind, samples()[kind], paths[:: len(paths) // PLACES_KEPT + 1])
