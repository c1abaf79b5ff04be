"""filesystem.v1: the shell's working directory per machine — the actor's place, not a
world inspector."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class FilesystemChannel:
    version = "1"
    owned = True  # built afresh on every call

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        return {m: {"cwd": runtime.machines[m].shell.cwd} for m in session.machines}


CHANNELS.register("filesystem.v1", FilesystemChannel())
