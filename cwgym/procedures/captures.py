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

:func:`bind_phase` is the one capture binder: ``project`` calls it after each phase (a
capture that finds nothing stops the demonstration) and :func:`read_captures` calls it
over every phase to check an agent's world (a capture that finds nothing stays unbound).
A phase's captures read the machine the phase acts on, :meth:`Instance.machine_of
<cwgym.procedures.instance.Instance.machine_of>`: its own ``machine``, else the
procedure's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.files import read_file
from cwgym.procedures.instance import Instance
from cwgym.procedures.matching import (
    PointerError,
    elements,
    find_value,
    lookup,
    resolve,
    text_lines,
    where_matches,
)
from cwgym.procedures.model import Capture, Phase
from cwgym.procedures.template import TemplateError, render_value

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
            target = resolve(world.inspect() if state.service is None else world.service_state(state.service), state.pointer)
        except (PointerError, KeyError) as exc:
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
        data = read_file(machine, source.file)
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


def bind_phase(world: World, instance: Instance, phase: Phase, bound: dict[str, Any], *, strict: bool = True) -> None:
    """Bind each capture of ``phase`` into ``bound``, in order, reading ``world`` as it is now.

    A capture's own placeholders (``{{@name}}`` of an earlier capture) are filled from
    ``bound`` first. With ``strict``, a capture that finds nothing (or names a value not
    bound) raises :class:`CaptureMissed`; otherwise its name stays unbound and the next
    capture is read.
    """
    machine = instance.machine_of(phase)
    for capture in phase.capture:
        try:
            rendered = msgspec.convert(render_value(msgspec.to_builtins(capture), {}, bound), Capture)
            bound[capture.name] = run_capture(world, machine, rendered)
        except TemplateError as exc:
            if strict:
                raise CaptureMissed(str(exc)) from None
        except CaptureMissed:
            if strict:
                raise


def read_captures(world: World, instance: Instance) -> dict[str, Any]:
    """Every capture of the instance read from ``world`` now, in phase order; a capture
    that finds nothing is left out (so the checks that need it fail)."""
    bound: dict[str, Any] = {}
    for phase in instance.phases:
        bind_phase(world, instance, phase, bound, strict=False)
    return bound
