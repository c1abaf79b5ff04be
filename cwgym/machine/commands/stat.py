"""``stat``: display file status (GNU coreutils 9.1).

``-L -c/--format FORMAT --printf FORMAT -t``; the default format is GNU's, with times as
``2026-09-17 09:00:00.000000000 +0000``. FORMAT sequences: ``%a %A %b %B %d %D %f %F %g %G
%h %i %m %n %N %o %s %t %T %u %U %w %W %x %X %y %Y %z %Z %Hd %Ld %Hr %Lr %%`` with printf
flags, widths and (for ``%W %X %Y %Z``) precision. The simulated disk is device 8,1 (see
``df``), mounted on ``/``, with 4096-byte I/O blocks; ``/dev/null`` is character device
1,3. ``%C`` (SELinux context) prints ``?``. ``-f`` reports the root file system with the
numbers ``df`` shows (4 KiB blocks, file system ID ``8e2a4f1c3b7d6e90``), with its
sequences ``%a %b %c %d %f %i %l %n %s %S %t %T``.
"""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    blocks_512,
    file_type_text,
    gnu_spec,
    mode_string,
    q,
    qf,
    unix_of,
    usage_error,
)
from cwgym.machine.commands._timefmt import Tm, full_time
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import NULLDEV, SYMLINK, FsError, Stat
from cwgym.machine.users import group_name, user_name

SPEC = gnu_spec(
    "Lc:tf",
    {
        "dereference": "L",
        "format=": "c",
        "printf=": "printf",
        "terse": "t",
        "file-system": "f",
    },
    unsupported=("--cached",),
)
DEV_MAJOR, DEV_MINOR = 8, 1
IO_BLOCK = 4096
DEFAULT_FORMAT = (
    "  File: %N\n"
    "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\n"
    "Modify: %y\n"
    "Change: %z\n"
    " Birth: %w\n"
)
DEVICE_FORMAT = (
    "  File: %N\n"
    "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\n"
    "Modify: %y\n"
    "Change: %z\n"
    " Birth: %w\n"
)
TERSE_FORMAT = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
FS_FORMAT = (
    '  File: "%n"\n'
    "    ID: %-8i Namelen: %-7l Type: %T\n"
    "Block size: %-10s Fundamental block size: %S\n"
    "Blocks: Total: %-10b Free: %-10f Available: %a\n"
    "Inodes: Total: %-10c Free: %d\n"
)
FS_TERSE = "%n %i %l %t %s %S %b %f %a %c %d\n"
FS_ID = "8e2a4f1c3b7d6e90"
_DIRECTIVE = re.compile(r"%([-#+ 0']*)(\d*)(?:\.(\d*))?([HL]?)(.)", re.S)


def _escapes(text: str) -> str:
    """``--printf`` backslash escapes (as ``printf``'s)."""
    out = []
    i = 0
    simple = {
        "a": "\a",
        "b": "\b",
        "e": "\x1b",
        "f": "\f",
        "n": "\n",
        "r": "\r",
        "t": "\t",
        "v": "\v",
        "\\": "\\",
        '"': '"',
    }
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt in "01234567":
            digits = re.match(r"[0-7]{1,3}", text[i + 1 :]).group(0)  # type: ignore[union-attr]
            out.append(chr(int(digits, 8)))
            i += 1 + len(digits)
        elif nxt == "x" and re.match(r"[0-9a-fA-F]", text[i + 2 : i + 3] or " "):
            digits = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2 :]).group(0)  # type: ignore[union-attr]
            out.append(chr(int(digits, 16)))
            i += 2 + len(digits)
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


class Formatter:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.users = ctx.machine.users

    def render(self, fmt: str, name: str, st: Stat) -> str:
        out: list[str] = []
        pos = 0
        while pos < len(fmt):
            pct = fmt.find("%", pos)
            if pct < 0:
                out.append(fmt[pos:])
                break
            out.append(fmt[pos:pct])
            match = _DIRECTIVE.match(fmt, pct)
            if match is None:
                out.append(fmt[pct:])
                break
            pos = match.end()
            flags, width, precision, hl, conv = match.groups()
            if conv == "%" and not (flags or width or precision or hl):
                out.append("%")
                continue
            out.append(self._one(flags, width, precision, hl, conv, name, st))
        return "".join(out)

    def _one(
        self, flags: str, width: str, precision: str | None, hl: str, conv: str, name: str, st: Stat
    ) -> str:
        def num(value: int) -> str:
            spec = (
                "%"
                + flags.replace("'", "")
                + width
                + (("." + precision) if precision is not None else "")
                + "d"
            )
            return spec % value

        def text(value: str) -> str:
            spec = (
                "%"
                + flags.replace("'", "")
                .replace("0", "")
                .replace("+", "")
                .replace(" ", "")
                .replace("#", "")
                + width
                + (("." + precision) if precision is not None else "")
                + "s"
            )
            return spec % value

        def hexa(value: int) -> str:
            spec = "%" + flags.replace("'", "") + width + "x"
            return spec % value

        def seconds(us: int) -> str:
            secs, nsec = unix_of(us)
            if precision is None:
                return num(secs)
            digits = int(precision) if precision else 0
            if digits == 0 and precision == "":
                digits = 0
            if digits == 0:
                body = str(secs)
            else:
                frac = f"{nsec:09d}"[: min(digits, 9)].ljust(digits, "0")
                body = f"{secs}.{frac}"
            spec = "%" + flags.replace("'", "").replace("#", "") + width + "s"
            if "0" in flags and "-" not in flags and width:
                return body.rjust(int(width), "0")
            return spec % body

        if hl:
            if conv == "d":
                return num(DEV_MAJOR if hl == "H" else DEV_MINOR)
            if conv == "r":
                if st.kind == NULLDEV:
                    return num(1 if hl == "H" else 3)
                return num(0)
            return "?"
        if conv == "a":
            spec = "%" + flags + width + "o"
            return spec % (st.mode & 0o7777)
        if conv == "A":
            return text(mode_string(st))
        if conv == "b":
            return num(blocks_512(st))
        if conv == "B":
            return num(512)
        if conv == "C":
            return text("?")
        if conv == "d":
            return num(DEV_MAJOR * 256 + DEV_MINOR)
        if conv == "D":
            return hexa(DEV_MAJOR * 256 + DEV_MINOR)
        if conv == "f":
            return hexa(st.st_mode)
        if conv == "F":
            return text(file_type_text(st))
        if conv == "g":
            return num(st.gid)
        if conv == "G":
            return text(_name_or_unknown(group_name(st.gid, self.users), st.gid))
        if conv == "h":
            return num(st.nlink)
        if conv == "i":
            return num(st.ino)
        if conv == "m":
            return text("/")
        if conv == "n":
            return text(name)
        if conv == "N":
            shown = q(name)
            if st.kind == SYMLINK:
                shown += " -> " + q(st.target or "")
            return text(shown)
        if conv == "o":
            return num(IO_BLOCK)
        if conv == "s":
            return num(st.size)
        if conv in "tT":
            if st.kind == NULLDEV:
                return hexa(1 if conv == "t" else 3)
            return hexa(0)
        if conv == "u":
            return num(st.uid)
        if conv == "U":
            return text(_name_or_unknown(user_name(st.uid, self.users), st.uid))
        if conv in "wxyz":
            us = {"w": st.btime, "x": st.atime, "y": st.mtime, "z": st.ctime}[conv]
            secs, nsec = unix_of(us)
            return text(full_time(Tm(secs, nsec)))
        if conv in "WXYZ":
            us = {"W": st.btime, "X": st.atime, "Y": st.mtime, "Z": st.ctime}[conv]
            return seconds(us)
        return "?"


def _name_or_unknown(name: str, number: int) -> str:
    return "UNKNOWN" if name == str(number) else name


@command("stat")
def stat(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    follow = False
    fmt: str | None = None
    terse = file_system = False
    for key, value in opts:
        if key == "L":
            follow = True
        elif key == "c":
            fmt = (value or "") + "\n"
        elif key == "printf":
            fmt = _escapes(value or "")
        elif key == "t":
            terse = True
        elif key == "f":
            file_system = True
    if not operands:
        return usage_error(ctx, "missing operand")
    if file_system:
        return _file_system(ctx, operands, fmt or (FS_TERSE if terse else FS_FORMAT))
    formatter = Formatter(ctx)
    status = 0
    for operand in operands:
        try:
            st = ctx.fs.stat(operand, ctx.cwd, follow=follow)
        except FsError as exc:
            ctx.error(f"cannot statx {q(operand)}: {exc.strerror_text}")
            status = 1
            continue
        if fmt is not None:
            chosen = fmt
        elif terse:
            chosen = TERSE_FORMAT
        else:
            chosen = DEVICE_FORMAT if st.kind == NULLDEV else DEFAULT_FORMAT
            chosen = chosen.replace("%N", "\0N")
        text = formatter.render(chosen, operand, st)
        if "\0N" in text:
            shown = qf(operand)
            if st.kind == SYMLINK:
                shown += " -> " + qf(st.target or "")
            text = text.replace("\0N", shown)
        ctx.out(text)
    return status


def _file_system(ctx: CommandContext, operands: list[str], fmt: str) -> int:
    from cwgym.machine.commands.df import ROOT_RESERVED_K, ROOT_TOTAL_K, mount_table

    root = mount_table(ctx)[1]
    values = {
        "a": str(root["avail"] // 4),
        "b": str(ROOT_TOTAL_K // 4),
        "c": str(root["itotal"]),
        "d": str(root["itotal"] - root["iused"]),
        "f": str((root["avail"] + ROOT_RESERVED_K) // 4),
        "i": FS_ID,
        "l": "255",
        "s": "4096",
        "S": "4096",
        "t": "ef53",
        "T": "ext2/ext3",
    }
    status = 0
    for operand in operands:
        try:
            ctx.fs.stat(operand, ctx.cwd)
        except FsError as exc:
            ctx.error(f"cannot read file system information for {q(operand)}: {exc.strerror_text}")
            status = 1
            continue
        out: list[str] = []
        pos = 0
        while pos < len(fmt):
            pct = fmt.find("%", pos)
            if pct < 0:
                out.append(fmt[pos:])
                break
            out.append(fmt[pos:pct])
            match = _DIRECTIVE.match(fmt, pct)
            if match is None:
                out.append(fmt[pct:])
                break
            pos = match.end()
            flags, width, _, _, conv = match.groups()
            if conv == "%":
                out.append("%")
                continue
            value = operand if conv == "n" else values.get(conv, "?")
            text = (
                value.ljust(int(width)) if width and "-" in flags else value.rjust(int(width or 0))
            )
            out.append(text)
        ctx.out("".join(out))
    return status
