"""browser.v1: each granted machine's browser — ``{page, url, fields}`` (the active tab's
page projection with typed values shown, its URL, and the typed values by element id), or
``None`` before the browser was used.

On a machine where the session has a desktop, the browser is the session's browser window
there (the focused one, else the highest); otherwise it is the machine's headless browser."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.apps._browser_model import browser_of, observation
from cwgym.environment.channels import CHANNELS

if TYPE_CHECKING:
    from cwgym.environment.extension import RuntimeView
    from cwgym.environment.session import Session


class BrowserChannel:
    version = "1"

    def observe(self, runtime: RuntimeView, session: Session) -> dict[str, Any]:
        browsers = runtime.subsystems["browsers"].by_machine
        out: dict[str, Any] = {}
        for m in session.machines:
            window = _window(session, m)
            if window is not None:
                out[m] = observation(browser_of(window.state))
            else:
                out[m] = observation(browsers[m]) if m in browsers else None
        return out


def _window(session: Session, machine: str) -> Any:
    desk = session.desktops.get(machine)
    if desk is None:
        return None
    focused = desk.windows.get(desk.focused) if desk.focused is not None else None
    if focused is not None and focused.app == "browser":
        return focused
    return next((desk.windows[w] for w in reversed(desk.stack) if desk.windows[w].app == "browser"), None)


CHANNELS.register("browser.v1", BrowserChannel())
