"""The inode filesystem: links, permissions, case rules, copy-on-write and digests."""

from __future__ import annotations

import pytest

from cwgym.kernel import Clock
from cwgym.machine.filesystem import Credentials, Filesystem, FsError, UserFS

ADA = Credentials(1000, 1000)
BOB = Credentials(1001, 1001)


@pytest.fixture
def fs() -> Filesystem:
    fs = Filesystem(Clock())
    fs.set_mode(fs.makedirs("/tmp"), 0o1777)
    fs.makedirs("/home/ada", 1000, 1000, 0o755)
    fs.put_file("/home/ada/note.txt", b"hello\n", 1000, 1000)
    return fs


def test_user_reads_own_file(fs):
    assert UserFS(fs, ADA).read("note.txt", "/home/ada") == b"hello\n"


def test_another_users_private_file_is_denied(fs):
    fs.put_file("/home/ada/private", b"x", 1000, 1000, 0o600)
    with pytest.raises(FsError) as info:
        UserFS(fs, BOB).read("/home/ada/private", "/")
    assert info.value.code == "EACCES"


def test_directory_without_search_permission(fs):
    fs.makedirs("/home/ada/locked", 1000, 1000, 0o600)
    fs.put_file("/home/ada/locked/inner", b"x", 1000, 1000)
    with pytest.raises(FsError) as info:
        UserFS(fs, ADA).read("locked/inner", "/home/ada")
    assert info.value.code == "EACCES"


def test_root_bypasses_read_and_write_checks(fs):
    fs.put_file("/home/ada/private", b"x", 1000, 1000, 0o000)
    assert UserFS(fs, Credentials(0, 0)).read("/home/ada/private", "/") == b"x"


def test_umask_applies_to_new_files(fs):
    user = UserFS(fs, ADA, umask=0o027)
    user.write("new.txt", "/home/ada", b"")
    assert user.stat("new.txt", "/home/ada").mode == 0o640


def test_sticky_tmp_protects_other_users_files(fs):
    UserFS(fs, BOB).write("/tmp/bobs", "/", b"x")
    with pytest.raises(FsError) as info:
        UserFS(fs, ADA).unlink("/tmp/bobs", "/")
    assert info.value.code == "EPERM"


def test_hard_links_share_an_inode(fs):
    user = UserFS(fs, ADA)
    user.link("note.txt", "again.txt", "/home/ada")
    assert user.stat("note.txt", "/home/ada").nlink == 2
    user.write("again.txt", "/home/ada", b"changed\n")
    assert user.read("note.txt", "/home/ada") == b"changed\n"
    user.unlink("note.txt", "/home/ada")
    assert user.stat("again.txt", "/home/ada").nlink == 1


def test_symlinks_resolve_and_loops_fail(fs):
    user = UserFS(fs, ADA)
    user.symlink("note.txt", "link", "/home/ada")
    assert user.read("link", "/home/ada") == b"hello\n"
    assert user.readlink("link", "/home/ada") == "note.txt"
    assert user.stat("link", "/home/ada", follow=False).kind == "symlink"
    user.symlink("b", "a", "/home/ada")
    user.symlink("a", "b", "/home/ada")
    with pytest.raises(FsError) as info:
        user.read("a", "/home/ada")
    assert info.value.code == "ELOOP"


def test_case_insensitive_profile_resolves_any_case():
    fs = Filesystem(Clock(), case_sensitive=False)
    fs.put_file("/Report.TXT", b"x")
    assert fs.read_path("/report.txt") == b"x"
    strict = Filesystem(Clock())
    strict.put_file("/Report.TXT", b"x")
    assert not strict.exists("/report.txt")


def test_rename_into_own_subtree_is_refused(fs):
    user = UserFS(fs, ADA)
    user.mkdir("a", "/home/ada")
    user.mkdir("a/b", "/home/ada")
    with pytest.raises(FsError) as info:
        user.rename("a", "a/b/c", "/home/ada")
    assert info.value.code == "EINVAL"


def test_timestamps_come_from_the_logical_clock(fs):
    fs.clock.advance(5_000_000)
    UserFS(fs, ADA).write("later.txt", "/home/ada", b"x")
    assert fs.stat_path("/home/ada/later.txt").mtime == 5_000_000


def test_frozen_view_never_sees_later_writes(fs):
    frozen = fs.freeze()
    UserFS(fs, ADA).write("note.txt", "/home/ada", b"after\n")
    UserFS(fs, ADA).write("new.txt", "/home/ada", b"n")
    old = Filesystem.thaw(frozen, Clock())
    assert old.read_path("/home/ada/note.txt") == b"hello\n"
    assert not old.exists("/home/ada/new.txt")


def test_thawed_copy_shares_unchanged_file_bytes(fs):
    frozen = fs.freeze()
    copy = Filesystem.thaw(frozen, Clock())
    ino = fs.resolve("/home/ada/note.txt")
    assert copy.inode(ino).data is fs.inode(ino).data


def test_incremental_digest_equals_a_rebuilt_one(fs):
    fs.digest()
    UserFS(fs, ADA).write("x", "/home/ada", b"1")
    UserFS(fs, ADA).unlink("note.txt", "/home/ada")
    incremental = fs.digest()
    # A rebuild from copies of the inodes recomputes every inode's term from scratch.
    assert _rebuilt(fs).digest() == incremental


def _rebuilt(fs: Filesystem) -> Filesystem:
    copies = [inode.copy(None) for _, inode in sorted(fs.inodes.items())]
    rebuilt = Filesystem.from_inodes(Clock(), fs.case_sensitive, copies, fs.next_ino)
    rebuilt.viewer = fs.viewer
    return rebuilt


def test_the_viewers_digest_sees_only_what_the_viewer_can(fs):
    fs.viewer = BOB
    fs.makedirs("/home/ada/secret", 1000, 1000, 0o700)
    fs.put_file("/home/ada/secret/plan", b"a", 1000, 1000)
    fs.put_file("/home/ada/diary", b"a", 1000, 1000, 0o600)
    seen, full = fs.visible_digest(), fs.digest()
    # content bob may not read: the full digest moves, bob's does not
    fs.put_file("/home/ada/secret/plan", b"b", 1000, 1000)
    assert fs.digest() != full and fs.visible_digest() == seen
    # a file bob can list but not read: its size shows in ls -l, its bytes do not
    fs.set_times(fs.resolve("/home/ada/diary"), 5, 5)
    moved = fs.visible_digest()
    assert moved != seen
    ino = fs.resolve("/home/ada/diary")
    fs.write_inode(ino, b"z")  # the same size at the same tick: nothing bob could see
    fs.set_times(ino, 5, 5)
    assert fs.visible_digest() == moved
    fs.write_inode(ino, b"longer")  # a new size shows in ls -l
    fs.set_times(ino, 5, 5)
    assert fs.visible_digest() != moved
    # opening the folder shows what is in it
    before_open = fs.visible_digest()
    fs.set_mode(fs.resolve("/home/ada/secret"), 0o755)
    assert fs.visible_digest() != before_open
    assert _rebuilt(fs).visible_digest() == fs.visible_digest()


def test_the_viewers_digest_follows_moves_and_survives_snapshots(fs):
    fs.viewer = BOB
    fs.makedirs("/vault", 0, 0, 0o700)
    fs.put_file("/tmp/open", b"1", 0, 0)
    fs.move_entry(fs.resolve("/tmp"), "open", fs.resolve("/vault"), "open")
    frozen, seen = fs.freeze(), fs.visible_digest()
    fs.write_inode(fs.resolve("/vault/open"), b"2")  # moved out of bob's reach: unseen
    assert fs.visible_digest() == seen
    thawed = Filesystem.thaw(frozen, Clock())
    thawed.viewer = BOB
    assert thawed.visible_digest() == seen
    assert _rebuilt(fs).visible_digest() == fs.visible_digest()


def test_digest_returns_after_an_undo(fs):
    before = fs.digest()
    frozen = fs.freeze()
    UserFS(fs, ADA).write("note.txt", "/home/ada", b"different")
    assert fs.digest() != before
    assert Filesystem.thaw(frozen, Clock()).digest() == before
