"""The process table: pids, commands, states and exit statuses on the logical clock.

No host process is ever started. A foreground command is a process for as long as it
runs; a background ``sleep`` stays in the table until the logical clock passes its end; a
server started in the background (``python3 -m http.server 8000 &``) stays until it is
killed, listening on its machine's node at ``listen`` and serving ``root``.

While a background job's commands run, the shell marks it on the table (:meth:`ProcessTable.job`),
so a command can tell that it runs in the background and keep running as the job's process
(:meth:`ProcessTable.settle`, then :class:`KeepsRunning`). The mark is never state: it is
empty whenever no command runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

INIT_PID = 1


class Process(msgspec.Struct, frozen=True):
    pid: int
    ppid: int
    uid: int
    command: str
    started_us: int
    until_us: int | None = None  # a background process that ends at this tick
    exit_code: int | None = None
    listen: tuple[str, int] | None = None  # (bound address, port): a server, until killed
    root: str | None = None  # the absolute folder a server serves

    def running(self, now_us: int) -> bool:
        if self.exit_code is not None:
            return False
        return self.until_us is None or now_us < self.until_us

    @property
    def background(self) -> bool:
        """Whether it runs in the background (a timed one, or a server), not as the line
        the terminal is running."""
        return self.until_us is not None or self.listen is not None


class KeepsRunning(Exception):
    """Raised by a command that became its background job's process (a server): the job's
    shell stops there, and the process stays in the table."""


class ProcessTable:
    __slots__ = ("jobs", "next_pid", "procs")

    def __init__(self, procs: tuple[Process, ...] = (), next_pid: int = INIT_PID + 1) -> None:
        self.procs: dict[int, Process] = {p.pid: p for p in procs}
        self.next_pid = next_pid
        #: the background jobs whose commands run now, innermost last (never state)
        self.jobs: list[int] = []

    def spawn(self, uid: int, command: str, now_us: int, *, ppid: int = INIT_PID, until_us: int | None = None) -> Process:
        proc = Process(self.next_pid, ppid, uid, command, now_us, until_us)
        self.next_pid += 1
        self.procs[proc.pid] = proc
        return proc

    def finish(self, pid: int) -> None:
        """A foreground process ended: it leaves the table."""
        self.procs.pop(pid, None)

    def reap(self, now_us: int) -> None:
        """Drop background processes whose time has come."""
        for pid in [p.pid for p in self.procs.values() if not p.running(now_us)]:
            del self.procs[pid]

    def kill(self, pid: int) -> bool:
        return self.procs.pop(pid, None) is not None

    def listing(self, now_us: int) -> list[Process]:
        self.reap(now_us)
        return [self.procs[pid] for pid in sorted(self.procs)]

    def listeners(self, now_us: int) -> list[Process]:
        """The servers running at ``now_us``, by pid (the table is left as it is)."""
        return [p for _, p in sorted(self.procs.items()) if p.listen is not None and p.running(now_us)]

    @contextmanager
    def job(self, pid: int) -> Iterator[None]:
        """Mark process ``pid`` as the background job whose commands run inside."""
        self.jobs.append(pid)
        try:
            yield
        finally:
            self.jobs.pop()

    @property
    def current_job(self) -> int | None:
        """The innermost background job running now (``None``: the foreground)."""
        return self.jobs[-1] if self.jobs else None

    def settle(self, pid: int, command: str, listen: tuple[str, int], root: str) -> Process:
        """Job ``pid`` keeps running as the server ``command``, listening at ``listen``
        and serving ``root``, until it is killed.

        Raises:
            KeyError: no process ``pid``.
        """
        proc = msgspec.structs.replace(self.procs[pid], command=command, listen=listen, root=root)
        self.procs[pid] = proc
        return proc

    def frozen(self) -> tuple[tuple[Process, ...], int]:
        return tuple(self.procs[pid] for pid in sorted(self.procs)), self.next_pid
