"""``tr`` (GNU coreutils, C locale): translate, delete (``-d``) and squeeze (``-s``) bytes,
with ranges, ``[:class:]``, ``[=c=]``, ``[c*n]`` repeats, escapes and ``-c``/``-C``
complement."""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, shown, text, usage_exit
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(
    short="cCdst",
    long={"complement": "c", "delete": "d", "squeeze-repeats": "s", "truncate-set1": "t"},
)

_CLASSES = {
    "alpha": [c for c in map(chr, range(256)) if c.isascii() and c.isalpha()],
    "digit": list("0123456789"),
    "alnum": [c for c in map(chr, range(256)) if c.isascii() and c.isalnum()],
    "upper": list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "lower": list("abcdefghijklmnopqrstuvwxyz"),
    "space": list(" \t\n\r\f\v"),
    "blank": list(" \t"),
    "punct": [chr(c) for c in range(33, 127) if not chr(c).isalnum()],
    "print": [chr(c) for c in range(32, 127)],
    "graph": [chr(c) for c in range(33, 127)],
    "cntrl": [chr(c) for c in range(32)] + ["\x7f"],
    "xdigit": list("0123456789ABCDEFabcdef"),
}
_ESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}


class TrError(Exception):
    pass


def _unescape(spec: str) -> list[tuple[str, bool]]:
    """The set text as (char, was-escaped) pairs."""
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch == "\\" and i + 1 < len(spec):
            nxt = spec[i + 1]
            if nxt in "01234567":
                j = i + 1
                while j < len(spec) and j < i + 4 and spec[j] in "01234567":
                    j += 1
                value = int(spec[i + 1 : j], 8)
                if value > 255:
                    j -= 1
                    value = int(spec[i + 1 : j], 8)
                out.append((chr(value), True))
                i = j
                continue
            out.append((_ESC.get(nxt, nxt), True))
            i += 2
            continue
        out.append((ch, False))
        i += 1
    return out


def parse_set(spec: str, second: bool) -> tuple[list, list[str]]:
    """Expand a SET into items: chars, ("repeat", c, n) and ("class", name) markers; also
    returns the class names in order (for the upper/lower pairing rule)."""
    chars = _unescape(spec)
    items: list = []
    classes: list[str] = []
    i, n = 0, len(chars)
    while i < n:
        ch, esc = chars[i]
        if ch == "[" and not esc and i + 1 < n:
            nxt = chars[i + 1][0]
            if nxt == ":" :
                rest = "".join(c for c, _ in chars[i + 2 :])
                m = re.match(r"([a-z]+):\]", rest)
                if m:
                    name = m.group(1)
                    if name not in _CLASSES:
                        raise TrError(f"invalid character class '{name}'")
                    items.append(("class", name))
                    classes.append(name)
                    i += 2 + len(m.group(0))
                    continue
            if nxt == "=" and i + 3 < n and chars[i + 3][0] == "=" and i + 4 < n and chars[i + 4][0] == "]":
                items.append(chars[i + 2][0])
                i += 5
                continue
            if i + 2 < n and chars[i + 2][0] == "*" and not chars[i + 2][1]:
                j = i + 3
                digits = ""
                while j < n and chars[j][0] != "]":
                    digits += chars[j][0]
                    j += 1
                if j < n:
                    if not second:
                        raise TrError("the [c*] repeat construct may not appear in string1")
                    if digits and not digits.isdigit():
                        raise TrError(f"invalid repeat count '{digits}' in [c*n] construct")
                    count = int(digits, 8 if digits.startswith("0") else 10) if digits else 0
                    items.append(("repeat", nxt, count))
                    i = j + 1
                    continue
        if i + 2 < n and chars[i + 1] == ("-", False):
            hi = chars[i + 2][0]
            if hi < ch:
                raise TrError(
                    f"range-endpoints of '{shown(ch)}-{shown(hi)}' are in reverse collating sequence order"
                )
            items.extend(chr(c) for c in range(ord(ch), ord(hi) + 1))
            i += 3
            continue
        items.append(ch)
        i += 1
    return items, classes


def _flatten(items: list, fill_to: int | None = None) -> list[str]:
    out: list[str] = []
    star_at = None
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif item[0] == "class":
            out.extend(_CLASSES[item[1]])
        else:
            if item[2] == 0:
                star_at = len(out)
                out.append(item)  # placeholder
            else:
                out.extend(item[1] * item[2])
    if star_at is not None:
        c = out[star_at][1]  # type: ignore[index]
        rest = len(out) - 1
        need = max((fill_to or 0) - rest, 0)
        out[star_at : star_at + 1] = [c] * need
    return out


@command("tr")
def tr(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    keys = {k for k, _ in opts}
    complement = bool(keys & {"c", "C"})
    delete = "d" in keys
    squeeze = "s" in keys
    truncate = "t" in keys
    sets = [arg_text(o) for o in operands]
    if not sets:
        usage_exit(ctx, "missing operand")
    translating = not delete and not (squeeze and len(sets) == 1)
    if delete and squeeze and len(sets) == 1:
        usage_exit(ctx, f"missing operand after '{shown(sets[0])}'\nTwo strings must be given when deleting and squeezing.")
    if translating and len(sets) == 1:
        usage_exit(ctx, f"missing operand after '{shown(sets[0])}'\nTwo strings must be given when translating.")
    max_sets = 2 if (translating or (delete and squeeze)) else 1
    if len(sets) > max_sets:
        extra = shown(sets[max_sets])
        if delete and not squeeze and len(sets) == 2:
            usage_exit(ctx, f"extra operand '{extra}'\nOnly one string may be given when deleting without squeezing repeats.")
        usage_exit(ctx, f"extra operand '{extra}'")
    try:
        items1, _classes1 = parse_set(sets[0], False)
        items2, classes2 = parse_set(sets[1], True) if len(sets) > 1 else ([], [])
        set1 = _flatten(items1)
        if complement:
            members = set(set1)
            set1 = [chr(c) for c in range(256) if chr(c) not in members]
        data = text(ctx.stdin)
        if translating:
            for name in classes2:
                if name not in ("upper", "lower"):
                    raise TrError("when translating, the only character classes that may appear in string2 are 'upper' and 'lower'")
            _check_case_pairs(items1, items2)
            set2 = _flatten(items2, len(set1))
            if not set2 and set1:
                raise TrError("when not truncating set1, string2 must be non-empty")
            if truncate:
                set1 = set1[: len(set2)]
            elif len(set2) < len(set1):
                set2 = set2 + [set2[-1]] * (len(set1) - len(set2))
            table: dict[int, str] = {}
            for a, b in zip(set1, set2):
                table[ord(a)] = b
            data = data.translate(table)
            if squeeze:
                data = _squeeze(data, set(set2[: len(set1)]))
        elif delete:
            data = data.translate({ord(c): None for c in set1})
            if squeeze:
                data = _squeeze(data, set(_flatten(items2)))
        else:
            data = _squeeze(data, set(set1))
    except TrError as exc:
        ctx.error(str(exc))
        raise Exit(1) from None
    emit(ctx, data)
    return 0


def _check_case_pairs(items1: list, items2: list) -> None:
    pos1 = _class_positions(items1)
    pos2 = _class_positions(items2)
    for index, name in pos2.items():
        if name not in ("upper", "lower") or pos1.get(index) not in ("upper", "lower"):
            raise TrError("misaligned [:upper:] and/or [:lower:] construct")


def _class_positions(items: list) -> dict[int, str]:
    positions = {}
    offset = 0
    for item in items:
        if isinstance(item, tuple) and item[0] == "class":
            positions[offset] = item[1]
            offset += len(_CLASSES[item[1]])
        elif isinstance(item, tuple):
            offset += item[2]
        else:
            offset += 1
    return positions


def _squeeze(data: str, chars: set[str]) -> str:
    if not chars or not data:
        return data
    body = "".join(f"\\x{ord(c):02x}" for c in sorted(chars))
    return re.sub(f"([{body}])\\1+", r"\1", data)
