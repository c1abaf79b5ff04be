"""``test``/``[`` and ``[[ ]]``: file, string and integer tests with bash's rules and wording.

``test`` follows POSIX's argument-count rules for up to four arguments and bash's
recursive grammar (``!``, ``( )``, ``-a``, ``-o``) beyond. ``[[ ]]`` is parsed by the
parser; here its operands are expanded without splitting, ``==`` matches a glob pattern,
``=~`` an extended regular expression, and ``-eq`` and friends take arithmetic.
"""

from __future__ import annotations

import re

from cwgym.machine.commands._engine import cached_regex
from cwgym.machine.filesystem import DIR, FILE, NULLDEV, SYMLINK, FsError
from cwgym.machine.shell import ast, pattern
from cwgym.machine.shell.view import ShellView

UNARY = frozenset(
    [
        "-a",
        "-b",
        "-c",
        "-d",
        "-e",
        "-f",
        "-g",
        "-h",
        "-k",
        "-p",
        "-r",
        "-s",
        "-t",
        "-u",
        "-w",
        "-x",
        "-G",
        "-L",
        "-N",
        "-O",
        "-S",
        "-z",
        "-n",
        "-v",
        "-o",
    ]
)
BINARY = frozenset(
    ["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]
)
INT_OPS = {"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}
_INT = re.compile(r"[ \t]*([+-]?[0-9]+)[ \t]*")


class TestError(Exception):
    def __init__(self, message: str, status: int = 2, *, prefix: bool = True) -> None:
        self.message = message
        self.status = status
        self.prefix = prefix
        super().__init__(message)


# -- shared primitives ------------------------------------------------------------------------


def file_test(shell: ShellView, op: str, path: str) -> bool:
    fs = shell.machine.user_fs()
    cwd = shell.cwd
    if path == "":
        return False
    try:
        if op in ("-h", "-L"):
            return fs.lookup(path, cwd, follow=False).kind == SYMLINK
        inode = fs.lookup(path, cwd)
    except FsError:
        return False
    cred = shell.machine.cred
    if op in ("-e", "-a"):
        return True
    if op == "-f":
        return inode.kind == FILE
    if op == "-d":
        return inode.kind == DIR
    if op == "-c":
        return inode.kind == NULLDEV
    if op in ("-b", "-p", "-S", "-t"):
        return False
    if op == "-s":
        return inode.size > 0 and inode.kind != NULLDEV
    if op == "-r":
        return cred.may(inode, 4)
    if op == "-w":
        return cred.may(inode, 2)
    if op == "-x":
        return cred.may(inode, 1)
    if op == "-u":
        return bool(inode.mode & 0o4000)
    if op == "-g":
        return bool(inode.mode & 0o2000)
    if op == "-k":
        return bool(inode.mode & 0o1000)
    if op == "-O":
        return inode.uid == cred.uid
    if op == "-G":
        return inode.gid == cred.gid
    if op == "-N":
        return inode.mtime > inode.atime
    return False  # pragma: no cover


def _stat(shell: ShellView, path: str):
    try:
        return shell.machine.user_fs().lookup(path, shell.cwd)
    except FsError:
        return None


def file_compare(shell: ShellView, op: str, left: str, right: str) -> bool:
    a = _stat(shell, left)
    b = _stat(shell, right)
    if op == "-ef":
        return a is not None and b is not None and a.ino == b.ino
    if op == "-nt":
        return a is not None and (b is None or a.mtime > b.mtime)
    return b is not None and (a is None or a.mtime < b.mtime)  # -ot


def parse_int(text: str) -> int | None:
    match = _INT.fullmatch(text)
    return int(match.group(1)) if match else None


def compare(op: str, a, b) -> bool:
    return {
        "==": a == b,
        "!=": a != b,
        "<": a < b,
        "<=": a <= b,
        ">": a > b,
        ">=": a >= b,
    }[op]


def _option_set(shell: ShellView, name: str) -> bool:
    return bool(shell.options.get(name))


def unary(shell: ShellView, op: str, operand: str) -> bool:
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-v":
        return shell.get_var(operand) is not None
    if op == "-o":
        return _option_set(shell, operand)
    return file_test(shell, op, operand)


# -- test / [ ------------------------------------------------------------------------------


class _TestParser:
    """The ``test`` grammar over an argument list."""

    def __init__(self, shell: ShellView, name: str, args: list[str]) -> None:
        self.shell = shell
        self.name = name
        self.args = args
        self.i = 0

    def error(self, message: str) -> TestError:
        return TestError(f"{self.name}: {message}", prefix=False)

    def integer(self, text: str) -> int:
        value = parse_int(text)
        if value is None:
            raise self.error(f"{text}: integer expression expected")
        return value

    def binary(self, left: str, op: str, right: str) -> bool:
        if op in ("=", "=="):
            return left == right
        if op == "!=":
            return left != right
        if op == "<":
            return left < right
        if op == ">":
            return left > right
        if op in INT_OPS:
            return compare(INT_OPS[op], self.integer(left), self.integer(right))
        if op in ("-nt", "-ot", "-ef"):
            return file_compare(self.shell, op, left, right)
        if op == "-a":
            return left != "" and right != ""
        if op == "-o":
            return left != "" or right != ""
        raise self.error(f"{op}: binary operator expected")

    def evaluate(self) -> bool:
        args = self.args
        n = len(args)
        if n == 0:
            return False
        if n == 1:
            return args[0] != ""
        if n == 2:
            if args[0] == "!":
                return args[1] == ""
            if args[0] in UNARY:
                return unary(self.shell, args[0], args[1])
            raise self.error(f"{args[0]}: unary operator expected")
        if n == 3:
            if args[1] in BINARY or args[1] in ("-a", "-o"):
                return self.binary(args[0], args[1], args[2])
            if args[0] == "!":
                return not _TestParser(self.shell, self.name, args[1:]).evaluate()
            if args[0] == "(" and args[2] == ")":
                return args[1] != ""
            raise self.error(f"{args[1]}: binary operator expected")
        if n == 4:
            if args[0] == "!":
                return not _TestParser(self.shell, self.name, args[1:]).evaluate()
            if args[0] == "(" and args[3] == ")":
                return _TestParser(self.shell, self.name, args[1:3]).evaluate()
        value = self.expr()
        if self.i < n:
            raise self.error("too many arguments")
        return value

    def peek(self) -> str | None:
        return self.args[self.i] if self.i < len(self.args) else None

    def expr(self) -> bool:
        value = self.and_()
        while self.peek() == "-o":
            self.i += 1
            right = self.and_()
            value = value or right
        return value

    def and_(self) -> bool:
        value = self.not_()
        while self.peek() == "-a":
            self.i += 1
            right = self.not_()
            value = value and right
        return value

    def not_(self) -> bool:
        if self.peek() == "!":
            self.i += 1
            return not self.not_()
        return self.primary()

    def primary(self) -> bool:
        args = self.args
        token = self.peek()
        if token is None:
            raise self.error("argument expected")
        if token == "(":
            self.i += 1
            value = self.expr()
            if self.peek() != ")":
                raise self.error("`)' expected")
            self.i += 1
            return value
        if self.i + 2 < len(args) + 0 and args[self.i + 1] in BINARY:
            left, op, right = args[self.i], args[self.i + 1], args[self.i + 2]
            self.i += 3
            return self.binary(left, op, right)
        if token in UNARY and self.i + 1 < len(args):
            self.i += 2
            return unary(self.shell, token, args[self.i - 1])
        self.i += 1
        return token != ""


def run_test(shell: ShellView, name: str, args: list[str]) -> int:
    """Status of ``test args`` / ``[ args ]`` (2 with a message on a malformed line)."""
    if name == "[":
        if not args or args[-1] != "]":
            raise TestError("[: missing `]'", prefix=False)
        args = args[:-1]
    return 0 if _TestParser(shell, name, args).evaluate() else 1


# -- [[ ]] --------------------------------------------------------------------------------


def _regex_text(shell: ShellView, word: ast.Word) -> str:
    out: list[str] = []
    for part in word.parts:
        if isinstance(part, ast.Lit):
            out.append(part.text)
        elif isinstance(part, ast.Quoted | ast.DQ):
            out.append(re.escape(shell.expander.string(ast.Word([part]))))
        else:
            out.append(shell.expander.string(ast.Word([part])))
    return "".join(out)


def _translate_ere(regex: str) -> str:
    """POSIX bracket classes to Python's; everything else in ERE reads the same."""
    for name, chars in pattern.CLASSES.items():
        regex = regex.replace(f"[:{name}:]", chars)
    return regex


def eval_cond(shell: ShellView, node) -> bool:
    if isinstance(node, ast.CondAnd):
        return eval_cond(shell, node.left) and eval_cond(shell, node.right)
    if isinstance(node, ast.CondOr):
        return eval_cond(shell, node.left) or eval_cond(shell, node.right)
    if isinstance(node, ast.CondNot):
        return not eval_cond(shell, node.expr)
    expander = shell.expander
    if isinstance(node, ast.CondWord):
        return expander.string(node.word) != ""
    if isinstance(node, ast.CondUnary):
        return unary(shell, node.op, expander.string(node.operand))
    assert isinstance(node, ast.CondBinary)
    op = node.op
    left = expander.string(node.left)
    if op in ("==", "=", "!="):
        matched = pattern.match(expander.pattern(node.right), left)
        return matched if op != "!=" else not matched
    if op == "=~":
        text = _translate_ere(_regex_text(shell, node.right))
        try:
            found = cached_regex(text).search(left)
        except re.error:
            raise TestError("", 2, prefix=False) from None
        if found is None:
            shell.state.vars.pop("BASH_REMATCH", None)
            return False
        shell.set_var("BASH_REMATCH", found.group(0))
        return True
    right = expander.string(node.right)
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    if op in INT_OPS:
        a = expander.arithmetic(left)
        b = expander.arithmetic(right)
        return compare(INT_OPS[op], a, b)
    return file_compare(shell, op, left, right)
