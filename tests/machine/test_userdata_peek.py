"""The desktop's look at its data files: what ``peek`` and ``peek_all`` answer follows the
files as they are now, whatever was asked before (answers are kept by the filesystem's
content digest, never by the machine)."""

from __future__ import annotations

from cwgym import World
from cwgym.machine._userdata import peek, peek_all
from cwgym.resources import load_world

FILES = (".config/cwgym/settings.json", ".local/share/cwgym/notes.txt", ".config/other.json")


def _put(machine, relative: str, data: bytes) -> None:
    path = f"{machine.home}/{relative}"
    machine.fs.makedirs(path.rsplit("/", 1)[0])
    machine.fs.put_file(path, data)


def test_peek_all_answers_what_the_files_hold_now():
    world = World(load_world("ubuntu-workstation"), 3)
    machine = world.machine("workstation")
    assert peek_all(machine, FILES) == (None, None, None)
    _put(machine, FILES[1], b"one")
    assert peek_all(machine, FILES) == (None, b"one", None)
    _put(machine, FILES[1], b"two")
    _put(machine, FILES[2], b"{}")
    assert peek_all(machine, FILES) == (None, b"two", b"{}")
    assert [peek(machine, f) for f in FILES] == list(peek_all(machine, FILES))
    machine.fs.makedirs(f"{machine.home}/{FILES[0]}")  # a folder is no file
    assert peek_all(machine, FILES)[0] is None


def test_a_fork_and_a_restore_see_their_own_files():
    world = World(load_world("ubuntu-workstation"), 3)
    machine = world.machine("workstation")
    _put(machine, FILES[1], b"before")
    snap = world.snapshot()
    fork = world.fork(snap)
    _put(machine, FILES[1], b"after")
    assert peek_all(machine, FILES)[1] == b"after"
    assert peek_all(fork.machine("workstation"), FILES)[1] == b"before"
    world.restore(snap)
    assert peek_all(world.machine("workstation"), FILES)[1] == b"before"
