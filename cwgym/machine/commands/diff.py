"""``diff`` (GNU diffutils 3.8): line comparison with GNU's algorithm (Myers' middle-snake
divide and conquer, then GNU's boundary shifting), so hunks match GNU's in the common
cases. Output: normal (default), unified (``-u``, ``-U N``) and context (``-c``, ``-C N``),
with header times from the logical-clock mtimes; ``-q``, ``-s``; ``-i -b -w -B`` compare
loosely. Directories compare entry by entry (``Only in``, ``Common subdirectories``),
recursively with ``-r``.

Refused with exit 2: side by side (``-y``), ed scripts and the line-format options.
GNU's pre-pass that discards lines with no match in the other file is not reproduced, so
a few large rewrites may split their hunks differently.
"""

from __future__ import annotations

import re

from cwgym.kernel.calendar import civil_from_days
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import lower
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="uU:cC:qsibwBaNr",
    long={
        "unified": "u",
        "unified=": "U",
        "context": "c",
        "context=": "C",
        "brief": "q",
        "report-identical-files": "s",
        "ignore-case": "i",
        "ignore-space-change": "b",
        "ignore-all-space": "w",
        "ignore-blank-lines": "B",
        "text": "a",
        "new-file": "N",
        "label=": "label",
        "color": "color",
        "color=": "color",
        "normal": "normal",
        "recursive": "r",
    },
    unsupported=(
        "-y", "--side-by-side", "-e", "--ed", "-n", "--rcs",
        "-p", "--show-c-function", "-F", "--show-function-line",
        "-x", "--exclude", "-X", "--exclude-from", "-D", "--ifdef", "-t", "--expand-tabs",
        "-T", "--initial-tab", "-W", "--width", "-l", "--paginate", "-E", "-Z", "-I",
        "--ignore-matching-lines", "-d", "--minimal", "-H", "--speed-large-files",
        "--line-format", "--old-line-format", "--new-line-format", "--unchanged-line-format",
        "--old-group-format", "--new-group-format", "--changed-group-format",
        "--unchanged-group-format", "-S", "--starting-file", "--from-file", "--to-file",
        "--strip-trailing-cr", "--tabsize", "--suppress-common-lines", "--left-column",
        "--horizon-lines", "--no-dereference", "--unidirectional-new-file",
        "--ignore-file-name-case", "--no-ignore-file-name-case", "--ignore-tab-expansion",
        "--ignore-trailing-space", "--suppress-blank-empty", "--palette",
    ),
)


def _lines(data: bytes) -> tuple[list[bytes], bool]:
    """Lines without terminators, and whether the last one lacked its newline."""
    if not data:
        return [], False
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
        return parts, False
    return parts, True


def compare_sequences(xv: list[int], yv: list[int]) -> tuple[list[bool], list[bool]]:
    """GNU diff's compareseq: which lines of each side are changed."""
    n, m = len(xv), len(yv)
    xchanged = [False] * (n + 2)  # index i+1 is line i; sentinels at both ends
    ychanged = [False] * (m + 2)
    size = n + m + 3
    fd = [0] * (2 * size + 1)
    bd = [0] * (2 * size + 1)
    off = size  # diagonal d lives at index d + off

    def diag(xoff: int, xlim: int, yoff: int, ylim: int) -> tuple[int, int]:
        dmin = xoff - ylim
        dmax = xlim - yoff
        fmid = xoff - yoff
        bmid = xlim - ylim
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid + off] = xoff
        bd[bmid + off] = xlim
        while True:
            if fmin > dmin:
                fmin -= 1
                fd[fmin - 1 + off] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                fd[fmax + 1 + off] = -1
            else:
                fmax -= 1
            d = fmax
            while d >= fmin:
                tlo = fd[d - 1 + off]
                thi = fd[d + 1 + off]
                x = thi if tlo < thi else tlo + 1
                y = x - d
                while x < xlim and y < ylim and xv[x] == yv[y]:
                    x += 1
                    y += 1
                fd[d + off] = x
                if odd and bmin <= d <= bmax and bd[d + off] <= x:
                    return x, y
                d -= 2
            if bmin > dmin:
                bmin -= 1
                bd[bmin - 1 + off] = 1 << 60
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                bd[bmax + 1 + off] = 1 << 60
            else:
                bmax -= 1
            d = bmax
            while d >= bmin:
                tlo = bd[d - 1 + off]
                thi = bd[d + 1 + off]
                x = tlo if tlo < thi else thi - 1
                y = x - d
                while x > xoff and y > yoff and xv[x - 1] == yv[y - 1]:
                    x -= 1
                    y -= 1
                bd[d + off] = x
                if not odd and fmin <= d <= fmax and x <= fd[d + off]:
                    return x, y
                d -= 2

    stack = [(0, n, 0, m)]
    while stack:
        xoff, xlim, yoff, ylim = stack.pop()
        while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
            xoff += 1
            yoff += 1
        while xlim > xoff and ylim > yoff and xv[xlim - 1] == yv[ylim - 1]:
            xlim -= 1
            ylim -= 1
        if xoff == xlim:
            for y in range(yoff, ylim):
                ychanged[y + 1] = True
        elif yoff == ylim:
            for x in range(xoff, xlim):
                xchanged[x + 1] = True
        else:
            xmid, ymid = diag(xoff, xlim, yoff, ylim)
            stack.append((xmid, xlim, ymid, ylim))
            stack.append((xoff, xmid, yoff, ymid))
    return xchanged, ychanged


def shift_boundaries(equivs: list[list[int]], changed: list[list[bool]]) -> None:
    """GNU's shift_boundaries: slide runs of changes to merge them and to line up with the
    other file's changes (arrays carry a False sentinel at each end)."""
    for f in (0, 1):
        ch = changed[f]
        other = changed[1 - f]
        eq = equivs[f]
        i_end = len(eq)
        i = 0
        j = 0

        def c(k: int, ch: list[bool] = ch) -> bool:
            return ch[k + 1]

        def oc(k: int, other: list[bool] = other) -> bool:
            return other[k + 1]

        while True:
            while i < i_end and not c(i):
                while oc(j):
                    j += 1
                j += 1
                i += 1
            if i == i_end:
                break
            start = i
            i += 1
            while c(i):
                i += 1
            while oc(j):
                j += 1
            while True:
                runlength = i - start
                while start and eq[start - 1] == eq[i - 1]:
                    start -= 1
                    ch[start + 1] = True
                    i -= 1
                    ch[i + 1] = False
                    while c(start - 1):
                        start -= 1
                    j -= 1
                    while oc(j):
                        j -= 1
                corresponding = i if oc(j - 1) else i_end
                while i != i_end and eq[start] == eq[i]:
                    ch[start + 1] = False
                    start += 1
                    ch[i + 1] = True
                    i += 1
                    while c(i):
                        i += 1
                    j += 1
                    while oc(j):
                        j += 1
                        corresponding = i
                if runlength == i - start:
                    break
            while corresponding < i:
                start -= 1
                ch[start + 1] = True
                i -= 1
                ch[i + 1] = False
                j -= 1
                while oc(j):
                    j -= 1


def hunks(xchanged: list[bool], ychanged: list[bool], n: int, m: int) -> list[tuple[int, int, int, int]]:
    """Changes as (x start, deleted count, y start, inserted count), 0-based."""
    out = []
    i = j = 0
    while i < n or j < m:
        if (i < n and xchanged[i + 1]) or (j < m and ychanged[j + 1]):
            i0, j0 = i, j
            while i < n and xchanged[i + 1]:
                i += 1
            while j < m and ychanged[j + 1]:
                j += 1
            out.append((i0, i - i0, j0, j - j0))
        else:
            i += 1
            j += 1
    return out


def _range(start: int, count: int) -> str:
    """Normal-format line range (1-based) of ``count`` lines from 0-based ``start``."""
    if count <= 1:
        return str(start + (1 if count else 0))
    return f"{start + 1},{start + count}"


def _uni_range(start: int, count: int) -> str:
    if count == 0:
        return f"{start},0"
    if count == 1:
        return str(start + 1)
    return f"{start + 1},{count}"


_DAYS = ("Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _stamp(ctx: CommandContext, operand: str, ctime: bool = False) -> str:
    """A header time: ``2026-09-17 09:00:00.000000000 +0000`` (unified) or, for the
    context format, ``Thu Sep 17 09:00:00 2026``."""
    if operand == "-":
        micros = ctx.machine.clock.now_us
    else:
        micros = ctx.fs.stat(operand, ctx.cwd).mtime
    seconds = WORLD_EPOCH_S + micros // 1_000_000
    nanos = (micros % 1_000_000) * 1000
    days, rest = divmod(seconds, 86400)
    hh, rest = divmod(rest, 3600)
    mm, ss = divmod(rest, 60)
    year, month, day = civil_from_days(days)
    if ctime:
        return f"{_DAYS[days % 7]} {_MONTHS[month - 1]} {day:2d} {hh:02d}:{mm:02d}:{ss:02d} {year}"
    return f"{year:04d}-{month:02d}-{day:02d} {hh:02d}:{mm:02d}:{ss:02d}.{nanos:09d} +0000"


class Differ:
    """One diff run: options, and the comparison of files and directories."""

    def __init__(self, ctx: CommandContext, opts: list[tuple[str, str | None]], switches: list[str]) -> None:
        self.ctx = ctx
        self.unified: int | None = None
        self.context: int | None = None
        self.brief = self.report_same = self.icase = self.space_change = False
        self.all_space = self.blank_lines = self.new_file = self.recursive = self.text = False
        self.labels: list[str] = []
        self.switches = switches
        for key, value in opts:
            if key == "u":
                self.unified = 3
            elif key == "U":
                if not (value or "").isdigit():
                    ctx.error(f"invalid context length '{value}'")
                    ctx.err("diff: Try 'diff --help' for more information.\n")
                    raise Exit(2)
                self.unified = int(value or "3")
            elif key in ("c", "C"):
                if key == "C" and not (value or "").isdigit():
                    ctx.error(f"invalid context length '{value}'")
                    ctx.err("diff: Try 'diff --help' for more information.\n")
                    raise Exit(2)
                self.context = int(value) if key == "C" and value else 3
            elif key == "q":
                self.brief = True
            elif key == "s":
                self.report_same = True
            elif key == "i":
                self.icase = True
            elif key == "b":
                self.space_change = True
            elif key == "w":
                self.all_space = True
            elif key == "B":
                self.blank_lines = True
            elif key == "N":
                self.new_file = True
            elif key == "r":
                self.recursive = True
            elif key == "a":
                self.text = True
            elif key == "label":
                self.labels.append(value or "")
            elif key == "color" and value not in (None, "never", "auto"):
                ctx.error("--color=always is not supported")
                raise Exit(2)

    def kind(self, path: str) -> str | None:
        if path == "-":
            return "file"
        try:
            return self.ctx.fs.stat(path, self.ctx.cwd).kind
        except FsError:
            return None

    def compare_paths(self, name_a: str, name_b: str, top: bool) -> int:
        ctx = self.ctx
        kind_a, kind_b = self.kind(name_a), self.kind(name_b)
        if top and kind_a == "dir" and kind_b not in (None, "dir"):
            name_a = name_a.rstrip("/") + "/" + name_b.rstrip("/").rsplit("/", 1)[-1]
            kind_a = self.kind(name_a)
        elif top and kind_b == "dir" and kind_a not in (None, "dir"):
            name_b = name_b.rstrip("/") + "/" + name_a.rstrip("/").rsplit("/", 1)[-1]
            kind_b = self.kind(name_b)
        if kind_a == "dir" and kind_b == "dir":
            return self.compare_dirs(name_a, name_b)
        missing = False
        contents = []
        for name, kind in ((name_a, kind_a), (name_b, kind_b)):
            if kind is None and self.new_file:
                contents.append(b"")
                continue
            try:
                contents.append(ctx.read_input(name))
            except FsError as exc:
                ctx.error(f"{name}: {exc.strerror_text}")
                missing = True
        if missing:
            return 2
        return self.compare_files(name_a, contents[0], name_b, contents[1], top)

    def compare_dirs(self, dir_a: str, dir_b: str) -> int:
        ctx = self.ctx
        names_a = set(ctx.fs.listdir(dir_a, ctx.cwd))
        names_b = set(ctx.fs.listdir(dir_b, ctx.cwd))
        status = 0
        for name in sorted(names_a | names_b):
            path_a = dir_a.rstrip("/") + "/" + name
            path_b = dir_b.rstrip("/") + "/" + name
            if name not in names_b:
                ctx.out(f"Only in {dir_a}: {name}\n")
                status = max(status, 1)
                continue
            if name not in names_a:
                ctx.out(f"Only in {dir_b}: {name}\n")
                status = max(status, 1)
                continue
            kind_a, kind_b = self.kind(path_a), self.kind(path_b)
            if kind_a == "dir" and kind_b == "dir":
                if self.recursive:
                    status = max(status, self.compare_dirs(path_a, path_b))
                else:
                    ctx.out(f"Common subdirectories: {path_a} and {path_b}\n")
                continue
            if (kind_a == "dir") != (kind_b == "dir"):
                first = "directory" if kind_a == "dir" else "regular file"
                second = "directory" if kind_b == "dir" else "regular file"
                ctx.out(f"File {path_a} is a {first} while file {path_b} is a {second}\n")
                status = max(status, 1)
                continue
            status = max(status, self.compare_paths(path_a, path_b, False))
        return status

    def compare_files(self, name_a: str, a_data: bytes, name_b: str, b_data: bytes, top: bool) -> int:
        ctx = self.ctx
        if a_data == b_data:
            if self.report_same:
                ctx.out(f"Files {name_a} and {name_b} are identical\n")
            return 0
        binary = b"\0" in a_data[:32768] or b"\0" in b_data[:32768]
        if binary and not self.text:
            ctx.out(f"Binary files {name_a} and {name_b} differ\n")
            return 1
        a_lines, a_noeol = _lines(a_data)
        b_lines, b_noeol = _lines(b_data)
        all_space, space_change, icase = self.all_space, self.space_change, self.icase

        def norm(line: bytes) -> bytes:
            if all_space:
                line = re.sub(rb"[ \t\v\f\r]+", b"", line)
            elif space_change:
                line = re.sub(rb"[ \t\v\f\r]+", b" ", line).rstrip(b" ")
            if icase:
                line = lower(line.decode("latin-1")).encode("latin-1")
            return line

        ids: dict[bytes, int] = {}

        def equiv(lines: list[bytes], noeol: bool) -> list[int]:
            out = []
            for k, line in enumerate(lines):
                key = norm(line)
                if noeol and k == len(lines) - 1 and not (all_space or space_change):
                    key = key + b"\n\0noeol"
                out.append(ids.setdefault(key, len(ids)))
            return out

        xv = equiv(a_lines, a_noeol)
        yv = equiv(b_lines, b_noeol)
        xchanged, ychanged = compare_sequences(xv, yv)
        shift_boundaries([xv, yv], [xchanged, ychanged])
        changes = hunks(xchanged, ychanged, len(xv), len(yv))
        if self.blank_lines:
            changes = [
                c for c in changes
                if not all(not a_lines[k].strip() for k in range(c[0], c[0] + c[1]))
                or not all(not b_lines[k].strip() for k in range(c[2], c[2] + c[3]))
            ]
        if not changes:
            if self.report_same:
                ctx.out(f"Files {name_a} and {name_b} are identical\n")
            return 0
        if self.brief:
            ctx.out(f"Files {name_a} and {name_b} differ\n")
            return 1
        if not top:
            ctx.out(" ".join(["diff", *self.switches, name_a, name_b]) + "\n")
        if self.context is not None and self.unified is None:
            labels = self.labels
            label_a = labels[0] if labels else f"{name_a}\t{_stamp(ctx, name_a, ctime=True)}"
            label_b = labels[1] if len(labels) > 1 else f"{name_b}\t{_stamp(ctx, name_b, ctime=True)}"
            ctx.out(f"*** {label_a}\n--- {label_b}\n".encode("utf-8", "surrogateescape"))
            ctx.out(_context(changes, self.context, a_lines, a_noeol, b_lines, b_noeol))
        elif self.unified is None:
            ctx.out(_normal(changes, a_lines, a_noeol, b_lines, b_noeol))
        else:
            labels = self.labels
            label_a = labels[0] if labels else f"{name_a}\t{_stamp(ctx, name_a)}"
            label_b = labels[1] if len(labels) > 1 else f"{name_b}\t{_stamp(ctx, name_b)}"
            ctx.out(f"--- {label_a}\n+++ {label_b}\n".encode("utf-8", "surrogateescape"))
            ctx.out(_unified(changes, self.unified, a_lines, a_noeol, b_lines, b_noeol))
        return 1


_NO_EOL = b"\\ No newline at end of file\n"


def _normal(changes, a_lines, a_noeol, b_lines, b_noeol) -> bytes:
    out: list[bytes] = []
    for x0, dels, y0, ins in changes:
        if dels and ins:
            head = f"{_range(x0, dels)}c{_range(y0, ins)}\n"
        elif dels:
            head = f"{_range(x0, dels)}d{y0}\n"
        else:
            head = f"{x0}a{_range(y0, ins)}\n"
        out.append(head.encode())
        for k in range(x0, x0 + dels):
            out.append(b"< " + a_lines[k] + b"\n")
            if a_noeol and k == len(a_lines) - 1:
                out.append(_NO_EOL)
        if dels and ins:
            out.append(b"---\n")
        for k in range(y0, y0 + ins):
            out.append(b"> " + b_lines[k] + b"\n")
            if b_noeol and k == len(b_lines) - 1:
                out.append(_NO_EOL)
    return b"".join(out)


def _groups(changes, context: int) -> list[list[tuple[int, int, int, int]]]:
    """Changes whose gaps are at most twice the context share one hunk."""
    groups: list[list[tuple[int, int, int, int]]] = []
    for change in changes:
        if groups:
            last = groups[-1][-1]
            if change[0] - (last[0] + last[1]) <= 2 * context:
                groups[-1].append(change)
                continue
        groups.append([change])
    return groups


def _ctx_range(start: int, end: int) -> str:
    """Context-format range of 0-based lines [start, end)."""
    if end - start <= 1:
        return str(end)
    return f"{start + 1},{end}"


def _context(changes, context, a_lines, a_noeol, b_lines, b_noeol) -> bytes:
    out: list[bytes] = []
    for group in _groups(changes, context):
        first, last = group[0], group[-1]
        x_start = max(first[0] - context, 0)
        y_start = max(first[2] - context, 0)
        x_end = min(last[0] + last[1] + context, len(a_lines))
        y_end = min(last[2] + last[3] + context, len(b_lines))
        out.append(b"***************\n")
        for side in (0, 1):
            lines, noeol = (a_lines, a_noeol) if side == 0 else (b_lines, b_noeol)
            start, end = (x_start, x_end) if side == 0 else (y_start, y_end)
            marks: dict[int, bytes] = {}
            for x0, dels, y0, ins in group:
                both = dels and ins
                first_line, count = (x0, dels) if side == 0 else (y0, ins)
                for k in range(first_line, first_line + count):
                    marks[k] = b"! " if both else (b"- " if side == 0 else b"+ ")
            stars = b"***" if side == 0 else b"---"
            tail = b" ****\n" if side == 0 else b" ----\n"
            out.append(stars + b" " + _ctx_range(start, end).encode() + tail)
            if not marks:
                continue
            for k in range(start, end):
                out.append(marks.get(k, b"  ") + lines[k] + b"\n")
                if noeol and k == len(lines) - 1:
                    out.append(_NO_EOL)
    return b"".join(out)


def _unified(changes, context, a_lines, a_noeol, b_lines, b_noeol) -> bytes:
    out: list[bytes] = []
    groups = _groups(changes, context)

    def line_a(k: int, mark: bytes) -> None:
        out.append(mark + a_lines[k] + b"\n")
        if a_noeol and k == len(a_lines) - 1:
            out.append(_NO_EOL)

    for group in groups:
        first, last = group[0], group[-1]
        x_start = max(first[0] - context, 0)
        y_start = max(first[2] - context, 0)
        x_end = min(last[0] + last[1] + context, len(a_lines))
        y_end = min(last[2] + last[3] + context, len(b_lines))
        out.append(
            f"@@ -{_uni_range(x_start, x_end - x_start)} +{_uni_range(y_start, y_end - y_start)} @@\n".encode()
        )
        x = x_start
        for x0, dels, y0, ins in group:
            while x < x0:
                line_a(x, b" ")
                x += 1
            for k in range(x0, x0 + dels):
                line_a(k, b"-")
            for k in range(y0, y0 + ins):
                out.append(b"+" + b_lines[k] + b"\n")
                if b_noeol and k == len(b_lines) - 1:
                    out.append(_NO_EOL)
            x = x0 + dels
        while x < x_end:
            line_a(x, b" ")
            x += 1
    return b"".join(out)


@command("diff")
def diff(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, usage_status=2)
    switches = []
    for arg in ctx.args:
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-" and arg not in operands:
            switches.append(arg)
    differ = Differ(ctx, opts, switches)
    if len(operands) < 2:
        if not operands:
            ctx.error("missing operand after 'diff'")
        else:
            ctx.error(f"missing operand after '{operands[0]}'")
        ctx.err("diff: Try 'diff --help' for more information.\n")
        raise Exit(2)
    if len(operands) > 2:
        ctx.error(f"extra operand '{operands[2]}'")
        ctx.err("diff: Try 'diff --help' for more information.\n")
        raise Exit(2)
    return differ.compare_paths(operands[0], operands[1], True)
