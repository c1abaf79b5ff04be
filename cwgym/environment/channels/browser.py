"""browser.v1: each granted machine's browser — ``{page, url, fields}`` (the active tab's
page projection with typed values shown, its URL, and the typed values by element id), or
``None`` before the browser was used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class BrowserChannel:
    version = "1"

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        browsers = runtime.subsystems["browsers"].by_machine
        return {m: browsers[m].observation() if m in browsers else None for m in session.machines}


CHANNELS.register("browser.v1", BrowserChannel())
