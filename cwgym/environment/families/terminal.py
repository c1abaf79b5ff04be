"""terminal.v1: run a command line in the machine's shell.

``success`` says the action was dispatched; ``exit_code`` says whether the command worked.
The result is latched into the session's ``terminal.v1`` channel.
"""

from __future__ import annotations

from typing import Any

from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported


class TerminalFamily:
    version = "1"
    owned = True  # the session latches the result; the value is a copy of it
    refuses_first = True  # only a payload without a command is refused, before it runs
    touches_desktop = False  # a command runs on the machine, which cannot see sessions

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        if op != "execute":
            raise unsupported()
        command = payload.get("command")
        if not isinstance(command, str):
            raise invalid()
        ctx.journal("terminal.input", {"command": command})
        result = ctx.machine.execute(command).to_plain()
        ctx.journal(
            "terminal.output",
            {"exit_code": result["exit_code"], "pid": result["pid"]},
        )
        ctx.session.terminal[ctx.machine.id] = result
        return result.copy()  # a flat dict of strings, numbers and a bool


FAMILIES.register("terminal.v1", TerminalFamily())
