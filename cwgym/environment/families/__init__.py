"""Action families: what an envelope's ``family`` names, dispatched by ``op``.

A family is an object with a ``version`` string and ``dispatch(ctx, op, payload)`` that
returns the outcome's ``value`` or raises :class:`~cwgym.protocol.errors.ActionError`.
Built-in families are found here by name; owners add their own with
``World.register_action_family``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from cwgym.protocol import errors

if TYPE_CHECKING:
    from cwgym.desktop.seat import Seat
    from cwgym.environment.session import Session
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class ActionContext:
    """What a family handler gets: the world (trusted), the acting session and machine."""

    __slots__ = ("machine", "session", "world")

    def __init__(self, world: World, session: Session, machine: Machine) -> None:
        self.world = world
        self.session = session
        self.machine = machine

    def journal(self, kind: str, data: Any) -> None:
        self.world._record(kind, self.machine.id, self.machine.user, data)

    def seat(self) -> Seat:
        """The session's desktop on this machine (created and kept on first use)."""
        from cwgym.environment.session import seat_for

        return seat_for(self.world, self.session, self.machine.id, create=True)


class ActionFamily(Protocol):
    version: str

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any: ...


def unsupported() -> errors.ActionError:
    return errors.ActionError(errors.INVALID, errors.UNSUPPORTED_OPERATION)


def invalid() -> errors.ActionError:
    return errors.ActionError(errors.INVALID)


def builtin_families() -> dict[str, ActionFamily]:
    """The built-in families this engine implements, by name."""
    from cwgym.environment.families.application import ApplicationFamily
    from cwgym.environment.families.filesystem import FilesystemFamily
    from cwgym.environment.families.keyboard import KeyboardFamily
    from cwgym.environment.families.pointer import PointerFamily
    from cwgym.environment.families.terminal import TerminalFamily

    return {
        "terminal.v1": TerminalFamily(),
        "filesystem.v1": FilesystemFamily(),
        "application.v1": ApplicationFamily(),
        "keyboard.v1": KeyboardFamily(),
        "pointer.v1": PointerFamily(),
    }
