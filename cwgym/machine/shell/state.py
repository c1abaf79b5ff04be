"""What a shell keeps between commands (the machine's login shell and every subshell)."""

from __future__ import annotations

__all__ = ["ShellState"]


class ShellState:
    """What a shell keeps between commands: cwd, variables, functions, ``$?``, umask."""

    __slots__ = ("cwd", "exported", "functions", "last_status", "umask", "vars")

    def __init__(
        self,
        cwd: str,
        variables: dict[str, str],
        exported: set[str],
        functions: dict[str, str] | None = None,
        last_status: int = 0,
        umask: int = 0o022,
    ) -> None:
        self.cwd = cwd
        self.vars = variables
        self.exported = exported
        self.functions: dict[str, str] = functions or {}
        self.last_status = last_status
        self.umask = umask

    def frozen(self) -> tuple:
        return (
            self.cwd,
            tuple(sorted(self.vars.items())),
            tuple(sorted(self.exported)),
            tuple(sorted(self.functions.items())),
            self.last_status,
            self.umask,
        )

    @classmethod
    def thaw(cls, value: tuple) -> ShellState:
        cwd, variables, exported, functions, last_status, umask = value
        return cls(cwd, dict(variables), set(exported), dict(functions), last_status, umask)

    def environment(self) -> dict[str, str]:
        """The exported variables, as a child process inherits them."""
        return {k: self.vars[k] for k in sorted(self.exported) if k in self.vars}
