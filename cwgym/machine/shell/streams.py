"""File descriptors of a running shell: byte sources for input, sinks for output.

A command's stdin is a :class:`Source` (bytes and a read position, so ``read`` in a loop
consumes a file line by line); stdout and stderr are sinks: a capture buffer, a file in
the simulated filesystem (opened, and truncated, when the redirection is applied), or the
null device. Every byte written is counted against the line's output budget.
"""

from __future__ import annotations

import contextlib

from cwgym.machine.filesystem import FsError
from cwgym.machine.shell.errors import LimitExceeded
from cwgym.machine.view import MachineView


class Budget:
    """Caps shared by everything one ``execute`` runs, so no line can hang or flood:
    steps (loop iterations, function calls, subshells), nesting depth and bytes written."""

    #: Steps one line may take: a loop iteration, a simple command or a function call
    #: costs 1, a subshell 10. Sized so the cheapest runaway line stops within about a
    #: second of host time.
    MAX_ITERATIONS = 100_000
    MAX_OUTPUT = 16 * 1024 * 1024
    MAX_WRITTEN = 64 * 1024 * 1024
    MAX_FUNCTION_DEPTH = 1000
    MAX_NESTING = 1200

    __slots__ = ("cleared", "iterations", "nesting", "pid", "random_count", "written")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.iterations = 0
        self.written = 0
        self.nesting = 0
        self.cleared = False
        self.random_count = 0

    def tick(self, cost: int = 1) -> None:
        """Count work: a loop iteration, a simple command or a function call costs 1, a subshell 10."""
        self.iterations += cost
        if self.iterations > self.MAX_ITERATIONS:
            raise LimitExceeded(
                f"step limit exceeded ({self.MAX_ITERATIONS} loop iterations, commands, calls and subshells); "
                "command aborted"
            )

    def count(self, size: int) -> None:
        self.written += size
        if self.written > self.MAX_WRITTEN:
            raise LimitExceeded("output limit exceeded (64 MiB written); command aborted")


class Source:
    """Input bytes with a read position shared by the commands that read them."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def rest(self) -> bytes:
        return self.data[self.pos :] if self.pos else self.data

    def consume_all(self) -> None:
        self.pos = len(self.data)


class Sink:
    """Somewhere output goes."""

    __slots__ = ()

    def write(self, data: bytes) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class BufferSink(Sink):
    """Captured output (a pipe, a command substitution, the line's own stdout/stderr)."""

    __slots__ = ("budget", "data", "limit")

    def __init__(self, budget: Budget, limit: int = Budget.MAX_OUTPUT) -> None:
        self.data = bytearray()
        self.budget = budget
        self.limit = limit

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.budget.count(len(data))
        room = self.limit - len(self.data)
        if len(data) > room:
            self.data += data[: max(room, 0)]
            raise LimitExceeded("output limit exceeded (16 MiB); command aborted")
        self.data += data


class FileSink(Sink):
    """A file opened by a redirection: later writes append to it."""

    __slots__ = ("budget", "machine", "path")

    def __init__(self, machine: MachineView, path: str, budget: Budget) -> None:
        self.machine = machine
        self.path = path
        self.budget = budget

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.budget.count(len(data))
        # A file that went away or became unwritable after it was opened drops the bytes.
        with contextlib.suppress(FsError):
            self.machine.user_fs().write(self.path, "/", data, append=True)


class NullSink(Sink):
    """A closed descriptor: output is dropped."""

    __slots__ = ()

    def write(self, data: bytes) -> None:
        return


class IO:
    """The descriptor table of one command: fd number to Source or Sink."""

    __slots__ = ("fds",)

    def __init__(self, fds: dict[int, object]) -> None:
        self.fds = fds

    def copy(self) -> IO:
        return IO(dict(self.fds))

    def write(self, fd: int, data: bytes) -> None:
        target = self.fds.get(fd)
        if isinstance(target, Sink):
            target.write(data)

    def out(self, text: str | bytes) -> None:
        self.write(1, text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)

    def err(self, text: str | bytes) -> None:
        self.write(2, text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)

    def stdin(self) -> Source | None:
        source = self.fds.get(0)
        return source if isinstance(source, Source) else None
