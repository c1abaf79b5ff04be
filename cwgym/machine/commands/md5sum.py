"""``md5sum``, ``sha1sum``, ``sha224sum``, ``sha256sum``, ``sha384sum``, ``sha512sum``,
``b2sum``: print or check message digests (GNU coreutils 9.1).

``-b -c -t -z --tag --quiet --status --strict -w --ignore-missing``. Names with a newline
or backslash are escaped (the line starts with ``\\``) as GNU does.
"""

from __future__ import annotations

import hashlib
import re

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, qf
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "bctwz",
    {
        "binary": "b",
        "check": "c",
        "text": "t",
        "warn": "w",
        "zero": "z",
        "tag": "tag",
        "quiet": "quiet",
        "status": "status",
        "strict": "strict",
        "ignore-missing": "ignore-missing",
    },
    unsupported=("-l", "--length"),
)
ALGORITHMS = {
    "md5sum": ("md5", "MD5"),
    "sha1sum": ("sha1", "SHA1"),
    "sha224sum": ("sha224", "SHA224"),
    "sha256sum": ("sha256", "SHA256"),
    "sha384sum": ("sha384", "SHA384"),
    "sha512sum": ("sha512", "SHA512"),
    "b2sum": ("blake2b", "BLAKE2b"),
}


def _escape(name: str) -> tuple[str, bool]:
    if "\\" in name or "\n" in name or "\r" in name:
        return name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r"), True
    return name, False


def _unescape(name: str) -> str | None:
    out = []
    i = 0
    while i < len(name):
        c = name[i]
        if c == "\\":
            if i + 1 >= len(name):
                return None
            nxt = name[i + 1]
            if nxt == "\\":
                out.append("\\")
            elif nxt == "n":
                out.append("\n")
            elif nxt == "r":
                out.append("\r")
            else:
                return None
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


class Summer:
    def __init__(self, ctx: CommandContext, program: str) -> None:
        self.ctx = ctx
        self.program = program
        self.algorithm, self.tag_name = ALGORITHMS[program]
        self.hex_length = len(hashlib.new(self.algorithm).hexdigest())

    def digest(self, data: bytes) -> str:
        return hashlib.new(self.algorithm, data).hexdigest()

    def read(self, operand: str) -> bytes | None:
        try:
            return self.ctx.read_input(operand)
        except FsError as exc:
            self.ctx.error(f"{qf(operand)}: {exc.strerror_text}")
            return None

    def parse_line(self, line: str) -> tuple[str, str] | None:
        """(hex digest, file name) from a check line, or ``None`` when malformed."""
        escaped = line.startswith("\\")
        body = line[1:] if escaped else line
        tag = re.fullmatch(rf"{re.escape(self.tag_name)} ?\((.*)\) ?= ([0-9a-fA-F]+)", body, re.S)
        if tag:
            name, digest = tag.group(1), tag.group(2)
        else:
            match = re.fullmatch(r"([0-9a-fA-F]+) [ *](.+)", body, re.S)
            if not match:
                return None
            digest, name = match.group(1), match.group(2)
        if len(digest) != self.hex_length:
            return None
        if escaped:
            unescaped = _unescape(name)
            if unescaped is None:
                return None
            name = unescaped
        return digest.lower(), name


@command("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum")
def md5sum(ctx: CommandContext) -> int:
    program = ctx.name.rsplit("/", 1)[-1]
    if program not in ALGORITHMS:
        program = "md5sum"
    opts, operands = ctx.options(SPEC)
    keys = [key for key, _ in opts]
    binary = False
    for key in keys:
        if key == "b":
            binary = True
        elif key == "t":
            binary = False
    check = "c" in keys
    zero = "z" in keys
    tag = "tag" in keys
    summer = Summer(ctx, program)
    if tag and "t" in keys:
        ctx.error("--tag does not support --text mode")
        ctx.err(f"Try '{ctx.name} --help' for more information.\n")
        return 1
    if not check:
        for flag, word in (
            ("quiet", "--quiet"),
            ("status", "--status"),
            ("strict", "--strict"),
            ("w", "--warn"),
            ("ignore-missing", "--ignore-missing"),
        ):
            if flag in keys:
                ctx.error(f"the {word} option is meaningful only when verifying checksums")
                ctx.err(f"Try '{ctx.name} --help' for more information.\n")
                return 1
        status = 0
        for operand in operands or ["-"]:
            data = summer.read(operand)
            if data is None:
                status = 1
                continue
            digest = summer.digest(data)
            name, escaped = _escape(operand) if not zero else (operand, False)
            prefix = "\\" if escaped else ""
            end = "\0" if zero else "\n"
            if tag:
                ctx.out(f"{prefix}{summer.tag_name} ({name}) = {digest}{end}")
            else:
                ctx.out(f"{prefix}{digest} {'*' if binary else ' '}{name}{end}")
        return status
    return _check(ctx, summer, operands or ["-"], keys)


def _check(ctx: CommandContext, summer: Summer, operands: list[str], keys: list[str]) -> int:
    quiet = "quiet" in keys
    status_only = "status" in keys
    strict = "strict" in keys
    warn = "w" in keys
    ignore_missing = "ignore-missing" in keys
    result = 0
    for listing in operands:
        data = summer.read(listing)
        if data is None:
            result = 1
            continue
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        bad_format = failed = unreadable = 0
        good_lines = 0
        verified = 0
        for number, line in enumerate(lines, 1):
            if line.startswith("#"):
                continue
            parsed = summer.parse_line(line)
            if parsed is None:
                bad_format += 1
                if warn:
                    ctx.error(
                        f"{qf(listing)}: {number}: improperly formatted {summer.tag_name} checksum line"
                    )
                continue
            good_lines += 1
            digest, name = parsed
            try:
                content = ctx.read_input(name) if name != "-" else ctx.stdin
            except FsError as exc:
                if ignore_missing and exc.code == "ENOENT":
                    continue
                unreadable += 1
                ctx.error(f"{qf(name)}: {exc.strerror_text}")
                if not status_only:
                    ctx.out(f"{name}: FAILED open or read\n")
                continue
            verified += 1
            ok = summer.digest(content) == digest
            if not ok:
                failed += 1
            if status_only:
                continue
            if not ok:
                ctx.out(f"{name}: FAILED\n")
            elif not quiet:
                ctx.out(f"{name}: OK\n")
        if good_lines == 0:
            ctx.error(f"{qf(listing)}: no properly formatted checksum lines found")
            result = 1
            continue
        if not status_only:
            if bad_format:
                ctx.error(
                    f"WARNING: {bad_format} {_plural(bad_format, 'line is', 'lines are')} improperly formatted"
                )
            if unreadable:
                ctx.error(
                    f"WARNING: {unreadable} listed {_plural(unreadable, 'file', 'files')} could not be read"
                )
            if failed:
                ctx.error(
                    f"WARNING: {failed} computed {_plural(failed, 'checksum', 'checksums')} did NOT match"
                )
        if ignore_missing and verified == 0:
            ctx.error(f"{qf(listing)}: no file was verified")
            result = 1
        if failed or unreadable or (strict and bad_format):
            result = 1
    return result
