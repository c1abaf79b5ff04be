"""Builtins: the commands that must run inside the shell because they change it.

Each is ``fn(shell, argv, io) -> status``. Messages follow bash's wording without its
``bash: line N:`` prefix. Options bash has that these do not implement exit 2 and say so.
"""

from __future__ import annotations

from collections.abc import Callable

from cwgym.machine import commands as registry
from cwgym.machine.commands._fsutil import BASH_BUILTINS
from cwgym.machine.filesystem import DIR, FsError, join
from cwgym.machine.shell import testcmd
from cwgym.machine.shell.chars import is_digits
from cwgym.machine.shell.errors import (
    ExitShell,
    LoopControl,
    ReturnSignal,
    ShellSyntaxError,
)
from cwgym.machine.shell.expand import DEFAULT_IFS, IFS_WHITESPACE
from cwgym.machine.shell.interp import BUILTINS, Shell, shell_quote
from cwgym.machine.shell.lexer import is_name
from cwgym.machine.shell.parser import RESERVED
from cwgym.machine.shell.streams import IO

Builtin = Callable[[Shell, list[str], IO], int]

KEYWORDS = RESERVED - {"coproc"} | {"coproc"}


def builtin(*names: str) -> Callable[[Builtin], Builtin]:
    def register(fn: Builtin) -> Builtin:
        for name in names:
            BUILTINS[name] = fn
        return fn

    return register


def _unsupported(io: IO, name: str, option: str) -> int:
    io.err(f"{name}: {option}: option not supported by this shell\n")
    return 2


def _split_options(args: list[str], allowed: str) -> tuple[list[str], list[str], str | None]:
    """Leading ``-xyz`` flags (letters from ``allowed``), the operands, and a bad letter."""
    flags: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        for letter in arg[1:]:
            if letter not in allowed:
                return flags, args[i:], letter
            flags.append(letter)
        i += 1
    return flags, args[i:], None


# -- trivial ------------------------------------------------------------------------------


@builtin(":", "true")
def _true(shell: Shell, argv: list[str], io: IO) -> int:
    return 0


@builtin("false")
def _false(shell: Shell, argv: list[str], io: IO) -> int:
    return 1


@builtin("test", "[")
def _test(shell: Shell, argv: list[str], io: IO) -> int:
    try:
        return testcmd.run_test(shell, argv[0], argv[1:])
    except testcmd.TestError as exc:
        io.err(exc.message + "\n")
        return exc.status


# -- cd -------------------------------------------------------------------------------------


def normalize(path: str) -> str:
    """Lexical normalisation of an absolute path (``.`` and ``..``), as ``cd`` does."""
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


@builtin("cd")
def _cd(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "LPe@")
    if bad is not None:
        io.err(f"cd: -{bad}: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
        return 2
    if len(args) > 1:
        io.err("cd: too many arguments\n")
        return 1
    show = False
    if not args:
        target = shell.get_var("HOME")
        if target is None:
            io.err("cd: HOME not set\n")
            return 1
    else:
        target = args[0]
        if target == "-":
            target = shell.get_var("OLDPWD")
            if target is None:
                io.err("cd: OLDPWD not set\n")
                return 1
            show = True
    if target == "":
        return 0
    fs = shell.machine.user_fs()
    new = normalize(join(shell.cwd, target))
    try:
        inode = fs.lookup(target if target.startswith("/") else new, "/")
        if inode.kind != DIR:
            raise FsError("ENOTDIR", target)
        if not fs.may_execute(inode):
            raise FsError("EACCES", target)
        if "P" in flags:
            new = fs.realpath(new, "/")
    except FsError as exc:
        io.err(f"cd: {target}: {exc.strerror_text}\n")
        return 1
    old = shell.get_var("PWD") or shell.cwd
    shell.state.cwd = new
    shell.set_var("OLDPWD", old)
    shell.set_var("PWD", new)
    if show:
        io.out(new + "\n")
    return 0


# -- variables -----------------------------------------------------------------------------


def _assignment_arg(arg: str) -> tuple[str, str | None]:
    name, eq, value = arg.partition("=")
    return name, (value if eq else None)


@builtin("export")
def _export(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "fnp")
    if bad is not None:
        io.err(
            f"export: -{bad}: invalid option\nexport: usage: export [-fn] [name[=value] ...] or export -p\n"
        )
        return 2
    if "f" in flags:
        return _unsupported(io, "export", "-f")
    if not args:
        for name in sorted(shell.state.exported):
            value = shell.state.vars.get(name)
            if value is None:
                io.out(f"declare -x {name}\n")
            else:
                io.out(f'declare -x {name}="{_dq_escape(value)}"\n')
        return 0
    status = 0
    for arg in args:
        name, value = _assignment_arg(arg)
        append = name.endswith("+")
        if append:
            name = name[:-1]
        if not is_name(name):
            io.err(f"export: `{arg}': not a valid identifier\n")
            status = 1
            continue
        if value is not None:
            shell.set_var(name, (shell.get_var(name) or "") + value if append else value)
        if "n" in flags:
            shell.state.exported.discard(name)
        else:
            shell.state.exported.add(name)
    return status


def _dq_escape(value: str) -> str:
    return "".join("\\" + c if c in '"\\$`' else c for c in value)


@builtin("unset")
def _unset(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "fvn")
    if bad is not None:
        io.err(f"unset: -{bad}: invalid option\nunset: usage: unset [-f] [-v] [-n] [name ...]\n")
        return 2
    status = 0
    for name in args:
        if "f" in flags:
            shell.state.functions.pop(name, None)
            continue
        if not is_name(name):
            io.err(f"unset: `{name}': not a valid identifier\n")
            status = 1
            continue
        if name in shell.state.vars or "v" in flags:
            shell.unset_var(name)
        else:
            shell.state.functions.pop(name, None)
    return status


@builtin("local")
def _local(shell: Shell, argv: list[str], io: IO) -> int:
    if not shell.frames:
        io.err("local: can only be used in a function\n")
        return 1
    flags, args, bad = _split_options(argv[1:], "rx")
    if bad is not None:
        return _unsupported(io, "local", f"-{bad}")
    status = 0
    for arg in args:
        name, value = _assignment_arg(arg)
        if not is_name(name):
            io.err(f"local: `{arg}': not a valid identifier\n")
            status = 1
            continue
        shell.declare_local(name)
        if value is not None:
            shell.set_var(name, value)
        elif name in shell.state.vars:
            shell.state.vars.pop(name)
        if "x" in flags:
            shell.state.exported.add(name)
    return status


@builtin("let")
def _let(shell: Shell, argv: list[str], io: IO) -> int:
    from cwgym.machine.shell.errors import ExpansionError

    if len(argv) < 2:
        io.err("let: expression expected\n")
        return 1
    value = 0
    for expr in argv[1:]:
        try:
            value = shell.expander.arithmetic(expr)
        except ExpansionError as exc:
            io.err(f"let: {exc.message}\n")
            return 1
    return 0 if value else 1


# -- control flow ----------------------------------------------------------------------------


def _numeric(text: str) -> int | None:
    return testcmd.parse_int(text)


@builtin("exit")
def _exit(shell: Shell, argv: list[str], io: IO) -> int:
    if len(argv) > 2:
        io.err("exit: too many arguments\n")
        raise ExitShell(1)
    if len(argv) == 1:
        raise ExitShell(shell.state.last_status)
    value = _numeric(argv[1])
    if value is None:
        io.err(f"exit: {argv[1]}: numeric argument required\n")
        raise ExitShell(2)
    raise ExitShell(value & 0xFF)


@builtin("return")
def _return(shell: Shell, argv: list[str], io: IO) -> int:
    if not shell.frames and not shell.source_depth:
        io.err("return: can only `return' from a function or sourced script\n")
        return 2
    if len(argv) > 2:
        io.err("return: too many arguments\n")
        return 2
    if len(argv) == 1:
        raise ReturnSignal(shell.state.last_status)
    value = _numeric(argv[1])
    if value is None:
        io.err(f"return: {argv[1]}: numeric argument required\n")
        raise ReturnSignal(2)
    raise ReturnSignal(value & 0xFF)


def _loop_control(kind: str):
    def control(shell: Shell, argv: list[str], io: IO) -> int:
        levels = 1
        if len(argv) > 1:
            value = _numeric(argv[1])
            if value is None:
                io.err(f"{kind}: {argv[1]}: numeric argument required\n")
                return 1
            if value < 1:
                io.err(f"{kind}: {argv[1]}: loop count out of range\n")
                return 1
            levels = value
        if shell.loop_depth == 0:
            io.err(f"{kind}: only meaningful in a `for', `while', or `until' loop\n")
            return 0
        raise LoopControl(kind, min(levels, shell.loop_depth))

    return control


BUILTINS["break"] = _loop_control("break")
BUILTINS["continue"] = _loop_control("continue")


@builtin("shift")
def _shift(shell: Shell, argv: list[str], io: IO) -> int:
    count = 1
    if len(argv) > 1:
        value = _numeric(argv[1])
        if value is None:
            io.err(f"shift: {argv[1]}: numeric argument required\n")
            return 1
        if value < 0:
            io.err(f"shift: {argv[1]}: shift count out of range\n")
            return 1
        count = value
    if count > len(shell.positional):
        return 1
    shell.positional = shell.positional[count:]
    return 0


@builtin("eval")
def _eval(shell: Shell, argv: list[str], io: IO) -> int:
    text = " ".join(argv[1:])
    if not text.strip():
        return 0
    shell.nest()
    try:
        return _run_in_place(shell, text, io, "eval")
    finally:
        shell.budget.nesting -= 1


def _run_in_place(shell: Shell, text: str, io: IO, label: str) -> int:
    from cwgym.machine.shell.parser import parse_program

    program = parse_program(text)
    status = 0
    for node, warnings in program.commands:
        for warning in warnings:
            io.err(warning + "\n")
        status = shell.run(node, io)
    if program.error is not None:
        io.err(f"{label}: {program.error.message}\n")
        return 2
    return status


@builtin("source", ".")
def _source(shell: Shell, argv: list[str], io: IO) -> int:
    name = argv[0]
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        io.err(f"{name}: filename argument required\n{name}: usage: {name} filename [arguments]\n")
        return 2
    target = args[0]
    fs = shell.machine.user_fs()
    candidates = (
        [target]
        if "/" in target
        else [join(folder or ".", target) for folder in (shell.get_var("PATH") or "").split(":")]
        + [target]
    )
    data = None
    error: FsError | None = None
    for candidate in candidates:
        try:
            inode = fs.lookup(candidate, shell.cwd)
            if inode.kind == DIR:
                if "/" in target or candidate == target:
                    error = FsError("EISDIR", target)
                continue
            data = fs.read(candidate, shell.cwd)
            break
        except FsError as exc:
            if candidate == target or "/" in target:
                error = exc
    if data is None:
        text = error.strerror_text if error is not None else "No such file or directory"
        io.err(f"{target}: {text}\n")
        return 1
    saved = shell.positional
    if len(args) > 1:
        shell.positional = list(args[1:])
    shell.source_depth += 1
    shell.nest()
    try:
        return _run_in_place(shell, data.decode("utf-8", "surrogateescape"), io, target)
    except ReturnSignal as exc:
        return exc.status
    finally:
        shell.budget.nesting -= 1
        shell.source_depth -= 1
        if len(args) > 1:
            shell.positional = saved


# -- read --------------------------------------------------------------------------------------


@builtin("read")
def _read(shell: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    raw = False
    delim = "\n"
    nchars: int | None = None
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        arg = args[i]
        if arg == "--":
            i += 1
            break
        j = 1
        while j < len(arg):
            letter = arg[j]
            if letter in "rs":
                raw = raw or letter == "r"
                j += 1
                continue
            if letter in "pdnNtu":
                value = arg[j + 1 :]
                if not value:
                    i += 1
                    if i >= len(args):
                        io.err(f"read: -{letter}: option requires an argument\n")
                        return 2
                    value = args[i]
                if letter == "d":
                    delim = value[:1] if value else "\0"
                elif letter in "nN":
                    if not is_digits(value):
                        io.err(f"read: {value}: invalid number\n")
                        return 1
                    nchars = int(value)
                elif letter == "t":
                    pass  # input is all there already: a timeout never fires
                elif letter == "u" and value != "0":
                    return _unsupported(io, "read", "-u")
                break
            if letter in "aeiE":
                return _unsupported(io, "read", f"-{letter}")
            io.err(f"read: -{letter}: invalid option\n")
            return 2
        i += 1
    names = args[i:]
    for name in names:
        if not is_name(name):
            io.err(f"read: `{name}': not a valid identifier\n")
            return 1
    source = io.stdin()
    if source is None:
        return 1
    chars: list[tuple[str, bool]] = []  # (char, escaped)
    found = False
    data = source.data
    pos = source.pos
    text_delim = delim.encode("utf-8", "surrogateescape")
    buffer = bytearray()
    escaped_next = False
    while pos < len(data):
        if nchars is not None and len(chars) >= nchars:
            found = True
            break
        byte = data[pos : pos + 1]
        pos += 1
        if escaped_next:
            escaped_next = False
            if byte == b"\n":
                continue
            chars.append((byte.decode("latin-1"), True))
            continue
        if byte == text_delim:
            found = True
            break
        if byte == b"\\" and not raw:
            escaped_next = True
            continue
        chars.append((byte.decode("latin-1"), False))
    source.pos = pos
    for char, _ in chars:
        buffer += char.encode("latin-1")
    decoded = buffer.decode("utf-8", "surrogateescape")
    # Map the escape flags onto the decoded text (multi-byte characters are never IFS).
    flags: list[bool] = []
    k = 0
    for ch in decoded:
        width = len(ch.encode("utf-8", "surrogateescape"))
        flags.append(chars[k][1] if k < len(chars) else False)
        k += width
    items = list(zip(decoded, flags))
    if not names:
        shell.set_var("REPLY", decoded)
        return 0 if found else 1
    ifs = shell.get_var("IFS")
    ifs = DEFAULT_IFS if ifs is None else ifs
    for values_index, name in enumerate(names):
        last = values_index == len(names) - 1
        items = _skip_ifs_white(items, ifs)
        if last:
            shell.set_var(name, _strip_trailing(items, ifs))
            break
        field: list[str] = []
        while items and not (items[0][0] in ifs and not items[0][1]):
            field.append(items[0][0])
            items = items[1:]
        if items:  # consume one delimiter: whitespace, one non-white char, whitespace
            items = _skip_ifs_white(items, ifs)
            if (
                items
                and items[0][0] in ifs
                and not items[0][1]
                and items[0][0] not in IFS_WHITESPACE
            ):
                items = items[1:]
        shell.set_var(name, "".join(field))
    return 0 if found else 1


def _skip_ifs_white(items: list[tuple[str, bool]], ifs: str) -> list[tuple[str, bool]]:
    k = 0
    while (
        k < len(items) and items[k][0] in ifs and items[k][0] in IFS_WHITESPACE and not items[k][1]
    ):
        k += 1
    return items[k:]


def _strip_trailing(items: list[tuple[str, bool]], ifs: str) -> str:
    end = len(items)
    while (
        end
        and items[end - 1][0] in ifs
        and items[end - 1][0] in IFS_WHITESPACE
        and not items[end - 1][1]
    ):
        end -= 1
    return "".join(c for c, _ in items[:end])


# -- set ----------------------------------------------------------------------------------------

SET_LETTERS = {
    "e": "errexit",
    "u": "nounset",
    "x": "xtrace",
    "f": "noglob",
    "C": "noclobber",
    "a": "allexport",
}
SET_NOOP = frozenset("hB")
SET_BASH_ONLY = frozenset("bkmnptvEHPT")
SET_NAMES = frozenset(
    ["errexit", "nounset", "xtrace", "noglob", "noclobber", "allexport", "pipefail"]
)
SET_NAMES_NOOP = frozenset(["hashall", "braceexpand", "interactive-comments"])
SET_USAGE = "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n"


@builtin("set")
def _set(shell: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    if not args:
        for name in sorted(shell.state.vars):
            io.out(f"{name}={shell_quote(shell.state.vars[name])}\n")
        return 0
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            shell.positional = list(args[i + 1 :])
            return 0
        if arg == "-":
            shell.options.pop("xtrace", None)
            shell.positional = list(args[i + 1 :])
            return 0
        if arg[:1] not in ("-", "+") or len(arg) == 1:
            shell.positional = list(args[i:])
            return 0
        on = arg[0] == "-"
        if arg[1:] == "o" and i + 1 >= len(args):
            for name in sorted(SET_NAMES | SET_NAMES_NOOP):
                state = "on" if shell.options.get(name) or name in SET_NAMES_NOOP else "off"
                io.out(
                    f"{name:<15}\t{state}\n"
                    if on
                    else f"set {'-' if state == 'on' else '+'}o {name}\n"
                )
            return 0
        i += 1
        for letter in arg[1:]:
            if letter == "o":
                if i >= len(args):
                    io.err(f"set: {arg[0]}o: option requires an argument\n")
                    return 2
                name = args[i]
                i += 1
                if name in SET_NAMES:
                    shell.options[name] = on
                elif name in _BASH_SET_NAMES:
                    io.err(f"set: -o {name}: option not supported by this shell\n")
                    return 2
                elif name not in SET_NAMES_NOOP:
                    io.err(f"set: {name}: invalid option name\n")
                    return 2
            elif letter in SET_LETTERS:
                shell.options[SET_LETTERS[letter]] = on
            elif letter in SET_NOOP:
                continue
            elif letter in SET_BASH_ONLY:
                io.err(f"set: {arg[0]}{letter}: option not supported by this shell\n")
                return 2
            else:
                io.err(f"set: {arg[0]}{letter}: invalid option\n{SET_USAGE}")
                return 2
    return 0


_BASH_SET_NAMES = frozenset(
    [
        "emacs",
        "errtrace",
        "functrace",
        "histexpand",
        "history",
        "ignoreeof",
        "keyword",
        "monitor",
        "noexec",
        "notify",
        "onecmd",
        "physical",
        "posix",
        "privileged",
        "verbose",
        "vi",
    ]
)


# -- introspection ---------------------------------------------------------------------------------


def _classify(shell: Shell, name: str, *, functions: bool = True) -> list[tuple[str, str]]:
    """Every meaning of ``name`` in lookup order: (kind, detail)."""
    found: list[tuple[str, str]] = []
    if name in KEYWORDS:
        found.append(("keyword", name))
    if functions and name in shell.state.functions:
        found.append(("function", shell.state.functions[name]))
    if name in BUILTINS or (name in BASH_BUILTINS and registry.lookup(name) is not None):
        found.append(("builtin", name))
    if "/" in name:
        fs = shell.machine.user_fs()
        try:
            inode = fs.lookup(name, shell.cwd)
            if inode.kind != DIR and fs.may_execute(inode):
                found.append(("file", name))
        except FsError:
            pass
        return found
    if registry.lookup(name, shell.machine.packages) is not None and name not in BASH_BUILTINS:
        found.append(("file", f"/usr/bin/{name}"))
    path = shell.find_in_path(name)
    if path is not None and ("file", path) not in found:
        found.append(("file", path))
    return found


@builtin("type")
def _type(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "afptP")
    if bad is not None:
        io.err(f"type: -{bad}: invalid option\ntype: usage: type [-afptP] name [name ...]\n")
        return 2
    status = 0
    for name in args:
        meanings = _classify(shell, name, functions="f" not in flags)
        if "P" in flags or "p" in flags:
            meanings = (
                [m for m in meanings if m[0] == "file"]
                if "P" in flags or not meanings or meanings[0][0] == "file"
                else []
            )
        if not meanings:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                io.err(f"type: {name}: not found\n")
            status = 1
            continue
        if "a" not in flags:
            meanings = meanings[:1]
        for kind, detail in meanings:
            if "t" in flags:
                io.out(kind + "\n")
            elif "p" in flags or "P" in flags:
                io.out(detail + "\n")
            elif kind == "keyword":
                io.out(f"{name} is a shell keyword\n")
            elif kind == "function":
                from cwgym.machine.shell.unparse import function_text

                io.out(f"{name} is a function\n{function_text(detail)}")
            elif kind == "builtin":
                io.out(f"{name} is a shell builtin\n")
            else:
                io.out(f"{name} is {detail}\n")
    return status


@builtin("command")
def _command(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "pvV")
    if bad is not None:
        io.err(
            f"command: -{bad}: invalid option\ncommand: usage: command [-pVv] command [arg ...]\n"
        )
        return 2
    if "v" in flags or "V" in flags:
        status = 1
        for name in args:
            meanings = _classify(shell, name)
            if not meanings:
                if "V" in flags:
                    io.err(f"command: {name}: not found\n")
                continue
            status = 0
            kind, detail = meanings[0]
            if "V" in flags:
                return _type(shell, ["type", name], io)
            io.out((detail if kind == "file" else name) + "\n")
        return status
    if not args:
        return 0
    return shell.invoke(args, io, functions=False)


@builtin("builtin")
def _builtin(shell: Shell, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        return 0
    name = argv[1]
    fn = BUILTINS.get(name)
    if fn is None:
        if name in BASH_BUILTINS and registry.lookup(name) is not None:
            return shell.invoke(argv[1:], io, functions=False)
        io.err(f"builtin: {name}: not a shell builtin\n")
        return 1
    return fn(shell, argv[1:], io)


@builtin("umask")
def _umask(shell: Shell, argv: list[str], io: IO) -> int:
    flags, args, bad = _split_options(argv[1:], "pS")
    if bad is not None:
        io.err(f"umask: -{bad}: invalid option\numask: usage: umask [-p] [-S] [mode]\n")
        return 2
    if not args:
        mask = shell.state.umask
        if "S" in flags:
            allowed = ~mask & 0o777
            parts = []
            for who, shift in (("u", 6), ("g", 3), ("o", 0)):
                bits = (allowed >> shift) & 7
                parts.append(
                    who + "=" + "".join(c for c, b in (("r", 4), ("w", 2), ("x", 1)) if bits & b)
                )
            io.out(",".join(parts) + "\n")
        else:
            io.out(("umask " if "p" in flags else "") + f"{mask:04o}\n")
        return 0
    mode = args[0]
    if mode and all(c in "01234567" for c in mode):
        value = int(mode, 8)
        if value > 0o777:
            io.err(f"umask: {mode}: octal number out of range\n")
            return 1
        shell.state.umask = value
        return 0
    value = _symbolic_umask(shell.state.umask, mode)
    if value is None:
        io.err(f"umask: `{mode[-1:]}': invalid symbolic mode operator\n")
        return 1
    shell.state.umask = value
    return 0


def _symbolic_umask(mask: int, mode: str) -> int | None:
    allowed = ~mask & 0o777
    for clause in mode.split(","):
        who = ""
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            who += clause[k]
            k += 1
        if k >= len(clause) or clause[k] not in "=+-":
            return None
        op = clause[k]
        perms = clause[k + 1 :]
        if any(c not in "rwx" for c in perms):
            return None
        bits = sum({"r": 4, "w": 2, "x": 1}[c] for c in perms)
        shifts = [s for w, s in (("u", 6), ("g", 3), ("o", 0)) if not who or "a" in who or w in who]
        for shift in shifts:
            if op == "=":
                allowed = (allowed & ~(7 << shift)) | (bits << shift)
            elif op == "+":
                allowed |= bits << shift
            else:
                allowed &= ~(bits << shift)
    return ~allowed & 0o777


@builtin("getopts")
def _getopts(shell: Shell, argv: list[str], io: IO) -> int:
    if len(argv) < 3:
        io.err("getopts: usage: getopts optstring name [arg ...]\n")
        return 2
    optstring, name = argv[1], argv[2]
    args = argv[3:] if len(argv) > 3 else list(shell.positional)
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    try:
        index = int(shell.get_var("OPTIND") or "1")
    except ValueError:
        index = 1
    offset = shell.getopts_offset if shell.getopts_index == index else 1
    if index < 1 or index > len(args):
        shell.set_var(name, "?")
        return 1
    arg = args[index - 1]
    if offset == 1 and (arg == "--" or not arg.startswith("-") or arg == "-"):
        if arg == "--":
            shell.set_var("OPTIND", str(index + 1))
        shell.set_var(name, "?")
        return 1
    letter = arg[offset]
    next_index, next_offset = (index, offset + 1) if offset + 1 < len(arg) else (index + 1, 1)
    shell.state.vars.pop("OPTARG", None)
    if letter not in optstring or letter == ":":
        if silent:
            shell.set_var("OPTARG", letter)
        else:
            io.err(f"{shell.arg0}: illegal option -- {letter}\n")
        shell.set_var(name, "?")
    elif optstring[optstring.index(letter) + 1 : optstring.index(letter) + 2] == ":":
        if offset + 1 < len(arg):
            shell.set_var("OPTARG", arg[offset + 1 :])
            next_index, next_offset = index + 1, 1
        elif index < len(args):
            shell.set_var("OPTARG", args[index])
            next_index, next_offset = index + 2, 1
        else:
            if silent:
                shell.set_var("OPTARG", letter)
                shell.set_var(name, ":")
            else:
                io.err(f"{shell.arg0}: option requires an argument -- {letter}\n")
                shell.set_var(name, "?")
            shell.set_var("OPTIND", str(index + 1))
            shell.getopts_index = 0
            return 0
        shell.set_var(name, letter)
    else:
        shell.set_var(name, letter)
    shell.set_var("OPTIND", str(next_index))
    shell.getopts_index, shell.getopts_offset = (
        (next_index, next_offset) if next_offset > 1 else (0, 1)
    )
    return 0


@builtin("declare", "typeset")
def _declare(shell: Shell, argv: list[str], io: IO) -> int:
    """``declare``/``typeset`` for plain variables: ``-x`` exports, ``-g`` stays global,
    ``-p`` prints, ``-f``/``-F`` list functions; attribute options are refused."""
    name = argv[0]
    flags, args, bad = _split_options(argv[1:], "xgpfFaAilnrtuIL")
    if bad is not None:
        io.err(f"{name}: -{bad}: invalid option\n")
        return 2
    refused = [f for f in flags if f in "aAilnrtuIL"]
    if refused:
        return _unsupported(io, name, f"-{refused[0]}")
    if "f" in flags or "F" in flags:
        from cwgym.machine.shell.unparse import function_text

        names = args or sorted(shell.state.functions)
        status = 0
        for fname in names:
            source = shell.state.functions.get(fname)
            if source is None:
                status = 1
                continue
            io.out(f"declare -f {fname}\n" if "F" in flags else function_text(source))
        return status
    if "p" in flags or not args:
        names = args or sorted(shell.state.vars)
        status = 0
        for vname in names:
            value = shell.state.vars.get(vname)
            if value is None:
                io.err(f"{name}: {vname}: not found\n")
                status = 1
                continue
            attrs = "-x" if vname in shell.state.exported else "--"
            io.out(f'declare {attrs} {vname}="{_dq_escape(value)}"\n')
        return status
    status = 0
    for arg in args:
        vname, value = _assignment_arg(arg)
        if not is_name(vname):
            io.err(f"{name}: `{arg}': not a valid identifier\n")
            status = 1
            continue
        if shell.frames and "g" not in flags:
            shell.declare_local(vname)
        if value is not None:
            shell.set_var(vname, value)
        if "x" in flags:
            shell.state.exported.add(vname)
    return status


REFUSED = {
    "readonly": "readonly variables are not supported by this shell",
    "shopt": "shell options (shopt) are not supported by this shell",
    "trap": "signal traps are not supported by this shell",
    "exec": "exec is not supported by this shell",
    "alias": "aliases are not supported by this shell",
    "mapfile": "arrays are not supported by this shell",
    "readarray": "arrays are not supported by this shell",
}


def _refused(shell: Shell, argv: list[str], io: IO) -> int:
    io.err(f"{argv[0]}: {REFUSED[argv[0]]}\n")
    return 2


for _name in REFUSED:
    BUILTINS[_name] = _refused

__all__ = ["BUILTINS", "ShellSyntaxError"]
