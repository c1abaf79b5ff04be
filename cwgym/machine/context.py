"""What a command runs with: arguments, streams, the user's filesystem view, the machine.

Commands are functions ``fn(ctx) -> exit status``. They read ``ctx.stdin`` (bytes), write
with ``ctx.out``/``ctx.err``, reach files only through ``ctx.fs`` (permission-checked as
the machine's user) and relative paths through ``ctx.cwd``, and start other commands only
through ``ctx.run`` / ``ctx.run_script`` (the shell's own interpreter; never a host
process).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from cwgym.machine.commands._options import OptionSpec, UsageError, parse
from cwgym.machine.filesystem import FsError, UserFS, join
from cwgym.machine.view import MachineView


class CommandResult(msgspec.Struct):
    """One ``terminal.v1 execute``: exit status, captured streams, pid, whether it cleared."""

    exit_code: int
    stdout: str
    stderr: str
    pid: int
    clear: bool = False

    def to_plain(self) -> dict:
        return {
            "clear": self.clear,
            "exit_code": self.exit_code,
            "pid": self.pid,
            "stderr": self.stderr,
            "stdout": self.stdout,
        }


class Exit(Exception):
    """Raised by a command helper to end the command with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status
        super().__init__(status)


class CommandContext:
    """The world as one running command sees it."""

    __slots__ = (
        "argv",
        "cwd",
        "env",
        "machine",
        "run",
        "run_script",
        "stderr",
        "stdin",
        "stdout",
    )

    def __init__(
        self,
        machine: MachineView,
        argv: list[str],
        stdin: bytes,
        cwd: str,
        env: dict[str, str],
        run: Callable[[list[str], bytes], tuple[int, bytes, bytes]],
        run_script: Callable[[str, list[str], bytes], tuple[int, bytes, bytes]],
    ) -> None:
        self.machine = machine
        self.argv = argv
        self.stdin = stdin
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.cwd = cwd
        self.env = env
        self.run = run
        self.run_script = run_script

    @property
    def name(self) -> str:
        return self.argv[0]

    @property
    def args(self) -> list[str]:
        return self.argv[1:]

    @property
    def fs(self) -> UserFS:
        return self.machine.user_fs()

    def path(self, path: str) -> str:
        """``path`` made absolute against the shell's cwd (not normalised)."""
        return join(self.cwd, path)

    def out(self, data: str | bytes) -> None:
        self.stdout += data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data

    def err(self, data: str | bytes) -> None:
        self.stderr += data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data

    def error(self, message: str) -> None:
        """Write ``name: message`` and a newline to stderr."""
        self.err(f"{self.name}: {message}\n")

    def fs_error(self, exc: FsError, path: str | None = None, verb: str | None = None) -> None:
        """Report a filesystem failure the GNU way: ``cat: x: No such file or directory``."""
        shown = path if path is not None else exc.path
        if verb:
            self.error(f"{verb} '{shown}': {exc.strerror_text}")
        else:
            self.error(f"{shown}: {exc.strerror_text}")

    def options(
        self, spec: OptionSpec, *, usage_status: int = 1, args: list[str] | None = None
    ) -> tuple[list[tuple[str, str | None]], list[str]]:
        """Parse this command's arguments; on a bad line print GNU's message and exit.

        An unknown option exits ``usage_status`` (GNU's own for the tool); an option GNU
        has but this command does not implement exits 2 naming it.
        """
        try:
            return parse(spec, self.args if args is None else args)
        except UsageError as exc:
            self.error(exc.message)
            if exc.unsupported:
                raise Exit(2) from None
            self.err(f"Try '{self.name} --help' for more information.\n")
            raise Exit(usage_status) from None

    def read_input(self, operand: str) -> bytes:
        """The bytes of a file operand, or stdin for ``-``. Raises ``FsError``."""
        if operand == "-":
            return self.stdin
        return self.fs.read(operand, self.cwd)
