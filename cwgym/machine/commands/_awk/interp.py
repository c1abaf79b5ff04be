"""The awk interpreter: compiles the parser's tuple tree into Python closures and runs them
over the input records.

Determinism: ``rand()`` is a SplitMix64 generator seeded with 0 until ``srand`` is called
(``srand()`` without an argument seeds from the machine's logical clock), so a program
prints the same numbers on every run; they are not gawk's numbers. Array iteration
(``for (k in a)``) follows insertion order, never hash order.
"""

from __future__ import annotations

import math
import re

from cwgym.machine.commands._awk.lexer import UNSUPPORTED_BUILTINS
from cwgym.machine.commands._awk.parser import Program
from cwgym.machine.commands._awk.values import (
    UNINIT,
    AwkRuntimeError,
    StrNum,
    format_number,
    is_num,
    strnum,
    to_bool,
    to_num,
    to_str,
)
from cwgym.machine.commands._engine import Regex
from cwgym.machine.commands._limits import check_size
from cwgym.machine.commands._regex import (
    FLAGS,
    RegexError,
    posix_matches,
    posix_search,
    translate,
)
from cwgym.machine.commands._text import (
    format_float,
    format_int,
    format_str,
    lower,
    parse_spec,
    raw,
    split_lines,
    text,
    upper,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

_WS_FIELDS = re.compile(r"[^ \t\n]+")
_ASSIGN_ARG = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=", re.ASCII)
MASK64 = (1 << 64) - 1


class Next(Exception):
    pass


class NextFile(Exception):
    pass


class ExitProgram(Exception):
    def __init__(self, status: int | None) -> None:
        self.status = status
        super().__init__(status)


class Return(Exception):
    def __init__(self, value) -> None:
        self.value = value
        super().__init__()


class Fatal(Exception):
    """A fatal error outside the program text (``cannot open file``): no END, exit 2."""


class Unsupported(Exception):
    """A feature this awk does not implement (exit 2, named)."""


BREAK, CONTINUE = 1, 2
#: Loop iterations one program may run before it is stopped: a runaway loop would hang
#: the simulated machine, which has no Ctrl-C. Sized so the cheapest runaway loop
#: (``while (1) x++``) stops in well under a second of host time.
LOOP_BUDGET = 1_000_000


class Interpreter:
    def __init__(self, ctx: CommandContext, program: Program, name: str) -> None:
        self.ctx = ctx
        self.program = program
        self.name = name
        self.g: dict = {
            "FS": " ",
            "OFS": " ",
            "ORS": "\n",
            "RS": "\n",
            "NR": 0.0,
            "NF": 0.0,
            "FNR": 0.0,
            "SUBSEP": "\x1c",
            "CONVFMT": "%.6g",
            "OFMT": "%.6g",
            "RSTART": 0.0,
            "RLENGTH": -1.0,
            "FILENAME": "",
        }
        self.out: list[str] = []
        self.files: dict[str, list] = {}  # name -> [mode, chunks]
        self.pipes: dict[str, list[str]] = {}
        self.read_files: dict[str, list] = {}
        self.cmd_inputs: dict[str, list] = {}
        self.record = ""
        self.record_value = UNINIT
        self.fields: list | None = []
        self.nf = 0
        self.frame: list = []
        self.regex_cache: dict[str, re.Pattern[str]] = {}
        self.seed = 0.0
        self.rng = 0
        self.functions: dict = {}
        self.range_active: dict[int, bool] = {}
        self.input = None
        self.exit_status = 0
        self.in_main = False
        self.skip_file = False
        self.record_fs = " "
        self.budget = LOOP_BUDGET
        self.fs_cache: tuple = (None, None)
        self.locals: dict[str, int] = {}
        self.array_params: dict[str, set[int]] = {}
        self._prepare_functions()

    def spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise AwkRuntimeError(f"more than {LOOP_BUDGET} loop iterations: stopped as a runaway program")

    # -- output ------------------------------------------------------------------------
    def flush(self) -> None:
        if self.out:
            self.ctx.stdout += raw("".join(self.out))
            self.out = []

    def write(self, chunk: str, redirect) -> None:
        if redirect is None:
            self.out.append(chunk)
            return
        op, target = redirect
        name = to_str(target(), self.g["CONVFMT"])
        if name == "":
            raise AwkRuntimeError(f"expression for `{op}' redirection has null string value")
        if name in ("/dev/stdout", "-"):
            self.out.append(chunk)
        elif name == "/dev/stderr":
            self.flush()
            self.ctx.err(raw(chunk))
        elif op == "|":
            self.pipes.setdefault(name, []).append(chunk)
        else:
            entry = self.files.get(name)
            if entry is None:
                entry = self.files[name] = ["a" if op == ">>" else "w", []]
            entry[1].append(chunk)

    def close_stream(self, name: str) -> float:
        status = -1.0
        if name in self.files:
            self._flush_file(name)
            del self.files[name]
            status = 0.0
        if name in self.pipes:
            status = float(self._run_pipe(name))
        if name in self.read_files:
            del self.read_files[name]
            status = 0.0
        if name in self.cmd_inputs:
            status = float(self.cmd_inputs.pop(name)[2])
        return status

    def _flush_file(self, name: str) -> None:
        mode, chunks = self.files[name]
        data = raw("".join(chunks))
        try:
            self.ctx.fs.write(name, self.ctx.cwd, data, append=mode == "a")
        except FsError as exc:
            raise AwkRuntimeError(f"can't redirect to `{name}' ({exc.strerror_text})") from None
        self.files[name] = ["a", []]

    def _run_pipe(self, name: str) -> int:
        chunks = self.pipes.pop(name)
        self.flush()
        status, out, err = self.ctx.run_script(name, [], raw("".join(chunks)))
        self.ctx.stdout += out
        self.ctx.stderr += err
        return status

    def finish(self) -> None:
        self.flush()
        for name in list(self.files):
            self._flush_file(name)
        for name in list(self.pipes):
            self._run_pipe(name)

    # -- regexes -----------------------------------------------------------------------
    def compile_regex(self, source: str) -> re.Pattern[str]:
        cached = self.regex_cache.get(source)
        if cached is None:
            try:
                body, _, _ = translate(source, extended=True, dialect="awk")
                cached = Regex(body, FLAGS)
            except (RegexError, re.error) as exc:
                message = exc.message if isinstance(exc, RegexError) else str(exc)
                raise AwkRuntimeError(f"invalid regexp: {message}: /{source}/") from None
            self.regex_cache[source] = cached
        return cached

    def regex_of(self, node):
        """A function returning the compiled regex a node denotes (literal or dynamic)."""
        if node[0] == "regex":
            pattern = self.compile_regex(node[1])
            return lambda: pattern
        if node[0] == "str":
            pattern = self.compile_regex(node[1])
            return lambda: pattern
        value = self.expr(node)
        return lambda: self.compile_regex(to_str(value(), self.g["CONVFMT"]))

    # -- records and fields ---------------------------------------------------------
    def set_record(self, value: str) -> None:
        self.record = value
        self.record_value = None
        self.fields = None
        self.record_fs = self.g["FS"]

    def split_record(self) -> None:
        self.fields = [strnum(p) for p in self.split_text(self.record, self.record_fs)]
        self.nf = len(self.fields)

    def split_text(self, value: str, fs_value) -> list[str]:
        fs = to_str(fs_value, self.g["CONVFMT"])
        paragraph = to_str(self.g["RS"]) == ""
        if fs == " ":
            return _WS_FIELDS.findall(value)
        if value == "":
            return []
        if len(fs) == 1 and fs != "\\" and not paragraph:
            return value.split(fs)
        if fs == "":
            return list(value)
        cache_key = (fs, paragraph)
        if self.fs_cache[0] == cache_key:
            regex = self.fs_cache[1]
        else:
            source = fs if len(fs) > 1 else re.escape(fs) if fs != "\\" else "\\\\"
            if len(fs) == 1:
                body = re.escape(fs)
            else:
                try:
                    body, _, _ = translate(source, extended=True, dialect="awk")
                except RegexError as exc:
                    raise AwkRuntimeError(f"invalid regexp: {exc.message}") from None
            if paragraph:
                body = f"(?:{body})|\n"
            regex = Regex(body, FLAGS)
            self.fs_cache = (cache_key, regex)
        return _regex_split(regex, value)

    def get_field(self, index: int):
        if index == 0:
            if self.record_value is None:
                self.record_value = strnum(self.record)
            return self.record_value
        if index < 0:
            raise AwkRuntimeError(f"attempt to access field {index}")
        if self.fields is None:
            self.split_record()
        if index <= self.nf:
            return self.fields[index - 1]  # type: ignore[index]
        return ""

    def set_field(self, index: int, value) -> None:
        if index == 0:
            self.set_record(to_str(value, self.g["CONVFMT"]))
            return
        if index < 0:
            raise AwkRuntimeError(f"attempt to access field {index}")
        if self.fields is None:
            self.split_record()
        fields = self.fields
        assert fields is not None
        while len(fields) < index:
            fields.append(UNINIT)
        fields[index - 1] = value
        self.nf = len(fields)
        self.rebuild()

    def rebuild(self) -> None:
        convfmt = self.g["CONVFMT"]
        ofs = to_str(self.g["OFS"], convfmt)
        self.record = ofs.join(to_str(f, convfmt) for f in self.fields or [])
        self.record_value = None

    def get_nf(self) -> float:
        if self.fields is None:
            self.split_record()
        return float(self.nf)

    def set_nf(self, value) -> None:
        n = int(to_num(value))
        if n < 0:
            raise AwkRuntimeError("NF set to negative value")
        if self.fields is None:
            self.split_record()
        fields = self.fields
        assert fields is not None
        del fields[n:]
        while len(fields) < n:
            fields.append(UNINIT)
        self.nf = n
        self.rebuild()

    # -- input -------------------------------------------------------------------------
    def split_records(self, data: str) -> list[str]:
        rs = to_str(self.g["RS"], self.g["CONVFMT"])
        if rs == "\n":
            return split_lines(data)
        if rs == "":
            body = data.lstrip("\n")
            if not body:
                return []
            parts = re.split(r"\n\n+", body)
            if parts and parts[-1].endswith("\n"):
                parts[-1] = parts[-1].rstrip("\n")
            if parts and parts[-1] == "":
                parts.pop()
            return parts
        if len(rs) == 1:
            return split_lines(data, rs)
        regex = self.compile_regex(rs)
        parts = _regex_split(regex, data)
        if parts and parts[-1] == "":
            parts.pop()
        return parts

    def records(self):
        """Every main-input record, updating NR, FNR and FILENAME as it goes."""
        g = self.g
        argv = g["ARGV"]
        used_file = False
        i = 1
        while i < int(to_num(g["ARGC"])):
            arg = argv.get(str(i))
            i += 1
            if arg is None:
                continue
            arg = to_str(arg, g["CONVFMT"])
            if arg == "":
                continue
            if _ASSIGN_ARG.match(arg):
                name, _, value = arg.partition("=")
                self.assign_global(name, value)
                continue
            used_file = True
            yield from self.file_records(arg)
        if not used_file:
            yield from self.file_records("-")

    def file_records(self, name: str):
        g = self.g
        if name == "-" or name == "/dev/stdin":
            data = self.ctx.stdin
        else:
            try:
                if self.ctx.fs.is_dir(name, self.ctx.cwd):
                    self.warn(f"warning: command line argument `{name}' is a directory: skipped")
                    return
                data = self.ctx.fs.read(name, self.ctx.cwd)
            except FsError as exc:
                raise Fatal(f"cannot open file `{name}' for reading: {exc.strerror_text}") from None
        g["FILENAME"] = name if name != "-" else g.get("FILENAME", "")
        g["FNR"] = 0.0
        self.skip_file = False
        for record in self.split_records(text(data)):
            if self.skip_file:
                self.skip_file = False
                return
            g["NR"] = to_num(g["NR"]) + 1.0
            g["FNR"] = to_num(g["FNR"]) + 1.0
            yield record

    def warn(self, message: str) -> None:
        self.flush()
        self.ctx.err(f"{self.name}: {message}\n")

    def assign_global(self, name: str, value: str) -> None:
        from cwgym.machine.commands._awk.lexer import unescape

        self.g[name] = strnum(unescape(value))
        if name == "NF":
            self.set_nf(self.g[name])

    # -- functions ---------------------------------------------------------------------
    def _prepare_functions(self) -> None:
        for name, (params, _body) in self.program.functions.items():
            self.array_params[name] = set()
            if name in self.program.functions and name in _BUILTIN_NAMES:
                raise Unsupported(f"function name `{name}' is a built-in")
            _ = params
        changed = True
        uses: dict[str, set[int]] = {name: set() for name in self.program.functions}
        for name, (params, body) in self.program.functions.items():
            uses[name] = _array_uses(body, params)
        calls = {name: _calls(body, params) for name, (params, body) in self.program.functions.items()}
        while changed:
            changed = False
            for name in self.program.functions:
                for callee, arg_index, param_index in calls[name]:
                    if callee in uses and arg_index in uses[callee] and param_index not in uses[name]:
                        uses[name].add(param_index)
                        changed = True
        self.array_params = uses
        for name, (params, body) in self.program.functions.items():
            self.locals = {p: i for i, p in enumerate(params)}
            compiled = self.block(body)
            self.functions[name] = (params, compiled)
        self.locals = {}

    def call(self, name: str, arg_nodes: list, tok):
        if name not in self.program.functions:
            raise AwkRuntimeError(f"function `{name}' not defined")
        params = self.program.functions[name][0]
        if len(arg_nodes) > len(params):
            raise AwkRuntimeError(f"function `{name}' called with more arguments than declared")
        array_params = self.array_params.get(name, set())
        getters = []
        for index, node in enumerate(arg_nodes):
            if node[0] == "var":
                getters.append(self._array_or_value(node[1], index in array_params))
            else:
                value = self.expr(node)
                getters.append(value)
        count = len(params)

        def run():
            frame = [UNINIT] * count
            for i, getter in enumerate(getters):
                frame[i] = getter()
            body = self.functions[name][1]
            saved = self.frame
            self.frame = frame
            try:
                body()
            except Return as r:
                return r.value
            finally:
                self.frame = saved
            return UNINIT

        return run

    def _array_or_value(self, var: str, want_array: bool):
        """An argument that is a bare variable: pass an array by reference (creating it in
        the caller when the callee uses the parameter as an array), a scalar by value."""
        if var in self.locals:
            slot = self.locals[var]

            def local():
                value = self.frame[slot]
                if isinstance(value, dict):
                    return value
                if want_array and value is UNINIT:
                    value = self.frame[slot] = {}
                return value

            return local
        g = self.g

        def glob():
            if var == "NF":
                return self.get_nf()
            value = g.get(var, UNINIT)
            if isinstance(value, dict):
                return value
            if want_array and value is UNINIT:
                value = g[var] = {}
            return value

        return glob

    # -- compilation: statements -------------------------------------------------------
    def block(self, stmts: list):
        compiled = [self.stmt(s) for s in stmts]
        if len(compiled) == 1:
            return compiled[0]

        def run():
            for s in compiled:
                r = s()
                if r:
                    return r
            return None

        return run

    def stmt(self, node):
        kind = node[0]
        if kind == "expr":
            e = self.expr(node[1])

            def run_expr():
                e()

            return run_expr
        if kind == "block":
            return self.block(node[1])
        if kind == "print":
            return self.print_stmt(node)
        if kind == "printf":
            return self.printf_stmt(node)
        if kind == "if":
            cond = self.cond(node[1])
            then = self.stmt(node[2])
            other = self.stmt(node[3]) if node[3] is not None else None

            def run_if():
                if cond():
                    return then()
                if other is not None:
                    return other()
                return None

            return run_if
        if kind == "while":
            cond = self.cond(node[1])
            body = self.stmt(node[2])

            def run_while():
                while cond():
                    self.spend()
                    r = body()
                    if r == BREAK:
                        break
                return None

            return run_while
        if kind == "do":
            body = self.stmt(node[1])
            cond = self.cond(node[2])

            def run_do():
                while True:
                    self.spend()
                    r = body()
                    if r == BREAK:
                        break
                    if not cond():
                        break
                return None

            return run_do
        if kind == "for":
            init = self.stmt(node[1]) if node[1] is not None else None
            cond = self.cond(node[2]) if node[2] is not None else (lambda: True)
            step = self.stmt(node[3]) if node[3] is not None else None
            body = self.stmt(node[4])

            def run_for():
                if init is not None:
                    init()
                while cond():
                    self.spend()
                    r = body()
                    if r == BREAK:
                        break
                    if step is not None:
                        step()
                return None

            return run_for
        if kind == "forin":
            setter = self.assigner(node[1])
            array = self.array(node[2])
            body = self.stmt(node[3])

            def run_forin():
                arr = array()
                for key in list(arr):
                    if key not in arr:
                        continue
                    setter(strnum(key))
                    r = body()
                    if r == BREAK:
                        break
                return None

            return run_forin
        if kind == "next":
            def run_next():
                raise Next()

            return run_next
        if kind == "nextfile":
            def run_nextfile():
                raise NextFile()

            return run_nextfile
        if kind == "break":
            return lambda: BREAK
        if kind == "continue":
            return lambda: CONTINUE
        if kind == "exit":
            value = self.expr(node[1]) if node[1] is not None else None

            def run_exit():
                raise ExitProgram(int(to_num(value())) & 0xFF if value is not None else None)

            return run_exit
        if kind == "return":
            value = self.expr(node[1]) if node[1] is not None else (lambda: UNINIT)

            def run_return():
                raise Return(value())

            return run_return
        if kind == "delete":
            array = self.array(node[1])
            if node[2] is None:

                def run_delete_all():
                    array().clear()

                return run_delete_all
            key = self.subscript(node[2])

            def run_delete():
                array().pop(key(), None)

            return run_delete
        raise Unsupported(f"statement {kind}")

    def print_stmt(self, node):
        _, args, redirect = node
        redir = None
        if redirect is not None:
            redir = (redirect[0], self.expr(redirect[1]))
        g = self.g
        if not args:

            def run_print0():
                self.write(self.record + to_str(g["ORS"], g["CONVFMT"]), redir)

            return run_print0
        getters = [self.expr(a) for a in args]

        def run_print():
            ofmt = g["OFMT"]
            parts = []
            for get in getters:
                v = get()
                if type(v) is float:
                    parts.append(format_number(v, ofmt))
                else:
                    parts.append(to_str(v))
            convfmt = g["CONVFMT"]
            self.write(to_str(g["OFS"], convfmt).join(parts) + to_str(g["ORS"], convfmt), redir)

        return run_print

    def printf_stmt(self, node):
        _, args, redirect = node
        redir = None
        if redirect is not None:
            redir = (redirect[0], self.expr(redirect[1]))
        getters = [self.expr(a) for a in args]

        def run_printf():
            if not getters:
                raise AwkRuntimeError("printf: no arguments")
            values = [get() for get in getters]
            self.write(self.sprintf(values), redir)

        return run_printf

    # -- compilation: expressions ------------------------------------------------------
    def cond(self, node):
        e = self.expr(node)
        if node[0] == "regex":
            return lambda: bool(e())
        return lambda: to_bool(e())

    def expr(self, node):
        kind = node[0]
        g = self.g
        if kind == "num":
            value = node[1]
            return lambda: value
        if kind == "str":
            svalue = node[1]
            return lambda: svalue
        if kind == "regex":
            pattern = self.compile_regex(node[1])

            def match_record():
                return 1.0 if pattern.search(self.record) else 0.0

            return match_record
        if kind == "paren":
            return self.expr(node[1])
        if kind == "group":
            subsep_getters = [self.expr(n) for n in node[1]]

            def run_group():
                convfmt = g["CONVFMT"]
                return to_str(g["SUBSEP"], convfmt).join(to_str(x(), convfmt) for x in subsep_getters)

            return run_group
        if kind == "var":
            return self.variable(node[1])
        if kind == "field":
            index = self.expr(node[1])
            if node[1][0] == "num":
                constant = int(node[1][1])
                return lambda: self.get_field(constant)
            return lambda: self.get_field(int(to_num(index())))
        if kind == "index":
            array = self.array(node[1])
            key = self.subscript(node[2])

            def get_element():
                arr = array()
                k = key()
                value = arr.get(k)
                if value is None:
                    arr[k] = UNINIT
                    return UNINIT
                return value

            return get_element
        if kind == "assign":
            return self.assignment(node)
        if kind == "cond":
            c = self.cond(node[1])
            a = self.expr(node[2])
            b = self.expr(node[3])
            return lambda: a() if c() else b()
        if kind == "or":
            a = self.cond(node[1])
            b = self.cond(node[2])
            return lambda: 1.0 if (a() or b()) else 0.0
        if kind == "and":
            a = self.cond(node[1])
            b = self.cond(node[2])
            return lambda: 1.0 if (a() and b()) else 0.0
        if kind == "not":
            a = self.cond(node[1])
            return lambda: 0.0 if a() else 1.0
        if kind == "neg":
            a = self.expr(node[1])
            return lambda: -to_num(a())
        if kind == "pos":
            a = self.expr(node[1])
            return lambda: to_num(a())
        if kind == "in":
            array = self.array(node[2])
            key = self.subscript(node[1])
            return lambda: 1.0 if key() in array() else 0.0
        if kind == "match":
            negate = node[1]
            subject = self.expr(node[2])
            regex = self.regex_of(node[3])
            convfmt_key = "CONVFMT"

            def run_match():
                found = regex().search(to_str(subject(), g[convfmt_key])) is not None
                return 1.0 if found != negate else 0.0

            return run_match
        if kind == "cmp":
            return self.comparison(node)
        if kind == "concat":
            a = self.expr(node[1])
            b = self.expr(node[2])

            def run_concat():
                convfmt = g["CONVFMT"]
                left, right = to_str(a(), convfmt), to_str(b(), convfmt)
                check_size("awk: a string", len(left) + len(right))
                return left + right

            return run_concat
        if kind == "binop":
            return self.arithmetic(node)
        if kind in ("preinc", "postinc"):
            getter = self.expr(node[2])
            setter = self.assigner(node[2])
            delta = 1.0 if node[1] == "++" else -1.0
            if kind == "preinc":

                def run_pre():
                    value = to_num(getter()) + delta
                    setter(value)
                    return value

                return run_pre

            def run_post():
                old = to_num(getter())
                setter(old + delta)
                return old

            return run_post
        if kind == "call":
            return self.call(node[1], node[2], node[3])
        if kind == "builtin":
            return self.builtin(node[1], node[2])
        if kind == "getline":
            return self.getline(node)
        raise Unsupported(f"expression {kind}")

    def variable(self, name: str):
        if name in self.locals:
            slot = self.locals[name]
            return lambda: self.frame[slot]
        g = self.g
        if name == "NF":
            return self.get_nf
        if name in ("NR", "FNR"):
            return lambda: g[name]

        def get_global():
            value = g.get(name, UNINIT)
            if isinstance(value, dict):
                raise AwkRuntimeError(f"attempt to use array `{name}' in a scalar context")
            return value

        return get_global

    def array(self, name: str):
        if name in self.locals:
            slot = self.locals[name]

            def local_array():
                value = self.frame[slot]
                if isinstance(value, dict):
                    return value
                if value is UNINIT:
                    value = self.frame[slot] = {}
                    return value
                raise AwkRuntimeError(f"attempt to use scalar parameter `{name}' as an array")

            return local_array
        g = self.g

        def global_array():
            value = g.get(name)
            if isinstance(value, dict):
                return value
            if value is None or value is UNINIT:
                value = g[name] = {}
                return value
            raise AwkRuntimeError(f"attempt to use scalar `{name}' as an array")

        return global_array

    def subscript(self, nodes: list):
        g = self.g
        if len(nodes) == 1:
            e = self.expr(nodes[0])

            def one():
                v = e()
                if type(v) is float:
                    return format_number(v, g["CONVFMT"])
                return str(v) if type(v) is StrNum else to_str(v)

            return one
        parts = [self.expr(n) for n in nodes]

        def many():
            convfmt = g["CONVFMT"]
            return to_str(g["SUBSEP"], convfmt).join(
                format_number(v, convfmt) if type(v) is float else str(v) for v in (p() for p in parts)
            )

        return many

    def assigner(self, node):
        """A function storing a value into an lvalue node."""
        kind = node[0]
        g = self.g
        if kind == "var":
            name = node[1]
            if name in self.locals:
                slot = self.locals[name]

                def set_local(value):
                    self.frame[slot] = value

                return set_local
            if name == "NF":
                return self.set_nf

            def set_global(value):
                if isinstance(g.get(name), dict):
                    raise AwkRuntimeError(f"attempt to use array `{name}' in a scalar context")
                g[name] = value

            return set_global
        if kind == "field":
            index = self.expr(node[1])
            return lambda value: self.set_field(int(to_num(index())), value)
        if kind == "index":
            array = self.array(node[1])
            key = self.subscript(node[2])

            def set_element(value):
                array()[key()] = value

            return set_element
        raise Unsupported("assignment target")

    def assignment(self, node):
        _, op, target, value_node = node
        setter = self.assigner(target)
        value = self.expr(value_node)
        if op == "=":

            def run_assign():
                v = value()
                if isinstance(v, dict):
                    raise AwkRuntimeError("attempt to use array in a scalar context")
                setter(v)
                return v

            return run_assign
        getter = self.expr(target)
        fn = _ARITH[op[0]]

        def run_augmented():
            rhs = to_num(value())
            result = fn(to_num(getter()), rhs)
            setter(result)
            return result

        return run_augmented

    def comparison(self, node):
        _, op, left, right = node
        a = self.expr(left)
        b = self.expr(right)
        g = self.g
        test = _CMP[op]

        def run_cmp():
            x = a()
            y = b()
            if is_num(x) and is_num(y):
                return 1.0 if test(to_num(x), to_num(y)) else 0.0
            convfmt = g["CONVFMT"]
            return 1.0 if test(to_str(x, convfmt), to_str(y, convfmt)) else 0.0

        return run_cmp

    def arithmetic(self, node):
        _, op, left, right = node
        a = self.expr(left)
        b = self.expr(right)
        fn = _ARITH[op]
        if op == "+":
            return lambda: to_num(a()) + to_num(b())
        if op == "-":
            return lambda: to_num(a()) - to_num(b())
        if op == "*":
            return lambda: to_num(a()) * to_num(b())
        return lambda: fn(to_num(a()), to_num(b()))

    # -- printf ------------------------------------------------------------------------
    def sprintf(self, values: list) -> str:
        if not values:
            raise AwkRuntimeError("sprintf: no format")
        convfmt = self.g["CONVFMT"]
        fmt = to_str(values[0], convfmt)
        args = values[1:]
        pos = 0
        out: list[str] = []
        i, n = 0, len(fmt)

        def take():
            nonlocal pos
            if pos >= len(args):
                raise AwkRuntimeError(
                    "not enough arguments to satisfy format string\n"
                    f"\t`{fmt}'\n\t{' ' * (j + 1)}^ ran out for this one"
                )
            pos += 1
            return args[pos - 1]

        while i < n:
            j = fmt.find("%", i)
            if j < 0:
                out.append(fmt[i:])
                break
            out.append(fmt[i:j])
            if j + 1 < n and fmt[j + 1] == "%":
                out.append("%")
                i = j + 2
                continue
            parsed = parse_spec(fmt, j + 1)
            if parsed is None:
                out.append(fmt[j:])
                break
            flags, width_text, prec_text, _length, conv, after = parsed
            if conv not in "cdiouxXeEfFgGs%":
                out.append(fmt[j:after])
                i = after
                continue
            if conv == "%":
                out.append("%")
                i = after
                continue
            width = 0
            if width_text == "*":
                width = int(to_num(take()))
                if width < 0:
                    flags += "-"
                    width = -width
            elif width_text:
                width = int(width_text)
            prec = None
            if prec_text == ".*":
                prec = int(to_num(take()))
                if prec < 0:
                    prec = None
            elif prec_text:
                prec = int(prec_text[1:] or "0")
            value = take()
            if conv in "di":
                number = to_num(value)
                if math.isnan(number) or math.isinf(number):
                    out.append(format_str(format_number(number, "%.6g"), flags, width, None))
                else:
                    out.append(format_int(int(number), "d", flags, width, prec))
            elif conv in "ouxX":
                number = to_num(value)
                if math.isnan(number) or math.isinf(number):
                    out.append(format_str(format_number(number, "%.6g"), flags, width, None))
                else:
                    integer = int(number)
                    if integer < 0:
                        integer &= MASK64
                    out.append(format_int(integer, conv, flags, width, prec))
            elif conv in "eEfFgG":
                out.append(format_float(to_num(value), conv, flags, width, prec))
            elif conv == "c":
                if is_num(value):
                    code = int(to_num(value))
                    char = chr(code % 256) if code < 256 else _utf8_char(code)
                else:
                    char = to_str(value, convfmt)[:1] or "\0"
                out.append(format_str(char, flags, width, None))
            else:
                out.append(format_str(to_str(value, convfmt), flags, width, prec))
            i = after
        return "".join(out)

    # -- builtins ----------------------------------------------------------------------
    def builtin(self, name: str, arg_nodes: list):
        g = self.g
        count = len(arg_nodes)
        if name in UNSUPPORTED_BUILTINS:
            raise Unsupported(f"function `{name}'")

        def arity(low: int, high: int) -> None:
            if not low <= count <= high:
                raise Unsupported(f"{name}: wrong number of arguments ({count})")

        if name == "length":
            arity(0, 1)
            if count == 0:
                return lambda: float(len(self.record))
            node = arg_nodes[0]
            if node[0] == "var":
                getter = self._array_or_value(node[1], False)

                def run_length():
                    v = getter()
                    if isinstance(v, dict):
                        return float(len(v))
                    return float(len(to_str(v, g["CONVFMT"])))

                return run_length
            e = self.expr(node)
            return lambda: float(len(to_str(e(), g["CONVFMT"])))
        if name == "substr":
            arity(2, 3)
            s = self.expr(arg_nodes[0])
            m = self.expr(arg_nodes[1])
            ln = self.expr(arg_nodes[2]) if count == 3 else None

            def run_substr():
                value = to_str(s(), g["CONVFMT"])
                start = _trunc(to_num(m()))
                if start < 1:
                    start = 1
                if ln is None:
                    return value[start - 1 :]
                length = _trunc(to_num(ln()))
                if length <= 0:
                    return ""
                return value[start - 1 : start - 1 + length]

            return run_substr
        if name == "index":
            arity(2, 2)
            s = self.expr(arg_nodes[0])
            t = self.expr(arg_nodes[1])
            return lambda: float(to_str(s(), g["CONVFMT"]).find(to_str(t(), g["CONVFMT"])) + 1)
        if name == "split":
            arity(2, 3)
            s = self.expr(arg_nodes[0])
            array = self.array(arg_nodes[1][1]) if arg_nodes[1][0] == "var" else None
            if array is None:
                raise Unsupported("split: second argument is not an array")
            sep_node = arg_nodes[2] if count == 3 else None
            sep_regex = None
            sep_value = None
            if sep_node is not None and sep_node[0] == "regex":
                sep_regex = self.compile_regex(sep_node[1])
            elif sep_node is not None:
                sep_value = self.expr(sep_node)

            def run_split():
                value = to_str(s(), g["CONVFMT"])
                arr = array()
                arr.clear()
                if sep_regex is not None:
                    parts = _regex_split(sep_regex, value) if value else []
                else:
                    fs = sep_value() if sep_value is not None else g["FS"]
                    fs_text = to_str(fs, g["CONVFMT"])
                    if fs_text == " ":
                        parts = _WS_FIELDS.findall(value)
                    elif value == "":
                        parts = []
                    elif len(fs_text) == 1 and fs_text != "\\":
                        parts = value.split(fs_text)
                    elif fs_text == "":
                        parts = list(value)
                    else:
                        parts = _regex_split(self.compile_regex(fs_text), value)
                arr.update(zip(map(str, range(1, len(parts) + 1)), map(strnum, parts)))
                return float(len(parts))

            return run_split
        if name in ("sub", "gsub"):
            arity(2, 3)
            regex = self.regex_of(arg_nodes[0])
            repl = self.expr(arg_nodes[1])
            target_node = arg_nodes[2] if count == 3 else ("field", ("num", 0.0))
            if target_node[0] not in ("var", "index", "field"):
                getter = self.expr(target_node)
                setter = None
            else:
                getter = self.expr(target_node)
                setter = self.assigner(target_node)
            global_ = name == "gsub"

            def run_sub():
                pattern = regex()
                subject = to_str(getter(), g["CONVFMT"])
                replacement = _awk_replacement(to_str(repl(), g["CONVFMT"]))
                pieces = []
                pos = n = 0
                for m in posix_matches(pattern, subject):
                    pieces.append(subject[pos : m.start()])
                    pieces.append(replacement(m))
                    pos = m.end()
                    n += 1
                    if not global_:
                        break
                pieces.append(subject[pos:])
                check_size("awk: a substitution", sum(map(len, pieces)))
                result = "".join(pieces)
                if n and setter is not None:
                    setter(result)
                return float(n)

            return run_sub
        if name == "gensub":
            arity(3, 4)
            regex = self.regex_of(arg_nodes[0])
            repl = self.expr(arg_nodes[1])
            how = self.expr(arg_nodes[2])
            target = self.expr(arg_nodes[3]) if count == 4 else (lambda: self.get_field(0))

            def run_gensub():
                pattern = regex()
                subject = to_str(target(), g["CONVFMT"])
                how_value = how()
                how_text = to_str(how_value, g["CONVFMT"])
                replacement = _gensub_replacement(to_str(repl(), g["CONVFMT"]))
                if how_text[:1] in ("g", "G"):
                    pieces = []
                    pos = 0
                    for m in posix_matches(pattern, subject):
                        pieces.append(subject[pos : m.start()])
                        pieces.append(replacement(m))
                        pos = m.end()
                    pieces.append(subject[pos:])
                    return "".join(pieces)
                nth = int(to_num(how_value)) if is_num(how_value) or how_text[:1].isdigit() else 1
                nth = max(nth, 1)
                for seen, m in enumerate(posix_matches(pattern, subject), 1):
                    if seen == nth:
                        return subject[: m.start()] + replacement(m) + subject[m.end() :]
                return subject

            return run_gensub
        if name == "match":
            arity(2, 3)
            s = self.expr(arg_nodes[0])
            regex = self.regex_of(arg_nodes[1])
            array = self.array(arg_nodes[2][1]) if count == 3 else None

            def run_match():
                m = posix_search(regex(), to_str(s(), g["CONVFMT"]))
                if array is not None:
                    arr = array()
                    arr.clear()
                if m is None:
                    g["RSTART"] = 0.0
                    g["RLENGTH"] = -1.0
                    return 0.0
                g["RSTART"] = float(m.start() + 1)
                g["RLENGTH"] = float(m.end() - m.start())
                if array is not None:
                    for k in range(0, (m.re.groups or 0) + 1):
                        if m.group(k) is not None:
                            arr[str(k)] = strnum(m.group(k))
                            arr[f"{k}\x1cstart"] = float(m.start(k) + 1)
                            arr[f"{k}\x1clength"] = float(m.end(k) - m.start(k))
                return g["RSTART"]

            return run_match
        if name == "sprintf":
            if count == 0:
                raise Unsupported("sprintf: no arguments")
            getters = [self.expr(a) for a in arg_nodes]
            return lambda: self.sprintf([x() for x in getters])
        if name in ("tolower", "toupper"):
            arity(1, 1)
            e = self.expr(arg_nodes[0])
            fn = lower if name == "tolower" else upper
            return lambda: fn(to_str(e(), g["CONVFMT"]))
        if name in _MATH1:
            arity(1, 1)
            e = self.expr(arg_nodes[0])
            math_fn = _MATH1[name]
            return lambda: math_fn(to_num(e()))
        if name == "atan2":
            arity(2, 2)
            y = self.expr(arg_nodes[0])
            x = self.expr(arg_nodes[1])
            return lambda: math.atan2(to_num(y()), to_num(x()))
        if name == "rand":
            arity(0, 0)
            return self.rand
        if name == "srand":
            arity(0, 1)
            e = self.expr(arg_nodes[0]) if count else None

            def run_srand():
                previous = self.seed
                seed = to_num(e()) if e is not None else float(self.ctx.machine.clock.unix_seconds())
                self.seed = float(int(seed)) if not math.isnan(seed) else 0.0
                self.rng = int(self.seed) & MASK64
                return previous

            return run_srand
        if name == "systime":
            arity(0, 0)
            return lambda: float(self.ctx.machine.clock.unix_seconds())
        if name == "system":
            arity(1, 1)
            e = self.expr(arg_nodes[0])

            def run_system():
                command = to_str(e(), g["CONVFMT"])
                self.flush()
                for name_ in list(self.files):
                    self._flush_file(name_)
                status, out, err = self.ctx.run_script(command, [], b"")
                self.ctx.stdout += out
                self.ctx.stderr += err
                return float(status)

            return run_system
        if name == "close":
            arity(1, 2)
            e = self.expr(arg_nodes[0])
            return lambda: self.close_stream(to_str(e(), g["CONVFMT"]))
        if name == "fflush":
            arity(0, 1)
            return lambda: 0.0
        raise Unsupported(f"function `{name}'")

    def rand(self) -> float:
        self.rng = (self.rng + 0x9E3779B97F4A7C15) & MASK64
        z = self.rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        return (z >> 11) / float(1 << 53)

    # -- getline -----------------------------------------------------------------------
    def getline(self, node):
        _, source_kind, target, source = node
        setter = self.assigner(target) if target is not None else None
        g = self.g
        if source_kind == "main":

            def run_main():
                if self.input is None:
                    self.input = self.records()
                try:
                    record = next(self.input)
                except StopIteration:
                    return 0.0
                if setter is None:
                    self.set_record(record)
                else:
                    setter(strnum(record))
                return 1.0

            return run_main
        source_value = self.expr(source)

        def run_file():
            name = to_str(source_value(), g["CONVFMT"])
            if source_kind == "cmd":
                state = self.cmd_inputs.get(name)
                if state is None:
                    self.flush()
                    status, out, err = self.ctx.run_script(name, [], b"")
                    self.ctx.stderr += err
                    state = self.cmd_inputs[name] = [self.split_records(text(out)), 0, status]
            else:
                state = self.read_files.get(name)
                if state is None:
                    try:
                        if name in ("-", "/dev/stdin"):
                            data = self.ctx.stdin
                        else:
                            data = self.ctx.fs.read(name, self.ctx.cwd)
                    except FsError:
                        return -1.0
                    state = self.read_files[name] = [self.split_records(text(data)), 0]
            records = state[0]
            if state[1] >= len(records):
                return 0.0
            record = records[state[1]]
            state[1] += 1
            if setter is None:
                self.set_record(record)
            else:
                setter(strnum(record))
            if source_kind == "cmd":
                g["NR"] = to_num(g["NR"]) + 1.0
            return 1.0

        return run_file

    # -- running -----------------------------------------------------------------------
    def run(self) -> int:
        prog = self.program
        begin = self.block(prog.begin) if prog.begin else None
        end = self.block(prog.end) if prog.end else None
        rules = []
        for index, (pattern, pattern2, body) in enumerate(prog.rules):
            test = self.cond(pattern) if pattern is not None else None
            test2 = self.cond(pattern2) if pattern2 is not None else None
            action = self.block(body) if body is not None else self.print_stmt(("print", [], None))
            rules.append((index, test, test2, action))
        status = None
        try:
            if begin is not None:
                try:
                    begin()
                except (Next, NextFile) as exc:
                    word = "next" if isinstance(exc, Next) else "nextfile"
                    raise AwkRuntimeError(f"`{word}' cannot be called from a `BEGIN' rule") from None
            if rules or end is not None:
                self.main_loop(rules)
        except ExitProgram as exc:
            status = exc.status
        self.in_main = False
        if end is not None:
            try:
                end()
            except ExitProgram as exc:
                if exc.status is not None:
                    status = exc.status
            except (Next, NextFile) as exc:
                word = "next" if isinstance(exc, Next) else "nextfile"
                raise AwkRuntimeError(f"`{word}' cannot be called from an `END' rule") from None
        self.finish()
        return status if status is not None else self.exit_status

    def main_loop(self, rules) -> None:
        if self.input is None:
            self.input = self.records()
        self.in_main = True
        active = self.range_active
        g = self.g
        for record in self.input:
            self.record = record
            self.record_value = None
            self.fields = None
            self.record_fs = g["FS"]
            try:
                for index, test, test2, action in rules:
                    if test2 is not None:
                        if active.get(index):
                            if test2():
                                active[index] = False
                        elif test is not None and test():
                            active[index] = not test2()
                        else:
                            continue
                    elif test is not None and not test():
                        continue
                    action()
            except Next:
                continue
            except NextFile:
                self.skip_file = True


def _trunc(value: float) -> int:
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return 1 << 62 if value > 0 else -(1 << 62)
    return int(value)


def _utf8_char(code: int) -> str:
    try:
        return chr(code).encode("utf-8").decode("latin-1")
    except (ValueError, UnicodeEncodeError):
        return chr(code % 256)


def _regex_split(regex: re.Pattern[str], value: str) -> list[str]:
    parts = []
    pos = 0
    for m in regex.finditer(value):
        if m.end() == m.start():
            continue
        parts.append(value[pos : m.start()])
        pos = m.end()
    parts.append(value[pos:])
    return parts


def _awk_replacement(repl: str):
    """sub/gsub replacement text as a function of the match (``&``, ``\\&``, ``\\\\``)."""
    if "&" not in repl and "\\" not in repl:
        return lambda m: repl
    parts: list = []
    buf: list[str] = []
    i = 0
    while i < len(repl):
        ch = repl[i]
        if ch == "\\" and i + 1 < len(repl) and repl[i + 1] in "&\\":
            buf.append(repl[i + 1])
            i += 2
            continue
        if ch == "&":
            parts.append("".join(buf))
            buf = []
            parts.append(None)
        else:
            buf.append(ch)
        i += 1
    parts.append("".join(buf))
    return lambda m: "".join(m.group(0) if p is None else p for p in parts)


def _gensub_replacement(repl: str):
    parts: list = []
    buf: list[str] = []
    i = 0
    while i < len(repl):
        ch = repl[i]
        if ch == "\\" and i + 1 < len(repl):
            nxt = repl[i + 1]
            if nxt.isdigit():
                parts.append("".join(buf))
                buf = []
                parts.append(int(nxt))
            elif nxt == "&":
                buf.append("&")
            else:
                buf.append(nxt if nxt == "\\" else "\\" + nxt)
            i += 2
            continue
        if ch == "&":
            parts.append("".join(buf))
            buf = []
            parts.append(0)
        else:
            buf.append(ch)
        i += 1
    parts.append("".join(buf))
    return lambda m: "".join(
        p if isinstance(p, str) else (m.group(p) if p <= (m.re.groups or 0) and m.group(p) is not None else "")
        for p in parts
    )


def _divide(a: float, b: float) -> float:
    if b == 0.0:
        raise AwkRuntimeError("division by zero attempted")
    return a / b


def _modulo(a: float, b: float) -> float:
    if b == 0.0:
        raise AwkRuntimeError("division by zero attempted in `%'")
    return math.fmod(a, b)


def _power(a: float, b: float) -> float:
    try:
        result = a**b
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf
    if isinstance(result, complex):
        return -math.nan
    return float(result)


_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _divide,
    "%": _modulo,
    "^": _power,
}

_CMP = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _safe(fn):
    def run(x: float) -> float:
        try:
            return fn(x)
        except (ValueError, OverflowError):
            if fn is math.exp:
                return math.inf
            if fn is math.log and x == 0:
                return -math.inf
            return -math.nan

    return run


_MATH1 = {
    "int": lambda x: float(_trunc(x)) if not (math.isnan(x) or math.isinf(x)) else x,
    "sqrt": _safe(math.sqrt),
    "exp": _safe(math.exp),
    "log": _safe(math.log),
    "sin": _safe(math.sin),
    "cos": _safe(math.cos),
}

_BUILTIN_NAMES = {"length", "substr", "index", "split", "sub", "gsub", "match", "sprintf"}


def _walk(node):
    if isinstance(node, tuple):
        yield node
        for child in node:
            yield from _walk(child)
    elif isinstance(node, list):
        for child in node:
            yield from _walk(child)


def _array_uses(body, params: list[str]) -> set[int]:
    """Indexes of the parameters a function body uses as arrays."""
    index = {p: i for i, p in enumerate(params)}
    used: set[int] = set()
    for node in _walk(body):
        if not node:
            continue
        kind = node[0]
        name = None
        if kind in ("index", "delete") or kind == "in":
            name = node[1] if kind != "in" else node[2]
        elif kind == "forin":
            name = node[2]
        elif kind == "builtin" and node[1] in ("split", "match") and len(node[2]) >= 2:
            arg = node[2][1] if node[1] == "split" else (node[2][2] if len(node[2]) > 2 else None)
            if arg is not None and arg[0] == "var":
                name = arg[1]
        if isinstance(name, str) and name in index:
            used.add(index[name])
    return used


def _calls(body, params: list[str]) -> list[tuple[str, int, int]]:
    """(callee, argument index, caller parameter index) for each bare parameter passed on."""
    index = {p: i for i, p in enumerate(params)}
    found = []
    for node in _walk(body):
        if node and node[0] == "call":
            for k, arg in enumerate(node[2]):
                if isinstance(arg, tuple) and arg[0] == "var" and arg[1] in index:
                    found.append((node[1], k, index[arg[1]]))
    return found
