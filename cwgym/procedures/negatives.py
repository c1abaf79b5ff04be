"""Corrupted copies of an instance that its own verifier must reject.

* ``skip``: a phase that writes state is left out.
* ``substitute``: one value the expert types or writes (a parameter used in a ``type``
  gesture or a tool call) is replaced by another draw's, while the setup, targets,
  captures and checks stay the original's.

The choice of phase or parameter, and the other draw, follow ``seed``. Passing the
``mode`` the negative will be performed in restricts both to what that mode does: a
phase that acts in it, a value its gestures type (``gui``) or its tool calls write
(``tool``), so the copy really differs from the original when performed that way.
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


MODES = ("gui", "tool")


def _check_mode(mode: str | None) -> None:
    if mode is not None and mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")


def _acts(phase: Phase, mode: str | None) -> bool:
    if mode == "gui":
        return bool(phase.gui)
    if mode == "tool":
        return bool(phase.tool)
    return bool(phase.gui or phase.tool)


def writing_phases(instance: Instance, mode: str | None = None) -> list[int]:
    """Indices of the phases that write state and act (in ``mode``, or in either)."""
    return [i for i, p in enumerate(instance.phases) if p.writes and _acts(p, mode)]


def typed_params(instance: Instance, mode: str | None = None) -> list[str]:
    """Parameters the expert types (``gui``) or writes (``tool``), or either, in order."""
    used: set[str] = set()
    for phase in instance.procedure.phases:
        for value in _typed_values(phase, mode):
            for _, text in walk_strings(value):
                used.update(ref.name for ref in refs(text) if not ref.captured)
    return [p.name for p in instance.procedure.params if p.name in used]


def _typed_values(phase: Phase, mode: str | None = None) -> list[Any]:
    values: list[Any] = []
    if mode != "gui":
        values += [call.payload for call in phase.tool]
    if mode != "tool":
        values += [g.text for g in phase.gui if isinstance(g, Type)]
    return values


def corrupt(instance: Instance | dict, kind: str, seed: int, mode: str | None = None) -> Instance:
    """A corrupted copy of ``instance``; ``corruption`` on it says what was changed.

    With ``mode``, the copy differs in what that mode performs (see the module notes).

    Raises:
        ValueError: an unknown kind or mode, or an instance that is already a corrupted copy.
        NoCorruption: no phase writes state, or no typed value can take another value.
    """
    _check_mode(mode)
    instance = as_instance(instance)
    if instance.corruption is not None:
        raise ValueError(f"{instance.id}: the instance is already corrupted ({instance.corruption['kind']})")
    streams = RandomStreams(seed)
    stream = f"corrupt:{kind}:{instance.id}"
    if kind == "skip":
        phases = writing_phases(instance, mode)
        if not phases:
            raise NoCorruption(f"{instance.id}: no phase writes state")
        index = phases[streams.randbelow(stream, len(phases))]
        kept = [p for i, p in enumerate(instance.phases) if i != index]
        info = {"kind": "skip", "phase": instance.phases[index].label, "phase_index": index}
        if mode is not None:
            info["mode"] = mode
        return msgspec.structs.replace(instance, phases=kept, corruption=info)
    if kind == "substitute":
        return _substitute(instance, streams, stream, mode)
    raise ValueError(f"unknown corruption {kind!r} (known: {', '.join(KINDS)})")


def _substitute(instance: Instance, streams: RandomStreams, stream: str, mode: str | None) -> Instance:
    names = typed_params(instance, mode)
    start = streams.randbelow(stream, len(names)) if names else 0
    for offset in range(len(names)):
        name = names[(start + offset) % len(names)]
        other = _other_value(instance, name, streams, stream, mode)
        if other is not None:
            return other
    raise NoCorruption(f"{instance.id}: no typed value can take another value")


def substitute(instance: Instance | dict, name: str, seed: int, mode: str | None = None) -> Instance:
    """The ``substitute`` corruption of one named parameter, with another draw's value.

    Raises:
        ValueError: ``name`` is not a parameter the phases type or write (in ``mode``).
        NoCorruption: no other draw changes what the expert types.
    """
    _check_mode(mode)
    instance = as_instance(instance)
    if instance.corruption is not None:
        raise ValueError(f"{instance.id}: the instance is already corrupted ({instance.corruption['kind']})")
    typed = typed_params(instance, mode)
    if name not in typed:
        raise ValueError(f"{instance.id}: {name!r} is not a typed parameter (typed: {', '.join(typed)})")
    streams = RandomStreams(seed)
    other = _other_value(instance, name, streams, f"corrupt:substitute:{instance.id}:{name}", mode)
    if other is None:
        raise NoCorruption(f"{instance.id}: no other draw changes {name!r}")
    return other


def _other_value(instance: Instance, name: str, streams: RandomStreams, stream: str, mode: str | None = None) -> Instance | None:
    """The instance with ``name`` taken from another draw that changes what is typed."""
    for _ in range(MAX_DRAWS):
        other_seed = streams.next_u64(stream)
        other = draw_params(instance.procedure, other_seed, instance.builtins)[name]
        if other == instance.params[name]:
            continue
        changed = _with_value(instance, name, other, other_seed)
        if mode is not None and changed.corruption is not None:
            changed.corruption["mode"] = mode
        if _performed(changed, mode) != _performed(instance, mode):
            return changed
    return None


def _performed(instance: Instance, mode: str | None) -> list[Any]:
    """What performing the instance in ``mode`` sends: the gestures, the tool calls, or both."""
    if mode == "gui":
        return [p.gui for p in instance.phases]
    if mode == "tool":
        return [p.tool for p in instance.phases]
    return list(instance.phases)


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
