"""Every Python example in the README and docs/ runs, and prints what its comments say.

The examples of a page run top to bottom in one namespace. A ``print(...)`` statement
followed by a comment states its output:

    print(out["value"])     # {'words': 15}

The comment at the end of the statement's last line is the expected output, continued by
comment lines directly below aligned with it; when that line has none, the comment lines
directly below it are the output (one line of output each). ``...`` in
an expected output stands for any text. Explanations go on a comment line of their own
above the ``print``, so a comment after one is always output. A ``print`` to a ``file=``
is not checked; one that never runs is reported.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
CAPTURE = "__docs_capture__"


@dataclass
class Expectation:
    """A ``print`` statement of a page, the output its comment states and what it printed."""

    line: int
    expected: str
    printed: list[str] = field(default_factory=list)

    def matches(self) -> bool:
        pattern = ".*".join(re.escape(part) for part in self.expected.split("..."))
        return bool(self.printed) and re.fullmatch(pattern, "".join(self.printed).rstrip("\n"), re.S) is not None

    def problem(self, page: str) -> str:
        if not self.printed:
            return f"{page}:{self.line}: never printed; the comment says {self.expected!r}"
        return f"{page}:{self.line}: printed {''.join(self.printed).rstrip(chr(10))!r}; the comment says {self.expected!r}"


def _comments(source: str) -> dict[int, tuple[int, str]]:
    """Line number to the comment's column and text (without ``#`` and the spaces around it)."""
    return {
        token.start[0]: (token.start[1], token.string[1:].strip())
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }


def _is_checked_print(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "print"
        and not any(k.arg == "file" for k in node.value.keywords)
    )


def _expected(node: ast.stmt, lines: list[str], comments: dict[int, tuple[int, str]]) -> str | None:
    """The output the comments after this ``print`` state, or None.

    A comment at the end of the statement may go on in comment lines below aligned with it;
    without one, every comment line directly below is output.
    """
    trailing = comments.get(node.end_lineno)
    column = trailing[0] if trailing else None
    stated = [trailing[1]] if trailing else []
    number = node.end_lineno + 1
    while number <= len(lines) and lines[number - 1].lstrip().startswith("#"):
        if column is not None and comments[number][0] != column:
            break
        stated.append(comments[number][1])
        number += 1
    return "\n".join(stated) if stated else None


class _Instrument(ast.NodeTransformer):
    """Wraps each ``print`` with an expected output in ``with __docs_capture__(line):``."""

    def __init__(self, source: str, offset: int) -> None:
        self.lines = source.splitlines()
        self.comments = _comments(source)
        self.offset = offset
        self.expectations: dict[int, Expectation] = {}

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if not _is_checked_print(node):
            return node
        expected = _expected(node, self.lines, self.comments)
        if expected is None:
            return node
        line = node.lineno + self.offset
        self.expectations[line] = Expectation(line, expected)
        call = ast.Call(ast.Name(CAPTURE, ast.Load()), [ast.Constant(line)], [])
        return ast.copy_location(ast.With([ast.withitem(call)], [node]), node)


def run_page(text: str, filename: str) -> list[Expectation]:
    """Run every Python block of a page in one namespace; each checked print with what it printed."""
    expectations: dict[int, Expectation] = {}

    @contextlib.contextmanager
    def capture(line: int):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            yield
        expectations[line].printed.append(buffer.getvalue())

    namespace: dict = {"__name__": "__docs__", CAPTURE: capture}
    for match in BLOCK.finditer(text):
        source = match.group(1)
        offset = text.count("\n", 0, match.start(1))
        instrument = _Instrument(source, offset)
        tree = ast.fix_missing_locations(instrument.visit(ast.parse(source)))
        ast.increment_lineno(tree, offset)
        expectations.update(instrument.expectations)
        exec(compile(tree, filename, "exec"), namespace)
    return list(expectations.values())


@pytest.mark.parametrize("page", [p for p in PAGES if BLOCK.search(p.read_text())], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_examples_run_and_print_what_they_say(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    name = page.relative_to(ROOT).as_posix()
    problems = [e.problem(name) for e in run_page(page.read_text(), str(page)) if not e.matches()]
    assert not problems, "\n".join(problems)


def test_the_output_check_catches_a_wrong_comment_and_reads_every_form():
    two = "print('two\\nlines')   "
    page = (
        "```python\n"
        "x = {'words': 15}\n"
        "print(x)   # {'words': 16}\n"
        "print('a', 'b')\n"
        "# a b\n"
        "print('long text here')   # long ... here\n"
        f"{two}# two\n"
        f"{' ' * len(two)}# lines\n"
        "if False:\n"
        "    print('never')   # never\n"
        "print('not checked')\n"
        "\n"
        "# an explanation above a print\n"
        "print(1)   # 1\n"
        "print(2)   # 2\n"
        "# not aligned: not output\n"
        "```\n"
    )
    found = {e.line: e for e in run_page(page, "<page>")}
    assert {line: (e.expected, e.matches()) for line, e in found.items()} == {
        3: ("{'words': 16}", False),
        4: ("a b", True),
        6: ("long ... here", True),
        7: ("two\nlines", True),
        10: ("never", False),
        14: ("1", True),
        15: ("2", True),
    }
    assert found[3].problem("p.md") == "p.md:3: printed \"{'words': 15}\"; the comment says \"{'words': 16}\""
    assert found[10].problem("p.md").endswith("never printed; the comment says 'never'")


def test_the_docs_state_many_outputs():
    count = 0
    for page in PAGES:
        for match in BLOCK.finditer(page.read_text()):
            instrument = _Instrument(match.group(1), 0)
            instrument.visit(ast.parse(match.group(1)))
            count += len(instrument.expectations)
    assert count >= 80, f"only {count} prints state their output: is the convention still parsed?"


def test_shell_page_lists_every_registered_command():
    from cwgym.machine import commands

    page = (ROOT / "docs" / "shell.md").read_text()
    assert [name for name in commands.names() if f"`{name}`" not in page] == []
