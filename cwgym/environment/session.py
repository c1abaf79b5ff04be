"""Granted sessions: each actor's config plus what it keeps between steps, and the
subsystem that holds them all.

Besides the terminal latches and the focused machine, a session owns one desktop per
machine it has used through the GUI families (windows, stacking, focus, shell panels):
desktop state is per session, machine state (files, shell) is shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from cwgym.desktop.state import Desktop
from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.protocol.config import EnvironmentConfig

__all__ = ["Session", "SessionDoc", "Sessions"]


class Session:
    """One actor's grant and its per-session state (terminal latches, focus, desktops)."""

    __slots__ = ("config", "desktops", "focus", "id", "terminal")

    def __init__(self, session_id: str, config: EnvironmentConfig) -> None:
        self.id = session_id
        self.config = config
        self.terminal: dict[str, dict | None] = {m: None for m in config.machines}
        self.focus: str | None = config.machines[0] if config.machines else None
        self.desktops: dict[str, Desktop] = {}

    @property
    def machines(self) -> list[str]:
        return self.config.machines

    def granted_desktops(self) -> list[tuple[str, Desktop]]:
        """Desktops of machines still granted, by machine id."""
        granted = set(self.config.machines)
        return [(m, d) for m, d in sorted(self.desktops.items()) if m in granted]

    def frozen(self) -> tuple:
        return (
            self.id,
            self.config,
            tuple(sorted(self.terminal.items())),
            self.focus,
            tuple((m, d.frozen()) for m, d in self.granted_desktops()),
        )

    def restore(self, value: tuple) -> None:
        """Put this session back to a :meth:`frozen` value of its own."""
        old = Session.thaw(value)
        self.config, self.terminal, self.focus, self.desktops = old.config, old.terminal, old.focus, old.desktops

    @classmethod
    def thaw(cls, value: tuple) -> Session:
        session_id, config, terminal, focus, desktops = value
        session = cls.__new__(cls)
        session.id = session_id
        session.config = config
        session.terminal = dict(terminal)
        session.focus = focus
        session.desktops = {m: Desktop.thaw(d) for m, d in desktops}
        return session

    def desktop_docs(self) -> dict[str, Any]:
        """Each desktop as plain data, by machine id."""
        return {m: d.plain() for m, d in self.granted_desktops()}

    def plain(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "config": self.config.to_plain(),
            "terminal": dict(sorted(self.terminal.items())),
            "focus": self.focus,
        }
        desktops = self.desktop_docs()
        if desktops:
            out["desktops"] = desktops
        return out


class SessionDoc(msgspec.Struct, forbid_unknown_fields=True):
    """One session in the snapshot document."""

    id: str
    config: EnvironmentConfig
    terminal: dict[str, Any]
    focus: str | None
    desktops: dict[str, Any] = {}


class Sessions(Subsystem):
    """Session id -> :class:`Session`, in grant order, and the next session number."""

    name = "sessions"
    order = 30
    sections = ("sessions", "next_session")

    __slots__ = ("_by_id", "next_number")

    def __init__(self, sessions: dict[str, Session], next_number: int) -> None:
        self._by_id = sessions
        self.next_number = next_number

    # -- mapping ---------------------------------------------------------------------
    def get(self, session_id: str) -> Session | None:
        return self._by_id.get(session_id)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._by_id

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)

    def add(self, config: EnvironmentConfig, session_id: str | None = None) -> Session:
        """A new session (``session-N`` with the next number unless ``session_id`` is given)."""
        if session_id is None:
            session_id = f"session-{self.next_number}"
        number = session_id.removeprefix("session-")
        if number.isdigit():
            self.next_number = max(self.next_number, int(number) + 1)
        session = Session(session_id, config)
        self._by_id[session_id] = session
        return session

    def remove(self, session_id: str) -> None:
        del self._by_id[session_id]

    # -- subsystem -------------------------------------------------------------------
    @classmethod
    def build(cls, runtime: Any) -> Sessions:
        return cls({}, 0)

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> Sessions:
        values, next_number = frozen
        sessions = {}
        for value in values:
            session = Session.thaw(value)
            sessions[session.id] = session
        return cls(sessions, next_number)

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Sessions:
        docs = convert(sections["sessions"], list[SessionDoc], "sessions")
        next_number = convert(sections["next_session"], int, "next_session")
        sessions: dict[str, Session] = {}
        for index, doc in enumerate(docs):
            where = f"sessions[{index}]"
            if doc.id in sessions:
                raise SnapshotError(f"{where}.id", f"session {doc.id!r} appears twice")
            number = doc.id.removeprefix("session-")
            if number.isdigit() and int(number) >= next_number:
                raise SnapshotError("next_session", f"{next_number} is not above session {doc.id!r}")
            runtime.check_grant(doc.id, doc.config, f"{where}.config")
            session = Session(doc.id, doc.config)
            if sorted(doc.terminal) != sorted(doc.config.machines):
                raise SnapshotError(f"{where}.terminal", "must hold one latch per granted machine")
            session.terminal = dict(doc.terminal)
            if doc.focus is not None and doc.focus not in doc.config.machines:
                raise SnapshotError(f"{where}.focus", f"{doc.focus!r} is not a granted machine")
            session.focus = doc.focus
            desktops = {}
            for machine, plain in sorted(doc.desktops.items()):
                if machine not in doc.config.machines:
                    raise SnapshotError(f"{where}.desktops", f"{machine!r} is not a granted machine")
                try:
                    desktops[machine] = Desktop.from_plain(plain)
                except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                    raise SnapshotError(f"{where}.desktops[{machine!r}]", f"not a desktop ({exc})") from None
            session.desktops = desktops
            sessions[doc.id] = session
        return cls(sessions, next_number)

    def freeze(self) -> tuple:
        return tuple(s.frozen() for s in self._by_id.values()), self.next_number

    def digest(self) -> list[Any]:
        return [[s.plain() for s in self._by_id.values()], self.next_number]

    def export(self) -> dict[str, Any]:
        return {
            "sessions": [
                SessionDoc(s.id, s.config, dict(sorted(s.terminal.items())), s.focus, s.desktop_docs())
                for s in self._by_id.values()
            ],
            "next_session": self.next_number,
        }

    def inspect(self) -> dict[str, Any]:
        return {"sessions": {s.id: s.plain() for s in self._by_id.values()}}


SUBSYSTEMS.register(Sessions.name, Sessions)
