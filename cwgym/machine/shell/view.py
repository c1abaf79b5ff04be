"""What word expansion and ``test``/``[[ ]]`` need of the running shell.

:class:`~cwgym.machine.shell.interp.Shell` satisfies :class:`ShellView`; the expander and
the test evaluator are typed against it, so the interpreter can use them without either
importing the interpreter back.
"""

from __future__ import annotations

from typing import Any, Protocol

from cwgym.machine.shell import arith, ast
from cwgym.machine.shell.state import ShellState
from cwgym.machine.view import MachineView

__all__ = ["ShellView", "WordExpander"]


class WordExpander(Protocol):
    """Expansion of one word to a string or to a glob pattern."""

    def string(self, word: ast.Word) -> str: ...

    def pattern(self, word: ast.Word) -> Any: ...


class ShellView(Protocol):
    """The shell's machine, state and parameters, and the operations expansion calls back."""

    machine: MachineView
    state: ShellState
    arg0: str
    positional: list[str]
    options: dict[str, bool]
    expander: WordExpander

    @property
    def cwd(self) -> str: ...

    def get_var(self, name: str) -> str | None: ...

    def set_var(self, name: str, value: str) -> None: ...

    def arith_vars(self) -> arith.Variables: ...

    def command_substitution(self, part: ast.CmdSub) -> str: ...
