"""What an action family or an observation channel is, and what it receives.

A family's ``dispatch(ctx, op, payload)`` gets an :class:`ActionContext`; a channel's
``observe(runtime, session)`` gets the world's runtime. Both see the runtime through
:class:`RuntimeView`, the part of :class:`~cwgym.environment.runtime.Runtime` extensions
may rely on. (The protocol also keeps the runtime, which imports the family and channel
registries, out of their import graph.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cwgym.desktop.seat import Seat
    from cwgym.environment.session import Session
    from cwgym.kernel.clock import Clock
    from cwgym.machine.machine import Machine
    from cwgym.net.http import Request, Response

__all__ = ["ActionContext", "ActionFamily", "ObservationChannel", "RuntimeView"]


class RuntimeView(Protocol):
    """The runtime as extensions see it (trusted: it reaches the whole world)."""

    @property
    def clock(self) -> Clock: ...

    @property
    def machines(self) -> Mapping[str, Machine]: ...

    def record(self, kind: str, machine: str | None, actor: str | None, data: Any) -> None: ...

    def http(self, machine_id: str, request: Request, actor: str | None = None) -> Response: ...

    def seat(self, session: Session, machine_id: str, *, create: bool = False) -> Seat: ...

    def visual(self, session_id: str, width: int, height: int, kind: str, *, gate: bool = True) -> Any: ...


class ActionContext:
    """What a family handler gets: the world's runtime (trusted), the acting session and
    the target machine."""

    __slots__ = ("machine", "runtime", "session")

    def __init__(self, runtime: RuntimeView, session: Session, machine: Machine) -> None:
        self.runtime = runtime
        self.session = session
        self.machine = machine

    def journal(self, kind: str, data: Any) -> None:
        """Record an event of this action in the world's journal."""
        self.runtime.record(kind, self.machine.id, self.machine.user, data)

    def seat(self) -> Seat:
        """The session's desktop on this machine (created and kept on first use)."""
        return self.runtime.seat(self.session, self.machine.id, create=True)


class ActionFamily(Protocol):
    """An action family: ``dispatch`` returns the outcome's value or raises
    :class:`~cwgym.protocol.errors.ActionError`."""

    version: str

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any: ...


class ObservationChannel(Protocol):
    """An observation channel: ``observe`` returns its value for one session (plain data).

    A channel whose ``observe`` builds its value afresh on every call, sharing no object
    with the world or a cache, may set ``owned = True``; the runtime hands that value to the
    caller as it is. Any other channel's value is copied first, so a caller that mutates
    what it got never reaches the world.
    """

    version: str

    def observe(self, runtime: RuntimeView, session: Session) -> Any: ...
