"""The shell under hostile input: every line ends, with a message instead of a hang, a flood
or an internal error.

``hostile_lines.json`` holds one line per known way to make a naive shell spin or allocate
(ReDoS, glob backtracking, runaway loops, huge widths, deep nesting, binary bytes, 5 MB
lines), each with what it must print; a hypothesis property mixes the same ingredients at
random. The budgets that stop these lines count simulated work, so the results are the same
on any host; how long they take here is measured by ``python -m benchmarks limits``, never
asserted. A one-minute alarm only turns a hang into a failure instead of a stuck run.
"""

from __future__ import annotations

import json
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shell_fixture import fixture_machine, fork_machine

CASES = json.loads((Path(__file__).parent / "hostile_lines.json").read_text())
TEMPLATE = fixture_machine().freeze()
HANG_GUARD_S = 60


@contextmanager
def hang_guard():
    """Fail, rather than hang the run, if a line does not return at all."""

    def expired(*_):
        raise AssertionError(f"the line did not return within {HANG_GUARD_S} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(HANG_GUARD_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(line: str):
    machine = fork_machine(TEMPLATE)
    with hang_guard():
        result = machine.execute(line)
    return machine, result


@pytest.mark.parametrize("case", CASES, ids=[f"{c['class']}-{i}" for i, c in enumerate(CASES)])
def test_a_hostile_line_ends_with_its_answer(case):
    _, result = run(case["line"])
    assert "internal error" not in result.stderr
    if "stdout" in case:
        assert result.stdout == case["stdout"]
    if "stderr_has" in case:
        assert case["stderr_has"] in result.stderr
    if "status" in case:
        assert result.exit_code == case["status"]


def test_every_fuzz_class_has_cases():
    assert {c["class"] for c in CASES} == {"redos", "glob", "loop", "width", "nesting", "binary", "long"}


def test_a_stopped_line_leaves_the_shell_usable():
    machine, result = run("while :; do :; done")
    assert "step limit exceeded" in result.stderr
    assert machine.execute("echo still here").stdout == "still here\n"


# -- random mixtures of the same ingredients -----------------------------------------------

PATTERNS = ["(a+)+$", "(a|aa)*b", "a*a*a*a*b", "(.*)*x", "\\(a*\\)*\\1b", "[[:alpha:]]*!", "^$", "a{1,200}"]
GLOBS = ["*a*a*a*b", "*", "?*?*?*?", "[!a]*", "*[a-z]*[0-9]"]
SUBJECTS = ["a" * 60 + "!", "", "ab" * 500, "\\x00\\xff", "%0200000d"]


def _subject(raw: str) -> str:
    return f"printf '{raw}' 0" if raw.startswith("%") else f"printf '{raw}'"


lines = st.one_of(
    st.builds(lambda p, s, tool: f"{_subject(s)} | {tool} '{p}'", st.sampled_from(PATTERNS), st.sampled_from(SUBJECTS),
              st.sampled_from(["grep -cE", "grep -c", "grep -o", "sed -E s/x/y/;true", "awk -v p=1 /x/ &&"])),
    st.builds(lambda p, s: f"x=$({_subject(s)}); [[ $x =~ {p} ]]; echo $?", st.sampled_from(PATTERNS), st.sampled_from(SUBJECTS)),
    st.builds(lambda g, s: f"x=$({_subject(s)}); echo ${{#x}} ${{x#{g}}} ${{x//{g}/-}} | wc -c; case $x in {g}) ;; esac",
              st.sampled_from(GLOBS), st.sampled_from(SUBJECTS)),
    st.builds(lambda w, conv: f"printf '%{w}{conv}' 7 | wc -c", st.integers(0, 10**12), st.sampled_from("dsfxg")),
    st.builds(lambda n, body: f"{'(' * n}{body}{')' * n}", st.integers(0, 400), st.sampled_from([":", "echo $((1+1))", "false"])),
    st.builds(lambda n, m: f"for i in $(seq {n}); do for j in $(seq {m}); do :; done; done", st.integers(0, 10**6), st.integers(0, 10**6)),
    st.binary(max_size=64).map(lambda b: "printf '" + "".join(f"\\x{x:02x}" for x in b) + "' | sort | uniq -c | wc -l"),
    st.text(max_size=80),
)


@settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_random_hostile_lines_never_fail_inside(line):
    _, result = run(line)
    assert "internal error" not in result.stderr
    assert isinstance(result.exit_code, int) and 0 <= result.exit_code <= 255


@pytest.mark.slow
@settings(max_examples=2000, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_random_hostile_lines_never_fail_inside_long(line):
    _, result = run(line)
    assert "internal error" not in result.stderr
