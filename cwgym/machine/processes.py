"""The process table: pids, commands, states and exit statuses on the logical clock.

No host process is ever started. A foreground command is a process for as long as it
runs; a background ``sleep`` stays in the table until the logical clock passes its end.
"""

from __future__ import annotations

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

    def running(self, now_us: int) -> bool:
        if self.exit_code is not None:
            return False
        return self.until_us is None or now_us < self.until_us


class ProcessTable:
    __slots__ = ("next_pid", "procs")

    def __init__(self, procs: tuple[Process, ...] = (), next_pid: int = INIT_PID + 1) -> None:
        self.procs: dict[int, Process] = {p.pid: p for p in procs}
        self.next_pid = next_pid

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

    def frozen(self) -> tuple[tuple[Process, ...], int]:
        return tuple(self.procs[pid] for pid in sorted(self.procs)), self.next_pid
