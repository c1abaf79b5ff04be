"""The ``browsers`` subsystem: each machine's browser profile (tabs, history, cookies, the
page each tab shows and what was typed into it) as world state, so snapshots, forks,
exports and ``state_hash`` carry it. A machine has no browser until ``browser.v1`` first
acts on it. The browsing itself is :mod:`cwgym.web.engine`."""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.environment.metadata import search_engine
from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.web.engine import Browser, open_browser
from cwgym.web.session import BrowserState, BrowserStateError

__all__ = ["Browsers"]


class Browsers(Subsystem):
    """Machine id -> :class:`~cwgym.web.engine.Browser` (immutable values, shared by checkpoints)."""

    name = "browsers"
    order = 35
    sections = ("browsers",)

    __slots__ = ("by_machine", "runtime")

    def __init__(self, runtime: Any, by_machine: dict[str, Browser]) -> None:
        self.runtime = runtime
        self.by_machine = by_machine

    def get(self, machine_id: str) -> Browser:
        """``machine_id``'s browser, opened on the world's search engine the first time."""
        browser = self.by_machine.get(machine_id)
        if browser is None:
            browser = open_browser(search_engine(self.runtime.definition))  # checked when the world was built
        return browser

    def put(self, machine_id: str, browser: Browser) -> None:
        self.by_machine[machine_id] = browser

    # -- subsystem ---------------------------------------------------------------------
    @classmethod
    def build(cls, runtime: Any) -> Browsers:
        return cls(runtime, {})

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> Browsers:
        return cls(runtime, dict(frozen))

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Browsers:
        doc = convert(sections["browsers"], dict[str, Any], "browsers")
        browsers = {}
        for machine, plain in doc.items():
            where = f"browsers.{machine}"
            if machine not in runtime.machines:
                raise SnapshotError(where, "no such machine")
            try:
                browser = msgspec.convert(plain, Browser)
                BrowserState.from_plain(browser.state.to_plain())  # the invariants a browser keeps
            except msgspec.ValidationError as exc:
                raise SnapshotError(where, str(exc), "serialization") from None
            except BrowserStateError as exc:
                raise SnapshotError(f"{where}.state{exc.path.removeprefix('$')}", exc.problem) from None
            browsers[machine] = browser
        return cls(runtime, browsers)

    def freeze(self) -> tuple:
        return tuple(sorted(self.by_machine.items(), key=lambda item: item[0]))

    def digest(self) -> list[Any]:
        return [[m, msgspec.to_builtins(b)] for m, b in sorted(self.by_machine.items())]

    def export(self) -> dict[str, Any]:
        return {"browsers": {m: msgspec.to_builtins(b) for m, b in sorted(self.by_machine.items())}}

    def inspect(self) -> dict[str, Any]:
        return {"browsers": {m: {"url": b.url, "tabs": [t.id for t in b.state.tabs], "active": b.state.active}
                             for m, b in sorted(self.by_machine.items())}}


SUBSYSTEMS.register(Browsers.name, Browsers)
