"""The caps every generator checks before it allocates, so no command line builds gigabytes
only to have the output cap throw them away.

A line's captured output is capped at :data:`OUTPUT_CAP` (the shell's
:attr:`~cwgym.machine.shell.streams.Budget.MAX_OUTPUT`); a field width or precision, a
string an awk program builds, or a sequence ``seq`` would print that cannot fit under it is
refused up front with :class:`~cwgym.machine.shell.errors.LimitExceeded`, which aborts the
line with its message.
"""

from __future__ import annotations

from cwgym.machine.shell.errors import LimitExceeded
from cwgym.machine.shell.streams import Budget

__all__ = ["OUTPUT_CAP", "check_size", "check_width"]

OUTPUT_CAP = Budget.MAX_OUTPUT


def check_width(width: int, prec: int | None) -> None:
    """Refuse a field width or precision that alone would pass the output cap."""
    if width > OUTPUT_CAP or (prec is not None and prec > OUTPUT_CAP):
        raise LimitExceeded(
            f"field width or precision over the output limit ({OUTPUT_CAP // (1024 * 1024)} MiB); command aborted"
        )


def check_size(what: str, size: int) -> None:
    """Refuse ``what`` when it would be ``size`` characters, past the output cap."""
    if size > OUTPUT_CAP:
        raise LimitExceeded(f"{what} would exceed the output limit ({OUTPUT_CAP // (1024 * 1024)} MiB); command aborted")
