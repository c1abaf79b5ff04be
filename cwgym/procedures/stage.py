"""``stage(world, procedure, seed)``: draw an instance and lay its setup into the world."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from cwgym.procedures.checks import parse_check
from cwgym.procedures.files import abspath
from cwgym.procedures.instance import Instance
from cwgym.procedures.model import Phase, Procedure, SetupEntry
from cwgym.procedures.params import draw_params
from cwgym.procedures.template import render, render_value
from cwgym.procedures.validate import parse_procedure
from cwgym.protocol.definition import file_bytes

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


def coerce_procedure(procedure: Procedure | dict | str) -> Procedure:
    """A :class:`Procedure` from itself, its decoded JSON, or a library id."""
    if isinstance(procedure, Procedure):
        return procedure
    if isinstance(procedure, dict):
        return parse_procedure(procedure)
    if isinstance(procedure, str):
        from cwgym.procedures.library import load_procedure

        return load_procedure(procedure)
    raise TypeError(f"a procedure is a Procedure, a dict or a library id, got {type(procedure).__name__}")


def builtins_for(world: World, procedure: Procedure) -> dict[str, str]:
    machine = world.machine(procedure.machine)
    return {"home": machine.home, "user": machine.user, "machine": machine.id}


def instantiate(procedure: Procedure, seed: int, builtins: dict[str, str], params: dict[str, Any] | None = None) -> Instance:
    """Draw (or take) the parameters and render everything but captured placeholders."""
    if params is None:
        params = draw_params(procedure, seed, builtins)
    scope = {**builtins, **params}
    plan = _plan(procedure)
    if plan is None:  # a procedure msgpack cannot carry (an integer past 64 bits): walk it all
        setup = [_rendered(entry, SetupEntry, scope) for entry in procedure.setup]
        phases = [_rendered(phase, Phase, scope) for phase in procedure.phases]
        verify = [parse_check(render_value(msgspec.to_builtins(check), scope)) for check in procedure.verify]
    else:
        setup = [msgspec.convert(part.fill(scope), SetupEntry) for part in plan.setup]
        phases = [msgspec.convert(part.fill(scope), Phase) for part in plan.phases]
        verify = [parse_check(part.fill(scope)) for part in plan.verify]
    return Instance(
        id=procedure.id,
        domain=procedure.domain,
        world=procedure.world,
        machine=procedure.machine,
        seed=seed,
        params=params,
        builtins=dict(builtins),
        instruction=render(procedure.instruction, scope),
        setup=setup,
        phases=phases,
        verify=verify,
        procedure=procedure,
    )


def _rendered(value: Any, kind: type, scope: dict[str, Any]) -> Any:
    return msgspec.convert(render_value(msgspec.to_builtins(value), scope), kind)


class _Part(NamedTuple):
    """One setup entry, phase or check as plain data (msgpack-encoded), and the strings in
    it that hold a placeholder, with where they are, in the order ``render_value`` meets
    them (so a bad placeholder fails as it would there)."""

    encoded: bytes
    slots: tuple[tuple[tuple[str | int, ...], str], ...]

    def fill(self, scope: dict[str, Any]) -> Any:
        """``render_value(plain, scope)``: a fresh copy with its placeholders filled."""
        value = msgspec.msgpack.decode(self.encoded)
        if not self.slots:
            return value
        if not self.slots[0][0]:  # the part is one string
            return render(self.slots[0][1], scope)
        for path, text in self.slots:
            holder = value
            for step in path[:-1]:
                holder = holder[step]
            holder[path[-1]] = render(text, scope)
        return value


class _Plan(NamedTuple):
    setup: tuple[_Part, ...]
    phases: tuple[_Part, ...]
    verify: tuple[_Part, ...]


#: Procedures' plans by their msgpack encoding (content, never identity): a procedure drawn
#: for many seeds is converted to plain data and searched for placeholders once. Bounded,
#: least recently used out.
_PLANS: OrderedDict[bytes, _Plan] = OrderedDict()
PLANS_KEPT = 64


def _plan(procedure: Procedure) -> _Plan | None:
    """The procedure's plan (``None`` when msgpack cannot encode it)."""
    try:
        key = msgspec.msgpack.encode(procedure)
    except (OverflowError, TypeError, msgspec.EncodeError):
        return None
    plan = _PLANS.get(key)
    if plan is not None:
        _PLANS.move_to_end(key)
        return plan
    try:
        plan = _Plan(
            tuple(_part(msgspec.to_builtins(entry)) for entry in procedure.setup),
            tuple(_part(msgspec.to_builtins(phase)) for phase in procedure.phases),
            tuple(_part(msgspec.to_builtins(check)) for check in procedure.verify),
        )
    except (OverflowError, TypeError, msgspec.EncodeError):
        return None
    _PLANS[key] = plan
    if len(_PLANS) > PLANS_KEPT:
        _PLANS.popitem(last=False)
    return plan


def _part(plain: Any) -> _Part:
    slots: list[tuple[tuple[str | int, ...], str]] = []
    _find_slots(plain, (), slots)
    return _Part(msgspec.msgpack.encode(plain), tuple(slots))


def _find_slots(value: Any, path: tuple[str | int, ...], out: list) -> None:
    """Every string of ``value`` holding ``{{``, depth first as ``render_value`` walks."""
    if isinstance(value, str):
        if "{{" in value:
            out.append((path, value))
    elif isinstance(value, dict):
        for key, item in value.items():
            _find_slots(item, (*path, key), out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _find_slots(item, (*path, index), out)


def stage(world: World, procedure: Procedure | dict | str, seed: int) -> Instance:
    """Draw ``procedure`` for ``seed`` and apply its setup to ``world``.

    The setup is written through the owner's trusted machine handle: files and the
    folders above them belong to the machine's user. A world with history keeps what it
    has; only ``if_absent`` entries leave an existing file as it is.

    Raises:
        ValueError: the world is not the one the procedure runs in, or has no such machine.
    """
    procedure = coerce_procedure(procedure)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise ValueError(f"a seed is an int in 0..2**64-1, got {seed!r}")
    definition = world.runtime.definition  # its id and services never change (only computers and links can)
    world_id = definition.id
    if world_id != procedure.world:
        raise ValueError(f"procedure {procedure.id!r} runs in world {procedure.world!r}, not {world_id!r}")
    named = [procedure.machine, *(e.machine for e in procedure.setup), *(p.machine for p in procedure.phases)]
    for machine_id in dict.fromkeys(m for m in named if m is not None):
        try:
            world.machine(machine_id)
        except KeyError:
            raise ValueError(f"procedure {procedure.id!r}: world {world_id!r} has no machine {machine_id!r}") from None
    services = {s.id for s in definition.services}
    for index, entry in enumerate(procedure.setup):
        if entry.service is not None and entry.service not in services:
            raise ValueError(f"procedure {procedure.id!r}: $.setup[{index}].service: world {world_id!r} has no service {entry.service!r}")
    instance = instantiate(procedure, seed, builtins_for(world, procedure))
    apply_setup(world, instance)
    return instance


def apply_setup(world: World, instance: Instance) -> None:
    for entry in instance.setup:
        if entry.service is not None:
            world.set_service_state(entry.service, entry.state)
            continue
        machine = world.machine(instance.machine_of(entry))
        _apply(machine, entry)


def _apply(machine: Machine, entry: SetupEntry) -> None:
    fs = machine.fs
    uid, gid = machine.cred.uid, machine.cred.gid
    path = abspath(machine, entry.path).rstrip("/") or "/"
    _makedirs(machine, path if entry.dir else path.rsplit("/", 1)[0] or "/")
    if entry.dir:
        return
    if entry.if_absent and fs.exists(path):
        return
    content = entry.content if entry.content is not None else "".join(f"{line}\n" for line in entry.lines or [])
    mode = int(entry.mode, 8) if entry.mode else 0o644
    ino = fs.put_file(path, file_bytes(content, f"setup {entry.path!r}"), uid, gid, mode)
    fs.set_mode(ino, mode)


def _makedirs(machine: Machine, folder: str) -> None:
    """Create the missing folders of ``folder``, owned by the machine's user."""
    fs = machine.fs
    current = ""
    for part in [p for p in folder.split("/") if p]:
        current += "/" + part
        if not fs.exists(current):
            fs.makedirs(current, machine.cred.uid, machine.cred.gid, 0o755)
