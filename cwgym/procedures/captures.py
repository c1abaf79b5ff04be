"""Captures: after a phase, bind names to values read from the world.

A capture reads candidates from one source and keeps the first (or, with ``last``, the
last) that yields a value:

* ``state``: the JSON pointer into ``World.inspect()``. Over a collection, each element
  that holds ``where`` is a candidate and its value is its key (object) or index (array),
  or the field at ``value``; a scalar is its own single candidate.
* ``file``: each line of the file.
* ``command``: each line a command prints, run by the machine's user on a fork of the
  world, so capturing never changes the world the demonstration acts in.

With a ``pattern``, a candidate yields the ``{{?}}`` part of the first match in its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.procedures import files
from cwgym.procedures.matching import (
    PointerError,
    elements,
    find_value,
    lookup,
    resolve,
    text_lines,
    where_matches,
)
from cwgym.procedures.model import Capture

if TYPE_CHECKING:
    from cwgym.environment.world import World


class CaptureMissed(LookupError):
    """A capture whose source holds nothing that matches (the message says why)."""


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def candidates(world: World, machine_id: str, capture: Capture) -> list[str]:
    """The texts a capture chooses among, in source order."""
    source = capture.from_
    if source.state is not None:
        state = source.state
        try:
            target = resolve(world.inspect(), state.pointer)
        except PointerError as exc:
            raise CaptureMissed(f"capture {capture.name!r}: {exc}") from None
        if not isinstance(target, (dict, list)):
            text = _text(target)
            return [text] if text is not None else []
        out = []
        for key, element in elements(target):
            if not where_matches(element, state.where):
                continue
            text = key if state.value is None else _text(lookup(element, state.value))
            if text is not None:
                out.append(text)
        return out
    machine = world.machine(machine_id)
    if source.file is not None:
        data = files.read(machine, source.file)
        if data is None:
            raise CaptureMissed(f"capture {capture.name!r}: no file {source.file}")
        return text_lines(data)
    fork = world.fork()
    result = fork.machine(machine_id).execute(source.command or "")
    return text_lines(result.stdout)


def run_capture(world: World, machine_id: str, capture: Capture) -> str:
    """The value ``capture`` binds now; :class:`CaptureMissed` when nothing matches."""
    values = []
    for text in candidates(world, machine_id, capture):
        value = text if capture.pattern is None else find_value(capture.pattern, text)
        if value is not None:
            values.append(value)
    if not values:
        where = f" matching {capture.pattern!r}" if capture.pattern else ""
        raise CaptureMissed(f"capture {capture.name!r}: nothing{where} in its source")
    return values[-1] if capture.last else values[0]
