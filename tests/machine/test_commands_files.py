"""Direct tests of the file and system commands: permissions, snapshots, the clock, and the
pure helpers (GNU quoting, sizes, dates, modes) the golden cases lean on."""

from __future__ import annotations

import time

import pytest
from shell_fixture import HOME, fixture_machine, fork_machine

from cwgym.kernel.clock import WORLD_EPOCH_S, Clock
from cwgym.machine.commands import lookup, names
from cwgym.machine.commands._fsutil import (
    filevercmp,
    glob_match,
    human,
    mode_adjust,
    mode_compile,
    perm_string,
    shell_quote,
)
from cwgym.machine.commands._timefmt import DateError, Tm, parse_date, parse_touch_stamp, strftime
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.machine import Machine

OTHER = 1001


@pytest.fixture(scope="module")
def template():
    return fixture_machine().freeze()


@pytest.fixture
def machine(template) -> Machine:
    return fork_machine(template)


def run(machine: Machine, *argv: str, stdin: bytes = b"", cwd: str = HOME) -> tuple[int, str, str]:
    """Run one registered command directly, without the shell's parser."""
    fn = lookup(argv[0])
    assert fn is not None, argv[0]

    def sub_run(args: list[str], data: bytes) -> tuple[int, bytes, bytes]:
        status, out, err = run(machine, *args, stdin=data, cwd=cwd)
        return status, out.encode(), err.encode()

    def sub_script(script: str, args: list[str], data: bytes) -> tuple[int, bytes, bytes]:
        from cwgym.machine.shell import run_script

        return run_script(machine, script, args, data, cwd=cwd, env=machine.shell.environment())

    ctx = CommandContext(
        machine, list(argv), stdin, cwd, machine.shell.environment(), sub_run, sub_script
    )
    try:
        status = fn(ctx)
    except Exit as exc:
        status = exc.status
    return status, bytes(ctx.stdout).decode(), bytes(ctx.stderr).decode()


def foreign_file(machine: Machine, path: str = f"{HOME}/theirs.txt", mode: int = 0o600) -> str:
    machine.fs.put_file(path, b"not yours\n", uid=OTHER, gid=OTHER, mode=mode)
    return path


# -- registry ----------------------------------------------------------------------------------


def test_every_command_of_the_brief_is_registered():
    wanted = {
        *("ls", "cat", "touch", "mkdir", "rmdir", "cp", "mv", "rm", "ln", "readlink", "realpath"),
        *("stat", "chmod", "chown", "chgrp", "find", "du", "df", "basename", "dirname", "md5sum"),
        *("sha1sum", "sha256sum", "base64", "cmp", "which", "pwd", "whoami", "hostname", "uname"),
        *("date", "env", "printenv", "sleep", "ps", "kill", "clear", "apps", "sudo", "nproc"),
        *("sh", "bash"),
    }
    missing = sorted(wanted - set(names()))
    assert missing == []


# -- permissions ---------------------------------------------------------------------------------


def test_reading_another_users_private_file_is_denied(machine):
    foreign_file(machine)
    assert run(machine, "cat", "theirs.txt") == (1, "", "cat: theirs.txt: Permission denied\n")
    status, _, err = run(machine, "cp", "theirs.txt", "mine.txt")
    assert status == 1
    assert err == "cp: cannot open 'theirs.txt' for reading: Permission denied\n"
    status, _, err = run(machine, "md5sum", "theirs.txt")
    assert (status, err) == (1, "md5sum: theirs.txt: Permission denied\n")


def test_changing_another_users_file_is_not_permitted(machine):
    foreign_file(machine, mode=0o644)
    assert run(machine, "chmod", "777", "theirs.txt") == (
        1,
        "",
        "chmod: changing permissions of 'theirs.txt': Operation not permitted\n",
    )
    assert run(machine, "chown", "ada", "theirs.txt")[2] == (
        "chown: changing ownership of 'theirs.txt': Operation not permitted\n"
    )
    assert run(machine, "touch", "theirs.txt") == (
        1,
        "",
        "touch: cannot touch 'theirs.txt': Permission denied\n",
    )
    # the file is untouched
    assert machine.fs.stat_path(f"{HOME}/theirs.txt").mode == 0o644


def test_giving_a_file_away_needs_root(machine):
    status, out, err = run(machine, "chown", "-v", "root", "notes.txt")
    assert status == 1
    assert out == "failed to change ownership of 'notes.txt' from ada to root\n"
    assert err == "chown: changing ownership of 'notes.txt': Operation not permitted\n"
    assert machine.fs.stat_path(f"{HOME}/notes.txt").uid == 1000


def test_unknown_owner_shows_as_a_number(machine):
    foreign_file(machine, mode=0o644)
    status, out, _ = run(machine, "ls", "-l", "theirs.txt")
    assert status == 0
    assert out == "-rw-r--r-- 1 1001 1001 10 Sep 17 09:00 theirs.txt\n"
    _, out, _ = run(machine, "stat", "-c", "%u %U %g %G", "theirs.txt")
    assert out == "1001 UNKNOWN 1001 UNKNOWN\n"


def test_sticky_tmp_protects_other_users_files(machine):
    foreign_file(machine, "/tmp/shared.txt", mode=0o666)
    assert run(machine, "rm", "/tmp/shared.txt") == (
        1,
        "",
        "rm: cannot remove '/tmp/shared.txt': Operation not permitted\n",
    )
    assert run(machine, "mv", "/tmp/shared.txt", "/tmp/moved.txt")[0] == 1
    assert machine.fs.exists("/tmp/shared.txt")


def test_system_files_are_read_only_for_the_user(machine):
    assert run(machine, "rm", "-f", "/etc/hostname") == (
        1,
        "",
        "rm: cannot remove '/etc/hostname': Permission denied\n",
    )
    assert (
        run(machine, "touch", "/etc/new")[2]
        == "touch: cannot touch '/etc/new': Permission denied\n"
    )
    assert run(machine, "mkdir", "/usr/bin/x")[2] == (
        "mkdir: cannot create directory '/usr/bin/x': Permission denied\n"
    )
    assert run(machine, "ls", "/root") == (
        2,
        "",
        "ls: cannot open directory '/root': Permission denied\n",
    )


def test_a_directory_without_search_permission(machine):
    run(machine, "chmod", "644", "src")
    status, out, err = run(machine, "ls", "src")
    assert (status, out, err) == (0, "README\nmain.py\nutil.py\n", "")
    status, out, err = run(machine, "ls", "-l", "src")
    assert status == 1
    assert out.splitlines()[0] == "total 0"
    assert out.splitlines()[1] == "-????????? ? ? ? ?            ? README"
    assert err.count("Permission denied") == 3
    assert run(machine, "cat", "src/main.py") == (1, "", "cat: src/main.py: Permission denied\n")
    status, out, err = run(machine, "find", "src")
    assert status == 0  # listing needs r, not x: the names are found
    assert out == "src\nsrc/README\nsrc/main.py\nsrc/util.py\n"


def test_an_unreadable_directory(machine):
    run(machine, "chmod", "300", "data")
    status, out, err = run(machine, "find", ".", "-name", "*.txt")
    assert status == 1
    assert "find: './data': Permission denied\n" in err
    assert out == "./notes.txt\n"
    status, _, err = run(machine, "du", "-s", "data")
    assert status == 1 and "cannot read directory 'data'" in err


def test_rm_never_prompts_without_i_and_reads_answers_with_i(machine):
    run(machine, "chmod", "444", "notes.txt")
    assert run(machine, "rm", "notes.txt") == (0, "", "")
    assert run(machine, "rm", "-i", "src/README", stdin=b"n\n") == (
        0,
        "",
        "rm: remove regular file 'src/README'? ",
    )
    assert machine.fs.exists(f"{HOME}/src/README")
    assert run(machine, "rm", "-i", "src/README", stdin=b"yes\n")[0] == 0
    assert not machine.fs.exists(f"{HOME}/src/README")


# -- snapshots -----------------------------------------------------------------------------------


def test_frozen_snapshot_is_isolated_from_later_commands(machine):
    frozen = machine.freeze()
    assert run(machine, "rm", "notes.txt")[0] == 0
    assert run(machine, "mv", "src", "code")[0] == 0
    assert run(machine, "chmod", "700", "data")[0] == 0
    assert run(machine, "touch", "new.txt")[0] == 0
    assert run(machine, "cp", "-r", "Documents", "Docs")[0] == 0
    copy = Machine.thaw(frozen, Clock())
    assert run(copy, "cat", "notes.txt") == (0, "Ask the handbook first\n", "")
    assert run(copy, "ls") == (0, "Documents\ndata\nnotes.txt\nsrc\n", "")
    assert run(copy, "stat", "-c", "%a", "data")[1] == "755\n"
    assert run(machine, "ls")[1] == "Docs\nDocuments\ncode\ndata\nnew.txt\n"


def test_commands_are_deterministic_across_forks(template):
    outputs = []
    for _ in range(2):
        m = fork_machine(template)
        run(m, "mkdir", "-p", "a/b")
        run(m, "cp", "-r", "src", "a/b")
        outputs.append(
            [
                run(m, *argv)
                for argv in (["ls", "-laR", "a"], ["find", "a", "-ls"], ["du", "-a", "a"], ["df"])
            ]
        )
    assert outputs[0] == outputs[1]


# -- the logical clock ---------------------------------------------------------------------------


def test_date_and_sleep_use_the_logical_clock(machine):
    assert run(machine, "date") == (0, "Thu Sep 17 09:00:00 UTC 2026\n", "")
    assert run(machine, "date", "+%s") == (0, f"{WORLD_EPOCH_S}\n", "")
    assert run(machine, "sleep", "1.5", "1m") == (0, "", "")
    assert machine.clock.now_us == 61_500_000
    assert run(machine, "date", "+%T.%3N") == (0, "09:01:01.500\n", "")
    run(machine, "touch", "later")
    assert run(machine, "stat", "-c", "%y", "later")[1] == "2026-09-17 09:01:01.500000000 +0000\n"


@pytest.mark.parametrize("interval", ["1e999999999", "99999999999999999d", "1e41", "6000000000000d"])
def test_sleep_refuses_an_interval_past_the_clock(machine, interval):
    status, out, err = run(machine, "sleep", interval)
    assert (status, out) == (2, "")
    assert err.startswith("sleep: interval too long") and "internal error" not in err
    assert machine.clock.now_us == 0


def test_sleep_rounds_a_tiny_exponent_to_nothing(machine):
    assert run(machine, "sleep", "1e-999999999") == (0, "", "")
    assert machine.clock.now_us == 0


def test_ls_recent_and_old_dates(machine):
    run(machine, "touch", "-d", "2025-01-02 03:04", "old")
    run(machine, "touch", "-d", "2026-09-01 10:11", "recent")
    _, out, _ = run(machine, "ls", "-l", "old", "recent")
    assert out.splitlines() == [
        "-rw-r--r-- 1 ada ada 0 Jan  2  2025 old",
        "-rw-r--r-- 1 ada ada 0 Sep  1 10:11 recent",
    ]


def test_find_ages_follow_the_clock(machine):
    machine.sleep(3 * 86400 * 1_000_000)
    assert run(machine, "find", ".", "-name", "notes.txt", "-mtime", "+1")[1] == "./notes.txt\n"
    assert run(machine, "find", ".", "-name", "notes.txt", "-mtime", "3")[1] == "./notes.txt\n"
    assert run(machine, "find", ".", "-name", "notes.txt", "-mmin", "-60")[1] == ""


def test_kill_ends_a_background_sleep(machine):
    machine.execute("sleep 100 &")
    listed = machine.procs.listing(machine.clock.now_us)
    pid = next(p.pid for p in listed if p.command == "sleep 100")
    assert f"{pid} pts/0    00:00:00 sleep" in run(machine, "ps")[1]
    assert run(machine, "kill", str(pid)) == (0, "", "")
    assert pid not in {p.pid for p in machine.procs.listing(machine.clock.now_us)}
    assert run(machine, "kill", str(pid)) == (1, "", f"kill: ({pid}) - No such process\n")


# -- programs ------------------------------------------------------------------------------------


def test_which_finds_programs_not_shell_builtins(machine):
    assert run(machine, "which", "ls", "find") == (0, "/usr/bin/ls\n/usr/bin/find\n", "")
    assert run(machine, "which", "cd") == (1, "", "")
    machine.fs.makedirs(f"{HOME}/bin", 1000, 1000)
    machine.fs.put_file(f"{HOME}/bin/tool", b"echo tool\n", uid=1000, gid=1000, mode=0o755)
    machine.shell.vars["PATH"] = f"{HOME}/bin:/usr/bin"
    assert run(machine, "which", "tool")[1] == f"{HOME}/bin/tool\n"


def test_sh_runs_scripts_through_the_shell(machine):
    assert run(machine, "sh", "-c", 'echo "$0:$1:$#"', "name", "one") == (0, "name:one:1\n", "")
    machine.fs.put_file(f"{HOME}/s.sh", b"echo args $@\nexit 3\n", uid=1000, gid=1000)
    assert run(machine, "bash", "s.sh", "a", "b") == (3, "args a b\n", "")
    assert run(machine, "bash", "nope.sh") == (
        127,
        "",
        "bash: nope.sh: No such file or directory\n",
    )


def test_sudo_refuses_honestly(machine):
    assert run(machine, "sudo", "cat", "/root/x") == (1, "", "sudo: a password is required\n")


# -- pure helpers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "always", "quoted"),
    [
        ("plain", False, "plain"),
        ("plain", True, "'plain'"),
        ("a b", False, "'a b'"),
        ("it's", False, '"it\'s"'),
        ("it's $x", False, "'it'\\''s $x'"),
        ("x$y", False, "'x$y'"),
        ("n\tl", False, "'n'$'\\t''l'"),
        ("caf\udcc3\udca9", False, "'caf'$'\\303\\251'"),
        ("a'\t", False, "'''a'\\'''$'\\t'"),
        ("", False, "''"),
        ("#a", False, "'#a'"),
        ("a#", False, "a#"),
        ("{", False, "'{'"),
        ("{a", False, "{a"),
    ],
)
def test_shell_quote_matches_gnulib(name, always, quoted):
    assert shell_quote(name, always=always) == quoted


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0"), (23, "23"), (1023, "1023"), (1024, "1.0K"), (1025, "1.1K"), (4096, "4.0K"),
     (10239, "10K"), (10240, "10K"), (10241, "11K"), (1048575, "1.0M"), (5000000, "4.8M")],
)  # fmt: skip
def test_human_sizes_round_up_like_gnu(size, text):
    assert human(size) == text


def test_strftime_agrees_with_the_c_library():
    fmt = "%a %A %b %B %C %d %D %e %F %g %G %H %I %j %k %l %m %M %p %r %R %S %T %u %U %V %w %W %x %X %y %Y"
    for seconds in range(-2_000_000_000, 4_000_000_000, 7_777_777):
        assert strftime(fmt, Tm(seconds)) == time.strftime(fmt, time.gmtime(seconds))


def test_gnu_strftime_flags():
    tm = Tm(0)
    assert strftime("%-d|%_m|%05Y|%^a|%#B|%10A|%-z|%:z|%::z|%:::z|%3N|%Q", tm) == (
        "1| 1|01970|THU|JANUARY|  Thursday|+0|+00:00|+00:00:00|+00|000|%Q"
    )


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("@0", 0),
        ("2026-01-01", 1767225600),
        ("2026-01-31 +1 month", 1772496000),
        ("2026-02-28T10:30:15", 1772274615),
        ("12/25/2026", 1798156800),
        ("Sep 17 2026", 1789603200),
        ("17 Sep 2026", 1789603200),
        ("Thu Sep 17 09:00:00 UTC 2026", WORLD_EPOCH_S),
        ("2026-01-01 12:00 +0200", 1767261600),
        ("yesterday", WORLD_EPOCH_S - 86400),
        ("2 days ago", WORLD_EPOCH_S - 2 * 86400),
        ("10:00", WORLD_EPOCH_S + 3600),
        ("3:30pm", WORLD_EPOCH_S + 6 * 3600 + 1800),
        ("2024-02-29 +1 year", 1740787200),
    ],
)
def test_parse_date(text, seconds):
    assert parse_date(text, WORLD_EPOCH_S)[0] == seconds


def test_parse_date_refuses_what_it_does_not_model():
    with pytest.raises(DateError) as invalid:
        parse_date("garbage", WORLD_EPOCH_S)
    assert not invalid.value.unsupported
    with pytest.raises(DateError) as unsupported:
        parse_date("next friday", WORLD_EPOCH_S)
    assert unsupported.value.unsupported
    assert parse_touch_stamp("202601011200.30", WORLD_EPOCH_S) == 1767268830
    assert parse_touch_stamp("x", WORLD_EPOCH_S) is None


@pytest.mark.parametrize(
    ("mode", "old", "is_dir", "new"),
    [
        ("755", 0o644, False, 0o755),
        ("u+x", 0o644, False, 0o744),
        ("go-w", 0o666, False, 0o644),
        ("a=r", 0o755, False, 0o444),
        ("+x", 0o644, False, 0o755),
        ("=rw", 0o777, False, 0o644),
        ("u=rwx,g=rx,o=", 0, False, 0o750),
        ("g+s", 0o755, True, 0o2755),
        ("755", 0o2755, True, 0o2755),
        ("00755", 0o2755, True, 0o755),
        ("+t", 0o755, True, 0o1755),
        ("a+X", 0o644, False, 0o644),
        ("a+X", 0o744, False, 0o755),
        ("a+X", 0o644, True, 0o755),
        ("g=u", 0o751, False, 0o771),
    ],
)
def test_modes_follow_gnulib(mode, old, is_dir, new):
    changes = mode_compile(mode)
    assert changes is not None
    assert mode_adjust(old, is_dir, 0o022, changes) == new


def test_invalid_modes_and_mode_strings():
    assert mode_compile("8") is None
    assert mode_compile("77777") is None
    assert mode_compile("u+q") is None
    assert perm_string(0o4755) == "rwsr-xr-x"
    assert perm_string(0o1644) == "rw-r--r-T"


def test_version_order_and_globs():
    ordered = sorted(["f10", "f9", "f1", "a.tar.gz", "a2.tar.gz", ".hidden"], key=_version_key)
    assert ordered == [".hidden", "a.tar.gz", "a2.tar.gz", "f1", "f9", "f10"]
    assert glob_match("*.txt", "notes.txt")
    assert not glob_match("*.TXT", "notes.txt")
    assert glob_match("*.TXT", "notes.txt", casefold=True)
    assert glob_match("[a-c]?", "b1") and not glob_match("[!a-c]?", "b1")
    assert glob_match("[[:digit:]]*", "9lives")
    assert not glob_match("*", ".hidden", period=True)


def _version_key(name: str):
    import functools

    return functools.cmp_to_key(filevercmp)(name)
