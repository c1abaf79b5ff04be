"""Helpers the file and system commands share: GNU quoting, mode strings, blocks, sizes.

Everything here is pure: it formats what a command already read through ``ctx.fs``.

Disk usage model: the simulated disk is an ext4 filesystem with 4 KiB blocks, so a regular
file occupies ``ceil(size / 4096)`` blocks (an empty file none), a directory one block, a
symlink none while its target is shorter than 60 bytes (a "fast" symlink kept in the inode)
and one block otherwise, and ``/dev/null`` none. ``ls -s``, ``ls -l``'s ``total``, ``du``
and ``stat``'s ``%b`` all read this model, which is what a real ext4 disk reports for
files of these sizes.
"""

from __future__ import annotations

import stat as _st
from collections.abc import Collection
from fractions import Fraction

from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine.filesystem import DIR, FILE, NULLDEV, SYMLINK, Stat
from cwgym.machine.users import group_name, user_name

BLOCK = 4096

# -- GNU quoting (gnulib quotearg, shell-escape styles, C locale) -----------------------

_SHELL_SPECIAL = frozenset(" !\"$&'()*;<=>?[\\^`|")
_DQ_INCOMPATIBLE = frozenset('!"$&()*;<=>?[\\^`|#~{}')
_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}


def _needs_quotes(raw: bytes) -> bool:
    if not raw:
        return True
    for i, byte in enumerate(raw):
        ch = chr(byte)
        if byte < 0x20 or byte >= 0x7F or ch in _SHELL_SPECIAL:
            return True
        if ch in "#~" and i == 0:
            return True
        if ch in "{}" and len(raw) == 1:
            return True
    return False


def _dq_compatible(raw: bytes) -> bool:
    for i, byte in enumerate(raw):
        ch = chr(byte)
        if byte < 0x20 or byte >= 0x7F:
            return False
        if ch in "#~" and i == 0:
            continue
        if ch in _DQ_INCOMPATIBLE:
            return False
    return True


def shell_quote(name: str, *, always: bool = True) -> str:
    """``name`` quoted as GNU tools quote file names in messages (``'a b'``, ``"it's"``).

    ``always`` is gnulib's shell-escape-always style (``ls: cannot access 'x'``); without it
    the name is left bare when it needs no quoting (``cat: x: ...``).
    """
    raw = name.encode("utf-8", "surrogateescape")
    if not always and not _needs_quotes(raw):
        return name
    if b"'" in raw and _dq_compatible(raw):
        return '"' + name + '"'
    # gnulib scans once; a name with a quote is then quoted again, starting with the
    # escape state the first scan ended in (which is why some names gain a leading '').
    pending = False
    if b"'" in raw:
        _, pending = _single_quoted(raw, False)
    text, _ = _single_quoted(raw, pending)
    return text


def _single_quoted(raw: bytes, pending: bool) -> tuple[str, bool]:
    out: list[str] = ["'"]
    for byte in raw:
        if byte < 0x20 or byte >= 0x7F:
            if not pending:
                out.append("'$'")
                pending = True
            out.append(_ESCAPES.get(byte, f"\\{byte:03o}"))
        elif byte == 0x27:
            out.append("'\\''")
            pending = False
        else:
            if pending:
                out.append("''")
                pending = False
            out.append(chr(byte))
    out.append("'")
    return "".join(out), pending


def q(name: str) -> str:
    """gnulib ``quoteaf``: always quoted (``'name'``)."""
    return shell_quote(name, always=True)


def qf(name: str) -> str:
    """gnulib ``quotef``: quoted only when needed."""
    return shell_quote(name, always=False)


# -- modes -----------------------------------------------------------------------------

_TYPE_CHAR = {DIR: "d", FILE: "-", SYMLINK: "l", NULLDEV: "c"}


def type_char(kind: str) -> str:
    return _TYPE_CHAR.get(kind, "?")


def perm_string(mode: int) -> str:
    """``rwxr-xr-x`` for the permission bits, with setuid/setgid/sticky letters."""
    chars = []
    for shift, special, letter in ((6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        if mode & special:
            chars.append(letter if bits & 1 else letter.upper())
        else:
            chars.append("x" if bits & 1 else "-")
    return "".join(chars)


def mode_string(st: Stat) -> str:
    """``ls -l``'s ten-character mode: ``drwxr-xr-x``."""
    return type_char(st.kind) + perm_string(st.mode)


def st_mode(st: Stat) -> int:
    return st.st_mode


def file_type_text(st: Stat) -> str:
    """``stat``'s ``%F``."""
    if st.kind == DIR:
        return "directory"
    if st.kind == SYMLINK:
        return "symbolic link"
    if st.kind == NULLDEV:
        return "character special file"
    return "regular empty file" if st.size == 0 else "regular file"


def is_executable(st: Stat) -> bool:
    return st.kind == FILE and bool(st.mode & 0o111)


# -- sizes and blocks --------------------------------------------------------------------


def blocks_512(st: Stat) -> int:
    """Allocated 512-byte blocks (``st_blocks``) under the disk model above."""
    if st.kind == FILE:
        return -(-st.size // BLOCK) * (BLOCK // 512)
    if st.kind == DIR:
        return BLOCK // 512
    if st.kind == SYMLINK:
        return 0 if st.size < 60 else BLOCK // 512
    return 0


def disk_bytes(st: Stat) -> int:
    return blocks_512(st) * 512


_SUFFIXES = "KMGTPEZYRQ"


def human(n: int | Fraction, *, si: bool = False) -> str:
    """GNU ``human_readable`` with autoscale and ceiling rounding (``ls -h``, ``du -h``)."""
    base = 1000 if si else 1024
    if n < base:
        value = -(-Fraction(n).numerator // Fraction(n).denominator)
        return str(value)
    exponent = 0
    q_value = Fraction(n)
    while q_value >= base and exponent < len(_SUFFIXES):
        q_value /= base
        exponent += 1

    def suffix(e: int) -> str:
        letter = _SUFFIXES[e - 1]
        return "k" if si and letter == "K" else letter

    if q_value < 10:
        tenths = -(-(q_value * 10).numerator // (q_value * 10).denominator)
        if tenths < 100:
            return f"{tenths // 10}.{tenths % 10}{suffix(exponent)}"
        return f"10{suffix(exponent)}"
    amount = -(-q_value.numerator // q_value.denominator)
    if amount == base and exponent < len(_SUFFIXES):
        return f"1.0{suffix(exponent + 1)}"
    return f"{amount}{suffix(exponent)}"


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# -- names -------------------------------------------------------------------------------


def owner_name(uid: int, users) -> str:
    return user_name(uid, users)


def owner_group(gid: int, users) -> str:
    return group_name(gid, users)


def lookup_user(name: str, users) -> int | None:
    """A user's uid from its name or a number."""
    for user in users:
        if user.name == name:
            return user.uid
    if name.isdigit():
        return int(name)
    return None


def lookup_group(name: str, users) -> int | None:
    """A group's gid from its name (``nogroup`` included) or a number."""
    if name == "nogroup":
        return 65534
    for user in users:
        if group_name(user.gid, users) == name:
            return user.gid
    if name.isdigit():
        return int(name)
    return None


# -- times -------------------------------------------------------------------------------


def unix_of(us: int) -> tuple[int, int]:
    """Logical microseconds to (Unix seconds, nanoseconds)."""
    return WORLD_EPOCH_S + us // 1_000_000, (us % 1_000_000) * 1000


def us_of(seconds: int, nanoseconds: int = 0) -> int:
    """Unix seconds (and nanoseconds) to logical microseconds (negative before the world's
    epoch: a file may be dated before the world began)."""
    return (seconds - WORLD_EPOCH_S) * 1_000_000 + nanoseconds // 1000


# -- paths -------------------------------------------------------------------------------


def normpath(path: str) -> str:
    """Lexically normalise an absolute path: collapse ``//``, ``.`` and ``..``."""
    parts: list[str] = []
    for part in path.split("/"):
        if not part or part == ".":
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def base_name(path: str) -> str:
    """POSIX ``basename`` of a path (trailing slashes ignored)."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else ""
    return stripped.rsplit("/", 1)[-1]


def dir_name(path: str) -> str:
    """POSIX ``dirname``."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path.startswith("/") else "."
    if "/" not in stripped:
        return "."
    head = stripped.rsplit("/", 1)[0].rstrip("/")
    return head or "/"


def child_path(parent: str, name: str) -> str:
    """How GNU tools spell an entry below a command-line directory (``d/x``, ``d/x``)."""
    if parent.endswith("/"):
        return parent + name
    return parent + "/" + name


S_IFMT = _st.S_IFMT


def usage_error(ctx, message: str, status: int = 1) -> int:
    """``NAME: message`` then GNU's ``Try 'NAME --help'`` line; returns ``status``."""
    ctx.error(message)
    ctx.err(f"Try '{ctx.name} --help' for more information.\n")
    return status


def unsupported(ctx, what: str) -> int:
    """Refuse a feature GNU has and this simulator does not model (exit 2)."""
    ctx.error(f"unsupported {what}")
    return 2


# -- programs on PATH ----------------------------------------------------------------------

#: Names bash itself answers as builtins (``type``), whoever implements them here.
BASH_BUILTINS = frozenset(
    [
        ".",
        ":",
        "[",
        "alias",
        "bg",
        "bind",
        "break",
        "builtin",
        "caller",
        "cd",
        "command",
        "compgen",
        "complete",
        "compopt",
        "continue",
        "declare",
        "dirs",
        "disown",
        "echo",
        "enable",
        "eval",
        "exec",
        "exit",
        "export",
        "false",
        "fc",
        "fg",
        "getopts",
        "hash",
        "help",
        "history",
        "jobs",
        "kill",
        "let",
        "local",
        "logout",
        "mapfile",
        "popd",
        "printf",
        "pushd",
        "pwd",
        "read",
        "readarray",
        "readonly",
        "return",
        "set",
        "shift",
        "shopt",
        "source",
        "suspend",
        "test",
        "times",
        "trap",
        "true",
        "type",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unset",
        "wait",
    ]
)
#: Programs a real system has as files that the simulated shell runs as builtins.
ALSO_PROGRAMS = frozenset({"[", "echo", "false", "kill", "printf", "pwd", "test", "true"})
#: Names only a shell provides (no file on disk): ``which`` and ``env`` never find them.
SHELL_ONLY = BASH_BUILTINS - ALSO_PROGRAMS
#: Where the simulated programs live (a merged-/usr system: /bin is /usr/bin).
PROGRAM_DIRS = ("/usr/bin", "/bin")


def is_program(name: str, packages: Collection[str] | None = None) -> bool:
    """Whether ``name`` is a program the simulator provides (not a shell-only builtin) on
    a machine with ``packages`` installed (``None``: on any machine)."""
    from cwgym.machine.commands import lookup

    if name in SHELL_ONLY or not name or "/" in name:
        return False
    return name in ALSO_PROGRAMS or lookup(name, packages) is not None


def executable_file(ctx, path: str) -> bool:
    """``test -f path && test -x path`` as the machine user, simulated programs included."""
    for directory in PROGRAM_DIRS:
        if path.startswith(directory + "/") and is_program(path[len(directory) + 1 :], ctx.machine.packages):
            return True
    try:
        inode = ctx.fs.lookup(path, ctx.cwd)
    except Exception:
        return False
    return inode.kind == FILE and ctx.fs.may_execute(inode)


def search_path(
    ctx, name: str, *, all_matches: bool = False, path_value: str | None = None
) -> list[str]:
    """The files ``name`` names on ``$PATH``, as ``which`` finds them."""
    found: list[str] = []
    if path_value is None:
        path_value = ctx.env.get("PATH", "")
    elements = path_value.split(":") if path_value else []
    for element in elements:
        candidate = f"{element or '.'}/{name}"
        if executable_file(ctx, candidate):
            found.append(candidate)
            if not all_matches:
                break
    return found


def take_optional(
    args: list[str], short: str | None, long_name: str, *, min_prefix: int = 3
) -> tuple[list[str], list[str | None]]:
    """Pull an option with an *optional* argument (getopt ``::``) out of ``args``.

    ``-Xvalue`` / ``-X`` and ``--name[=value]`` (or an unambiguous prefix at least
    ``min_prefix`` letters long) are removed; returns the remaining args and the values in
    order (``None`` where no value was attached). Stops at ``--``.
    """
    rest: list[str] = []
    values: list[str | None] = []
    for index, arg in enumerate(args):
        if arg == "--":
            rest.extend(args[index:])
            break
        if short and arg.startswith("-" + short) and not arg.startswith("--"):
            values.append(arg[2:] or None)
            continue
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if len(name) >= min_prefix and long_name.startswith(name):
                values.append(value if eq else None)
                continue
        rest.append(arg)
    return rest, values


# -- glob patterns (fnmatch without FNM_PATHNAME) -----------------------------------------------

_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "!-/:-@\\[-`{-~",
    "xdigit": "0-9A-Fa-f",
    "print": " -~",
    "graph": "!-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "word": "a-zA-Z0-9_",
}


def glob_regex(pattern: str, *, period: bool = False) -> str:
    """A regular expression for a shell glob as ``fnmatch(3)`` reads it (no FNM_PATHNAME).

    ``period`` is FNM_PERIOD: a leading ``.`` must be matched literally.
    """
    import re

    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\" and i < n:
            out.append(re.escape(pattern[i]))
            i += 1
        elif c == "[":
            j = i
            negate = False
            if j < n and pattern[j] in "!^":
                negate = True
                j += 1
            items: list[str] = []
            first = True
            closed = False
            while j < n:
                ch = pattern[j]
                if ch == "]" and not first:
                    closed = True
                    j += 1
                    break
                first = False
                if ch == "[" and j + 1 < n and pattern[j + 1] == ":":
                    end = pattern.find(":]", j + 2)
                    if end >= 0 and pattern[j + 2 : end] in _CLASSES:
                        items.append(_CLASSES[pattern[j + 2 : end]])
                        j = end + 2
                        continue
                if ch == "\\" and j + 1 < n:
                    ch = pattern[j + 1]
                    j += 1
                if j + 2 < n and pattern[j + 1] == "-" and pattern[j + 2] != "]":
                    hi = pattern[j + 2]
                    if hi == "\\" and j + 3 < n:
                        hi = pattern[j + 3]
                        j += 1
                    items.append(re.escape(ch) + "-" + re.escape(hi))
                    j += 3
                    continue
                items.append(re.escape(ch))
                j += 1
            if not closed:
                out.append("\\[")
                continue
            i = j
            body = "".join(items)
            out.append(f"[{'^' if negate else ''}{body}]")
        else:
            out.append(re.escape(c))
    regex = "".join(out)
    if period:
        regex = "(?!\\.)" + regex if not pattern.startswith(".") else regex
    return "(?s:" + regex + ")\\Z"


def glob_match(pattern: str, name: str, *, casefold: bool = False, period: bool = False) -> bool:
    import re

    from cwgym.machine.commands._engine import cached_regex

    if period and name.startswith(".") and not pattern.startswith("."):
        return False  # a leading period is matched only by a period (no look-ahead needed)
    flags = re.IGNORECASE if casefold else 0
    try:
        return cached_regex(glob_regex(pattern), flags).match(name) is not None
    except re.error:
        return pattern == name


# -- version sort (gnulib filevercmp) -----------------------------------------------------------


def _order(ch: str) -> int:
    if ch.isdigit():
        return 0
    if ch.isalpha() and ch.isascii():
        return ord(ch)
    if ch == "~":
        return -1
    return ord(ch) + 256


def _verrevcmp(a: str, b: str) -> int:
    i = j = 0
    while i < len(a) or j < len(b):
        first_diff = 0
        while (i < len(a) and not a[i].isdigit()) or (j < len(b) and not b[j].isdigit()):
            ac = _order(a[i]) if i < len(a) else 0
            bc = _order(b[j]) if j < len(b) else 0
            if ac != bc:
                return ac - bc
            i += 1
            j += 1
        while i < len(a) and a[i] == "0":
            i += 1
        while j < len(b) and b[j] == "0":
            j += 1
        while i < len(a) and a[i].isdigit() and j < len(b) and b[j].isdigit():
            if not first_diff:
                first_diff = ord(a[i]) - ord(b[j])
            i += 1
            j += 1
        if i < len(a) and a[i].isdigit():
            return 1
        if j < len(b) and b[j].isdigit():
            return -1
        if first_diff:
            return first_diff
    return 0


def _suffix_start(name: str) -> int:
    import re

    match = re.search(r"(?:\.[A-Za-z~][A-Za-z0-9~]*)*\Z", name)
    start = match.start() if match else len(name)
    return start if start > 0 or not name.startswith(".") else len(name)


def filevercmp(a: str, b: str) -> int:
    """gnulib ``filevercmp``: natural ("version") order of file names, as ``ls -v``."""
    if a == b:
        return 0
    for special in ("", ".", ".."):
        if a == special:
            return -1
        if b == special:
            return 1
    if a.startswith(".") != b.startswith("."):
        return -1 if a.startswith(".") else 1
    if a.startswith("."):
        a_body, b_body = a[1:], b[1:]
    else:
        a_body, b_body = a, b
    a_pre, b_pre = a_body[: _suffix_start(a_body)], b_body[: _suffix_start(b_body)]
    if a_pre == b_pre:
        result = _verrevcmp(a_body, b_body)
    else:
        result = _verrevcmp(a_pre, b_pre)
    if result:
        return result
    return -1 if a.encode() < b.encode() else 1


# -- modes (gnulib modechange: chmod, mkdir -m, find -perm) ----------------------------------

S_ISUID, S_ISGID, S_ISVTX = 0o4000, 0o2000, 0o1000
S_IRWXU, S_IRWXG, S_IRWXO = 0o700, 0o070, 0o007
CHMOD_MODE_BITS = 0o7777


class ModeChange:
    __slots__ = ("affected", "flag", "mentioned", "op", "value")

    def __init__(self, op: str, flag: str, affected: int, value: int, mentioned: int) -> None:
        self.op = op
        self.flag = flag  # "ordinary", "copy", "X"
        self.affected = affected
        self.value = value
        self.mentioned = mentioned


def mode_compile(text: str) -> list[ModeChange] | None:
    """Parse a numeric or symbolic mode; ``None`` when it is invalid."""
    if text and all(c in "01234567" for c in text):
        mode = int(text, 8)
        if mode > CHMOD_MODE_BITS:
            return None
        mentioned = (
            (mode & (S_ISUID | S_ISGID)) | S_ISVTX | 0o777 if len(text) < 5 else CHMOD_MODE_BITS
        )
        return [ModeChange("=", "ordinary", CHMOD_MODE_BITS, mode, mentioned)]
    changes: list[ModeChange] = []
    for clause in text.split(","):
        i = 0
        affected = 0
        while i < len(clause) and clause[i] in "ugoa":
            affected |= {
                "u": S_ISUID | S_IRWXU,
                "g": S_ISGID | S_IRWXG,
                "o": S_ISVTX | S_IRWXO,
                "a": CHMOD_MODE_BITS,
            }[clause[i]]
            i += 1
        if i >= len(clause) or clause[i] not in "=+-":
            return None
        while i < len(clause) and clause[i] in "=+-":
            op = clause[i]
            i += 1
            value = 0
            flag = "ordinary"
            if i < len(clause) and clause[i] in "ugo":
                value = {"u": S_IRWXU, "g": S_IRWXG, "o": S_IRWXO}[clause[i]]
                flag = "copy"
                i += 1
            else:
                while i < len(clause) and clause[i] in "rwxXst":
                    c = clause[i]
                    i += 1
                    if c == "r":
                        value |= 0o444
                    elif c == "w":
                        value |= 0o222
                    elif c == "x":
                        value |= 0o111
                    elif c == "X":
                        flag = "X"
                    elif c == "s":
                        value |= S_ISUID | S_ISGID
                    elif c == "t":
                        value |= S_ISVTX
            mentioned = affected & value if affected else value
            changes.append(ModeChange(op, flag, affected, value, mentioned))
        if i != len(clause):
            return None
    return changes


def mode_adjust(old: int, is_dir: bool, umask: int, changes: list[ModeChange]) -> int:
    """Apply parsed mode changes to permission bits ``old`` (gnulib ``mode_adjust``)."""
    new = old & CHMOD_MODE_BITS
    for change in changes:
        affected = change.affected
        omit = (S_ISUID | S_ISGID if is_dir else 0) & ~change.mentioned
        value = change.value
        if change.flag == "copy":
            value &= new
            value |= (
                (0o444 if value & 0o444 else 0)
                | (0o222 if value & 0o222 else 0)
                | (0o111 if value & 0o111 else 0)
            )
        elif change.flag == "X" and ((new & 0o111) or is_dir):
            value |= 0o111
        value &= (affected if affected else ~umask) & ~omit
        if change.op == "=":
            preserved = (~affected if affected else 0) | omit
            new = (new & preserved) | value
        elif change.op == "+":
            new |= value
        else:
            new &= ~value
    return new & CHMOD_MODE_BITS


# -- canonical names (gnulib canonicalize_filename_mode) --------------------------------------

MAX_LINKS = 40


def canonicalize(
    ctx, path: str, mode: str, *, physical: bool = True, start: str | None = None
) -> str:
    """The canonical absolute name of ``path``; raises ``FsError``.

    ``mode``: ``"e"`` every component must exist, ``"f"`` all but the last, ``"m"`` none.
    With ``physical`` off, symlinks are not resolved (``realpath -s``): ``..`` is lexical.
    """
    from cwgym.machine.filesystem import FsError as _FsError

    fs = ctx.fs
    if not path:
        raise _FsError("ENOENT", path)
    base = start if start is not None else ctx.cwd
    if not path.startswith("/"):
        try:
            base = fs.realpath(base, "/") if physical else normpath(base)
        except _FsError:
            base = normpath(base)
        pending = [p for p in path.split("/") if p]
        resolved = [p for p in base.split("/") if p]
    else:
        pending = [p for p in path.split("/") if p]
        resolved = []
    pending.reverse()
    hops = 0
    missing = False
    while pending:
        part = pending.pop()
        if part == ".":
            continue
        if part == "..":
            if resolved:
                resolved.pop()
            continue
        candidate = "/" + "/".join([*resolved, part])
        if missing:
            resolved.append(part)
            continue
        try:
            inode = fs.lookup(candidate, "/", follow=False)
        except _FsError as exc:
            rest = [p for p in pending if p not in (".",)]
            if exc.code == "ENOENT" and (mode == "m" or (mode == "f" and not rest)):
                resolved.append(part)
                missing = mode == "m" or missing
                if mode == "f":
                    missing = True
                continue
            raise _FsError(exc.code, path) from None
        if inode.kind == SYMLINK and physical:
            hops += 1
            if hops > MAX_LINKS:
                if mode == "m":
                    resolved.append(part)
                    missing = True
                    continue
                raise _FsError("ELOOP", path)
            target = inode.target or ""
            if target.startswith("/"):
                resolved = []
            pending.extend(reversed([p for p in target.split("/") if p]))
            continue
        if inode.kind != DIR and pending and any(p != "" for p in pending):
            if mode != "m":
                raise _FsError("ENOTDIR", path)
            missing = True
        resolved.append(part)
    if path.endswith("/") and mode != "m" and not missing and resolved:
        try:
            if fs.lookup("/" + "/".join(resolved), "/").kind != DIR:
                raise _FsError("ENOTDIR", path)
        except _FsError as exc:
            raise _FsError(exc.code, path) from None
    return "/" + "/".join(resolved)


def entry_kinds(ctx, path: str) -> dict[str, str]:
    """The kind of each entry of a directory the user may list, as ``readdir``'s ``d_type``
    gives it: known without searching (x) the directory, unlike a ``stat`` of the entry."""
    inode = ctx.fs.lookup(path, ctx.cwd)
    entries = inode.entries or {}
    return {name: ctx.fs.fs.inode(ino).kind for name, ino in entries.items()}


def gnu_spec(
    short: str = "",
    long: dict[str, str] | None = None,
    *,
    unsupported: tuple[str, ...] = (),
    permute: bool = True,
    numeric: str | None = None,
):
    """An ``OptionSpec`` for a GNU tool: ``--help`` and ``--version`` exist in GNU but
    their texts are not reproduced here, so they are refused by name (exit 2)."""
    from cwgym.machine.commands._options import OptionSpec

    return OptionSpec(
        short,
        long,
        unsupported=(*unsupported, "--help", "--version"),
        permute=permute,
        numeric=numeric,
    )
