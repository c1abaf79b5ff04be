"""``awk`` (also ``gawk``, ``mawk``, ``nawk``): the POSIX awk language with gawk's common
additions; the interpreter lives in :mod:`cwgym.machine.commands._awk`.

Options ``-F FS``, ``-v VAR=VALUE``, ``-f PROGFILE``, ``--``. Output to files (``>``,
``>>``) goes through the user's filesystem; ``print | "cmd"``, ``"cmd" | getline`` and
``system()`` run through the machine's own shell. gawk-only built-ins beyond ``gensub``
and ``systime`` (``strftime``, ``asort``...) fail loudly with exit 2.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._awk.interp import (
    AwkRuntimeError,
    Fatal,
    Interpreter,
    Unsupported,
)
from cwgym.machine.commands._awk.lexer import AwkSyntaxError, unescape
from cwgym.machine.commands._awk.parser import AwkParseError, parse
from cwgym.machine.commands._awk.values import strnum
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, text
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="F:v:f:e:V",
    long={
        "field-separator=": "F",
        "assign=": "v",
        "file=": "f",
        "source=": "e",
        "version": "V",
        "posix": "posix",
        "traditional": "posix",
        "re-interval": "posix",
    },
    unsupported=(
        "-b", "-c", "-C", "-d", "-D", "-E", "-g", "-h", "-i", "-I", "-l", "-L", "-M", "-N",
        "-n", "-o", "-O", "-p", "-P", "-r", "-s", "-S", "-t",
        "--characters-as-bytes", "--copyright", "--dump-variables", "--debug", "--exec",
        "--gen-pot", "--help", "--include", "--trace", "--load", "--lint", "--bignum",
        "--use-lc-numeric", "--non-decimal-data", "--pretty-print", "--optimize", "--profile",
        "--sandbox", "--lint-old",
    ),
    permute=False,
)


_USAGE_BODY = "POSIX options:\t\tGNU long options: (standard)\n\t-f progfile\t\t--file=progfile\n\t-F fs\t\t\t--field-separator=fs\n\t-v var=val\t\t--assign=var=val\nShort options:\t\tGNU long options: (extensions)\n\t-b\t\t\t--characters-as-bytes\n\t-c\t\t\t--traditional\n\t-C\t\t\t--copyright\n\t-d[file]\t\t--dump-variables[=file]\n\t-D[file]\t\t--debug[=file]\n\t-e 'program-text'\t--source='program-text'\n\t-E file\t\t\t--exec=file\n\t-g\t\t\t--gen-pot\n\t-h\t\t\t--help\n\t-i includefile\t\t--include=includefile\n\t-I\t\t\t--trace\n\t-l library\t\t--load=library\n\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]\n\t-M\t\t\t--bignum\n\t-N\t\t\t--use-lc-numeric\n\t-n\t\t\t--non-decimal-data\n\t-o[file]\t\t--pretty-print[=file]\n\t-O\t\t\t--optimize\n\t-p[file]\t\t--profile[=file]\n\t-P\t\t\t--posix\n\t-r\t\t\t--re-interval\n\t-s\t\t\t--no-optimize\n\t-S\t\t\t--sandbox\n\t-t\t\t\t--lint-old\n\t-V\t\t\t--version\n\nTo report bugs, use the `gawkbug' program.\nFor full instructions, see the node `Bugs' in `gawk.info'\nwhich is section `Reporting Problems and Bugs' in the\nprinted version.  This same information may be found at\nhttps://www.gnu.org/software/gawk/manual/html_node/Bugs.html.\nPLEASE do NOT try to report bugs by posting in comp.lang.awk,\nor by using a web forum such as Stack Overflow.\n\ngawk is a pattern scanning and processing language.\nBy default it reads standard input and writes standard output.\n\nExamples:\n\tawk '{ sum += $1 }; END { print sum }' file\n\tawk -F: '{ print $1 }' /etc/passwd\n"


def _usage(ctx: CommandContext) -> int:
    """gawk's usage text (it exits 1 when no program is given)."""
    ctx.err(f"Usage: {ctx.name} [POSIX or GNU style options] -f progfile [--] file ...\n")
    ctx.err(f"Usage: {ctx.name} [POSIX or GNU style options] [--] 'program' file ...\n")
    ctx.err(_USAGE_BODY.replace("\tawk ", f"\t{ctx.name} "))
    return 1


@command("awk", "gawk", "mawk", "nawk")
def awk(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, usage_status=2)
    fs = None
    assigns: list[str] = []
    sources: list[str] = []
    from_file = False
    for key, value in opts:
        if key == "F":
            fs = arg_text(value or "")
        elif key == "v":
            assigns.append(arg_text(value or ""))
        elif key == "f":
            try:
                sources.append(text(ctx.read_input(value or "")))
            except FsError as exc:
                ctx.error(f"fatal: can't open source file `{value}' for reading: {exc.strerror_text}")
                return 2
            from_file = True
        elif key == "e":
            sources.append(arg_text(value or ""))
            from_file = True
        elif key == "V":
            ctx.out("GNU Awk 5.2.1 (cwgym)\n")
            return 0
    if not from_file:
        if not operands:
            return _usage(ctx)
        sources.append(arg_text(operands.pop(0)))
    source = "\n".join(sources)
    warnings: list[str] = []
    try:
        program = parse(source, warnings)
    except AwkParseError as exc:
        ctx.error(f"cmd. line:1: error: {exc}")
        return 1
    except AwkSyntaxError as exc:
        lines = source.split("\n")
        line_text = lines[exc.line - 1] if 0 < exc.line <= len(lines) else ""
        where = f"{ctx.name}: cmd. line:{exc.line}: "
        ctx.err(where + line_text.encode("latin-1").decode("utf-8", "surrogateescape") + "\n")
        ctx.err(where + " " * max(exc.col, 0) + "^ " + exc.message + "\n")
        return 1
    for warning in warnings:
        ctx.error(f"cmd. line:1: warning: {warning}")
    try:
        interp = Interpreter(ctx, program, ctx.name)
    except Unsupported as exc:
        ctx.error(f"{exc} is not supported")
        return 2
    except AwkRuntimeError as exc:
        ctx.error(f"cmd. line:1: fatal: {exc}")
        return 2
    g = interp.g
    if fs is not None:
        g["FS"] = unescape(fs)
    argv = {"0": ctx.name}
    for i, operand in enumerate(operands, 1):
        argv[str(i)] = strnum(arg_text(operand))
    g["ARGV"] = argv
    g["ARGC"] = float(len(operands) + 1)
    g["ENVIRON"] = {k: strnum(arg_text(v)) for k, v in ctx.env.items()}
    for assignment in assigns:
        name, eq, value = assignment.partition("=")
        if not eq or not name or not (name[0].isalpha() or name[0] == "_"):
            ctx.error(f"fatal: `{assignment}' argument to `-v' not in `var=value' form")
            return 2
        interp.assign_global(name, value)
    try:
        return interp.run()
    except Unsupported as exc:
        interp.flush()
        ctx.error(f"{exc} is not supported")
        return 2
    except Fatal as exc:
        interp.flush()
        ctx.error(f"fatal: {exc}")
        return 2
    except AwkRuntimeError as exc:
        interp.flush()
        where = ""
        if interp.in_main:
            where = f"(FILENAME={g.get('FILENAME', '')} FNR={int(g.get('FNR', 0))}) "
        if "division by zero" in str(exc):
            ctx.error(f"cmd. line:1: {where}error: {exc}")
            return 1
        ctx.error(f"cmd. line:1: {where}fatal: {exc}")
        return 2
    except RecursionError:
        interp.flush()
        ctx.error("cmd. line:1: fatal: function call nesting too deep")
        return 2
