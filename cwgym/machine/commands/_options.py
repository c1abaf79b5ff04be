"""GNU-style option parsing shared by every command (getopt_long semantics).

Short options bundle (``-la``), take arguments attached or separate (``-n5``, ``-n 5``),
long options take ``--name=value`` or ``--name value`` and may be abbreviated to a unique
prefix, options and operands may mix unless ``permute`` is off, and ``--`` ends options.
Messages are GNU's, so ``ls --bogus`` reads as it does on a real machine.
"""

from __future__ import annotations

from collections.abc import Iterable


class UsageError(Exception):
    """A bad command line. ``message`` is the first stderr line (without the command name)."""

    def __init__(self, message: str, *, unsupported: bool = False) -> None:
        self.message = message
        self.unsupported = unsupported
        super().__init__(message)


class OptionSpec:
    """Which options a command accepts.

    Args:
        short: getopt letters; a letter followed by ``:`` takes an argument.
        long: long option name (``"name"`` or ``"name="`` when it takes an argument) mapped
            to the key it yields (usually its short letter, or its own name).
        unsupported: options GNU has that this command does not implement; using one
            fails with exit 2 and says so, instead of being silently ignored.
        permute: allow options after operands (GNU default); off for commands like
            ``echo``-style tools whose first operand ends option parsing.
        numeric: accept ``-NUM`` as the option ``numeric`` with that value (``head -5``).
    """

    def __init__(
        self,
        short: str = "",
        long: dict[str, str] | None = None,
        *,
        unsupported: Iterable[str] = (),
        permute: bool = True,
        numeric: str | None = None,
    ) -> None:
        self.short_arg: dict[str, bool] = {}
        i = 0
        while i < len(short):
            letter = short[i]
            takes = i + 1 < len(short) and short[i + 1] == ":"
            self.short_arg[letter] = takes
            i += 2 if takes else 1
        self.long: dict[str, tuple[str, bool]] = {}
        for name, key in (long or {}).items():
            takes = name.endswith("=")
            self.long[name.rstrip("=")] = (key, takes)
        self.unsupported = set(unsupported)
        self.permute = permute
        self.numeric = numeric


def parse(spec: OptionSpec, args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Split ``args`` into ``[(key, value)]`` options (in order) and operands."""
    options: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            full = _long_name(spec, name)
            key, takes = spec.long[full]
            if takes:
                if not eq:
                    if i >= len(args):
                        raise UsageError(f"option '--{full}' requires an argument")
                    value = args[i]
                    i += 1
                options.append((key, value))
            else:
                if eq:
                    raise UsageError(f"option '--{full}' doesn't allow an argument")
                options.append((key, None))
            continue
        if arg.startswith("-") and len(arg) > 1:
            if spec.numeric and arg[1:].isdigit():
                options.append((spec.numeric, arg[1:]))
                continue
            j = 1
            while j < len(arg):
                letter = arg[j]
                j += 1
                if "-" + letter in spec.unsupported:
                    raise UsageError(f"unsupported option '-{letter}'", unsupported=True)
                if letter not in spec.short_arg:
                    raise UsageError(f"invalid option -- '{letter}'")
                if spec.short_arg[letter]:
                    if j < len(arg):
                        value = arg[j:]
                    elif i < len(args):
                        value = args[i]
                        i += 1
                    else:
                        raise UsageError(f"option requires an argument -- '{letter}'")
                    options.append((letter, value))
                    break
                options.append((letter, None))
            continue
        operands.append(arg)
        if not spec.permute:
            operands.extend(args[i:])
            break
    return options, operands


def _long_name(spec: OptionSpec, name: str) -> str:
    if "--" + name in spec.unsupported:
        raise UsageError(f"unsupported option '--{name}'", unsupported=True)
    if name in spec.long:
        return name
    matches = sorted(full for full in spec.long if full.startswith(name)) if name else []
    keys = {spec.long[m] for m in matches}
    if len(matches) == 1 or (matches and len(keys) == 1):
        return matches[0]
    if matches:
        listed = " ".join(f"'--{m}'" for m in matches)
        raise UsageError(f"option '--{name}' is ambiguous; possibilities: {listed}")
    unsupported = sorted(u for u in spec.unsupported if u.startswith("--" + name))
    if len(unsupported) == 1 and name:
        raise UsageError(f"unsupported option '{unsupported[0]}'", unsupported=True)
    raise UsageError(f"unrecognized option '--{name}'")
