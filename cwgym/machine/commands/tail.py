"""``tail`` (GNU coreutils): ``-n [+]N``, ``-c [+]N``, ``-NUM``, ``-q``, ``-v``, ``-z``.

``-f``/``-F``/``--follow`` are refused (exit 2): nothing in the simulated machine can
grow a file while tail waits.
"""

from __future__ import annotations

from typing import Any

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands.head import head_or_tail
from cwgym.machine.context import CommandContext

SPEC = OptionSpec(
    short="n:c:qvz",
    long={
        "lines=": "n",
        "bytes=": "c",
        "quiet": "q",
        "silent": "q",
        "verbose": "v",
        "zero-terminated": "z",
    },
    unsupported=("-f", "-F", "--follow", "--retry", "-s", "--sleep-interval", "--pid"),
    numeric="n",
)


def _tail_pick(units: Any, count: int, sign: str) -> Any:
    if sign == "+":
        return units[max(count - 1, 0) :]
    return units[max(len(units) - count, 0) :] if count else units[:0]


@command("tail")
def tail(ctx: CommandContext) -> int:
    return head_or_tail(ctx, SPEC, _tail_pick)
