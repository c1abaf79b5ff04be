"""Exceptions the shell uses for syntax errors, control flow and resource limits."""

from __future__ import annotations


class ShellSyntaxError(Exception):
    """A parse failure; ``message`` is bash's text without the ``bash: line N:`` prefix."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class ExpansionError(Exception):
    """An expansion failed (bad substitution, unbound variable, arithmetic error).

    ``fatal`` errors end a non-interactive shell, as bash's do; ``status`` is the exit code.
    """

    def __init__(self, message: str, status: int = 1, *, fatal: bool = True) -> None:
        self.message = message
        self.status = status
        self.fatal = fatal
        super().__init__(message)


class ExitShell(Exception):
    """``exit`` (or a fatal error): unwinds to the nearest shell or subshell."""

    def __init__(self, status: int) -> None:
        self.status = status
        super().__init__(status)


class ReturnSignal(Exception):
    """``return`` from a function or a sourced file."""

    def __init__(self, status: int) -> None:
        self.status = status
        super().__init__(status)


class LoopControl(Exception):
    """``break n`` / ``continue n``."""

    def __init__(self, kind: str, levels: int) -> None:
        self.kind = kind
        self.levels = levels
        super().__init__(kind, levels)


class LimitExceeded(Exception):
    """A resource cap (loop iterations, nesting, output size) was hit: abort the line."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)
