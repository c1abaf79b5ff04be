"""pixels.v1: always ``{}`` — observing never rasterizes; the grant authorizes ``render``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class PixelsChannel:
    version = "1"
    owned = True  # built afresh on every call

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        return {}


CHANNELS.register("pixels.v1", PixelsChannel())
