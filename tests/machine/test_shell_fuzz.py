"""Random command lines never crash the shell, never hang, and always return a result."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shell_fixture import fixture_machine, fork_machine

from cwgym.machine.context import CommandResult

TEMPLATE = fixture_machine().freeze()

METACHARS = list("|&;<>()$`\\\"' \t\n*?[]#~=%{}!:-+/^,.@0123456789")
TOKENS = [
    "echo",
    "cat",
    "printf",
    "cd",
    "test",
    "[",
    "]",
    "[[",
    "]]",
    "if",
    "then",
    "else",
    "elif",
    "fi",
    "for",
    "in",
    "do",
    "done",
    "while",
    "until",
    "case",
    "esac",
    ";;",
    "function",
    "{",
    "}",
    "$(",
    "$((",
    "))",
    "${",
    "${#",
    ":-",
    ":=",
    "##",
    "%%",
    "//",
    "<<EOF",
    "<<-X",
    "<<<",
    "2>&1",
    ">&2",
    "&>",
    ">>",
    "notes.txt",
    "data/*",
    "x=1",
    "$x",
    "$@",
    '"$@"',
    "$?",
    "local",
    "return",
    "break",
    "continue",
    "exit",
    "eval",
    "source",
    "read",
    "set -e",
    "f()",
    "f",
    "true",
    "false",
    "!",
    "&&",
    "||",
    "shift",
    "export",
    "unset",
    "type",
]

fragment = st.one_of(
    st.sampled_from(METACHARS),
    st.sampled_from(TOKENS).map(lambda t: t + " "),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=4),
)
command_line = st.lists(fragment, max_size=40).map("".join)


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command_line)
def test_random_lines_always_return_a_result(line: str) -> None:
    machine = fork_machine(TEMPLATE)
    result = machine.execute(line)
    assert isinstance(result, CommandResult)
    assert isinstance(result.exit_code, int)
    assert 0 <= result.exit_code <= 255
    assert isinstance(result.stdout, str) and isinstance(result.stderr, str)
    assert "bash: internal error" not in result.stderr, (line, result.stderr)
    again = machine.execute("echo still-alive")
    assert again.stdout == "still-alive\n"
