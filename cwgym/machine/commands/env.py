"""``env``: print the environment, or run a program in a modified one (GNU coreutils).

``env [-i] [-u NAME]... [-C DIR] [NAME=VALUE]... [COMMAND [ARG]...]``. Only programs can be
run (as ``env`` executes a file): shell-only builtins such as ``cd`` are not found, as on
a real system. A modified environment is passed by running, through the shell's
``run_script``, a tiny script that unsets and exports the variables and then runs
``"$@"``; without changes the command runs directly through ``ctx.run``.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import executable_file, gnu_spec, q, search_path
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "iu:0C:",
    {"ignore-environment": "i", "unset=": "u", "null": "0", "chdir=": "C"},
    unsupported=(
        "-S",
        "--split-string",
        "-v",
        "--debug",
        "--ignore-signal",
        "--default-signal",
        "--block-signal",
        "--list-signal-handling",
    ),
    permute=False,
)
EXIT_CANCELED = 125


def shell_word(text: str) -> str:
    """``text`` as one single-quoted shell word."""
    return "'" + text.replace("'", "'\\''") + "'"


@command("env")
def env(ctx: CommandContext) -> int:
    args = list(ctx.args)
    opts, operands = ctx.options(SPEC, usage_status=EXIT_CANCELED, args=args)
    ignore = False
    unset: list[str] = []
    null = False
    chdir: str | None = None
    for key, value in opts:
        if key == "i":
            ignore = True
        elif key == "u":
            unset.append(value or "")
        elif key == "0":
            null = True
        elif key == "C":
            chdir = value
    if operands and operands[0] == "-":
        ignore = True
        operands = operands[1:]
    for name in unset:
        if not name or "=" in name:
            ctx.error(f"cannot unset {q(name)}: Invalid argument")
            return EXIT_CANCELED
    assignments: list[tuple[str, str]] = []
    while operands and "=" in operands[0] and not operands[0].startswith("="):
        name, _, value = operands.pop(0).partition("=")
        assignments.append((name, value))
    environment = {} if ignore else dict(ctx.env)
    for name in unset:
        environment.pop(name, None)
    for name, value in assignments:
        environment[name] = value
    if not operands:
        if chdir is not None:
            ctx.error("must specify command with --chdir (-C)")
            ctx.err("Try 'env --help' for more information.\n")
            return EXIT_CANCELED
        end = "\0" if null else "\n"
        for name, value in environment.items():
            ctx.out(f"{name}={value}{end}")
        return 0
    if null:
        ctx.error("cannot specify --null (-0) with command")
        ctx.err("Try 'env --help' for more information.\n")
        return EXIT_CANCELED
    program = operands[0]
    if chdir is not None:
        try:
            if not ctx.fs.is_dir(chdir, ctx.cwd):
                ctx.fs.listdir(chdir, ctx.cwd)
        except FsError as exc:
            ctx.error(f"cannot change directory to {q(chdir)}: {exc.strerror_text}")
            return EXIT_CANCELED
    found = _locate(ctx, program, environment.get("PATH", "/bin:/usr/bin"))
    if found is not None:
        return found
    changed = ignore or unset or assignments or chdir is not None
    if not changed:
        status, out, err = ctx.run(operands, ctx.stdin)
    else:
        lines = []
        if chdir is not None:
            lines.append(f"cd -- {shell_word(chdir)} || exit 125")
        drop = [name for name in ctx.env if name not in environment]
        if drop:
            lines.append("unset " + " ".join(shell_word(name) for name in drop))
        for name, value in environment.items():
            if ctx.env.get(name) != value:
                lines.append(f"export {name}={shell_word(value)}")
        lines.append('"$@"')
        status, out, err = ctx.run_script("\n".join(lines) + "\n", ["env", *operands], ctx.stdin)
    ctx.out(out)
    ctx.err(err)
    return status


def _locate(ctx: CommandContext, program: str, path_value: str) -> int | None:
    """``None`` when ``program`` can run; otherwise report like GNU env and give the status."""
    if "/" in program:
        if executable_file(ctx, program):
            return None
        try:
            ctx.fs.lookup(program, ctx.cwd)
        except FsError as exc:
            ctx.error(f"{q(program)}: {exc.strerror_text}")
            return 127 if exc.code == "ENOENT" else 126
        ctx.error(f"{q(program)}: Permission denied")
        return 126
    if search_path(ctx, program, path_value=path_value):
        return None
    ctx.error(f"{q(program)}: No such file or directory")
    return 127
