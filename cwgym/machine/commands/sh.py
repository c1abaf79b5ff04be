"""``sh`` and ``bash``: run a script in a new shell, through the shell's ``run_script``.

``sh -c 'SCRIPT' [NAME [ARG...]]`` runs SCRIPT with ``$0`` NAME (default the shell's
name) and the ARGs as ``$1``...; ``sh FILE [ARG...]`` runs a file; ``sh`` or ``sh -s
[ARG...]`` runs standard input. ``-l``/``--login``, ``-i``, ``--norc``, ``--noprofile``
and ``--posix`` change nothing here. The shell options ``set`` knows (``-e -u -x -f -C -a``
and ``-o NAME``, or their ``+`` forms) are passed on by starting the script with that
``set`` command; any other option is refused (exit 2). ``sh`` reports errors the way
Debian's dash does, ``bash`` the way bash does.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

BASH_USAGE = (
    "Usage:\tbash [GNU long option] [option] ...\n"
    "\tbash [GNU long option] [option] script-file ...\n"
    "GNU long options:\n"
    + "".join(
        f"\t--{name}\n"
        for name in (
            "debug",
            "debugger",
            "dump-po-strings",
            "dump-strings",
            "help",
            "init-file",
            "login",
            "noediting",
            "noprofile",
            "norc",
            "posix",
            "pretty-print",
            "rcfile",
            "restricted",
            "verbose",
            "version",
        )
    )
    + "Shell options:\n"
    "\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n"
    "\t-abefhkmnptuvxBCEHPT or -o option\n"
)
#: Single-letter options handed to the script's ``set`` (errexit, nounset, xtrace, ...).
SET_LETTERS = "euxfCa"
_HARMLESS_LONG = ("--login", "--norc", "--noprofile", "--posix", "--noediting")


@command("sh", "bash")
def sh(ctx: CommandContext) -> int:
    name = ctx.name.rsplit("/", 1)[-1]
    dash = name == "sh"
    args = list(ctx.args)
    command_mode = False
    stdin_mode = False
    settings: list[str] = []
    while args:
        arg = args[0]
        if arg in ("--", "-"):
            args.pop(0)
            break
        if arg.startswith("--"):
            if arg in ("--help", "--version") and not dash:
                ctx.err(f"{name}: unsupported option '{arg}'\n")
                return 2
            if arg in _HARMLESS_LONG and not dash:
                args.pop(0)
                continue
            if dash:
                ctx.err(f"{name}: 0: Illegal option -{arg[1:]}\n")
            else:
                ctx.err(f"{name}: {arg}: invalid option\n{BASH_USAGE}")
            return 2
        if not arg.startswith(("-", "+")) or len(arg) == 1:
            break
        args.pop(0)
        for letter in arg[1:]:
            if letter == "c" and arg[0] == "-":
                command_mode = True
            elif letter == "s" and arg[0] == "-":
                stdin_mode = True
            elif letter in "li":
                continue
            elif letter in SET_LETTERS:
                settings.append(f"{arg[0]}{letter}")
            elif letter == "o":
                if not args:
                    ctx.err(f"{name}: {arg[0]}o: option requires an argument\n")
                    return 2
                settings.append(f"{arg[0]}o {args.pop(0)}")
            elif letter not in "abefhkmnptuvxBCEHPTilrsDcO":
                if dash:
                    ctx.err(f"{name}: 0: Illegal option {arg[0]}{letter}\n")
                else:
                    ctx.err(f"{name}: {arg[0]}{letter}: invalid option\n{BASH_USAGE}")
                return 2
            else:
                ctx.err(
                    f"{name}: unsupported option {arg[0]}{letter}: shell options are not modelled\n"
                )
                return 2
    if command_mode:
        if not args:
            if dash:
                ctx.err(f"{name}: 0: -c requires an argument\n")
            else:
                ctx.err(f"{name}: -c: option requires an argument\n")
            return 2
        script = args[0]
        argv = args[1:] or [name]
        return _run(ctx, script, argv, ctx.stdin, settings)
    if args and not stdin_mode:
        path = args[0]
        try:
            data = ctx.fs.read(path, ctx.cwd)
        except FsError as exc:
            if dash:
                ctx.err(f"{name}: 0: cannot open {path}: {_dash_text(exc)}\n")
                return 2
            if exc.code == "EISDIR":
                ctx.err(f"{path}: {path}: {exc.strerror_text}\n")
            else:
                ctx.err(f"{name}: {path}: {exc.strerror_text}\n")
            return 127 if exc.code == "ENOENT" else 126
        script = data.decode("utf-8", "surrogateescape")
        return _run(ctx, script, args, ctx.stdin, settings)
    script = ctx.stdin.decode("utf-8", "surrogateescape")
    return _run(ctx, script, [name, *args], b"", settings)


def _dash_text(exc: FsError) -> str:
    return "No such file" if exc.code == "ENOENT" else exc.strerror_text


def _run(
    ctx: CommandContext,
    script: str,
    argv: list[str],
    stdin: bytes,
    settings: list[str] | None = None,
) -> int:
    if settings:
        script = "set " + " ".join(settings) + "\n" + script
    status, out, err = ctx.run_script(script, argv, stdin)
    ctx.out(out)
    ctx.err(err)
    return status
