"""``World``: the owner's handle on a whole simulated world.

It builds machines from a definition and a seed, grants sessions, takes and restores
snapshots, hashes and exports state, and edits the topology. Agents never get a World;
they get an :class:`~cwgym.environment.actor.Environment`.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from cwgym._version import engine_version
from cwgym.desktop.autostart import run_autostart
from cwgym.desktop.state import Desktop
from cwgym.environment.channels import ObservationChannel, builtin_channels
from cwgym.environment.effects import effect_between, visible_projection
from cwgym.environment.families import ActionContext, ActionFamily, builtin_families
from cwgym.environment.session import Session, machine_theme, seat_for
from cwgym.environment.snapshot import (
    SNAPSHOT_FORMAT,
    InodeDoc,
    KernelDoc,
    MachineDoc,
    SessionDoc,
    ShellDoc,
    Snapshot,
    SnapshotDocument,
    WorldFrozen,
)
from cwgym.kernel import Clock, IdCounters, Journal, RandomStreams, Scheduler, verify_chain
from cwgym.kernel.digest import canonical, sha256_hex, value_digest
from cwgym.kernel.rng import ALGORITHM as RNG_ALGORITHM
from cwgym.machine.filesystem import Filesystem, Inode
from cwgym.machine.machine import Machine, ShellState
from cwgym.machine.processes import ProcessTable
from cwgym.protocol import BUILTIN_CHANNELS, BUILTIN_FAMILIES, errors
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.definition import Computer, DefinitionError, Link, Node, load_definition
from cwgym.protocol.envelope import ActionEnvelope, ActionOutcome, parse_envelope
from cwgym.render import Renderer
from cwgym.scene import Scene

_GUI_FAMILIES = frozenset({"application.v1", "pointer.v1", "keyboard.v1"})

_MAX_SEED = (1 << 64) - 1
#: The largest viewport ``scene``/``render`` accept, in pixels (width * height).
MAX_VIEWPORT_PIXELS = 16_777_216


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed <= _MAX_SEED:
        raise OverflowError(f"seed must be within 0..2**64-1, got {seed}")
    return seed


class World:
    """A deterministic world: a pure function of (engine, definition, seed, actions)."""

    def __init__(self, definition: Any, seed: int = 0) -> None:
        self._definition = load_definition(definition)
        self._definition_plain = self._definition.to_plain()
        self._definition_digest = sha256_hex(canonical(self._definition_plain))
        self._families: dict[str, ActionFamily] = builtin_families()
        self._channels: dict[str, ObservationChannel] = builtin_channels()
        self._extensions: dict[tuple[str, str], str] = {}
        self._verify_steps = False
        self._build(_seed(seed))

    # -- building --------------------------------------------------------------------
    def _build(self, seed: int) -> None:
        d = self._definition
        self._seed = seed
        self._clock = Clock(0)
        self._rng = RandomStreams(seed)
        self._ids = IdCounters()
        self._scheduler = Scheduler()
        self._journal = Journal()
        self._computers: list[Computer] = list(d.computers)
        self._nodes: list[Node] = list(d.network.nodes)
        known = {n.id for n in self._nodes}
        for computer in d.computers:
            if computer.node_id not in known:
                self._nodes.append(Node(id=computer.node_id, address=computer.address))
        self._links: list[Link] = list(d.network.links)
        self._machines: dict[str, Machine] = {}
        for computer in self._computers:
            self._machines[computer.id] = Machine(
                computer, d.profile(computer.profile), self._clock, self._sleep
            )
        self._sessions: dict[str, Session] = {}
        self._next_session = 0

    def _sleep(self, delta_us: int) -> None:
        """Advance logical time (a shell's ``sleep``) and run the work that falls due."""
        target = self._clock.now_us + delta_us
        while True:
            task = self._scheduler.pop_due(target)
            if task is None:
                break
            self._clock.advance_to(max(self._clock.now_us, task.due_us))
        self._clock.advance_to(target)

    # -- sessions --------------------------------------------------------------------
    def environment(self, config: EnvironmentConfig | dict) -> Environment:
        """Grant a session and return the actor's handle on it.

        Raises:
            ValueError: unknown family, channel or machine; blank actor; no machines; a
                budget below 1; or a malformed config.
        """
        return Environment(self, self._grant(self._check_config(config)).id)

    def _grant(self, config: EnvironmentConfig, session_id: str | None = None) -> Session:
        if session_id is None:
            session_id = f"session-{self._next_session}"
        number = session_id.removeprefix("session-")
        if number.isdigit():
            self._next_session = max(self._next_session, int(number) + 1)
        session = Session(session_id, config)
        self._sessions[session_id] = session
        self._record("session.granted", None, config.actor, {"session": session_id, "config": config.to_plain()})
        self._login(session)
        return session

    def _login(self, session: Session) -> None:
        if "application.v1" not in session.config.actions:
            return
        for machine_id in session.machines:
            if machine_theme(self, machine_id) is None:
                continue
            machine = self._machines[machine_id]
            for path in machine.first_login():
                self._record("filesystem.mkdir", machine_id, machine.user, {"path": path})
            self._autostart(session, machine_id)

    def _autostart(self, session: Session, machine_id: str) -> None:
        """Open the machine user's autostart windows on the session's new desktop."""
        machine = self._machines[machine_id]
        seat = seat_for(self, session, machine_id)  # a fresh desktop, kept only if a window opens
        for item in run_autostart(seat):
            data = {"file": item.name, "window": item.window, "once": item.once} if item.error is None else {"file": item.name, "error": item.error}
            self._record("application.autostart", machine_id, machine.user, data)
        if seat.desk.windows:
            session.desktops[machine_id] = seat.desk

    def _check_config(self, config: Any) -> EnvironmentConfig:
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
            if family not in self._families:
                raise ValueError(f"invalid: unknown action family {family!r}")
        for channel in config.observations:
            if channel not in self._channels:
                raise ValueError(f"invalid: unknown observation channel {channel!r}")
        for machine in config.machines:
            if machine not in self._machines:
                raise ValueError(f"invalid: unknown granted machine {machine!r}")
        return EnvironmentConfig(
            actor=config.actor,
            machines=list(dict.fromkeys(config.machines)),
            actions=list(dict.fromkeys(config.actions)),
            observations=list(dict.fromkeys(config.observations)),
            action_budget=config.action_budget,
        )

    def session(self, session_id: str) -> Environment:
        """Reattach to a session by id (for instance after restore or in a fork)."""
        self._session(session_id)
        return Environment(self, session_id)

    def _session(self, session_id: str) -> Session:
        session = self._sessions.get(session_id)
        if session is None:
            raise errors.Refused(errors.UNKNOWN_SESSION)
        return session

    # -- acting ----------------------------------------------------------------------
    def _record(self, kind: str, machine: str | None, actor: str | None, data: Any) -> None:
        self._journal.append(self._clock.now_us, kind, machine, actor, data)

    def _step(self, session_id: str, actions: Any) -> list[ActionOutcome]:
        session = self._session(session_id)
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
        machine = self._machines[envelope.machine]
        before = visible_projection(self, session, machine)
        ctx = ActionContext(self, session, machine)
        try:
            value = self._families[envelope.family].dispatch(ctx, envelope.op, envelope.payload)
            success, error = True, None
        except errors.ActionError as exc:
            value, success, error = None, False, exc.error
        effect = effect_between(before, visible_projection(self, session, machine), machine, session)
        return ActionOutcome(index, success, value if success else None, error, effect)

    def _record_action(self, session: Session, envelope: ActionEnvelope | None, outcome: ActionOutcome) -> None:
        data: dict[str, Any] = {
            "action": envelope.to_plain() if envelope is not None else None,
            "session": session.id,
            "success": outcome.success,
        }
        if self._verify_steps:
            data["state"] = self.state_hash()
        machine = envelope.machine if envelope is not None else None
        self._record("agent.action", machine, session.config.actor, data)

    def _observe(self, session: Session) -> dict[str, Any]:
        channels = {name: self._channels[name].observe(self, session) for name in session.config.observations}
        return {"tick": self._clock.now_us, "channels": channels}

    def scene(self, session_id: str, width: int = 1024, height: int = 768) -> Scene:
        """The typed retained scene a session's screen shows (owner side: no grant needed).

        The ``Scene`` has the methods the plain dict cannot carry: ``hit_test``,
        ``hit_stack``, ``reachable_point``, ``accessibility``, ``diff``.
        """
        return self._visual(session_id, width, height, "typed", gate=False)

    def _visual(self, session_id: str, width: int, height: int, kind: str, *, gate: bool = True) -> Any:
        session = self._session(session_id)
        granted = session.config.observations
        if gate and "semantic.v1" not in granted and "pixels.v1" not in granted:
            raise errors.Refused(errors.VISUAL_OBSERVATION_NOT_GRANTED)
        if type(width) is not int or type(height) is not int or width < 1 or height < 1 or width * height > MAX_VIEWPORT_PIXELS:
            raise ValueError(f"invalid: the viewport must be 1..{MAX_VIEWPORT_PIXELS} pixels, got {width!r}x{height!r}")
        if session.focus is None or session.focus not in self._machines:
            raise errors.Refused(errors.MACHINE_NOT_GRANTED)
        scene = seat_for(self, session, session.focus).scene(width, height)
        if kind == "scene":
            return scene.to_plain()
        if kind == "typed":
            return scene
        return {"width": width, "height": height, "rgba": self._renderer(session_id, width, height).render(scene)}

    def _renderer(self, session_id: str, width: int, height: int) -> Renderer:
        """The incremental renderer of one session's viewport (a cache outside the state:
        its frames are byte-identical to full renders, so it never affects results)."""
        renderers = self.__dict__.setdefault("_renderers", {})
        key = (session_id, width, height)
        renderer = renderers.pop(key, None) or Renderer()
        renderers[key] = renderer  # most recently used last
        while len(renderers) > 8:
            del renderers[next(iter(renderers))]
        return renderer

    # -- snapshots -------------------------------------------------------------------
    def _extension_signature(self) -> tuple:
        return tuple(sorted((kind, name, version) for (kind, name), version in self._extensions.items()))

    def _freeze(self) -> WorldFrozen:
        return WorldFrozen(
            engine_version,
            self._definition_digest,
            self._extension_signature(),
            self._seed,
            self._clock.now_us,
            tuple(sorted(self._rng.states.items())),
            tuple(sorted(self._ids.counters.items())),
            self._scheduler.frozen(),
            tuple(self._computers),
            tuple(self._nodes),
            tuple(self._links),
            tuple((mid, m.freeze()) for mid, m in self._machines.items()),
            tuple(s.frozen() for s in self._sessions.values()),
            self._next_session,
            self._journal.head,
            self._verify_steps,
        )

    def _thaw(self, f: WorldFrozen) -> None:
        self._seed = f.seed
        self._clock = Clock(f.clock)
        self._rng = RandomStreams(f.seed, dict(f.rng))
        self._ids = IdCounters(dict(f.ids))
        tasks, next_seq = f.scheduler
        self._scheduler = Scheduler(tasks, next_seq)
        self._computers = list(f.computers)
        self._nodes = list(f.nodes)
        self._links = list(f.links)
        self._machines = {mid: Machine.thaw(mf, self._clock, self._sleep) for mid, mf in f.machines}
        self._sessions = {}
        for value in f.sessions:
            session = Session.thaw(value)
            self._sessions[session.id] = session
        self._next_session = f.next_session
        self._journal = Journal(f.journal)
        self._verify_steps = f.verify_steps

    def _check_compatible(self, f: WorldFrozen) -> None:
        if f.engine_version != engine_version:
            raise ValueError(f"invalid: checkpoint was written by engine {f.engine_version}, this is {engine_version}")
        if f.definition_digest != self._definition_digest:
            raise ValueError("invalid: checkpoint belongs to a different world definition")
        if f.extensions != self._extension_signature():
            raise ValueError("invalid: checkpoint was taken with other registered extensions")

    def snapshot(self) -> Snapshot:
        """A copy-on-write checkpoint of the whole world; O(1) in the number of files."""
        return Snapshot(self._freeze())

    def restore(self, snapshot: Snapshot) -> None:
        """Return this world to ``snapshot`` exactly."""
        if not isinstance(snapshot, Snapshot):
            raise TypeError("restore takes a Snapshot from World.snapshot()")
        self._check_compatible(snapshot._frozen)
        self._thaw(snapshot._frozen)

    def fork(self, snapshot: Snapshot | None = None) -> World:
        """A new, independent world starting from ``snapshot`` (now, when omitted)."""
        frozen = self._freeze() if snapshot is None else snapshot._frozen
        self._check_compatible(frozen)
        world = World.__new__(World)
        world._definition = self._definition
        world._definition_plain = self._definition_plain
        world._definition_digest = self._definition_digest
        world._families = dict(self._families)
        world._channels = dict(self._channels)
        world._extensions = dict(self._extensions)
        # Repaint caches are keyed by content, so forks share them and restores keep them.
        world._gui_cache = self.__dict__.setdefault("_gui_cache", {})
        world._thaw(frozen)
        return world

    def reset(self, seed: int = 0) -> None:
        """Rebuild from the original blueprint with ``seed``; sessions survive and log in afresh."""
        sessions = list(self._sessions.values())
        next_session = self._next_session
        verify = self._verify_steps
        self._build(_seed(seed))
        self._verify_steps = verify
        self._next_session = next_session
        for old in sessions:
            machines = [m for m in old.machines if m in self._machines]
            if not machines:
                continue
            self._grant(msgspec.structs.replace(old.config, machines=machines), old.id)

    def enable_replay_verification(self, enabled: bool = True) -> None:
        """Record the state hash after every action, so replay can check each step."""
        self._verify_steps = bool(enabled)

    # -- hashing and export -----------------------------------------------------------
    def state_hash(self) -> str:
        """A sha256 hex digest of the whole state (not its history), naming the engine version."""
        parts = [
            engine_version,
            self._definition_digest,
            self._extension_signature(),
            self._seed,
            self._clock.now_us,
            sorted(self._rng.states.items()),
            sorted(self._ids.counters.items()),
            [msgspec.to_builtins(t) for t in self._scheduler.frozen()[0]],
            [c.id for c in self._computers],  # each machine's digest covers its definition
            [msgspec.to_builtins(n) for n in self._nodes],
            [msgspec.to_builtins(link) for link in self._links],
            [(mid, m.digest()) for mid, m in self._machines.items()],
            [s.plain() for s in self._sessions.values()],
            self._next_session,
        ]
        return hashlib.sha256(canonical(parts)).hexdigest()

    def export_snapshot(self) -> str:
        """The current state as portable JSON; only this engine version imports it."""
        machines = []
        for mid, machine in self._machines.items():
            fs = machine.fs
            inodes = [
                InodeDoc(
                    ino, i.kind, i.mode, i.uid, i.gid, i.nlink, i.atime, i.mtime, i.ctime, i.btime,
                    i.parent, i.data, dict(sorted(i.entries.items())) if i.entries is not None else None, i.target,
                )
                for ino, i in fs.inodes.items()
            ]
            shell = machine.shell
            procs, next_pid = machine.procs.frozen()
            machines.append(
                MachineDoc(
                    mid, machine.computer, fs.case_sensitive, fs.next_ino, inodes,
                    ShellDoc(shell.cwd, dict(sorted(shell.vars.items())), sorted(shell.exported),
                             dict(sorted(shell.functions.items())), shell.last_status, shell.umask),
                    list(procs), next_pid, machine.clipboard,
                )
            )
        tasks, next_task = self._scheduler.frozen()
        document = SnapshotDocument(
            format=SNAPSHOT_FORMAT,
            engine_version=engine_version,
            definition_digest=self._definition_digest,
            extensions=[list(e) for e in self._extension_signature()],
            kernel=KernelDoc(self._seed, self._clock.now_us, dict(sorted(self._rng.states.items())),
                             dict(sorted(self._ids.counters.items())), list(tasks), next_task),
            computers=list(self._computers),
            nodes=list(self._nodes),
            links=list(self._links),
            machines=machines,
            sessions=[
                SessionDoc(s.id, s.config, dict(sorted(s.terminal.items())), s.focus, s.desktop_docs())
                for s in self._sessions.values()
            ],
            next_session=self._next_session,
            journal=self._journal.entries(),
            verify_steps=self._verify_steps,
            state_hash=self.state_hash(),
        )
        return msgspec.json.encode(document).decode()

    def import_snapshot(self, text: str | bytes) -> None:
        """Replace the state with an exported snapshot.

        Refused, with this world unchanged, when the text is not a snapshot, was written by
        another engine version, belongs to another definition or extension set, carries a
        tampered journal, or does not hash to the state it claims.
        """
        try:
            loose = msgspec.json.decode(text)
        except msgspec.DecodeError as exc:
            raise ValueError(f"serialization: not JSON ({exc})") from None
        if not isinstance(loose, dict) or loose.get("format") != SNAPSHOT_FORMAT:
            raise ValueError(f"serialization: not a cwgym snapshot (format must be {SNAPSHOT_FORMAT!r})")
        if loose.get("engine_version") != engine_version:
            raise ValueError(
                f"invalid: snapshot was written by engine {loose.get('engine_version')!r}, this is {engine_version}"
            )
        if loose.get("definition_digest") != self._definition_digest:
            raise ValueError("invalid: checkpoint belongs to a different world definition")
        try:
            doc = msgspec.convert(loose, SnapshotDocument)
        except msgspec.ValidationError as exc:
            raise ValueError(f"serialization: {exc}") from None
        if [tuple(e) for e in doc.extensions] != list(self._extension_signature()):
            raise ValueError("invalid: checkpoint was taken with other registered extensions")
        bad = verify_chain(doc.journal)
        if bad is not None:
            raise ValueError(f"invalid: invalid action journal (entry {bad})")
        staged = self.fork()
        try:
            staged._load_document(doc)
        except (ValueError, KeyError, TypeError, DefinitionError) as exc:
            raise ValueError(f"invalid: snapshot state is inconsistent ({exc})") from None
        if staged.state_hash() != doc.state_hash:
            raise ValueError("invalid: snapshot state does not match its recorded state hash")
        self._thaw(staged._freeze())

    def _load_document(self, doc: SnapshotDocument) -> None:
        k = doc.kernel
        self._seed = _seed(k.seed)
        self._clock = Clock(k.clock)
        self._rng = RandomStreams(k.seed, k.rng)
        self._ids = IdCounters(k.ids)
        self._scheduler = Scheduler(tuple(k.scheduler), k.next_task)
        self._computers = list(doc.computers)
        self._nodes = list(doc.nodes)
        self._links = list(doc.links)
        self._machines = {}
        for md in doc.machines:
            profile = self._definition.profile(md.computer.profile)
            machine = Machine(md.computer, profile, self._clock, self._sleep, build=False)
            machine.computer_digest = value_digest((msgspec.to_builtins(md.computer), msgspec.to_builtins(profile)))
            fs = Filesystem(self._clock, md.case_sensitive)
            for ino in list(fs._dirty):
                fs.inodes.delete(ino)
            fs._dirty.clear()
            for d in md.inodes:
                inode = Inode(d.ino, d.kind, d.mode, d.uid, d.gid, d.btime)
                inode.nlink, inode.atime, inode.mtime, inode.ctime = d.nlink, d.atime, d.mtime, d.ctime
                inode.parent, inode.data, inode.target = d.parent, d.data, d.target
                inode.entries = dict(d.entries) if d.entries is not None else None
                inode._owner = fs._token
                fs.inodes.set(d.ino, inode)
                fs._dirty[d.ino] = 0
            fs._sum = 0
            fs.next_ino = md.next_ino
            machine.fs = fs
            s = md.shell
            machine.shell = ShellState(s.cwd, dict(s.vars), set(s.exported), dict(s.functions), s.last_status, s.umask)
            machine.procs = ProcessTable(tuple(md.processes), md.next_pid)
            machine.clipboard = md.clipboard
            self._machines[md.id] = machine
        self._sessions = {}
        for sd in doc.sessions:
            session = Session(sd.id, sd.config)
            session.terminal = dict(sd.terminal)
            session.focus = sd.focus
            session.desktops = {m: Desktop.from_plain(d) for m, d in sd.desktops.items()}
            self._sessions[sd.id] = session
        self._next_session = doc.next_session
        self._journal = Journal.from_entries(doc.journal)
        self._verify_steps = doc.verify_steps

    # -- owner inspection ------------------------------------------------------------
    def trajectory(self) -> list[dict]:
        """Every journal entry so far, oldest first, as plain data (replayable)."""
        return [entry.body() for entry in self._journal.entries()]

    def definition(self) -> dict:
        """The normalised definition this world was built from (defaults filled in)."""
        return msgspec.json.decode(msgspec.json.encode(self._definition_plain))

    def inspect(self) -> dict:
        """Privileged ground truth: machines, sessions, network, scheduler, determinism."""
        computers = {}
        for mid, machine in self._machines.items():
            computers[mid] = {
                "hostname": machine.hostname,
                "user": machine.user,
                "home": machine.home,
                "profile": machine.profile.id,
                "cwd": machine.shell.cwd,
                "inodes": len(machine.fs.inodes),
                "processes": [msgspec.to_builtins(p) for p in machine.procs.frozen()[0]],
                "clipboard": machine.clipboard,
                "installed_apps": machine.installed_apps,
            }
        return {
            "definition": self.definition(),
            "engine": f"cwgym/{engine_version}",
            "state": {
                "clock": self._clock.now_us,
                "computers": computers,
                "sessions": {s.id: s.plain() for s in self._sessions.values()},
                "network": {
                    "nodes": [msgspec.to_builtins(n) for n in self._nodes],
                    "links": [msgspec.to_builtins(link) for link in self._links],
                },
                "services": [msgspec.to_builtins(s) for s in self._definition.services],
                "scheduler": {"pending": len(self._scheduler)},
                "determinism": {
                    "seed": self._seed,
                    "rng": RNG_ALGORITHM,
                    "streams": dict(sorted(self._rng.states.items())),
                    "journal": {"entries": len(self._journal), "head": self._journal.chain},
                },
            },
        }

    def desktop_session(self, machine_id: str) -> str | None:
        """The latest graphical session on ``machine_id`` (the user's current login): one
        granted the machine with a GUI family (``application.v1``, ``pointer.v1`` or
        ``keyboard.v1``) on a desktop theme. ``None`` when there is none."""
        if machine_theme(self, machine_id) is None:
            return None
        found = None
        for s in self._sessions.values():
            if machine_id in s.machines and (machine_id in s.desktops or not _GUI_FAMILIES.isdisjoint(s.config.actions)):
                found = s.id
        return found

    def windows(self, machine_id: str, session: str | None = None) -> list[dict]:
        """Privileged: the windows of a session's desktop on one machine, as plain data.

        ``session`` defaults to :meth:`desktop_session` (the user's current login); with
        no such session the list is empty. Each window is ``session``, ``id``,
        ``app``, ``title``, ``document``, ``bounds`` (``[x, y, width, height]`` on the
        native screen), ``minimized``, ``maximized`` and ``focused`` (it has the desktop's
        focus), in stacking order, bottom first. Procedures check window state through it.

        Raises:
            KeyError: no such machine.
            Refused: no such session.
        """
        if machine_id not in self._machines:
            raise KeyError(f"no machine {machine_id!r}")
        if session is None:
            session = self.desktop_session(machine_id)
            if session is None:
                return []
        owner = self._session(session)
        desk = owner.desktops.get(machine_id)
        if desk is None:  # a login whose desktop nothing has touched yet: no windows
            return []
        out = []
        for wid in desk.stack:
            win = desk.windows[wid]
            out.append({
                "session": owner.id,
                "id": wid,
                "app": win.app,
                "title": win.title,
                "document": win.document,
                "bounds": [win.x, win.y, win.width, win.height],
                "minimized": win.minimized,
                "maximized": win.maximized,
                "focused": desk.focused == wid,
            })
        return out

    def machine(self, machine_id: str) -> Machine:
        """The owner's trusted handle on one machine (files, shell state, processes)."""
        if machine_id not in self._machines:
            raise KeyError(f"no computer {machine_id!r}")
        return self._machines[machine_id]

    # -- expert procedures (owner calls; the engine lives in cwgym.procedures) ------
    def stage(self, procedure: Any, seed: int = 0) -> Any:
        """Draw a procedure's parameters from ``seed`` and apply its setup to this world.

        ``procedure`` is a library id, a procedure dict or a parsed ``Procedure``; returns
        the ``Instance`` to project and verify. See docs/procedures.md.
        """
        from cwgym.procedures import stage  # the procedures layer sits above this one

        return stage(self, procedure, seed)

    def project(self, instance: Any, options: dict | None = None) -> Any:
        """Perform a staged instance (``mode`` ``gui`` or ``tool``) and return the demonstration."""
        from cwgym.procedures import project

        return project(self, instance, options or {})

    def verify(self, instance: Any) -> Any:
        """Run the instance's checks against this world's state."""
        from cwgym.procedures import verify

        return verify(self, instance)

    def verify_with(self, instance: Any, captures: dict) -> Any:
        """Run the checks with the captured values a demonstration bound."""
        from cwgym.procedures import verify_with

        return verify_with(self, instance, captures)

    # -- topology --------------------------------------------------------------------
    def add_computer(self, computer: Any, node: Any, links: Any = ()) -> None:
        """Add a machine with its network node and links. Atomic: on error nothing changes."""
        if len(self._scheduler):
            raise ValueError("invalid: the topology cannot change while continuations are pending")
        try:
            computer = msgspec.convert(computer, Computer) if not isinstance(computer, Computer) else computer
            node = msgspec.convert(node, Node) if not isinstance(node, Node) else node
            links = [msgspec.convert(link, Link) if not isinstance(link, Link) else link for link in links]
        except msgspec.ValidationError as exc:
            raise ValueError(f"invalid: malformed computer, node or link ({exc})") from None
        trial = msgspec.structs.replace(
            self._definition,
            computers=[*self._computers, computer],
            network=msgspec.structs.replace(
                self._definition.network, nodes=[*self._nodes, node], links=[*self._links, *links]
            ),
        )
        if any(n.id == node.id for n in self._nodes):
            raise ValueError("invalid: network node already exists")
        if node.id != computer.node_id:
            raise ValueError(f"invalid: node {node.id!r} is not the computer's node {computer.node_id!r}")
        try:
            load_definition(trial)
        except DefinitionError as exc:
            raise ValueError(f"invalid: {exc}") from None
        machine = Machine(computer, self._definition.profile(computer.profile), self._clock, self._sleep)
        self._computers.append(computer)
        self._nodes.append(node)
        self._links.extend(links)
        self._machines[computer.id] = machine
        self._record(
            "topology.add_computer",
            computer.id,
            None,
            {"computer": msgspec.to_builtins(computer), "node": msgspec.to_builtins(node),
             "links": [msgspec.to_builtins(link) for link in links]},
        )

    def remove_computer(self, computer_id: str) -> None:
        """Remove a machine, its node and links; revoke its grants and repair session focus."""
        computer = next((c for c in self._computers if c.id == computer_id), None)
        if computer is None:
            raise ValueError(f"not_found: computer {computer_id!r}")
        if len(self._scheduler):
            raise ValueError("invalid: the topology cannot change while continuations are pending")
        node_id = computer.node_id
        hosted = [s.id for s in self._definition.services if s.node == node_id]
        if hosted:
            raise ValueError(f"invalid: computer {computer_id!r} hosts services {hosted}; remove refused")
        self._computers = [c for c in self._computers if c.id != computer_id]
        self._nodes = [n for n in self._nodes if n.id != node_id]
        self._links = [link for link in self._links if node_id not in (link.from_, link.to)]
        del self._machines[computer_id]
        revoked = []
        for sid in list(self._sessions):
            session = self._sessions[sid]
            if computer_id not in session.machines:
                continue
            machines = [m for m in session.machines if m != computer_id]
            revoked.append(sid)
            if not machines:
                del self._sessions[sid]
                continue
            session.config = msgspec.structs.replace(session.config, machines=machines)
            session.terminal.pop(computer_id, None)
            if session.focus == computer_id:
                session.focus = machines[0]
        self._record("topology.remove_computer", computer_id, None, {"computer": computer_id, "revoked": revoked})

    # -- extensions ------------------------------------------------------------------
    def register_action_family(self, name: str, family: ActionFamily) -> None:
        """Add an owner-supplied action family (trusted code). Built-in names are refused."""
        self._register("family", name, family, BUILTIN_FAMILIES, self._families)

    def register_observation_channel(self, name: str, channel: ObservationChannel) -> None:
        """Add an owner-supplied observation channel (trusted code). Built-in names are refused."""
        self._register("channel", name, channel, BUILTIN_CHANNELS, self._channels)

    def _register(self, kind: str, name: str, impl: Any, builtins: tuple, table: dict) -> None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"invalid: {kind} name must be a non-empty string")
        if name in builtins:
            raise ValueError(f"invalid: {name!r} collides with a built-in {kind}")
        if name in table:
            raise ValueError(f"invalid: {kind} {name!r} is already registered")
        version = getattr(impl, "version", None)
        if not isinstance(version, str) or not version:
            raise ValueError(f"invalid: {kind} {name!r} must declare a non-empty string version")
        table[name] = impl
        self._extensions[(kind, name)] = version


from cwgym.environment.actor import Environment  # noqa: E402  (the actor handle wraps World)
