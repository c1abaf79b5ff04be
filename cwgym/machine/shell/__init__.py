"""The POSIX shell dialect: bash's language over the simulated machine.

``execute(machine, line)`` runs one terminal line and returns its CommandResult;
``run_script(machine, script, argv, stdin, cwd=..., env=...)`` runs a script in a fresh
child shell (what ``sh -c`` and ``bash script.sh`` need). Modules: :mod:`.lexer` and
:mod:`.parser` (text to :mod:`.ast`), :mod:`.expand` with :mod:`.arith` and
:mod:`.pattern` (expansions), :mod:`.interp` (running trees), :mod:`.builtins` and
:mod:`.testcmd` (commands that live inside the shell), :mod:`.streams` (descriptors and
the per-line budget).
"""

from __future__ import annotations

import sys

from cwgym.machine.context import CommandResult
from cwgym.machine.shell import builtins as _builtins  # noqa: F401  (registers the builtins)
from cwgym.machine.shell.errors import LimitExceeded
from cwgym.machine.shell.interp import Shell, run_child_script
from cwgym.machine.shell.streams import IO, Budget, BufferSink, Source

#: Python frames a deeply nested line may need (each shell nesting level costs ~20).
RECURSION_LIMIT = 60_000
_BUDGET_ATTR = "_posix_shell_budget"


def _decode(data: bytes | bytearray) -> str:
    return bytes(data).decode("utf-8", "replace")


class _Guard:
    """Raises the recursion limit and publishes the line's budget while a line runs."""

    def __init__(self, machine, budget: Budget | None) -> None:
        self.machine = machine
        self.budget = budget

    def __enter__(self) -> None:
        self.limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.limit, RECURSION_LIMIT))
        self.previous = getattr(self.machine, _BUDGET_ATTR, None)
        if self.budget is not None:
            setattr(self.machine, _BUDGET_ATTR, self.budget)

    def __exit__(self, *exc) -> None:
        sys.setrecursionlimit(self.limit)
        setattr(self.machine, _BUDGET_ATTR, self.previous)


def _run_protected(fn, err: BufferSink) -> int:
    """Run ``fn``; turn limits and any stray exception into a status and a message."""
    try:
        return fn()
    except LimitExceeded as exc:
        err.data += f"{exc.message}\n".encode()
        return 1
    except RecursionError:
        err.data += b"maximum nesting level exceeded; command aborted\n"
        return 1
    except Exception as exc:  # never let a simulator bug escape a terminal line
        err.data += f"bash: internal error: {type(exc).__name__}\n".encode()
        return 1


def execute(machine, command: str) -> CommandResult:
    """Run one terminal line in the machine's shell; its state persists across calls."""
    proc = machine.spawn(command)
    budget = Budget(proc.pid)
    out = BufferSink(budget)
    err = BufferSink(budget)
    io = IO({0: Source(b""), 1: out, 2: err})
    try:
        with _Guard(machine, budget):
            shell = Shell(machine, machine.shell, budget, pid=proc.pid)
            status = _run_protected(lambda: shell.run_guarded(command, io), err)
        machine.shell.last_status = status
    finally:
        machine.procs.finish(proc.pid)
    return CommandResult(status, _decode(out.data), _decode(err.data), proc.pid, budget.cleared)


def run_script(
    machine,
    script: str,
    argv: list[str],
    stdin: bytes,
    *,
    cwd: str,
    env: dict[str, str],
) -> tuple[int, bytes, bytes]:
    """Run ``script`` in a fresh child shell, as ``sh -c script argv0 args...`` would.

    ``argv[0]`` becomes ``$0`` and the rest the positional parameters; the child starts
    in ``cwd`` with ``env`` as its (exported) variables and no functions, and nothing it
    changes reaches the caller. Returns ``(status, stdout bytes, stderr bytes)``. Called
    inside a running line it shares that line's loop, nesting and output budget.
    """
    budget = getattr(machine, _BUDGET_ATTR, None)
    own = budget is None
    if own:
        budget = Budget(machine.procs.next_pid)
    err_prefix = BufferSink(budget)
    result: list = []

    def run() -> int:
        result.append(run_child_script(machine, budget, script, argv, stdin, cwd=cwd, env=env))
        return result[0][0]

    with _Guard(machine, budget if own else None):
        status = _run_protected(run, err_prefix)
    if result:
        status, out, err = result[0]
        return status, out, err
    return status, b"", bytes(err_prefix.data)


__all__ = ["execute", "run_script"]
