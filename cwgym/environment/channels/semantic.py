"""semantic.v1: the focused machine's screen as structure (windows, controls, text), keyed
by machine.

Built from the scene at the theme's native size without rasterizing; the shape is
:mod:`cwgym.desktop.semantic`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class SemanticChannel:
    version = "1"
    owned = True  # built afresh on every call

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        machine = session.focus
        if machine is None or machine not in runtime.machines:
            return {}
        seat = runtime.seat(session, machine)
        return {machine: seat.cache.projection(seat.scene(*seat.native))}

    def peek(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        """As :meth:`observe`, with the scene cache's own projection inside (see
        :meth:`Runtime.peek`): the same object while the screen stays the same."""
        machine = session.focus
        if machine is None or machine not in runtime.machines:
            return {}
        seat = runtime.seat(session, machine)
        return {machine: seat.cache.projection(seat.scene(*seat.native), shared=True)}


CHANNELS.register("semantic.v1", SemanticChannel())
