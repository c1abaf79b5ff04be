"""Corrupted copies of an instance that its own verifier must reject.

* ``skip``: a phase that writes state is left out.
* ``substitute``: one value the expert types or writes (a parameter used in a ``type``
  gesture or a tool call) is replaced by another draw's, while the setup, targets,
  captures and checks stay the original's.

The choice of phase or parameter, and the other draw, follow ``seed``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.kernel.rng import RandomStreams
from cwgym.procedures.instance import Instance, as_instance
from cwgym.procedures.model import Phase, Type
from cwgym.procedures.params import draw_params
from cwgym.procedures.template import refs, render_value, walk_strings

KINDS = ("skip", "substitute")
#: How many other draws ``substitute`` tries before deciding no value can change.
MAX_DRAWS = 64


class NoCorruption(ValueError):
    """The instance has nothing this kind of corruption can change."""


def writing_phases(instance: Instance) -> list[int]:
    """Indices of the phases that write state and act (gestures or tool calls)."""
    return [i for i, p in enumerate(instance.phases) if p.writes and (p.gui or p.tool)]


def typed_params(instance: Instance) -> list[str]:
    """Parameters the expert types or writes, in the procedure's order."""
    used: set[str] = set()
    for phase in instance.procedure.phases:
        for value in _typed_values(phase):
            for _, text in walk_strings(value):
                used.update(ref.name for ref in refs(text) if not ref.captured)
    return [p.name for p in instance.procedure.params if p.name in used]


def _typed_values(phase: Phase) -> list[Any]:
    values: list[Any] = [call.payload for call in phase.tool]
    values += [g.text for g in phase.gui if isinstance(g, Type)]
    return values


def corrupt(instance: Instance | dict, kind: str, seed: int) -> Instance:
    """A corrupted copy of ``instance``; ``corruption`` on it says what was changed.

    Raises:
        ValueError: an unknown kind, or an instance that is already a corrupted copy.
        NoCorruption: no phase writes state, or no typed value can take another value.
    """
    instance = as_instance(instance)
    if instance.corruption is not None:
        raise ValueError(f"{instance.id}: the instance is already corrupted ({instance.corruption['kind']})")
    streams = RandomStreams(seed)
    stream = f"corrupt:{kind}:{instance.id}"
    if kind == "skip":
        phases = writing_phases(instance)
        if not phases:
            raise NoCorruption(f"{instance.id}: no phase writes state")
        index = phases[streams.randbelow(stream, len(phases))]
        kept = [p for i, p in enumerate(instance.phases) if i != index]
        info = {"kind": "skip", "phase": instance.phases[index].label, "phase_index": index}
        return msgspec.structs.replace(instance, phases=kept, corruption=info)
    if kind == "substitute":
        return _substitute(instance, streams, stream)
    raise ValueError(f"unknown corruption {kind!r} (known: {', '.join(KINDS)})")


def _substitute(instance: Instance, streams: RandomStreams, stream: str) -> Instance:
    names = typed_params(instance)
    start = streams.randbelow(stream, len(names)) if names else 0
    for offset in range(len(names)):
        name = names[(start + offset) % len(names)]
        other = _other_value(instance, name, streams, stream)
        if other is not None:
            return other
    raise NoCorruption(f"{instance.id}: no typed value can take another value")


def substitute(instance: Instance | dict, name: str, seed: int) -> Instance:
    """The ``substitute`` corruption of one named parameter, with another draw's value.

    Raises:
        ValueError: ``name`` is not a parameter the phases type or write.
        NoCorruption: no other draw changes what the expert types.
    """
    instance = as_instance(instance)
    if instance.corruption is not None:
        raise ValueError(f"{instance.id}: the instance is already corrupted ({instance.corruption['kind']})")
    if name not in typed_params(instance):
        raise ValueError(f"{instance.id}: {name!r} is not a typed parameter (typed: {', '.join(typed_params(instance))})")
    streams = RandomStreams(seed)
    other = _other_value(instance, name, streams, f"corrupt:substitute:{instance.id}:{name}")
    if other is None:
        raise NoCorruption(f"{instance.id}: no other draw changes {name!r}")
    return other


def _other_value(instance: Instance, name: str, streams: RandomStreams, stream: str) -> Instance | None:
    """The instance with ``name`` taken from another draw that changes what is typed."""
    for _ in range(MAX_DRAWS):
        other_seed = streams.next_u64(stream)
        other = draw_params(instance.procedure, other_seed, instance.builtins)[name]
        if other == instance.params[name]:
            continue
        changed = _with_value(instance, name, other, other_seed)
        if changed.phases != instance.phases:
            return changed
    return None


def _with_value(instance: Instance, name: str, value: Any, other_seed: int) -> Instance:
    scope = {**instance.builtins, **instance.params, name: value}
    phases = []
    for raw, rendered in zip(instance.procedure.phases, instance.phases):
        tool = [
            msgspec.structs.replace(call, payload=render_value(source.payload, scope))
            for source, call in zip(raw.tool, rendered.tool)
        ]
        gui = [
            msgspec.structs.replace(g, text=render_value(source.text, scope)) if isinstance(g, Type) else g
            for source, g in zip(raw.gui, rendered.gui)
        ]
        phases.append(msgspec.structs.replace(rendered, tool=tool, gui=gui))
    info = {"kind": "substitute", "param": name, "original": instance.params[name], "replacement": value, "other_seed": other_seed}
    return msgspec.structs.replace(instance, phases=phases, corruption=info)
