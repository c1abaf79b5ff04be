"""The interpreter: runs syntax trees against a machine's shell state.

A :class:`Shell` is one running shell: the machine, its :class:`ShellState` (cwd,
variables, functions, ``$?``, umask), positional parameters, ``set`` options and local
variable frames. Subshells, pipeline stages and command substitutions run in a
:meth:`Shell.fork`, a copy whose changes are dropped. Commands come from the registry
(``cwgym.machine.commands``) and get a :class:`ShellContext`; builtins that change the
shell itself live in :mod:`.builtins`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager

from cwgym.machine import commands as registry
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import DIR, FsError, join
from cwgym.machine.processes import KeepsRunning
from cwgym.machine.shell import arith, ast, pattern
from cwgym.machine.shell.chars import is_digits
from cwgym.machine.shell.errors import (
    ExitShell,
    ExpansionError,
    LimitExceeded,
    LoopControl,
    ReturnSignal,
    ShellSyntaxError,
)
from cwgym.machine.shell.expand import Expander
from cwgym.machine.shell.parser import parse_function, parse_program
from cwgym.machine.shell.state import ShellState
from cwgym.machine.shell.streams import IO, Budget, BufferSink, FileSink, NullSink, Sink, Source
from cwgym.machine.view import MachineView

MAX_VALUE = 16 * 1024 * 1024
SHELL_NAMES = frozenset(["sh", "bash", "dash"])
#: Builtins a command like ``xargs`` or ``find -exec`` may run (they exist as programs).
EXTERNAL_BUILTINS = frozenset(["test", "[", "true", "false"])
#: Builtins by name, filled in by :mod:`.builtins` when it is imported.
BUILTINS: dict = {}
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)")
_SAFE = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")


class ShellContext(CommandContext):
    """A CommandContext that notices whether the command read its stdin."""

    __slots__ = ("_stdin", "stdin_read")

    def __init__(self, *args, **kwargs) -> None:
        self.stdin_read = False
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def stdin(self) -> bytes:
        self.stdin_read = True
        return self._stdin

    @stdin.setter
    def stdin(self, value: bytes) -> None:
        self._stdin = value


class RedirectError(Exception):
    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def shell_quote(word: str) -> str:
    """``word`` as bash's ``set -x`` and ``export -p`` quote it."""
    if word and _SAFE.fullmatch(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def copy_state(state: ShellState) -> ShellState:
    return ShellState(
        state.cwd,
        dict(state.vars),
        set(state.exported),
        dict(state.functions),
        state.last_status,
        state.umask,
    )


class Shell:
    """One running shell (or subshell) on a machine."""

    def __init__(
        self,
        machine: MachineView,
        state: ShellState,
        budget: Budget,
        *,
        pid: int,
        positional: list[str] | None = None,
        arg0: str = "bash",
    ) -> None:
        self.machine = machine
        self.state = state
        self.budget = budget
        self.pid = pid
        self.positional: list[str] = positional or []
        self.arg0 = arg0
        self.options: dict[str, bool] = {}
        self.frames: list[dict[str, tuple[str | None, bool]]] = []
        self.func_depth = 0
        self.funcnames: list[str] = []
        self.loop_depth = 0
        self.source_depth = 0
        self.condition = 0
        self.errexit_exempt = False
        self.last_bg: int | None = None
        self.getopts_index = 0  # where getopts stopped inside a bundle like -abc
        self.getopts_offset = 1
        self.cmdsub_status: int | None = None
        self.io: IO = IO({})
        self.expander = Expander(self)

    # -- state ---------------------------------------------------------------------------
    @property
    def cwd(self) -> str:
        return self.state.cwd

    def fork(self) -> Shell:
        """A subshell: a copy of everything, whose changes never reach this shell."""
        self.budget.tick(10)
        child = Shell(self.machine, copy_state(self.state), self.budget, pid=self.pid)
        child.positional = list(self.positional)
        child.arg0 = self.arg0
        child.options = dict(self.options)
        child.frames = [{} for _ in self.frames]
        child.func_depth = self.func_depth
        child.funcnames = list(self.funcnames)
        child.source_depth = self.source_depth
        child.loop_depth = self.loop_depth
        child.last_bg = self.last_bg
        child.io = self.io
        return child

    @contextmanager
    def activated(self) -> Iterator[None]:
        """Make this shell's state the machine's while it runs (umask, cwd for commands)."""
        previous = self.machine.shell
        self.machine.shell = self.state
        try:
            yield
        finally:
            self.machine.shell = previous

    def get_var(self, name: str) -> str | None:
        value = self.state.vars.get(name)
        if value is not None:
            return value
        if (len(name) == 1 and not name.isalnum()) or is_digits(name):
            return self._special(name)
        if name == "RANDOM":
            return self._random()
        if name in ("UID", "EUID"):
            return str(self.machine.cred.uid)
        if name == "PPID":
            return "1"
        if name == "BASHPID":
            return str(self.pid)
        if name == "HOSTNAME":
            return self.machine.hostname
        if name == "FUNCNAME":
            return self.funcnames[-1] if self.funcnames else None
        return None

    def _special(self, name: str) -> str | None:
        if name == "?":
            return str(self.state.last_status)
        if name == "#":
            return str(len(self.positional))
        if name == "$":
            return str(self.pid)
        if name == "!":
            return None if self.last_bg is None else str(self.last_bg)
        if name == "-":
            letters = {
                "allexport": "a",
                "errexit": "e",
                "noglob": "f",
                "nounset": "u",
                "xtrace": "x",
                "noclobber": "C",
            }
            flags = "".join(
                letters[k] for k in ("allexport", "errexit", "noglob") if self.options.get(k)
            )
            flags += "h"
            flags += "".join(letters[k] for k in ("nounset", "xtrace") if self.options.get(k))
            flags += "B" + ("C" if self.options.get("noclobber") else "")
            return flags + "c"
        if name == "0":
            return self.arg0
        if is_digits(name):
            index = int(name)
            return self.positional[index - 1] if 0 < index <= len(self.positional) else None
        if name in ("@", "*"):
            return " ".join(self.positional)
        return None

    def _random(self) -> str:
        """``$RANDOM`` drawn from the machine's state, never the host: same world, same numbers."""
        self.budget.random_count += 1
        material = f"{self.machine.id}\0{self.machine.clock.now_us}\0{self.pid}\0{self.budget.random_count}"
        digest = hashlib.sha256(material.encode()).digest()
        return str(int.from_bytes(digest[:2], "big") & 0x7FFF)

    def set_var(self, name: str, value: str) -> None:
        if len(value) > MAX_VALUE:
            raise LimitExceeded(f"{name}: variable value too large (over 16 MiB); command aborted")
        if name == "RANDOM":
            return
        self.state.vars[name] = value
        if self.options.get("allexport"):
            self.state.exported.add(name)

    def unset_var(self, name: str) -> None:
        self.state.vars.pop(name, None)
        self.state.exported.discard(name)

    def environment(self, extra: list[tuple[str, str]] = ()) -> dict[str, str]:  # type: ignore[assignment]
        variables = self.state.vars
        env = {k: variables[k] for k in sorted(self.state.exported) if k in variables}
        if not extra:
            return env  # already in name order
        for name, value in extra:
            env[name] = value
        return dict(sorted(env.items()))

    def arith_vars(self) -> arith.Variables:
        return arith.Variables(self.get_var, self.set_var)

    # -- running programs ----------------------------------------------------------------
    def run_text(self, text: str, io: IO) -> int:
        """Parse and run ``text`` in this shell (a line, a script, ``eval``, ``source``)."""
        program = parse_program(text)
        status = 0
        for node, warnings in program.commands:
            for warning in warnings:
                io.err(warning + "\n")
            status = self.run(node, io)
        if program.error is not None:
            io.err(program.error.message + "\n")
            status = 2
            self.state.last_status = status
        return status

    def run_guarded(self, text: str | None, io: IO, node=None) -> int:
        """Run a program or node as a whole shell: ``exit`` and fatal errors stop here."""
        try:
            if node is not None:
                return self.run(node, io)
            return self.run_text(text or "", io)
        except ExitShell as exc:
            return exc.status
        except ExpansionError as exc:
            io.err(exc.message + "\n")
            return exc.status
        except ReturnSignal as exc:
            return exc.status
        except LoopControl:
            return 0

    def run(self, node, io: IO) -> int:
        previous = self.io
        self.io = io
        try:
            return _DISPATCH[type(node)](self, node, io)
        finally:
            self.io = previous

    # -- lists and pipelines -------------------------------------------------------------
    def run_list(self, node: ast.ListNode, io: IO) -> int:
        status = 0
        for item, background in zip(node.items, node.background):
            if background:
                status = self.run_background(item, io)
                self.state.last_status = status
                continue
            self.errexit_exempt = False
            status = self.run(item, io)
            self.state.last_status = status
            if (
                status
                and self.options.get("errexit")
                and not self.condition
                and not self.errexit_exempt
            ):
                raise ExitShell(status)
        return status

    def run_and_or(self, node: ast.AndOr, io: IO) -> int:
        self.condition += 1
        try:
            status = self.run(node.items[0], io)
        finally:
            self.condition -= 1
        self.state.last_status = status
        last_ran = False
        count = len(node.items)
        for index in range(1, count):
            op = node.ops[index - 1]
            if (op == "&&") != (status == 0):
                continue
            final = index == count - 1
            if not final:
                self.condition += 1
            try:
                status = self.run(node.items[index], io)
            finally:
                if not final:
                    self.condition -= 1
            self.state.last_status = status
            last_ran = final
        self.errexit_exempt = not last_ran or self.errexit_exempt
        return status

    def run_pipeline(self, node: ast.Pipeline, io: IO) -> int:
        commands = node.commands
        if len(commands) == 1:
            if node.negate:
                self.condition += 1
            try:
                status = self.run(commands[0], io)
            finally:
                if node.negate:
                    self.condition -= 1
        else:
            statuses: list[int] = []
            source = io.fds.get(0)
            for index, command in enumerate(commands):
                stage_io = io.copy()
                stage_io.fds[0] = source if source is not None else Source(b"")
                sink = None
                if index < len(commands) - 1:
                    sink = BufferSink(self.budget)
                    stage_io.fds[1] = sink
                child = self.fork()
                with child.activated():
                    statuses.append(child.run_guarded(None, stage_io, command))
                if sink is not None:
                    source = Source(bytes(sink.data))
            status = statuses[-1]
            if self.options.get("pipefail"):
                status = next((s for s in reversed(statuses) if s), 0)
        if node.negate:
            self.errexit_exempt = True
            return 0 if status else 1
        return status

    def run_background(self, node, io: IO) -> int:
        """``cmd &``: ``sleep`` becomes a process that ends later on the clock; anything
        else runs now, in a subshell, as a job the process table marks, and is reported as
        a finished background job, unless a command in it keeps running as the job's
        process (a server: :class:`~cwgym.machine.processes.KeepsRunning`), which then stays."""
        if isinstance(node, ast.Simple) and node.words and not node.assigns and not node.redirects:
            try:
                argv = self.expander.words(node.words)
            except ExpansionError as exc:
                io.err(exc.message + "\n")
                return 0
            duration = _sleep_duration(argv)
            if duration is not None:
                now = self.machine.clock.now_us
                proc = self.machine.spawn(" ".join(argv), until_us=now + duration)
                self.last_bg = proc.pid
                return 0
        proc = self.machine.spawn(_describe(node))
        self.last_bg = proc.pid
        child = self.fork()
        with child.activated(), self.machine.procs.job(proc.pid):
            try:
                child.run_guarded(None, io, node)
            except KeepsRunning:
                return 0
        self.machine.procs.finish(proc.pid)
        return 0

    # -- simple commands -----------------------------------------------------------------
    def expansion_failed(self, exc: ExpansionError, io: IO) -> int:
        io.err(exc.message + "\n")
        if exc.fatal:
            raise ExitShell(exc.status)
        return exc.status

    def run_simple(self, node: ast.Simple, io: IO) -> int:
        self.budget.tick()  # every simple command is a step, so a loop body's size counts too
        self.cmdsub_status = None
        try:
            argv = self.expander.words(node.words)
        except ExpansionError as exc:
            return self.expansion_failed(exc, io)
        if not argv:
            try:
                for assign in node.assigns:
                    self.assign(assign)
            except ExpansionError as exc:
                return self.expansion_failed(exc, io)
            status = self.cmdsub_status or 0
            if self.options.get("xtrace") and node.assigns:
                self.trace(
                    [f"{a.name}={self.state.vars.get(a.name, '')}" for a in node.assigns], io
                )
            if node.redirects:
                try:
                    self.redirect(node.redirects, io)
                except RedirectError as exc:
                    io.err(exc.message + "\n")
                    return 1
                except ExpansionError as exc:
                    return self.expansion_failed(exc, io)
            return status
        try:
            cmd_io = self.redirect(node.redirects, io) if node.redirects else io
        except RedirectError as exc:
            io.err(exc.message + "\n")
            return 1
        except ExpansionError as exc:
            return self.expansion_failed(exc, io)
        try:
            prefix = [(a.name, self.assign_value(a)) for a in node.assigns]
        except ExpansionError as exc:
            return self.expansion_failed(exc, io)
        if self.options.get("xtrace"):
            self.trace([f"{n}={v}" for n, v in prefix] + argv, io)
        return self.invoke(argv, cmd_io, prefix)

    def trace(self, words: list[str], io: IO) -> None:
        io.err("+ " + " ".join(shell_quote(w) for w in words) + "\n")

    def assign_value(self, assign: ast.Assign) -> str:
        value = self.expander.string(assign.value)
        if assign.append:
            value = (self.get_var(assign.name) or "") + value
        return value

    def assign(self, assign: ast.Assign) -> None:
        self.set_var(assign.name, self.assign_value(assign))

    def invoke(
        self,
        argv: list[str],
        io: IO,
        prefix: list[tuple[str, str]] = (),  # type: ignore[assignment]
        *,
        functions: bool = True,
        external_only: bool = False,
    ) -> int:
        """Run ``argv``: a path, a function, a builtin, a registry command or a script on PATH."""
        name = argv[0]
        if "/" in name:
            return self.run_file(name, argv, io, prefix)
        if functions and not external_only and name in self.state.functions:
            if not prefix:
                return self.call_function(name, argv, io)
            with self.temporary(prefix):
                return self.call_function(name, argv, io)
        builtin = BUILTINS.get(name)
        if builtin is not None and (not external_only or name in EXTERNAL_BUILTINS):
            if not prefix:
                return builtin(self, argv, io)
            with self.temporary(prefix):
                return builtin(self, argv, io)
        fn = registry.lookup(name, self.machine.packages)
        if fn is not None:
            if name == "printf" and len(argv) > 2 and argv[1] == "-v":
                return self.printf_to_variable(fn, argv, io, prefix)
            return self.run_command(fn, argv, io, self.environment(prefix))
        found = self.find_in_path(name)
        if found is not None:
            return self.run_file(found, argv, io, prefix, shown=name)
        io.err(f"{name}: command not found\n")
        return 127

    def printf_to_variable(self, fn, argv: list[str], io: IO, prefix) -> int:
        """``printf -v NAME ...``: the registry's printf, its output assigned to NAME."""
        name = argv[2]
        if not _valid_identifier(name):
            io.err(f"printf: `{name}': not a valid identifier\n")
            return 2
        sink = BufferSink(self.budget)
        capture = io.copy()
        capture.fds[1] = sink
        status = self.run_command(fn, ["printf", *argv[3:]], capture, self.environment(prefix))
        self.set_var(name, sink.data.decode("utf-8", "surrogateescape"))
        return status

    @contextmanager
    def temporary(self, prefix: list[tuple[str, str]]) -> Iterator[None]:
        """Prefix assignments of a builtin or function: exported while it runs, then undone."""
        if not prefix:
            yield
            return
        saved = [(n, self.state.vars.get(n), n in self.state.exported) for n, _ in prefix]
        for name, value in prefix:
            self.set_var(name, value)
            self.state.exported.add(name)
        try:
            yield
        finally:
            for name, value, exported in reversed(saved):
                if value is None:
                    self.state.vars.pop(name, None)
                else:
                    self.state.vars[name] = value
                if exported:
                    self.state.exported.add(name)
                else:
                    self.state.exported.discard(name)

    def run_command(self, fn, argv: list[str], io: IO, env: dict[str, str]) -> int:
        source = io.stdin()
        ctx = ShellContext(
            self.machine,
            list(argv),
            source.rest() if source is not None else b"",
            self.cwd,
            env,
            self.context_run,
            self.context_run_script(env),
        )
        name = argv[0]
        try:
            status = fn(ctx)
        except Exit as exc:
            status = exc.status
        except KeepsRunning:  # what it wrote before it settled is shown; its job stops here
            io.write(1, bytes(ctx.stdout))
            io.write(2, bytes(ctx.stderr))
            raise
        except (LimitExceeded, ExitShell):
            raise
        except RecursionError:
            raise LimitExceeded("maximum nesting level exceeded; command aborted") from None
        except Exception as exc:
            ctx.stderr += f"{name}: internal error: {type(exc).__name__}\n".encode()
            status = 1
        if ctx.stdin_read and source is not None:
            source.consume_all()
        io.write(1, bytes(ctx.stdout))
        io.write(2, bytes(ctx.stderr))
        status = _status(status)
        if name == "clear" and status == 0:
            self.budget.cleared = True
        return status

    def context_run(self, argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
        """``ctx.run``: run ``argv`` as a command (no functions or shell-only builtins)."""
        if not argv:
            return 0, b"", b""
        out = BufferSink(self.budget)
        err = BufferSink(self.budget)
        io = IO({0: Source(stdin), 1: out, 2: err})
        child = self.fork()
        with child.activated():
            try:
                status = child.invoke(list(argv), io, external_only=True)
            except ExitShell as exc:
                status = exc.status
        return status, bytes(out.data), bytes(err.data)

    def context_run_script(self, env: dict[str, str]):
        def run(script: str, argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
            return run_child_script(
                self.machine, self.budget, script, argv, stdin, cwd=self.cwd, env=env
            )

        return run

    # -- functions -----------------------------------------------------------------------
    def call_function(self, name: str, argv: list[str], io: IO) -> int:
        if self.func_depth >= Budget.MAX_FUNCTION_DEPTH:
            raise LimitExceeded(
                f"{name}: maximum function nesting level exceeded ({Budget.MAX_FUNCTION_DEPTH})"
            )
        self.budget.tick()
        try:
            definition = parse_function(self.state.functions[name])
        except ShellSyntaxError as exc:
            io.err(f"{name}: {exc.message}\n")
            return 2
        saved_positional = self.positional
        saved_loops = self.loop_depth
        self.positional = list(argv[1:])
        self.loop_depth = 0
        self.frames.append({})
        self.func_depth += 1
        self.funcnames.append(name)
        self.nest()
        try:
            try:
                return self.run(definition.body, io)
            except ReturnSignal as exc:
                return exc.status
        finally:
            self.budget.nesting -= 1
            self.func_depth -= 1
            self.funcnames.pop()
            frame = self.frames.pop()
            for var, (value, exported) in frame.items():
                if value is None:
                    self.state.vars.pop(var, None)
                else:
                    self.state.vars[var] = value
                if exported:
                    self.state.exported.add(var)
                else:
                    self.state.exported.discard(var)
            self.positional = saved_positional
            self.loop_depth = saved_loops

    def nest(self) -> None:
        self.budget.nesting += 1
        if self.budget.nesting > Budget.MAX_NESTING:
            self.budget.nesting -= 1
            raise LimitExceeded("maximum nesting level exceeded; command aborted")

    def declare_local(self, name: str) -> None:
        frame = self.frames[-1]
        if name not in frame:
            frame[name] = (self.state.vars.get(name), name in self.state.exported)

    def run_funcdef(self, node: ast.FuncDef, io: IO) -> int:
        self.state.functions[node.name] = node.source
        return 0

    # -- files and scripts -----------------------------------------------------------------
    def find_in_path(self, name: str) -> str | None:
        fs = self.machine.user_fs()
        for folder in (self.get_var("PATH") or "").split(":"):
            self.budget.tick()  # a directory searched is a lookup's worth of work
            folder = folder or "."
            candidate = join(folder, name)
            try:
                inode = fs.lookup(candidate, self.cwd)
            except FsError:
                continue
            if inode.kind != DIR and fs.may_execute(inode):
                return candidate
        return None

    def run_file(self, path: str, argv: list[str], io: IO, prefix, shown: str | None = None) -> int:
        """Run an executable file: a shell script in a child shell, or via its ``#!`` program."""
        shown = shown or path
        fs = self.machine.user_fs()
        try:
            inode = fs.lookup(path, self.cwd)
        except FsError as exc:
            folder, _, base = path.rpartition("/")
            fn = registry.lookup(base, self.machine.packages) if folder in ("/bin", "/usr/bin") else None
            if exc.code == "ENOENT" and fn is not None:
                # Registry commands are the machine's /bin and /usr/bin programs (which says so).
                return self.run_command(fn, [path, *argv[1:]], io, self.environment(prefix))
            io.err(f"{shown}: {exc.strerror_text}\n")
            return 127 if exc.code == "ENOENT" else 126
        if inode.kind == DIR:
            io.err(f"{shown}: Is a directory\n")
            return 126
        if not fs.may_execute(inode):
            io.err(f"{shown}: Permission denied\n")
            return 126
        try:
            data = fs.read(path, self.cwd)
        except FsError as exc:
            io.err(f"{shown}: {exc.strerror_text}\n")
            return 126
        if b"\0" in data[:1024]:
            io.err(f"{shown}: cannot execute binary file\n")
            return 126
        text = data.decode("utf-8", "surrogateescape")
        env = self.environment(prefix)
        if text.startswith("#!"):
            line = text[2:].split("\n", 1)[0].strip()
            words = line.split()
            if not words:
                io.err(f"{shown}: : bad interpreter: No such file or directory\n")
                return 126
            program = words[0].rsplit("/", 1)[-1]
            extra = words[1:]
            if program == "env" and extra:
                program, extra = extra[0], extra[1:]
            if program not in SHELL_NAMES:
                fn = registry.lookup(program, self.machine.packages)
                if fn is None:
                    io.err(f"{shown}: {words[0]}: bad interpreter: No such file or directory\n")
                    return 126
                return self.run_command(fn, [program, *extra, path, *argv[1:]], io, env)
        return self.run_script_in_child(text, [path, *argv[1:]], io, env)

    def run_script_in_child(self, text: str, argv: list[str], io: IO, env: dict[str, str]) -> int:
        state = ShellState(self.cwd, dict(env), set(env), {}, 0, self.state.umask)
        child = Shell(
            self.machine, state, self.budget, pid=self.pid, positional=list(argv[1:]), arg0=argv[0]
        )
        child.nest()
        try:
            with child.activated():
                return child.run_guarded(text, io)
        finally:
            self.budget.nesting -= 1

    # -- command substitution ------------------------------------------------------------
    def command_substitution(self, part: ast.CmdSub) -> str:
        sink = BufferSink(self.budget)
        io = self.io.copy()
        io.fds[1] = sink
        if 0 not in io.fds:
            io.fds[0] = Source(b"")
        child = self.fork()
        child.nest()
        try:
            with child.activated():
                status = child.run_guarded(None, io, part.body)
        finally:
            self.budget.nesting -= 1
        self.cmdsub_status = status
        self.state.last_status = status
        return sink.data.decode("utf-8", "surrogateescape").replace("\0", "").rstrip("\n")

    # -- redirections --------------------------------------------------------------------
    def redirect(self, redirects: list[ast.Redirect], io: IO) -> IO:
        """Apply redirections left to right to a copy of ``io``."""
        new = io.copy()
        fs = self.machine.user_fs()
        for r in redirects:
            op = r.op
            if op in ("<<", "<<-"):
                doc = r.heredoc
                assert doc is not None
                body = doc.body if doc.quoted else self.expander.heredoc(doc.body)
                new.fds[0 if r.fd is None else r.fd] = Source(
                    body.encode("utf-8", "surrogateescape")
                )
                continue
            assert r.target is not None
            if op == "<<<":
                text = self.expander.string(r.target) + "\n"
                new.fds[0 if r.fd is None else r.fd] = Source(
                    text.encode("utf-8", "surrogateescape")
                )
                continue
            if op in (">&", "<&"):
                target = self.expander.string(r.target)
                fd = r.fd if r.fd is not None else (1 if op == ">&" else 0)
                if target == "-":
                    new.fds.pop(fd, None)
                    continue
                if is_digits(target):
                    source_fd = int(target)
                    if source_fd not in new.fds:
                        raise RedirectError(f"{target}: Bad file descriptor")
                    new.fds[fd] = new.fds[source_fd]
                    continue
                if op == "<&" or r.fd is not None:
                    raise RedirectError(f"{target}: ambiguous redirect")
                op = "&>"
            path = self._redirect_target(r.target)
            special = self._special_file(path, new)
            if op == "<" or op == "<>":
                fd = 0 if r.fd is None else r.fd
                if special is not None:
                    new.fds[fd] = special
                    continue
                try:
                    if op == "<>" and not fs.exists(path, self.cwd):
                        fs.write(path, self.cwd, b"")
                    new.fds[fd] = Source(fs.read(path, self.cwd))
                except FsError as exc:
                    raise RedirectError(f"{path}: {exc.strerror_text}") from None
                continue
            if special is not None:
                sink = special
            else:
                append = op in (">>", "&>>")
                try:
                    if (
                        op in (">", "&>")
                        and self.options.get("noclobber")
                        and fs.exists(path, self.cwd)
                    ):
                        inode = fs.lookup(path, self.cwd)
                        if inode.kind not in ("null",):
                            raise RedirectError(f"{path}: cannot overwrite existing file")
                    fs.write(path, self.cwd, b"", append=append)
                except FsError as exc:
                    raise RedirectError(f"{path}: {exc.strerror_text}") from None
                sink = FileSink(self.machine, join(self.cwd, path), self.budget)
            if op in ("&>", "&>>"):
                new.fds[1] = sink
                new.fds[2] = sink
            else:
                new.fds[1 if r.fd is None else r.fd] = sink
        return new

    def _redirect_target(self, word: ast.Word) -> str:
        fields = self.expander.word(word)
        if len(fields) != 1:
            raise RedirectError(f"{word.raw}: ambiguous redirect")
        if fields[0] == "":
            raise RedirectError(": No such file or directory")
        return fields[0]

    def _special_file(self, path: str, io: IO):
        names = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
        fd = names.get(path)
        if fd is None and path.startswith("/dev/fd/") and is_digits(path[8:]):
            fd = int(path[8:])
        if fd is None:
            return None
        target = io.fds.get(fd)
        if target is None:
            raise RedirectError(f"{path}: No such file or directory")
        return target

    # -- compound commands ---------------------------------------------------------------
    def _with_redirects(self, node, io: IO) -> IO | None:
        if not node.redirects:
            return io
        try:
            return self.redirect(node.redirects, io)
        except RedirectError as exc:
            io.err(exc.message + "\n")
            return None
        except ExpansionError as exc:
            self.expansion_failed(exc, io)
            return None

    def run_group(self, node: ast.Group, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        return self.run(node.body, inner)

    def run_subshell(self, node: ast.Subshell, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        child = self.fork()
        child.nest()
        try:
            with child.activated():
                return child.run_guarded(None, inner, node.body)
        finally:
            self.budget.nesting -= 1

    def run_condition(self, node, io: IO) -> int:
        self.condition += 1
        try:
            return self.run(node, io)
        finally:
            self.condition -= 1

    def run_if(self, node: ast.If, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        for cond, body in node.arms:
            if self.run_condition(cond, inner) == 0:
                return self.run(body, inner)
        if node.orelse is not None:
            return self.run(node.orelse, inner)
        return 0

    def _loop_body(self, body, io: IO) -> tuple[int, str | None]:
        """Run a loop body; returns its status and 'break'/'continue' if one ended it."""
        try:
            return self.run(body, io), None
        except LoopControl as exc:
            if exc.levels > 1:
                raise LoopControl(exc.kind, exc.levels - 1) from None
            return 0, exc.kind

    def run_while(self, node: ast.While, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        status = 0
        self.loop_depth += 1
        try:
            while True:
                self.budget.tick()
                try:
                    cond = self.run_condition(node.cond, inner)
                except LoopControl as exc:
                    if exc.levels > 1:
                        raise LoopControl(exc.kind, exc.levels - 1) from None
                    if exc.kind == "break":
                        break
                    continue
                if (cond == 0) == node.until:
                    break
                status, control = self._loop_body(node.body, inner)
                if control == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    def run_for(self, node: ast.For, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        if node.words is None:
            values = list(self.positional)
        else:
            try:
                values = self.expander.words(node.words)
            except ExpansionError as exc:
                return self.expansion_failed(exc, io)
        status = 0
        self.loop_depth += 1
        try:
            for value in values:
                self.budget.tick()
                self.set_var(node.var, value)
                status, control = self._loop_body(node.body, inner)
                if control == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    def _arith(self, text: str, io: IO, label: str) -> int | None:
        try:
            return self.expander.arithmetic(text)
        except ExpansionError as exc:
            io.err(f"{label}: {exc.message}\n" if label else exc.message + "\n")
            return None

    def run_arith_for(self, node: ast.ArithFor, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        if node.init.strip() and self._arith(node.init, io, "((") is None:
            return 1
        status = 0
        self.loop_depth += 1
        try:
            while True:
                self.budget.tick()
                if node.cond.strip():
                    value = self._arith(node.cond, io, "((")
                    if value is None:
                        return 1
                    if value == 0:
                        break
                status, control = self._loop_body(node.body, inner)
                if control == "break":
                    break
                if node.step.strip() and self._arith(node.step, io, "((") is None:
                    return 1
        finally:
            self.loop_depth -= 1
        return status

    def run_case(self, node: ast.Case, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        try:
            subject = self.expander.string(node.word)
        except ExpansionError as exc:
            return self.expansion_failed(exc, io)
        status = 0
        falling = False
        for item in node.items:
            matched = falling
            if not matched:
                for pat_word in item.patterns:
                    try:
                        pat = self.expander.pattern(pat_word)
                    except ExpansionError as exc:
                        return self.expansion_failed(exc, io)
                    if pattern.match(pat, subject):
                        matched = True
                        break
            if not matched:
                continue
            status = self.run(item.body, inner) if item.body is not None else 0
            if item.terminator == ";&":
                falling = True
                continue
            falling = False
            if item.terminator == ";;&":
                continue
            break
        return status

    def run_arith_cmd(self, node: ast.ArithCmd, io: IO) -> int:
        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        if self.options.get("xtrace"):
            inner.err(f"+ (({node.expr}))\n")
        value = self._arith(node.expr, io, "((")
        if value is None:
            return 1
        return 0 if value else 1

    def run_cond(self, node: ast.Cond, io: IO) -> int:
        from cwgym.machine.shell.testcmd import TestError, eval_cond

        inner = self._with_redirects(node, io)
        if inner is None:
            return 1
        try:
            return 0 if eval_cond(self, node.expr) else 1
        except TestError as exc:
            if exc.message:
                io.err(f"[[: {exc.message}\n" if exc.prefix else exc.message + "\n")
            return exc.status
        except ExpansionError as exc:
            if exc.message.startswith(("arrays", "bad")) or exc.status != 1:
                return self.expansion_failed(exc, io)
            io.err(f"[[: {exc.message}\n")
            return 1


def _valid_identifier(name: str) -> bool:
    from cwgym.machine.shell.lexer import is_name

    return is_name(name)


def _status(value) -> int:
    if value is None:
        return 0
    try:
        return int(value) & 0xFF
    except (TypeError, ValueError):
        return 1


def _sleep_duration(argv: list[str]) -> int | None:
    if len(argv) < 2 or argv[0] != "sleep":
        return None
    total = 0.0
    for arg in argv[1:]:
        match = _DURATION.fullmatch(arg)
        if match is None:
            return None
        total += (
            float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
        )
    return round(total * 1_000_000)


def _describe(node) -> str:
    if isinstance(node, ast.Simple):
        return " ".join(w.raw for w in node.words) or "sh"
    return "sh"


def run_child_script(
    machine: MachineView,
    budget: Budget,
    script: str,
    argv: list[str],
    stdin: bytes,
    *,
    cwd: str,
    env: dict[str, str],
) -> tuple[int, bytes, bytes]:
    """Run ``script`` in a fresh child shell; returns (status, stdout, stderr)."""
    out = BufferSink(budget)
    err = BufferSink(budget)
    io = IO({0: Source(stdin), 1: out, 2: err})
    argv = list(argv) or ["sh"]
    env = dict(env)
    env.setdefault("PWD", cwd)
    state = ShellState(cwd, env, set(env), {}, 0, machine.shell.umask)
    shell = Shell(machine, state, budget, pid=budget.pid, positional=argv[1:], arg0=argv[0])
    shell.nest()
    try:
        with shell.activated():
            status = shell.run_guarded(script, io)
    finally:
        budget.nesting -= 1
    return status, bytes(out.data), bytes(err.data)


_DISPATCH = {
    ast.ListNode: Shell.run_list,
    ast.AndOr: Shell.run_and_or,
    ast.Pipeline: Shell.run_pipeline,
    ast.Simple: Shell.run_simple,
    ast.Group: Shell.run_group,
    ast.Subshell: Shell.run_subshell,
    ast.If: Shell.run_if,
    ast.While: Shell.run_while,
    ast.For: Shell.run_for,
    ast.ArithFor: Shell.run_arith_for,
    ast.Case: Shell.run_case,
    ast.ArithCmd: Shell.run_arith_cmd,
    ast.Cond: Shell.run_cond,
    ast.FuncDef: Shell.run_funcdef,
}

__all__ = ["IO", "Budget", "NullSink", "Shell", "Sink", "run_child_script"]
