"""``World``: the owner's handle on a whole simulated world.

A thin facade over the world's :class:`~cwgym.environment.runtime.Runtime`: it builds the
world from a definition and a seed, grants sessions, takes and restores snapshots, hashes,
exports and imports state, inspects, and edits the topology. Agents never get a World;
they get an :class:`~cwgym.environment.actor.Environment`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.environment.actor import Environment
from cwgym.environment.extension import ActionFamily, ObservationChannel
from cwgym.environment.external import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT_US,
    ExternalAdapter,
    ExternalRequest,
    ExternalResponse,
)
from cwgym.environment.runtime import Runtime
from cwgym.environment.snapshot import Snapshot
from cwgym.machine.machine import Machine
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.definition import load_definition
from cwgym.protocol.limits import MAX_VIEWPORT_PIXELS
from cwgym.protocol.plain import clone
from cwgym.scene import Scene

__all__ = ["MAX_VIEWPORT_PIXELS", "World"]

_MAX_SEED = (1 << 64) - 1


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed <= _MAX_SEED:
        raise OverflowError(f"seed must be within 0..2**64-1, got {seed}")
    return seed


class World:
    """A deterministic world: a pure function of (engine, definition, seed, actions)."""

    __slots__ = ("_runtime",)

    def __init__(self, definition: Any, seed: int = 0) -> None:
        self._runtime = Runtime(load_definition(definition), _seed(seed))

    @classmethod
    def _over(cls, runtime: Runtime) -> World:
        world = cls.__new__(cls)
        world._runtime = runtime
        return world

    @property
    def runtime(self) -> Runtime:
        """The world's runtime: its state and internal API, for extension authors, tools
        and tests (trusted, owner side; never hand it to an agent)."""
        return self._runtime

    # -- sessions --------------------------------------------------------------------
    def environment(self, config: EnvironmentConfig | dict) -> Environment:
        """Grant a session and return the actor's handle on it.

        Raises:
            ValueError: unknown family, channel or machine; blank actor; no machines; a
                budget below 1; or a malformed config.
        """
        runtime = self._runtime
        return Environment(runtime, runtime.grant(runtime.check_config(config)).id)

    def session(self, session_id: str) -> Environment:
        """Reattach to a session by id (for instance after restore or in a fork)."""
        self._runtime.session(session_id)
        return Environment(self._runtime, session_id)

    def scene(self, session_id: str, width: int = 1024, height: int = 768) -> Scene:
        """The typed retained scene a session's screen shows (owner side: no grant needed).

        The ``Scene`` has the methods the plain dict cannot carry: ``hit_test``,
        ``hit_stack``, ``reachable_point``, ``accessibility``, ``diff``.
        """
        return self._runtime.visual(session_id, width, height, "typed", gate=False)

    # -- snapshots -------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """A copy-on-write checkpoint of the whole world; O(1) in the number of files."""
        return Snapshot(self._runtime.freeze())

    def restore(self, snapshot: Snapshot) -> None:
        """Return this world to ``snapshot`` exactly."""
        if not isinstance(snapshot, Snapshot):
            raise TypeError("restore takes a Snapshot from World.snapshot()")
        self._runtime.check_compatible(snapshot.frozen)
        self._runtime.thaw(snapshot.frozen)

    def fork(self, snapshot: Snapshot | None = None) -> World:
        """A new, independent world starting from ``snapshot`` (now, when omitted)."""
        if snapshot is not None and not isinstance(snapshot, Snapshot):
            raise TypeError("fork takes a Snapshot from World.snapshot(), or nothing")
        return World._over(self._runtime.fork(snapshot.frozen if snapshot is not None else None))

    def reset(self, seed: int = 0) -> None:
        """Rebuild from the original blueprint with ``seed``; sessions survive and log in afresh."""
        self._runtime.reset(_seed(seed))

    def enable_replay_verification(self, enabled: bool = True) -> None:
        """Record the state hash after every action, so replay can check each step."""
        self._runtime.verify_steps = bool(enabled)

    # -- hashing and export -----------------------------------------------------------
    def state_hash(self) -> str:
        """A sha256 hex digest of the whole state (not its history), naming the engine version."""
        return self._runtime.state_hash()

    def export_snapshot(self, key: bytes | str | None = None) -> str:
        """The current state as portable JSON; only this engine version imports it.

        With ``key`` (bytes or str, 16 bytes or more) the document carries an HMAC-SHA256
        signature that ``import_snapshot(text, key=...)`` can require.
        """
        return self._runtime.export(key)

    def import_snapshot(self, text: str | bytes, key: bytes | str | None = None) -> None:
        """Replace the state with an exported snapshot.

        Refused, with this world unchanged, when the text is not a snapshot, was written by
        another engine version, belongs to another definition or extension set, carries a
        tampered journal, holds state a world could not have, or does not hash to the state
        it claims; and, with ``key``, when it does not carry the signature
        ``export_snapshot(key=...)`` gave it.
        """
        self._runtime.load(text, key)

    # -- owner inspection ------------------------------------------------------------
    def trajectory(self) -> list[dict]:
        """Every journal entry so far, oldest first, as plain data (replayable)."""
        return [clone(entry.body()) for entry in self._runtime.journal.entries()]

    def definition(self) -> dict:
        """The normalised definition of this world as it is now (defaults filled in): the
        one it was built from, with the computers, nodes and links ``add_computer`` and
        ``remove_computer`` changed. ``reset`` returns to the blueprint."""
        return msgspec.json.decode(msgspec.json.encode(self._runtime.current_definition()))

    def inspect(self) -> dict:
        """Privileged ground truth: machines, sessions, network, scheduler, determinism."""
        return clone(self._runtime.inspect())

    def desktop_session(self, machine_id: str) -> str | None:
        """The latest graphical session on ``machine_id`` (the user's current login): one
        granted the machine with a GUI family (``application.v1``, ``pointer.v1`` or
        ``keyboard.v1``) on a desktop theme. ``None`` when there is none."""
        return self._runtime.desktop_session(machine_id)

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
        runtime = self._runtime
        if machine_id not in runtime.machines:
            raise KeyError(f"no machine {machine_id!r}")
        if session is None:
            session = runtime.desktop_session(machine_id)
            if session is None:
                return []
        owner = runtime.session(session)
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
        return self._runtime.machine(machine_id)

    def service_state(self, service_id: str) -> Any:
        """Privileged: a copy of one service's state (what its pages are built from).

        Raises:
            KeyError: no such service.
        """
        services = self._runtime.network.services
        if service_id not in services:
            raise KeyError(f"no service {service_id!r} (the world has: {', '.join(sorted(services)) or 'none'})")
        return clone(services[service_id])

    def set_service_state(self, service_id: str, state: Any) -> None:
        """Privileged: replace one service's state with ``state``, checked as the service's
        ``initial_state`` in a definition would be (procedures stage a task page this way).
        Atomic: on error the service keeps its state.

        Raises:
            KeyError: no such service.
            ValueError: the state is not one the service's kind takes (naming the path).
        """
        from cwgym.net.services import SERVICE_KINDS

        runtime = self._runtime
        services = runtime.network.services
        service = next((s for s in runtime.definition.services if s.id == service_id), None)
        if service is None or service_id not in services:
            raise KeyError(f"no service {service_id!r} (the world has: {', '.join(sorted(services)) or 'none'})")
        kind = SERVICE_KINDS.get(service.kind)
        if kind is None:
            raise ValueError(f"service {service_id!r}: kind {service.kind!r} keeps no state")
        services[service_id] = kind.initial(clone(state), f"services.{service_id}.state", runtime.definition)

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
        self._runtime.add_computer(computer, node, links)

    def remove_computer(self, computer_id: str) -> None:
        """Remove a machine, its node and links; revoke its grants and repair session focus."""
        self._runtime.remove_computer(computer_id)

    # -- the real internet -------------------------------------------------------------
    def begin_external(self, machine_id: str, method: str, url: str, headers: Any = (), body: bytes = b"", *,
                       addresses: Any, timeout_us: int = DEFAULT_TIMEOUT_US,
                       max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES) -> ExternalRequest:
        """Authorise one real request from ``machine_id`` to the pinned public ``addresses``
        (see :mod:`cwgym.environment.external`). Until it is completed or cancelled the
        world refuses ``snapshot``, ``fork`` and ``export_snapshot``.

        Raises:
            ExternalError: ``egress_denied`` or ``invalid``.
        """
        return self._runtime.external.begin(machine_id, method, url, headers, body, addresses=addresses,
                                            timeout_us=timeout_us, max_response_bytes=max_response_bytes)

    def complete_external(self, request: ExternalRequest, response: ExternalResponse | dict) -> ExternalResponse:
        """Take an adapter's ``response`` to ``request`` back into the world, checked.

        Raises:
            ExternalError: ``stale``, ``not_found``, ``deadline_exceeded``, ``too_large`` or ``invalid``.
        """
        return self._runtime.external.complete(request, response)

    def run_external(self, request: ExternalRequest, adapter: ExternalAdapter) -> ExternalResponse:
        """``complete_external(request, adapter.perform(request))``; an adapter that raises
        leaves the request cancelled."""
        try:
            response = adapter.perform(request)
        except BaseException:
            self._runtime.external.cancel(request)
            raise
        return self.complete_external(request, response)

    def cancel_external(self, request: ExternalRequest) -> None:
        """Drop a pending external request unanswered."""
        self._runtime.external.cancel(request)

    # -- extensions ------------------------------------------------------------------
    def register_action_family(self, name: str, family: ActionFamily) -> None:
        """Add an owner-supplied action family (trusted code). Built-in names are refused."""
        self._runtime.register("family", name, family)

    def register_observation_channel(self, name: str, channel: ObservationChannel) -> None:
        """Add an owner-supplied observation channel (trusted code). Built-in names are refused."""
        self._runtime.register("channel", name, channel)
