"""What a shell keeps between commands (the machine's login shell and every subshell)."""

from __future__ import annotations

__all__ = ["ShellState"]


class ShellState:
    """What a shell keeps between commands: cwd, variables, functions, ``$?``, umask."""

    __slots__ = ("_frozen", "cwd", "exported", "functions", "last_status", "umask", "vars")

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
        #: (copies of vars, exported, functions; the frozen value they gave): the fields are
        #: changed in place everywhere, so a repeat is found by comparing, not by a flag
        self._frozen: tuple[dict, set, dict, tuple] | None = None

    def frozen(self) -> tuple:
        memo = self._frozen
        if memo is not None and memo[0] == self.vars and memo[1] == self.exported and memo[2] == self.functions:
            kept = memo[3]
            if kept[0] == self.cwd and kept[4] == self.last_status and kept[5] == self.umask:
                return kept
        value = (
            self.cwd,
            tuple(sorted(self.vars.items())),
            tuple(sorted(self.exported)),
            tuple(sorted(self.functions.items())),
            self.last_status,
            self.umask,
        )
        self._frozen = (dict(self.vars), set(self.exported), dict(self.functions), value)
        return value

    @classmethod
    def thaw(cls, value: tuple) -> ShellState:
        cwd, variables, exported, functions, last_status, umask = value
        return cls(cwd, dict(variables), set(exported), dict(functions), last_status, umask)

    def environment(self) -> dict[str, str]:
        """The exported variables, as a child process inherits them."""
        return {k: self.vars[k] for k in sorted(self.exported) if k in self.vars}
