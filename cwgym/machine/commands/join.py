"""``join`` (GNU coreutils, C locale): relational join of two sorted files on a field.
``-t -1 -2 -j -a -v -o (LIST|auto) -e -i --header --check-order --nocheck-order -z``;
unsorted input is reported the GNU way (exit 1)."""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, lower, shown, two_inputs
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(
    short="t:1:2:j:a:v:o:e:iz",
    long={
        "ignore-case": "i",
        "check-order": "check-order",
        "nocheck-order": "nocheck-order",
        "header": "header",
        "zero-terminated": "z",
    },
)

_BLANKS = re.compile(r"[ \t]+")


def _field_number(ctx: CommandContext, value: str) -> int:
    if not value.isdigit() or int(value) == 0:
        ctx.error(f"invalid field number: '{value}'")
        raise Exit(1)
    return int(value) - 1


@command("join")
def join(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    tab: str | None = None
    f1 = f2 = 0
    unpaired: set[int] = set()
    only_unpaired: set[int] = set()
    out_spec: list[tuple[int, int]] | None = None
    auto = False
    empty: str | None = None
    icase = header = False
    check: bool | None = None
    eol = "\n"
    for key, value in opts:
        value = arg_text(value or "")
        if key == "t":
            if len(value) > 1:
                ctx.error(f"multi-character tab '{shown(value)}'")
                raise Exit(1)
            tab = value or "\n"
        elif key == "1":
            f1 = _field_number(ctx, value)
        elif key == "2":
            f2 = _field_number(ctx, value)
        elif key == "j":
            f1 = f2 = _field_number(ctx, value)
        elif key in ("a", "v"):
            if value not in ("1", "2"):
                ctx.error(f"invalid field number: '{value}'")
                raise Exit(1)
            (unpaired if key == "a" else only_unpaired).add(int(value))
        elif key == "o":
            if value == "auto":
                auto = True
                continue
            out_spec = out_spec or []
            for item in re.split(r"[ ,]+", value.strip()):
                if item == "0":
                    out_spec.append((0, 0))
                    continue
                m = re.fullmatch(r"(\d+)\.(\d+)", item)
                if m and m.group(1) not in ("1", "2"):
                    ctx.error(f"invalid file number in field spec: '{shown(item)}'")
                    raise Exit(1)
                if not m or int(m.group(2)) == 0:
                    ctx.error(f"invalid field specifier: '{shown(item)}'")
                    raise Exit(1)
                out_spec.append((int(m.group(1)), int(m.group(2)) - 1))
        elif key == "e":
            empty = value
        elif key == "i":
            icase = True
        elif key == "header":
            header = True
        elif key == "check-order":
            check = True
        elif key == "nocheck-order":
            check = False
        elif key == "z":
            eol = "\0"
    contents = two_inputs(ctx, operands, eol)
    if contents is None:
        return 1

    def split(line: str) -> list[str]:
        if tab is None:
            stripped = line.lstrip(" \t")
            return _BLANKS.split(stripped) if stripped else []
        return line.split(tab)

    rows = [[split(line) for line in lines] for lines in contents]
    fields = (f1, f2)
    out_sep = tab if tab is not None else " "
    out: list[str] = []
    if auto and out_spec is None:
        width1 = len(rows[0][0]) if rows[0] else 0
        width2 = len(rows[1][0]) if rows[1] else 0
        out_spec = [(0, 0)] + [(1, i) for i in range(width1) if i != f1] + [(2, i) for i in range(width2) if i != f2]

    def keyof(which: int, parts: list[str]) -> str:
        value = parts[fields[which]] if fields[which] < len(parts) else ""
        return lower(value) if icase else value

    def render(a: list[str] | None, b: list[str] | None) -> str:
        join_value = keyof(0, a) if a is not None else keyof(1, b)  # type: ignore[arg-type]
        if a is not None and f1 < len(a):
            join_value = a[f1]
        elif b is not None and f2 < len(b):
            join_value = b[f2]
        if out_spec is not None:
            items = []
            for which, index in out_spec:
                if which == 0:
                    items.append(join_value)
                    continue
                src = a if which == 1 else b
                if src is not None and index < len(src):
                    items.append(src[index])
                else:
                    items.append(empty if empty is not None else "")
            return out_sep.join(items)
        items = [join_value]
        if a is not None:
            items.extend(p for i, p in enumerate(a) if i != f1)
        if b is not None:
            items.extend(p for i, p in enumerate(b) if i != f2)
        return out_sep.join(items)

    emit_pairs = not only_unpaired
    show1 = 1 in unpaired or 1 in only_unpaired
    show2 = 2 in unpaired or 2 in only_unpaired
    i = j = 0
    r1, r2 = rows
    if header and r1 and r2:
        out.append(render(r1[0], r2[0]) + eol)
        i = j = 1
    elif header:
        if r1:
            out.append(render(r1[0], None) + eol)
            i = 1
        if r2:
            out.append(render(None, r2[0]) + eol)
            j = 1
    disorder = False
    prev = [None, None]
    had_unpaired = False

    def note_order(which: int, index: int) -> None:
        nonlocal disorder
        lines = r1 if which == 0 else r2
        key = keyof(which, lines[index])
        before = prev[which]
        report = check is True or (check is None and had_unpaired)
        if before is not None and key < before and not disorder and report:
            disorder = True
            name = operands[which]
            ctx.stdout += "".join(out).encode("latin-1")
            out.clear()
            ctx.error(f"{name}:{index + 1}: is not sorted: {shown(contents[which][index])}")
            if check is True:
                raise Exit(1)
        prev[which] = key

    while i < len(r1) and j < len(r2):
        k1 = keyof(0, r1[i])
        k2 = keyof(1, r2[j])
        if k1 < k2:
            note_order(0, i)
            had_unpaired = True
            if show1:
                out.append(render(r1[i], None) + eol)
            i += 1
            continue
        if k1 > k2:
            note_order(1, j)
            had_unpaired = True
            if show2:
                out.append(render(None, r2[j]) + eol)
            j += 1
            continue
        i_end = i
        while i_end < len(r1) and keyof(0, r1[i_end]) == k1:
            note_order(0, i_end)
            i_end += 1
        j_end = j
        while j_end < len(r2) and keyof(1, r2[j_end]) == k2:
            note_order(1, j_end)
            j_end += 1
        if emit_pairs:
            for a in r1[i:i_end]:
                for b in r2[j:j_end]:
                    out.append(render(a, b) + eol)
        i, j = i_end, j_end
    while i < len(r1):
        note_order(0, i)
        had_unpaired = True
        if show1:
            out.append(render(r1[i], None) + eol)
        i += 1
    while j < len(r2):
        note_order(1, j)
        had_unpaired = True
        if show2:
            out.append(render(None, r2[j]) + eol)
        j += 1
    emit(ctx, "".join(out))
    if disorder:
        ctx.error("input is not in sorted order")
        return 1
    return 0
