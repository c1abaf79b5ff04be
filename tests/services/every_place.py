"""What the sweeps of malformed service states share: every place of a state, holding each
JSON type in turn or taken out, must build or be refused with a ValueError naming the path."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from tests.services.test_every_kind import world_with

GONE = object()
#: what each place is replaced with: every JSON type, and nothing at all
MUTATIONS = (5, -1, "x", True, None, [], ["x"], {}, {"k": 1}, GONE)


def places(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path into ``value`` (its own, ``()``, first), depth first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def changed(state: Any, path: tuple, value: Any) -> Any:
    """A copy of ``state`` with ``value`` at ``path`` (``GONE``: the place taken out)."""
    out = copy.deepcopy(state)
    place = out
    for step in path[:-1]:
        place = place[step]
    if value is GONE:
        del place[path[-1]]
    else:
        place[path[-1]] = copy.deepcopy(value)
    return out


def sweep(kind: str, state: dict, paths: list[tuple]) -> None:
    """Build a service of ``kind`` from ``state`` changed at each of ``paths`` in each way;
    a refusal must be a ValueError naming the service's ``initial_state``."""
    for path in paths:
        for value in MUTATIONS:
            try:
                world_with(kind, changed(state, path, value))
            except ValueError as exc:
                assert "$.services[1].initial_state" in str(exc), (path, value, str(exc))
