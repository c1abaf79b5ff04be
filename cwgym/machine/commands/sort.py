"""``sort`` (GNU coreutils, C locale): byte order, ``-k POS1[,POS2]`` keys with per-key
modifiers, ``-t``, ``-n -g -h -M -V -f -d -i -b -r``, ``-u``, ``-s``, ``-c``/``-C``, ``-o``,
``-z``, ``-m``, and GNU's last-resort whole-line comparison (which ``-r`` reverses too).

``-R`` (random order) is refused: it would need a random source.
"""

from __future__ import annotations

import functools
import heapq
import re
from decimal import Decimal

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, c_number_prefix, raw, shown, text, upper
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="bdfgihMnrVk:t:usmo:cCzS:T:",
    long={
        "ignore-leading-blanks": "b",
        "dictionary-order": "d",
        "ignore-case": "f",
        "general-numeric-sort": "g",
        "ignore-nonprinting": "i",
        "human-numeric-sort": "h",
        "month-sort": "M",
        "numeric-sort": "n",
        "reverse": "r",
        "version-sort": "V",
        "key=": "k",
        "field-separator=": "t",
        "unique": "u",
        "stable": "s",
        "merge": "m",
        "output=": "o",
        "check": "c",
        "check=": "check",
        "zero-terminated": "z",
        "buffer-size=": "S",
        "temporary-directory=": "T",
        "parallel=": "parallel",
        "sort=": "sort",
    },
    unsupported=("-R", "--random-sort", "--random-source", "--files0-from", "--compress-program", "--debug"),
)

_MODIFIERS = "bdfgihMnRrV"
_MONTHS = {m: i for i, m in enumerate(["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"], 1)}
_NUM = re.compile(r"[ \t]*(-?)(\d*)(?:\.(\d*))?")
_HUMAN = " KMGTPEZYRQ"
_HEX = re.compile(r"[ \t]*[-+]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?\d+)?")


class Key:
    __slots__ = ("eblanks", "echar", "ewords", "mods", "sblanks", "schar", "sword")

    def __init__(self) -> None:
        self.sword = 0
        self.schar = 0
        self.ewords: int | None = None
        self.echar = 0
        self.sblanks = False
        self.eblanks = False
        self.mods = ""


def _fail(ctx: CommandContext, message: str) -> None:
    ctx.error(message)
    raise Exit(2)


def parse_key(ctx: CommandContext, spec: str) -> Key:
    key = Key()
    m = re.match(r"(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?\Z", spec)
    if not m:
        bad = re.match(r"\d*", spec)
        if bad and not bad.group(0):
            _fail(ctx, f"invalid number at field start: invalid count at start of '{spec}'")
        _fail(ctx, f"invalid key specification '{spec}'" if "," in spec else f"stray character in field spec: invalid field specification '{spec}'")
    field = int(m.group(1))
    if field == 0:
        _fail(ctx, f"field number is zero: invalid field specification '{spec}'")
    key.sword = field - 1
    if m.group(2) is not None:
        if int(m.group(2)) == 0:
            _fail(ctx, f"character offset is zero: invalid field specification '{spec}'")
        key.schar = int(m.group(2)) - 1
    for letter in m.group(3) or "":
        if letter not in _MODIFIERS:
            _fail(ctx, f"stray character in field spec: invalid field specification '{spec}'")
        if letter == "b":
            key.sblanks = True
        else:
            key.mods += letter
    if m.group(4) is not None:
        end_field = int(m.group(4))
        if end_field == 0:
            _fail(ctx, f"field number is zero: invalid field specification '{spec}'")
        key.ewords = end_field - 1
        key.echar = int(m.group(5)) if m.group(5) is not None else 0
        for letter in m.group(6) or "":
            if letter not in _MODIFIERS:
                _fail(ctx, f"stray character in field spec: invalid field specification '{spec}'")
            if letter == "b":
                key.eblanks = True
            else:
                key.mods += letter
    if "R" in key.mods:
        ctx.error("random ordering (-R) is not supported")
        raise Exit(2)
    return key


def _blank(ch: str) -> bool:
    return ch == " " or ch == "\t"


def key_text(line: str, key: Key, tab: str | None) -> str:
    """The part of ``line`` a key selects (GNU's begfield/limfield)."""
    n = len(line)
    ptr = 0
    sword = key.sword
    if tab is not None:
        while ptr < n and sword:
            sword -= 1
            found = line.find(tab, ptr)
            ptr = n if found < 0 else found + 1
    else:
        while ptr < n and sword:
            sword -= 1
            while ptr < n and _blank(line[ptr]):
                ptr += 1
            while ptr < n and not _blank(line[ptr]):
                ptr += 1
    if key.sblanks:
        while ptr < n and _blank(line[ptr]):
            ptr += 1
    start = min(ptr + key.schar, n)
    if key.ewords is None:
        return line[start:]
    eword = key.ewords
    echar = key.echar
    if echar == 0:
        eword += 1
    ptr = 0
    if tab is not None:
        while ptr < n and eword:
            eword -= 1
            while ptr < n and line[ptr] != tab:
                ptr += 1
            if ptr < n and (eword or echar):
                ptr += 1
    else:
        while ptr < n and eword:
            eword -= 1
            while ptr < n and _blank(line[ptr]):
                ptr += 1
            while ptr < n and not _blank(line[ptr]):
                ptr += 1
    if echar:
        if key.eblanks:
            while ptr < n and _blank(line[ptr]):
                ptr += 1
        ptr = min(n, ptr + echar)
    return line[start:ptr] if ptr > start else ""


def _numeric(value: str) -> Decimal:
    m = _NUM.match(value)
    if not m or not (m.group(2) or m.group(3)):
        return Decimal(0)
    digits = (m.group(2) or "0") + ("." + m.group(3) if m.group(3) else "")
    number = Decimal(digits)
    return -number if m.group(1) else number


def _general(value: str) -> tuple:
    stripped = value.lstrip(" \t")
    low = stripped[:4].lower()
    for word, number in (("inf", float("inf")), ("-inf", float("-inf")), ("+inf", float("inf"))):
        if low.startswith(word):
            return (2, number)
    if low.startswith(("nan", "-nan", "+nan")):
        return (1, 0.0)
    hexa = _HEX.match(value)
    if hexa:
        try:
            number = float.fromhex(hexa.group(0).strip(" \t"))
            return (2, number)
        except (ValueError, OverflowError):
            pass
    number, used = c_number_prefix(value)
    if used == 0:
        return (0, 0.0)
    return (2, number)


def _human(value: str) -> tuple:
    m = re.match(r"[ \t]*(-?)(\d*)(?:\.(\d*))?([KMGTPEZYRQk]?)", value)
    if not m or not (m.group(2) or m.group(3)):
        return (0, Decimal(0))
    number = Decimal((m.group(2) or "0") + ("." + m.group(3) if m.group(3) else ""))
    suffix = m.group(4).upper()
    rank = _HUMAN.index(suffix) if suffix else 0
    if number == 0:
        rank = 0
    if m.group(1):
        return (-rank, -number)
    return (rank, number)


def _month(value: str) -> int:
    return _MONTHS.get(upper(value.lstrip(" \t\n")[:3]), 0)


def _order(ch: str) -> int:
    if ch.isdigit() and ch < "\x80":
        return 0
    if ch.isalpha() and ch < "\x80":
        return ord(ch)
    if ch == "~":
        return -1
    return ord(ch) + 256


def _verkey(value: str) -> tuple:
    parts = []
    i, n = 0, len(value)
    while i < n:
        weights = []
        while i < n and not ("0" <= value[i] <= "9"):
            weights.append(_order(value[i]))
            i += 1
        weights.append(0)
        j = i
        while j < n and "0" <= value[j] <= "9":
            j += 1
        number = int(value[i:j]) if j > i else -1
        i = j
        parts.append((tuple(weights), number))
    return tuple(parts)


_SUFFIX = re.compile(r"(?:\.[A-Za-z~][A-Za-z0-9~]*)*\Z")


def _version(value: str) -> tuple:
    if value == "":
        return (0,)
    if value == ".":
        return (1,)
    if value == "..":
        return (2,)
    hidden = 3 if value.startswith(".") else 4
    body = value[1:] if hidden == 3 else value
    prefix = body[: _SUFFIX.search(body).start()]  # type: ignore[union-attr]
    return (hidden, _verkey(prefix), _verkey(body))


def make_transform(mods: str):
    """A function from key text to a comparable value for the given modifiers."""
    if "n" in mods:
        return _numeric
    if "g" in mods:
        return _general
    if "h" in mods:
        return _human
    if "M" in mods:
        return _month
    if "V" in mods:
        return _version
    fold = "f" in mods
    dictionary = "d" in mods
    printable = "i" in mods
    if not (fold or dictionary or printable):
        return None
    keep = None
    if dictionary:
        keep = re.compile(r"[^ \t0-9A-Za-z]+")
    elif printable:
        keep = re.compile(r"[^\x20-\x7e]+")

    def transform(value: str) -> str:
        if keep is not None:
            value = keep.sub("", value)
        return upper(value) if fold else value

    return transform


@command("sort")
def sort(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, usage_status=2)
    global_mods = ""
    global_blanks = False
    keys: list[Key] = []
    tab: str | None = None
    unique = stable = merge = False
    check: str | None = None
    output: str | None = None
    eol = "\n"
    for key, value in opts:
        if key in _MODIFIERS and len(key) == 1:
            if key == "b":
                global_blanks = True
            else:
                global_mods += key
        elif key == "k":
            keys.append(parse_key(ctx, arg_text(value or "")))
        elif key == "t":
            sep = arg_text(value or "")
            if sep == "\\0":
                sep = "\0"
            if len(sep) > 1:
                ctx.error(f"multi-character tab '{shown(sep)}'")
                raise Exit(2)
            if sep == "":
                ctx.error("empty tab")
                raise Exit(2)
            if tab is not None and tab != sep:
                ctx.error("incompatible tabs")
                raise Exit(2)
            tab = sep
        elif key == "u":
            unique = True
        elif key == "s":
            stable = True
        elif key == "m":
            merge = True
        elif key == "c":
            check = "c"
        elif key == "C":
            check = "C"
        elif key == "check":
            check = "C" if value in ("quiet", "silent") else "c"
        elif key == "o":
            output = value
        elif key == "z":
            eol = "\0"
        elif key == "sort":
            mapping = {"general-numeric": "g", "human-numeric": "h", "month": "M", "numeric": "n", "version": "V"}
            if value not in mapping:
                ctx.error(f"invalid argument '{value}' for '--sort'")
                raise Exit(2)
            global_mods += mapping[value]
    numeric_kinds = [c for c in global_mods if c in "nghMV"]
    if len(set(numeric_kinds)) > 1:
        ctx.error(f"options '-{''.join(sorted(set(numeric_kinds)))}' are incompatible")
        raise Exit(2)
    reverse = "r" in global_mods
    for k in keys:
        if not k.mods and not k.sblanks and not k.eblanks:
            k.mods = global_mods
            k.sblanks = k.eblanks = global_blanks
    # read input
    lines: list[str] = []
    sources: list[tuple[str, int]] = []
    per_file: list[list[str]] = []
    for operand in operands or ["-"]:
        try:
            if operand != "-" and ctx.fs.is_dir(operand, ctx.cwd):
                ctx.error(f"read failed: {operand}: Is a directory")
                raise Exit(2)
            data = text(ctx.read_input(operand))
        except FsError as exc:
            ctx.error(f"cannot read: {operand}: {exc.strerror_text}")
            raise Exit(2) from None
        part = data.split(eol)
        if part and part[-1] == "":
            part.pop()
        sources.append((operand, len(part)))
        lines.extend(part)
        per_file.append(part)
    # per-line comparison values
    specs = []
    if keys:
        for k in keys:
            specs.append((k, make_transform(k.mods), "r" in k.mods))
    else:
        whole = Key()
        whole.sblanks = global_blanks
        specs.append((whole, make_transform(global_mods), reverse))
    last_resort = not (stable or unique)
    needs_key = bool(keys) or global_blanks or specs[0][1] is not None

    def values(line: str) -> list:
        out = []
        for k, transform, _rev in specs:
            piece = key_text(line, k, tab) if (keys or k.sblanks) else line
            out.append(transform(piece) if transform is not None else piece)
        return out

    rev_flags = [r for _, _, r in specs]
    if check is not None:
        return _check(ctx, lines, sources, values if needs_key else (lambda s: [s]), rev_flags, last_resort, reverse, unique, check)
    def compare(a, b) -> int:
        for x, y, rev in zip(a[0], b[0], rev_flags):
            if x != y:
                result = -1 if x < y else 1
                return -result if rev else result
        if last_resort and a[1] != b[1]:
            result = -1 if a[1] < b[1] else 1
            return -result if reverse else result
        return 0

    if merge:
        streams = [[(values(line), line) for line in part] for part in per_file]
        merged = list(heapq.merge(*streams, key=functools.cmp_to_key(compare)))
        if unique:
            merged = _dedupe(merged, lambda item: item[0])
        ordered = [line for _, line in merged]
    elif not needs_key:
        ordered = sorted(lines, reverse=reverse)
        if unique:
            ordered = _dedupe(ordered, lambda s: s)
    else:
        decorated = [(values(line), line) for line in lines]
        if all(r == reverse for r in rev_flags) or (not last_resort and len(set(rev_flags)) == 1):
            direction = rev_flags[0] if not last_resort else reverse
            if last_resort:
                decorated.sort(key=lambda item: (item[0], item[1]), reverse=direction)
            else:
                decorated.sort(key=lambda item: item[0], reverse=direction)
        else:
            decorated.sort(key=functools.cmp_to_key(compare))
        if unique:
            decorated = _dedupe(decorated, lambda item: item[0])
        ordered = [line for _, line in decorated]
    result = raw("".join(line + eol for line in ordered))
    if output is not None:
        try:
            ctx.fs.write(output, ctx.cwd, result)
        except FsError as exc:
            ctx.error(f"open failed: {output}: {exc.strerror_text}")
            raise Exit(2) from None
        return 0
    ctx.out(result)
    return 0


def _dedupe(items: list, key) -> list:
    out = []
    previous = object()
    for item in items:
        k = key(item)
        if not out or k != previous:
            out.append(item)
        previous = k
    return out


def _check(ctx, lines, sources, values, rev_flags, last_resort, reverse, unique, mode) -> int:
    def compare(a: str, b: str) -> int:
        for x, y, rev in zip(values(a), values(b), rev_flags):
            if x != y:
                result = -1 if x < y else 1
                return -result if rev else result
        if last_resort and a != b:
            result = -1 if a < b else 1
            return -result if reverse else result
        return 0

    for i in range(1, len(lines)):
        c = compare(lines[i - 1], lines[i])
        if c > 0 or (unique and c == 0):
            if mode == "c":
                offset = i
                name = sources[0][0] if sources else "-"
                for source, count in sources:
                    if offset < count:
                        name = source
                        break
                    offset -= count
                ctx.error(f"{name}:{offset + 1}: disorder: {shown(lines[i])}")
            return 1
    return 0

