"""``Runtime``: the one object that holds a world, under the owner and actor facades.

``World`` (the owner's handle) and ``Environment`` (an actor's) are thin facades over a
runtime; action families, observation channels, sessions and replay receive it. It holds:

- the world's identity: its definition (and that definition's digest), the registered
  action families and observation channels, and the extensions an owner added;
- its state, as an ordered set of :class:`~cwgym.kernel.subsystem.Subsystem` objects (the
  kernel's clock and random streams, the topology, the machines, the sessions, and any
  subsystem registered in :data:`~cwgym.kernel.subsystem.SUBSYSTEMS`), which it freezes,
  thaws, digests, exports, loads and inspects with one loop each;
- its history: the hash-chained journal;
- caches outside the state, keyed by content so they never change a result: the
  desktops' repaint caches (shared with forks and kept across restores) and the
  incremental renderers of recent viewports; and the seat last made for each session's
  desktop, reused only while it binds the very same objects.

The internal API (used across the package; stable within an engine version):
``record``, ``step``, ``observe``, ``visual``, ``grant``, ``check_config``, ``session``,
``seat``, ``machine_theme``, ``sleep``, ``freeze``, ``thaw``, ``fork``, ``state_hash``,
``export``, ``load``, ``inspect``, ``reset``, ``add_computer``, ``remove_computer``; and
the subsystems as ``kernel``, ``clock``, ``scheduler``, ``topology``, ``machines``,
``sessions`` (``subsystems`` for all of them).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from cwgym._version import engine_version
from cwgym.apps import APPS
from cwgym.desktop.autostart import run_autostart
from cwgym.desktop.scene_cache import SceneCache
from cwgym.desktop.seat import Seat
from cwgym.desktop.state import Desktop
from cwgym.desktop.themes import THEMES
from cwgym.environment.browsers import Browsers  # noqa: F401 — the built-in subsystems register
from cwgym.environment.channels import CHANNELS
from cwgym.environment.effects import DESKTOP_PARTS, effect_between, visible_projection
from cwgym.environment.extension import ActionContext, ActionFamily, ObservationChannel
from cwgym.environment.external import Externals
from cwgym.environment.families import FAMILIES
from cwgym.environment.listeners import program_listener
from cwgym.environment.metadata import check_metadata, web_apps
from cwgym.environment.netport import MachineNet, fetch_from
from cwgym.environment.session import Session, Sessions
from cwgym.environment.signing import sign, verify
from cwgym.environment.topology import Topology
from cwgym.kernel import Journal, verify_chain
from cwgym.kernel.clock import Clock
from cwgym.kernel.digest import canonical, sha256_hex
from cwgym.kernel.journal import JournalEntry
from cwgym.kernel.scheduler import Scheduler
from cwgym.kernel.state import KernelState
from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert, ordered
from cwgym.machine._userdata import peek_all
from cwgym.machine.invitations import ACCOUNT_FILE, poll_invitations
from cwgym.machine.machine import Machine
from cwgym.machine.machines import Machines
from cwgym.machine.notifications import SCHEDULED_FILE, fire_due
from cwgym.net.http import Request, Response
from cwgym.net.network import Network
from cwgym.net.public_web import join_public_web
from cwgym.protocol import BUILTIN_CHANNELS, BUILTIN_FAMILIES, errors
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.definition import (
    Computer,
    DefinitionError,
    Link,
    Node,
    WorldDefinition,
    check_definition,
    load_definition,
)
from cwgym.protocol.envelope import ActionEnvelope, ActionOutcome, parse_envelope
from cwgym.protocol.limits import MAX_VIEWPORT_PIXELS, MAX_VIEWPORT_SIDE, viewport_ok
from cwgym.protocol.plain import MAX_STRING, NotPlainData, check_json, clone
from cwgym.render import Renderer

__all__ = ["SNAPSHOT_FORMAT", "Runtime", "RuntimeFrozen"]

SNAPSHOT_FORMAT = "cwgym-snapshot/1"
GUI_FAMILIES = frozenset({"application.v1", "pointer.v1", "keyboard.v1"})
#: Error codes after which the session's state is put back as it was before the action
#: (a desktop created or a viewport stored on the way to the refusal): refusals change
#: nothing. ``not_found`` and ``action_failed`` may carry the effect of what happened first.
UNDONE = frozenset({errors.INVALID, errors.DENIED})
#: A desktop no one has used (what a look at a machine without one of its own shows).
_EMPTY_DESKTOP = Desktop().frozen()
#: The files :func:`fire_due` and :func:`poll_invitations` need to find anything to do.
_DUE_FILES = (SCHEDULED_FILE, ACCOUNT_FILE)
#: The document keys every snapshot has besides its subsystems' sections.
HEADER = ("format", "engine_version", "definition_digest", "extensions", "journal", "verify_steps", "state_hash")


class RuntimeFrozen(msgspec.Struct, frozen=True):
    """What a :class:`~cwgym.environment.snapshot.Snapshot` holds: every subsystem frozen."""

    engine_version: str
    definition_digest: str
    extensions: tuple
    subsystems: tuple  # ((name, frozen), ...) in build order
    journal: Any
    verify_steps: bool


class Runtime:
    """A world's definition, state, history and caches; see the module docstring."""

    def __init__(self, definition: WorldDefinition, seed: int) -> None:
        check_metadata(definition)
        if definition.internet:  # the bundled public web joins the world's own network
            definition = join_public_web(definition)
            check_definition(definition)
        self.definition = definition
        #: the world's web apps (``metadata.desktop_apps``): id -> (label, url)
        self.web_apps = web_apps(definition)
        self.definition_plain = definition.to_plain()
        self.definition_digest = sha256_hex(canonical(self.definition_plain))
        self.families: dict[str, ActionFamily] = dict(FAMILIES.items())
        self.channels: dict[str, ObservationChannel] = dict(CHANNELS.items())
        self.extensions: dict[tuple[str, str], str] = {}
        self.kinds: list[type[Subsystem]] = ordered([kind for _, kind in SUBSYSTEMS.items()])
        self.verify_steps = False
        #: content-keyed repaint caches, by (theme, granted families): shared with forks
        self.gui_cache: dict[Any, Any] = {}
        self.renderers: dict[tuple[str, int, int], Renderer] = {}
        #: the seat made last for each (session, machine), while its objects are the same
        self._seats: dict[tuple[str, str], tuple[Session, EnvironmentConfig, Seat]] = {}
        #: what subsystems compute from the definition alone (the DNS zone): shared with forks
        self.derived: dict[str, Any] = {}
        #: live effects on the real internet the owner has begun and not resolved
        self.external = Externals(self)
        self.build(seed)

    # -- state -----------------------------------------------------------------------
    def build(self, seed: int) -> None:
        """Fresh state from the definition with ``seed``; the journal starts empty."""
        self.seed = seed
        self.journal = Journal()
        self.external.new_timeline()
        self.subsystems: dict[str, Subsystem] = {}
        for kind in self.kinds:
            self.subsystems[kind.name] = kind.build(self)

    @property
    def kernel(self) -> KernelState:
        return self.subsystems["kernel"]  # type: ignore[return-value]

    @property
    def clock(self) -> Clock:
        return self.subsystems["kernel"].clock  # type: ignore[attr-defined]

    @property
    def scheduler(self) -> Scheduler:
        return self.subsystems["kernel"].scheduler  # type: ignore[attr-defined]

    @property
    def topology(self) -> Topology:
        return self.subsystems["topology"]  # type: ignore[return-value]

    @property
    def machines(self) -> Machines:
        return self.subsystems["machines"]  # type: ignore[return-value]

    @property
    def sessions(self) -> Sessions:
        return self.subsystems["sessions"]  # type: ignore[return-value]

    def sleep(self, delta_us: int) -> None:
        """Advance logical time (a shell's ``sleep``) and run the work that falls due."""
        clock, scheduler = self.clock, self.scheduler
        target = clock.now_us + delta_us
        while True:
            task = scheduler.pop_due(target)
            if task is None:
                break
            clock.advance_to(max(clock.now_us, task.due_us))
        clock.advance_to(target)

    def raise_due_notifications(self) -> None:
        """Raise every machine's scheduled notifications (alarms, timers, reminders) whose
        time the logical clock has reached, and its calendar sync's new invitations: after
        every action."""
        for _, machine in self.machines.items():
            # both are no-ops without their file, which most homes lack: one look for both
            scheduled, account = peek_all(machine, _DUE_FILES)
            if scheduled is not None:
                fire_due(machine)
            if account is not None:
                poll_invitations(machine)

    def record(self, kind: str, machine: str | None, actor: str | None, data: Any) -> None:
        """Append an event to the journal at the current tick."""
        self.journal.append(self.clock.now_us, kind, machine, actor, data)

    # -- network ---------------------------------------------------------------------
    @property
    def network(self) -> Network:
        return self.subsystems["network"]  # type: ignore[return-value]

    def http(self, machine_id: str, request: Request, actor: str | None = None) -> Response:
        """One HTTP request from machine ``machine_id`` (see :func:`~cwgym.environment.netport.fetch_from`).

        Raises:
            KeyError: no such machine.
            NetError: the request got no response.
        """
        return fetch_from(self, machine_id, request, actor)

    def net_port(self, machine_id: str) -> MachineNet:
        """What programs on machine ``machine_id`` reach the network through (``Machine.net``)."""
        return MachineNet(self, machine_id)

    #: what answers on (node, port) from a program listening there; the network asks it
    program_listener = program_listener

    # -- sessions --------------------------------------------------------------------
    def check_config(self, config: Any) -> EnvironmentConfig:
        """``config`` as a checked, de-duplicated grant.

        Raises:
            ValueError: unknown family, channel or machine; blank actor; no machines; a
                budget below 1; or a malformed config.
        """
        if isinstance(config, dict):
            try:
                config = msgspec.convert(config, EnvironmentConfig)
            except msgspec.ValidationError as exc:
                raise ValueError(f"invalid: malformed environment config ({exc})") from None
        if not isinstance(config, EnvironmentConfig):
            raise ValueError("invalid: environment config must be a dict or an EnvironmentConfig")
        if not config.actor or not config.actor.strip():
            raise ValueError("invalid: invalid actor configuration (blank actor)")
        if not config.machines:
            raise ValueError("invalid: invalid actor configuration (no machines)")
        if config.action_budget < 1:
            raise ValueError("invalid: invalid actor configuration (action_budget must be at least 1)")
        for family in config.actions:
            if family not in self.families:
                raise ValueError(f"invalid: unknown action family {family!r}")
        for channel in config.observations:
            if channel not in self.channels:
                raise ValueError(f"invalid: unknown observation channel {channel!r}")
        for machine in config.machines:
            if machine not in self.machines:
                raise ValueError(f"invalid: unknown granted machine {machine!r}")
        return EnvironmentConfig(
            actor=config.actor,
            machines=list(dict.fromkeys(config.machines)),
            actions=list(dict.fromkeys(config.actions)),
            observations=list(dict.fromkeys(config.observations)),
            action_budget=config.action_budget,
        )

    def check_grant(self, session_id: str, config: EnvironmentConfig, where: str) -> None:
        """Refuse an imported session whose grant this world could not have given: one
        that does not check, or that is wider than what the journal says was granted."""
        try:
            checked = self.check_config(config)
        except ValueError as exc:
            raise SnapshotError(where, str(exc).removeprefix("invalid: ")) from None
        if checked != config:
            raise SnapshotError(where, "lists a machine, family or channel twice")
        granted = None
        for entry in self.journal.entries():
            if entry.kind == "session.granted" and isinstance(entry.data, dict) and entry.data.get("session") == session_id:
                granted = entry.data.get("config")
        if not isinstance(granted, dict):
            raise SnapshotError(where, f"the journal never granted session {session_id!r}")
        for field in ("actions", "observations"):
            if getattr(config, field) != granted.get(field):
                raise SnapshotError(f"{where}.{field}", "differs from what the journal granted")
        if config.actor != granted.get("actor") or config.action_budget != granted.get("action_budget"):
            raise SnapshotError(where, "actor or budget differs from what the journal granted")
        if not set(config.machines) <= set(granted.get("machines") or ()):
            raise SnapshotError(f"{where}.machines", "wider than what the journal granted")

    def grant(self, config: EnvironmentConfig, session_id: str | None = None) -> Session:
        """Add a session with a checked ``config``; a desktop session logs in."""
        session = self.sessions.add(config, session_id)
        self.record("session.granted", None, config.actor, {"session": session.id, "config": config.to_plain()})
        self._login(session)
        return session

    def _login(self, session: Session) -> None:
        if "application.v1" not in session.config.actions:
            return
        for machine_id in session.machines:
            if self.machine_theme(machine_id) is None:
                continue
            machine = self.machines[machine_id]
            for path in machine.first_login():
                self.record("filesystem.mkdir", machine_id, machine.user, {"path": path})
            self._autostart(session, machine_id)

    def _autostart(self, session: Session, machine_id: str) -> None:
        """Open the machine user's autostart windows on the session's new desktop."""
        machine = self.machines[machine_id]
        seat = self.seat(session, machine_id)  # a fresh desktop, kept only if a window opens
        for item in run_autostart(seat):
            if item.error is None:
                data = {"file": item.name, "window": item.window, "once": item.once}
            else:
                data = {"file": item.name, "error": item.error}
            self.record("application.autostart", machine_id, machine.user, data)
        if seat.desk.windows:
            session.desktops[machine_id] = seat.desk

    def session(self, session_id: str) -> Session:
        """The session, or the whole-call refusal ``unknown_session``."""
        session = self.sessions.get(session_id)
        if session is None:
            raise errors.Refused(errors.UNKNOWN_SESSION)
        return session

    def machine_theme(self, machine_id: str) -> str | None:
        """The desktop theme the world's definition names for a machine, or ``None``."""
        themes = self.definition.metadata.get("desktop_themes")
        name = themes.get(machine_id) if isinstance(themes, dict) else None
        return name if isinstance(name, str) else None

    def desktop_session(self, machine_id: str) -> str | None:
        """The latest graphical session on ``machine_id``, or ``None`` (see ``World``)."""
        if self.machine_theme(machine_id) is None:
            return None
        found = None
        for s in self.sessions:
            if machine_id in s.machines and (machine_id in s.desktops or not GUI_FAMILIES.isdisjoint(s.config.actions)):
                found = s.id
        return found

    def seat(self, session: Session, machine_id: str, *, create: bool = False) -> Seat:
        """The session's desktop on ``machine_id``, bound to the machine, theme and grants.

        With ``create``, a session that had no desktop there gets one kept in its state (the
        GUI families act on it); otherwise a fresh empty desktop is used and not kept
        (looking at a screen changes nothing). The repaint cache is the one of the theme and
        the granted families: its keys are content, so every session of the world and its
        forks share it.
        """
        desk = session.desktops.get(machine_id)
        machine = self.machines[machine_id]
        config = session.config
        kept = self._seats.get((session.id, machine_id))
        if kept is not None and not (desk is None and create):
            # a seat only binds objects together: the last one, while they are the same (a
            # look without a desktop of its own, while its desktop is still a fresh one)
            held, granted, seat = kept
            if held is session and granted is config and seat.machine is machine and (
                seat.desk is desk if desk is not None else seat.desk.frozen() == _EMPTY_DESKTOP
            ):
                return seat
        if desk is None:
            desk = Desktop()
            if create:
                session.desktops[machine_id] = desk
        name = self.machine_theme(machine_id)
        key = (name, tuple(sorted(config.actions)))
        cache = self.gui_cache.get(key)
        if cache is None:
            cache = self.gui_cache[key] = SceneCache()
        seat = Seat(
            desk,
            machine,
            THEMES.get(name) if name else None,
            frozenset(config.actions),
            frozenset(config.observations),
            cache,
            latch=lambda result: session.terminal.__setitem__(machine_id, result),
            apps=APPS,
            web_apps=self.web_apps,
        )
        if len(self._seats) >= 256:
            self._seats.clear()
        self._seats[(session.id, machine_id)] = (session, config, seat)
        return seat

    # -- acting ----------------------------------------------------------------------
    def step(self, session_id: str, actions: Any) -> list[ActionOutcome]:
        """Dispatch a batch in order; the two whole-call refusals raise before anything runs.

        Each outcome's ``value`` is the caller's own: a copy, unless its family builds
        values afresh (``owned``, as an observation channel may declare)."""
        session = self.session(session_id)
        if not isinstance(actions, (list, tuple)):
            raise ValueError("invalid: step takes a list of action envelopes")
        if len(actions) > session.config.action_budget:
            raise errors.Refused(errors.ACTION_BUDGET_EXCEEDED)
        return [self._dispatch(session, index, raw) for index, raw in enumerate(actions)]

    def _dispatch(self, session: Session, index: int, raw: Any) -> ActionOutcome:
        envelope = parse_envelope(raw)
        if envelope is None:
            outcome = ActionOutcome(index, False, None, errors.error(errors.INVALID))
            self._record_action(session, None, outcome)
            return outcome
        if envelope.machine not in session.machines:
            outcome = ActionOutcome(index, False, None, errors.refusal(errors.MACHINE_NOT_GRANTED))
        elif envelope.family not in session.config.actions:
            outcome = ActionOutcome(index, False, None, errors.refusal(errors.ACTION_FAMILY_NOT_GRANTED))
        else:
            outcome = self._run(session, index, envelope)
        self._record_action(session, envelope, outcome)
        return outcome

    def _run(self, session: Session, index: int, envelope: ActionEnvelope) -> ActionOutcome:
        machine = self.machines[envelope.machine]
        family = self.families[envelope.family]
        desktop = getattr(family, "touches_desktop", True)
        before = visible_projection(session, machine, self.subsystems.get("browsers"), desktop=desktop)
        ctx = ActionContext(self, session, machine)
        kept = None if getattr(family, "refuses_first", False) else session.frozen()
        try:
            value = family.dispatch(ctx, envelope.op, envelope.payload)
            if not getattr(family, "owned", False):
                value = clone(value)
            success, error = True, None
        except errors.ActionError as exc:
            value, success, error = None, False, exc.error
            if error.code in UNDONE and not exc.keep and kept is not None:
                session.restore(kept)  # a refused or invalid action changes nothing
        self.raise_due_notifications()
        after = visible_projection(session, machine, self.subsystems.get("browsers"))
        if not desktop:  # the desktop is as the action found it: look at it once
            before.update({tag: after[tag] for tag in DESKTOP_PARTS})
        effect = effect_between(before, after, machine)
        return ActionOutcome(index, success, value if success else None, error, effect)

    def _record_action(self, session: Session, envelope: ActionEnvelope | None, outcome: ActionOutcome) -> None:
        data: dict[str, Any] = {
            "action": envelope.to_plain() if envelope is not None else None,
            "session": session.id,
            "success": outcome.success,
        }
        if self.verify_steps:
            data["state"] = self.state_hash()
        machine = envelope.machine if envelope is not None else None
        self.record("agent.action", machine, session.config.actor, data)

    def observe(self, session: Session) -> dict[str, Any]:
        """The session's granted channels now (never rasterizes), as values the caller owns."""
        channels = {}
        for name in session.config.observations:
            channel = self.channels[name]
            value = channel.observe(self, session)
            channels[name] = value if getattr(channel, "owned", False) else clone(value)
        return {"tick": self.clock.now_us, "channels": channels}

    def peek(self, session: Session) -> dict[str, Any]:
        """The session's granted channels now, as :meth:`observe` gives them, except that a
        channel able to (``semantic.v1``) hands out the values its cache keeps instead of
        fresh copies. For owner-side readers that only read (the RL layer builds its element
        table from the view each step); never for an actor, whose values are its own."""
        channels = {}
        for name in session.config.observations:
            channel = self.channels[name]
            peek = getattr(channel, "peek", None)
            if peek is not None:
                channels[name] = peek(self, session)
                continue
            value = channel.observe(self, session)
            channels[name] = value if getattr(channel, "owned", False) else clone(value)
        return {"tick": self.clock.now_us, "channels": channels}

    def visual(self, session_id: str, width: int, height: int, kind: str, *, gate: bool = True) -> Any:
        """A session's screen at a viewport: ``kind`` ``scene`` (plain), ``typed`` (a
        ``Scene``) or ``render`` (a frame); ``gate`` requires a visual channel."""
        session = self.session(session_id)
        granted = session.config.observations
        if gate and "semantic.v1" not in granted and "pixels.v1" not in granted:
            raise errors.Refused(errors.VISUAL_OBSERVATION_NOT_GRANTED)
        if not viewport_ok(width, height):
            raise ValueError(
                f"invalid: a viewport is 1..{MAX_VIEWPORT_SIDE} pixels a side and at most "
                f"{MAX_VIEWPORT_PIXELS} pixels, got {width!r}x{height!r}"
            )
        if session.focus is None or session.focus not in self.machines:
            raise errors.Refused(errors.MACHINE_NOT_GRANTED)
        scene = self.seat(session, session.focus).scene(width, height)
        if kind == "scene":
            return scene.to_plain()
        if kind == "typed":
            return scene.detached()
        return {"width": width, "height": height, "rgba": self.renderer(session_id, width, height).render(scene)}

    def renderer(self, session_id: str, width: int, height: int) -> Renderer:
        """The incremental renderer of one session's viewport (a cache outside the state:
        its frames are byte-identical to full renders, so it never affects results)."""
        key = (session_id, width, height)
        renderer = self.renderers.pop(key, None) or Renderer()
        self.renderers[key] = renderer  # most recently used last
        while len(self.renderers) > 8:
            del self.renderers[next(iter(self.renderers))]
        return renderer

    # -- snapshots -------------------------------------------------------------------
    def extension_signature(self) -> tuple:
        return tuple(sorted((kind, name, version) for (kind, name), version in self.extensions.items()))

    def freeze(self) -> RuntimeFrozen:
        """Every subsystem frozen. Refused while an external effect is unresolved."""
        self.external.check_checkpointable()
        return RuntimeFrozen(
            engine_version,
            self.definition_digest,
            self.extension_signature(),
            tuple((name, sub.freeze()) for name, sub in self.subsystems.items()),
            self.journal.head,
            self.verify_steps,
        )

    def check_compatible(self, frozen: RuntimeFrozen) -> None:
        if frozen.engine_version != engine_version:
            raise ValueError(f"invalid: checkpoint was written by engine {frozen.engine_version}, this is {engine_version}")
        if frozen.definition_digest != self.definition_digest:
            raise ValueError("invalid: checkpoint belongs to a different world definition")
        if frozen.extensions != self.extension_signature():
            raise ValueError("invalid: checkpoint was taken with other registered extensions")
        if [name for name, _ in frozen.subsystems] != [kind.name for kind in self.kinds]:
            raise ValueError("invalid: checkpoint was taken with other subsystems")

    def thaw(self, frozen: RuntimeFrozen) -> None:
        """Return to ``frozen`` exactly (checked compatible by the caller)."""
        self.external.new_timeline()
        subsystems: dict[str, Subsystem] = {}
        self.subsystems = subsystems  # later subsystems thaw against earlier ones
        for kind, (_, value) in zip(self.kinds, frozen.subsystems):
            subsystems[kind.name] = kind.thaw(self, value)
        self.seed = self.kernel.seed
        self.journal = Journal(frozen.journal)
        self.verify_steps = frozen.verify_steps

    def sibling(self) -> Runtime:
        """A runtime with this one's identity (definition, families, channels, extensions,
        subsystem kinds, shared repaint caches) and no state yet: thaw or load into it."""
        runtime = Runtime.__new__(Runtime)
        runtime.definition = self.definition
        runtime.definition_plain = self.definition_plain
        runtime.definition_digest = self.definition_digest
        runtime.web_apps = self.web_apps
        runtime.families = dict(self.families)
        runtime.channels = dict(self.channels)
        runtime.extensions = dict(self.extensions)
        runtime.kinds = list(self.kinds)
        runtime.verify_steps = self.verify_steps
        runtime.gui_cache = self.gui_cache
        runtime.derived = self.derived
        runtime.renderers = {}
        runtime._seats = {}
        runtime.seed = self.seed
        runtime.journal = Journal()
        runtime.subsystems = {}
        runtime.external = Externals(runtime)
        return runtime

    def fork(self, frozen: RuntimeFrozen | None = None) -> Runtime:
        """A new runtime starting from ``frozen`` (now, when omitted); see :meth:`sibling`."""
        frozen = self.freeze() if frozen is None else frozen
        self.check_compatible(frozen)
        runtime = self.sibling()
        runtime.thaw(frozen)
        return runtime

    def reset(self, seed: int) -> None:
        """Rebuild from the original blueprint with ``seed``; sessions survive and log in afresh."""
        sessions = list(self.sessions)
        next_number = self.sessions.next_number
        verify = self.verify_steps
        self.build(seed)
        self.verify_steps = verify
        self.sessions.next_number = next_number
        for old in sessions:
            machines = [m for m in old.machines if m in self.machines]
            if machines:
                self.grant(msgspec.structs.replace(old.config, machines=machines), old.id)

    # -- hashing, export and import --------------------------------------------------
    def state_hash(self) -> str:
        """A sha256 hex digest of the whole state (not its history), naming the engine version."""
        parts: list[Any] = [engine_version, self.definition_digest, self.extension_signature()]
        for sub in self.subsystems.values():
            parts.extend(sub.digest())
        return hashlib.sha256(canonical(parts)).hexdigest()

    def export(self, key: bytes | str | None = None) -> str:
        """The current state as a portable JSON snapshot document, signed under ``key``
        when one is given (see :mod:`cwgym.environment.signing`). Refused while an
        external effect is unresolved."""
        self.external.check_checkpointable()
        document: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "engine_version": engine_version,
            "definition_digest": self.definition_digest,
            "extensions": [list(e) for e in self.extension_signature()],
        }
        for sub in self.subsystems.values():
            document.update(sub.export())
        document["journal"] = self.journal.entries()
        document["verify_steps"] = self.verify_steps
        document["state_hash"] = self.state_hash()
        if key is not None:
            document["signature"] = sign(msgspec.to_builtins(document), key)
        return msgspec.json.encode(document).decode()

    def load(self, text: str | bytes, key: bytes | str | None = None) -> None:
        """Replace the state with an exported snapshot; on any refusal nothing changes.

        With ``key``, the document must carry the signature ``export(key)`` gave it.

        Refused when the text is not a snapshot, was written by another engine version,
        belongs to another definition, extension set or subsystem set, carries a tampered
        journal, holds state a world could not have (see each subsystem's ``load``), or does
        not hash to the state it claims.
        """
        try:
            loose = msgspec.json.decode(text)
        except msgspec.DecodeError as exc:
            raise ValueError(f"serialization: not JSON ({exc})") from None
        if not isinstance(loose, dict) or loose.get("format") != SNAPSHOT_FORMAT:
            raise ValueError(f"serialization: not a cwgym snapshot (format must be {SNAPSHOT_FORMAT!r})")
        signature = loose.pop("signature", None)
        if key is not None and not verify(loose, signature, key):
            raise ValueError("invalid: the snapshot's signature is missing or does not match")
        if loose.get("engine_version") != engine_version:
            raise ValueError(
                f"invalid: snapshot was written by engine {loose.get('engine_version')!r}, this is {engine_version}"
            )
        if loose.get("definition_digest") != self.definition_digest:
            raise ValueError("invalid: checkpoint belongs to a different world definition")
        extensions = convert(loose.get("extensions"), list[list[str]], "extensions")
        if [tuple(e) for e in extensions] != list(self.extension_signature()):
            raise ValueError("invalid: checkpoint was taken with other registered extensions")
        owned = [key for kind in self.kinds for key in kind.sections]
        unknown = sorted(set(loose) - set(owned) - set(HEADER))
        missing = [key for key in (*owned, *HEADER) if key not in loose]
        if unknown or missing:
            raise ValueError(f"invalid: snapshot sections do not match this world's subsystems (unknown {unknown}, missing {missing})")
        try:
            check_json(loose["journal"], "journal", max_text=MAX_STRING)
        except NotPlainData as exc:
            raise SnapshotError(exc.path, exc.problem, "serialization") from None
        journal = convert(loose["journal"], list[JournalEntry], "journal")
        bad = verify_chain(journal)
        if bad is not None:
            raise ValueError(f"invalid: invalid action journal (entry {bad})")
        verify_steps = convert(loose["verify_steps"], bool, "verify_steps")
        staged = self.sibling()
        staged.journal = Journal.from_entries(journal)  # grants are checked against it
        try:
            for kind in self.kinds:
                staged.subsystems[kind.name] = kind.load(staged, {key: loose[key] for key in kind.sections})
        except SnapshotError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, DefinitionError) as exc:
            raise ValueError(f"invalid: snapshot state is inconsistent ({exc})") from None
        staged.seed = staged.kernel.seed
        staged.verify_steps = verify_steps
        if staged.state_hash() != loose["state_hash"]:
            raise ValueError("invalid: snapshot state does not match its recorded state hash")
        self.thaw(staged.freeze())

    # -- owner inspection ------------------------------------------------------------
    def inspect(self) -> dict[str, Any]:
        """Privileged ground truth, one part per subsystem (see ``World.inspect``)."""
        state: dict[str, Any] = {}
        for sub in self.subsystems.values():
            part = sub.inspect()
            clash = sorted(set(part) & set(state))
            if clash:
                raise RuntimeError(f"subsystem {sub.name!r} inspects keys another subsystem uses: {clash}")
            state.update(part)
        states = self.network.services  # each service as defined, with its state now
        state["services"] = [{**msgspec.to_builtins(s), "state": states[s.id]} for s in self.definition.services]
        determinism = state.setdefault("determinism", {})
        determinism["journal"] = {"entries": len(self.journal), "head": self.journal.chain}
        return {
            "definition": msgspec.json.decode(msgspec.json.encode(self.definition_plain)),
            "engine": f"cwgym/{engine_version}",
            "state": state,
        }

    # -- topology --------------------------------------------------------------------
    def current_definition(self) -> dict[str, Any]:
        """The definition as plain data with today's computers, nodes and links (the
        blueprint's own object when the topology never changed)."""
        topology, blueprint = self.topology, self.definition
        if (topology.computers, topology.links) == (tuple(blueprint.computers), tuple(blueprint.network.links)):
            return self.definition_plain
        declared = {n.id for n in blueprint.network.nodes}
        implicit = {c.node_id for c in blueprint.computers if c.node_id not in declared}
        plain = dict(self.definition_plain)
        plain["computers"] = [msgspec.to_builtins(c) for c in topology.computers]
        plain["network"] = {**plain["network"],
                            "nodes": [msgspec.to_builtins(n) for n in topology.nodes if n.id not in implicit],
                            "links": [msgspec.to_builtins(link) for link in topology.links]}
        return plain

    def add_computer(self, computer: Any, node: Any, links: Any = ()) -> None:
        """Add a machine with its network node and links. Atomic: on error nothing changes."""
        if len(self.scheduler):
            raise ValueError("invalid: the topology cannot change while continuations are pending")
        try:
            computer = msgspec.convert(computer, Computer) if not isinstance(computer, Computer) else computer
            node = msgspec.convert(node, Node) if not isinstance(node, Node) else node
            links = [msgspec.convert(link, Link) if not isinstance(link, Link) else link for link in links]
        except msgspec.ValidationError as exc:
            raise ValueError(f"invalid: malformed computer, node or link ({exc})") from None
        topology = self.topology
        trial = msgspec.structs.replace(
            self.definition,
            computers=[*topology.computers, computer],
            network=msgspec.structs.replace(
                self.definition.network, nodes=[*topology.nodes, node], links=[*topology.links, *links]
            ),
        )
        if any(n.id == node.id for n in topology.nodes):
            raise ValueError("invalid: network node already exists")
        if node.id != computer.node_id:
            raise ValueError(f"invalid: node {node.id!r} is not the computer's node {computer.node_id!r}")
        try:
            load_definition(trial)
        except DefinitionError as exc:
            raise ValueError(f"invalid: {exc}") from None
        self.machines.add(computer)
        topology.computers = (*topology.computers, computer)
        topology.nodes = (*topology.nodes, node)
        topology.links = (*topology.links, *links)
        self.record(
            "topology.add_computer",
            computer.id,
            None,
            {"computer": msgspec.to_builtins(computer), "node": msgspec.to_builtins(node),
             "links": [msgspec.to_builtins(link) for link in links]},
        )

    def remove_computer(self, computer_id: str) -> None:
        """Remove a machine, its node and links; revoke its grants and repair session focus."""
        topology = self.topology
        computer = topology.computer(computer_id)
        if computer is None:
            raise ValueError(f"not_found: computer {computer_id!r}")
        if len(self.scheduler):
            raise ValueError("invalid: the topology cannot change while continuations are pending")
        node_id = computer.node_id
        hosted = [s.id for s in self.definition.services if s.node == node_id]
        if hosted:
            raise ValueError(f"invalid: computer {computer_id!r} hosts services {hosted}; remove refused")
        topology.computers = tuple(c for c in topology.computers if c.id != computer_id)
        topology.nodes = tuple(n for n in topology.nodes if n.id != node_id)
        topology.links = tuple(link for link in topology.links if node_id not in (link.from_, link.to))
        self.machines.remove(computer_id)
        self.subsystems["browsers"].by_machine.pop(computer_id, None)
        revoked = []
        for session in self.sessions:
            if computer_id not in session.machines:
                continue
            machines = [m for m in session.machines if m != computer_id]
            revoked.append(session.id)
            if not machines:
                self.sessions.remove(session.id)
                continue
            session.config = msgspec.structs.replace(session.config, machines=machines)
            session.terminal.pop(computer_id, None)
            if session.focus == computer_id:
                session.focus = machines[0]
        self.record("topology.remove_computer", computer_id, None, {"computer": computer_id, "revoked": revoked})

    # -- extensions ------------------------------------------------------------------
    def register(self, kind: str, name: str, impl: Any) -> None:
        """Add an owner-supplied ``family`` or ``channel`` to this world (trusted code)."""
        builtins, table = (BUILTIN_FAMILIES, self.families) if kind == "family" else (BUILTIN_CHANNELS, self.channels)
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"invalid: {kind} name must be a non-empty string")
        if name in builtins or (kind == "family" and name in FAMILIES) or (kind == "channel" and name in CHANNELS):
            raise ValueError(f"invalid: {name!r} collides with a built-in {kind}")
        if name in table:
            raise ValueError(f"invalid: {kind} {name!r} is already registered")
        version = getattr(impl, "version", None)
        if not isinstance(version, str) or not version:
            raise ValueError(f"invalid: {kind} {name!r} must declare a non-empty string version")
        table[name] = impl
        self.extensions[(kind, name)] = version

    def machine(self, machine_id: str) -> Machine:
        """The machine, or ``KeyError`` naming it."""
        machine = self.machines.get(machine_id)
        if machine is None:
            raise KeyError(f"no computer {machine_id!r}")
        return machine
