"""terminal.v1: the last ``terminal.v1`` result per machine (``None`` before any command)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class TerminalChannel:
    version = "1"

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        return {m: session.terminal.get(m) for m in session.machines}


CHANNELS.register("terminal.v1", TerminalChannel())
