"""Focused checks of the shell language that golden cases cannot express: state that
persists across lines, isolation of subshells, limits, and the shell's own interfaces."""

from __future__ import annotations

import pytest
from shell_fixture import fixture_machine, fork_machine

from cwgym.machine.context import CommandResult
from cwgym.machine.shell import execute, run_script
from cwgym.machine.shell.parser import parse_program

TEMPLATE = fixture_machine().freeze()


@pytest.fixture
def machine():
    return fork_machine(TEMPLATE)


def run(machine, line: str) -> CommandResult:
    return machine.execute(line)


# -- state across lines ---------------------------------------------------------------------


def test_cwd_variables_and_functions_persist(machine):
    run(machine, "cd data; X=1; export Y=2; greet() { echo hello $1; }")
    assert machine.shell.cwd == "/home/ada/data"
    assert run(machine, "echo $PWD $X $Y").stdout == "/home/ada/data 1 2\n"
    assert run(machine, "greet ada").stdout == "hello ada\n"
    assert "greet" in machine.shell.functions
    assert "Y" in machine.shell.exported and "X" not in machine.shell.exported


def test_last_status_persists(machine):
    run(machine, "false")
    assert machine.shell.last_status == 1
    assert run(machine, "echo $?").stdout == "1\n"


def test_functions_survive_freeze_and_thaw(machine):
    run(machine, "twice() { echo $1$1; }")
    clone = fork_machine(machine.freeze())
    assert run(clone, "twice ab").stdout == "abab\n"


def test_oldpwd_and_cd_dash(machine):
    run(machine, "cd /tmp")
    result = run(machine, "cd -")
    assert result.stdout == "/home/ada\n"
    assert machine.shell.vars["OLDPWD"] == "/tmp"


# -- isolation --------------------------------------------------------------------------------


def test_subshell_changes_do_not_leak(machine):
    result = run(machine, "(cd /tmp; X=in; f() { :; }; umask 077); echo $PWD ${X-unset}; umask")
    assert result.stdout == "/home/ada unset\n0022\n"
    assert "f" not in machine.shell.functions
    assert machine.shell.umask == 0o022


def test_pipeline_stages_are_subshells(machine):
    assert run(machine, "echo x | read v; echo ${v-unset}").stdout == "unset\n"


def test_command_substitution_is_a_subshell(machine):
    assert (
        run(machine, "x=$(cd /tmp; Y=1; pwd); echo $x $PWD ${Y-unset}").stdout
        == "/tmp /home/ada unset\n"
    )


def test_umask_in_subshell_applies_to_files_made_there(machine):
    run(machine, "(umask 077; echo s > secret.txt); echo p > plain.txt")
    fs = machine.fs
    assert fs.stat_path("/home/ada/secret.txt").mode == 0o600
    assert fs.stat_path("/home/ada/plain.txt").mode == 0o644


# -- exit statuses and errors --------------------------------------------------------------


def test_exit_status_and_state_kept(machine):
    result = run(machine, "cd data; exit 7")
    assert result.exit_code == 7
    assert machine.shell.cwd == "/home/ada/data"
    assert machine.shell.last_status == 7


@pytest.mark.parametrize(
    "line",
    ["if then", "echo )", "case x in", "f() {", "$(", "echo ${", "for ((", "[[ a", "a=(1 2)", ")"],
)
def test_syntax_errors_exit_2(machine, line):
    result = run(machine, line)
    assert result.exit_code == 2
    assert result.stderr


def test_syntax_error_names_the_token(machine):
    assert run(machine, "if then").stderr == "syntax error near unexpected token `then'\n"


def test_commands_before_a_syntax_error_line_still_run(machine):
    result = run(machine, "echo first\nif then")
    assert result.stdout == "first\n" and result.exit_code == 2


def test_unknown_command(machine):
    result = run(machine, "frobnicate --now")
    assert (result.exit_code, result.stderr) == (127, "frobnicate: command not found\n")


def test_command_exception_becomes_status_1(machine, monkeypatch):
    from cwgym.machine import commands

    def broken(ctx):
        raise ValueError("boom")

    real = commands.lookup
    monkeypatch.setattr(commands, "lookup", lambda name, packages=None: broken if name == "broken" else real(name, packages))
    result = run(machine, "broken; echo after $?")
    assert result.stdout == "after 1\n"
    assert result.stderr == "broken: internal error: ValueError\n"


# -- limits -------------------------------------------------------------------------------------


def test_infinite_recursion_ends(machine):
    result = run(machine, "f() { f; }; f; echo never")
    assert result.exit_code == 1
    assert "maximum function nesting level exceeded" in result.stderr
    assert run(machine, "echo ok").stdout == "ok\n"


def test_recursion_through_command_substitution_ends(machine):
    result = run(machine, "g() { echo $(g); }; g")
    assert result.exit_code == 1 and "nesting" in result.stderr


def test_infinite_loop_ends(machine):
    result = run(machine, "while :; do :; done; echo never")
    assert result.exit_code == 1
    assert "step limit exceeded" in result.stderr
    assert result.stdout == ""


def test_growing_variable_ends(machine):
    result = run(machine, "x=ab; while :; do x=$x$x; done")
    assert result.exit_code == 1 and "too large" in result.stderr


def test_eval_recursion_ends(machine):
    result = run(machine, 'x=\'eval "$x"\'; eval "$x"')
    assert result.exit_code == 1 and "nesting" in result.stderr


def test_deep_but_finite_recursion_works(machine):
    result = run(
        machine, "f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else echo bottom; fi; }; f 300"
    )
    assert result.stdout == "bottom\n"


# -- processes, clear, pids -------------------------------------------------------------------


def test_line_is_a_process_that_finishes(machine):
    result = run(machine, "echo $$")
    assert result.stdout == f"{result.pid}\n"
    assert result.pid not in machine.procs.procs


def test_background_sleep_registers_a_process(machine):
    result = run(machine, "sleep 5 & echo started $!")
    pid = int(result.stdout.split()[1])
    proc = machine.procs.procs[pid]
    assert proc.until_us == 5_000_000 and proc.command == "sleep 5"
    machine.clock.advance(6_000_000)
    machine.procs.reap(machine.clock.now_us)
    assert pid not in machine.procs.procs


def test_clear_flag(machine):
    assert run(machine, "clear").clear is True
    assert run(machine, "echo x").clear is False


def test_random_is_deterministic(machine):
    other = fork_machine(TEMPLATE)
    first = run(machine, "echo $RANDOM $RANDOM").stdout
    assert first == run(other, "echo $RANDOM $RANDOM").stdout
    a, b = first.split()
    assert 0 <= int(a) < 32768 and a != b


# -- scripts ------------------------------------------------------------------------------------


def test_executable_script_runs_in_a_child_shell(machine):
    machine.fs.put_file(
        "/home/ada/s.sh", b'#!/bin/sh\necho "$0 $1 $#"\ncd /tmp\nX=1\n', 1000, 1000, 0o755
    )
    result = run(machine, "./s.sh a b; echo $PWD ${X-unset}")
    assert result.stdout == "./s.sh a 2\n/home/ada unset\n"


def test_script_without_execute_permission(machine):
    machine.fs.put_file("/home/ada/s.sh", b"echo hi\n", 1000, 1000, 0o644)
    result = run(machine, "./s.sh")
    assert (result.exit_code, result.stderr) == (126, "./s.sh: Permission denied\n")


def test_missing_script(machine):
    result = run(machine, "./nope.sh")
    assert (result.exit_code, result.stderr) == (127, "./nope.sh: No such file or directory\n")


def test_script_on_path(machine):
    machine.fs.makedirs("/home/ada/bin", 1000, 1000)
    machine.fs.put_file("/home/ada/bin/hello", b"echo hello from path\n", 1000, 1000, 0o755)
    assert run(machine, "PATH=$HOME/bin:$PATH; hello").stdout == "hello from path\n"


def test_cd_into_directory_without_search_permission(machine):
    machine.fs.makedirs("/home/ada/locked", 1000, 1000, 0o600)
    result = run(machine, "cd locked; echo $?")
    assert result.stdout == "1\n"
    assert result.stderr == "cd: locked: Permission denied\n"


def test_redirect_into_unwritable_file(machine):
    machine.fs.put_file("/home/ada/ro.txt", b"x\n", 1000, 1000, 0o444)
    result = run(machine, "echo y > ro.txt; echo $?")
    assert result.stdout == "1\n" and result.stderr == "ro.txt: Permission denied\n"


def test_run_script_api(machine):
    status, out, err = run_script(
        machine,
        'echo "$0:$1"; read x; echo "got $x"; exit 4',
        ["sh", "arg"],
        b"line\n",
        cwd="/home/ada",
        env={"HOME": "/home/ada"},
    )
    assert (status, out, err) == (4, b"sh:arg\ngot line\n", b"")
    assert machine.shell.cwd == "/home/ada"


def test_run_script_child_does_not_change_caller(machine):
    run_script(machine, "cd /tmp; Z=1", ["sh"], b"", cwd="/home/ada", env={})
    assert machine.shell.cwd == "/home/ada" and "Z" not in machine.shell.vars


def test_here_document_and_read_loop(machine):
    line = 'while read a b; do echo "$b $a"; done <<EOF\n1 one\n2 two\nEOF'
    assert run(machine, line).stdout == "one 1\ntwo 2\n"


def test_parse_cache_returns_same_tree():
    assert parse_program("echo hi") is parse_program("echo hi")


def test_execute_function_entry_point(machine):
    assert execute(machine, "echo via-module").stdout == "via-module\n"


def test_output_is_capped(machine):
    result = run(
        machine,
        "x=0123456789abcdef; x=$x$x$x$x; x=$x$x$x$x; x=$x$x$x$x; x=$x$x$x$x; "
        "x=$x$x$x$x; x=$x$x$x$x; x=$x$x$x$x; while :; do echo $x; done",
    )
    assert result.exit_code == 1
    assert "output limit" in result.stderr or "step limit" in result.stderr
    assert len(result.stdout) <= 16 * 1024 * 1024


def test_unicode_digits_are_ordinary_word_characters():
    """Found by the fuzz test: '፩' passes str.isdigit() but is no file descriptor to bash."""
    from shell_fixture import fixture_machine

    machine = fixture_machine()
    result = machine.execute("፩<<EOF \nEOF\necho done")
    assert result.stderr.startswith("፩: command not found")
    assert "internal error" not in result.stderr
    assert result.stdout.endswith("done\n")
