"""``xargs`` (GNU findutils): build command lines from standard input and run them through
the machine's shell (``ctx.run``). ``-n -L -I/-i -0 -d -r -t -E -s -x -P``
(``-P`` runs sequentially: output order is the sequential one); the default command is
``echo``. ``-p`` (interactive) and ``-a`` are refused."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, shown
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(
    short="0d:n:L:l:I:i:rtE:e:s:xP:",
    long={
        "null": "0",
        "delimiter=": "d",
        "max-args=": "n",
        "max-lines=": "L",
        "replace=": "I",
        "no-run-if-empty": "r",
        "verbose": "t",
        "eof=": "E",
        "max-chars=": "s",
        "exit": "x",
        "max-procs=": "P",
    },
    unsupported=("-p", "--interactive", "-a", "--arg-file", "-o", "--open-tty", "--process-slot-var", "--show-limits"),
    permute=False,
)

_BLANK = " \t\n"


class QuoteError(Exception):
    pass


def split_items(data: str, eof: str | None) -> tuple[list[list[str]], str | None]:
    """Default xargs parsing: blank-separated items with quotes and backslashes, grouped by
    input line (a line ending in a blank continues on the next). Returns (lines of items,
    error message or None)."""
    lines: list[list[str]] = []
    current: list[str] = []
    item: list[str] = []
    have_item = False
    i, n = 0, len(data)
    quote = None
    while i < n:
        ch = data[i]
        i += 1
        if quote:
            if ch == quote:
                quote = None
            elif ch == "\n":
                kind = "double" if quote == '"' else "single"
                return lines + ([current] if current else []), (
                    f"unmatched {kind} quote; by default quotes are special to xargs unless you use the -0 option"
                )
            else:
                item.append(ch)
            continue
        if ch in "'\"":
            quote = ch
            have_item = True
            continue
        if ch == "\\" and i < n:
            item.append(data[i])
            i += 1
            have_item = True
            continue
        if ch in _BLANK:
            if have_item:
                word = "".join(item)
                if eof is not None and word == eof:
                    if current:
                        lines.append(current)
                    return lines, None
                current.append(word)
                item, have_item = [], False
            if ch == "\n" and current and not (i >= 2 and data[i - 2] in " \t"):
                lines.append(current)
                current = []
            continue
        item.append(ch)
        have_item = True
    if quote:
        kind = "double" if quote == '"' else "single"
        return lines + ([current] if current else []), (
            f"unmatched {kind} quote; by default quotes are special to xargs unless you use the -0 option"
        )
    if have_item:
        word = "".join(item)
        if not (eof is not None and word == eof):
            current.append(word)
    if current:
        lines.append(current)
    return lines, None


def _positive(ctx: CommandContext, value: str, option: str) -> int:
    try:
        number = int(value)
    except ValueError:
        ctx.error(f"invalid number \"{value}\" for -{option} option")
        raise Exit(1) from None
    if number < 1:
        ctx.error(f"value {value} for -{option} option should be >= 1")
        ctx.err("Try 'xargs --help' for more information.\n")
        raise Exit(1)
    return number


def _optional_args(args: list[str]) -> list[str]:
    """``-i[R]``, ``-e[EOF]`` and ``-l[N]`` take an optional attached argument, which the
    shared option parser cannot express: rewrite them to their long-argument forms."""
    out = []
    for index, arg in enumerate(args):
        if not arg.startswith("-") or arg == "-" or arg.startswith("--"):
            out.extend(args[index:])
            break
        if arg[:2] in ("-i", "-e", "-l"):
            letter, rest = arg[1], arg[2:]
            if letter == "i":
                out.extend(["-I", rest or "{}"])
            elif letter == "e":
                if rest:
                    out.extend(["-E", rest])
            else:
                out.extend(["-L", rest or "1"])
            continue
        out.append(arg)
    return out


@command("xargs")
def xargs(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, args=_optional_args(ctx.args))
    max_args: int | None = None
    max_lines: int | None = None
    replace: str | None = None
    delim: str | None = None
    no_empty = verbose = False
    eof: str | None = None
    max_chars: int | None = None
    for key, value in opts:
        value_text = arg_text(value) if value is not None else None
        if key == "0":
            delim = "\0"
        elif key == "d":
            spec = value_text or ""
            escapes = {"\\n": "\n", "\\t": "\t", "\\0": "\0", "\\\\": "\\"}
            delim = escapes.get(spec, spec)
            if len(delim) != 1:
                ctx.error(f"invalid input delimiter specification {value}: the delimiter must be either a single character or an escape sequence starting with \\.")
                raise Exit(1)
        elif key == "n":
            max_args = _positive(ctx, value or "", "n")
            max_lines = None
        elif key in ("L", "l"):
            max_lines = _positive(ctx, value or "1", key) if value else 1
            max_args = None
        elif key in ("I", "i"):
            replace = value_text if value_text else "{}"
            max_lines = 1
        elif key == "r":
            no_empty = True
        elif key == "t":
            verbose = True
        elif key in ("E", "e"):
            eof = value_text or None
        elif key == "s":
            max_chars = _positive(ctx, value or "", "s")
    base = [arg_text(a) for a in operands] or ["echo"]
    data = ctx.stdin.decode("latin-1")
    error = None
    if delim is not None:
        parts = data.split(delim)
        if parts and parts[-1] == "":
            parts.pop()
        groups = [[p] for p in parts]
        if eof is not None and delim != "\0":
            cut = [g[0] for g in groups].index(eof) if eof in [g[0] for g in groups] else len(groups)
            groups = groups[:cut]
    elif replace is not None:
        groups = []
        for line in data.split("\n"):
            stripped = line.lstrip(" \t")
            if stripped == "":
                continue
            if eof is not None and stripped == eof:
                break
            groups.append([stripped])
    else:
        groups, error = split_items(data, eof)
    batches: list[list[str]] = []
    if replace is not None:
        for group in groups:
            item = group[0]
            batches.append([a.replace(replace, item) for a in base])
    else:
        items = [w for g in groups for w in g]
        if max_lines is not None:
            for k in range(0, len(groups), max_lines):
                batches.append(base + [w for g in groups[k : k + max_lines] for w in g])
        elif max_args is not None or max_chars is not None:
            limit = max_args or len(items) or 1
            size_base = sum(len(a) + 1 for a in base)
            batch: list[str] = []
            size = size_base
            for item in items:
                grow = len(item) + 1
                full = len(batch) >= limit or (max_chars is not None and batch and size + grow > max_chars)
                if full:
                    batches.append(base + batch)
                    batch, size = [], size_base
                batch.append(item)
                size += grow
            if batch:
                batches.append(base + batch)
        elif items:
            batches.append(base + items)
        if not items and not no_empty and error is None:
            batches.append(list(base))
    status = 0
    for argv in batches:
        if verbose:
            ctx.err(" ".join(shown(a) for a in argv) + "\n")
        code, out, err = ctx.run([shown(a) for a in argv], b"")
        ctx.stdout += out
        if code == 127:
            ctx.error(f"{shown(argv[0])}: No such file or directory")
            return 127
        ctx.stderr += err
        if code == 255:
            ctx.error(f"{shown(argv[0])}: exited with status 255; aborting")
            return 124
        if code in (126, 127):
            return code
        if code != 0:
            status = 123
    if error is not None:
        ctx.error(error)
        return 1
    return status
