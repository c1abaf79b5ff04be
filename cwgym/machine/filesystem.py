"""An inode filesystem with owners, modes, links and logical timestamps, copy-on-write.

Two doors lead in. The methods of :class:`Filesystem` are the kernel's trusted access: they
never check permissions and are for the world builder, the owner and the applications'
privileged plumbing. :class:`UserFS` is the permission-checked view a process running as
one user gets; it is the only one an actor's actions reach.

Copy-on-write: inodes live in a :class:`~cwgym.kernel.cow.CowMap`. ``freeze()`` hands out
an immutable view in O(1) and retires the current ownership token, so the next write to
any inode copies that inode (a few fields; file bytes are shared, never copied).
The digest is an additive multiset hash over inodes, updated only for inodes that changed.
"""

from __future__ import annotations

import hashlib
import stat as _st
from collections.abc import Iterator
from typing import Any

import msgspec

from cwgym.kernel.clock import Clock
from cwgym.kernel.cow import CowMap
from cwgym.kernel.digest import MODULUS, entry_term, value_digest

DIR, FILE, SYMLINK, NULLDEV = "dir", "file", "symlink", "null"
MAX_SYMLINKS = 40
MAX_NAME = 255

#: strerror texts, as GNU tools print them.
STRERROR = {
    "ENOENT": "No such file or directory",
    "EACCES": "Permission denied",
    "EPERM": "Operation not permitted",
    "ENOTDIR": "Not a directory",
    "EISDIR": "Is a directory",
    "EEXIST": "File exists",
    "ENOTEMPTY": "Directory not empty",
    "ELOOP": "Too many levels of symbolic links",
    "EINVAL": "Invalid argument",
    "EBUSY": "Device or resource busy",
    "ENAMETOOLONG": "File name too long",
}


class FsError(OSError):
    """A filesystem failure with an errno name (``ENOENT``...) and the path it concerns."""

    def __init__(self, code: str, path: str = "") -> None:
        self.code = code
        self.path = path
        self.strerror_text = STRERROR.get(code, code)
        super().__init__(f"{path}: {self.strerror_text}" if path else self.strerror_text)


class Stat(msgspec.Struct, frozen=True):
    """What ``stat`` says about an inode."""

    ino: int
    kind: str
    mode: int
    uid: int
    gid: int
    nlink: int
    size: int
    atime: int
    mtime: int
    ctime: int
    btime: int
    target: str | None = None

    @property
    def is_dir(self) -> bool:
        return self.kind == DIR

    @property
    def st_mode(self) -> int:
        """The full ``st_mode`` (type bits | permission bits)."""
        type_bits = {
            DIR: _st.S_IFDIR,
            FILE: _st.S_IFREG,
            SYMLINK: _st.S_IFLNK,
            NULLDEV: _st.S_IFCHR,
        }[self.kind]
        return type_bits | self.mode


class Inode:
    """One file, directory, symlink or device. Mutable only while owned by the current token."""

    __slots__ = (
        "_counted",
        "_dir",
        "_owner",
        "_seen",
        "atime",
        "btime",
        "ctime",
        "data",
        "entries",
        "gid",
        "ino",
        "kind",
        "mode",
        "mtime",
        "nlink",
        "parent",
        "target",
        "uid",
    )

    def __init__(self, ino: int, kind: str, mode: int, uid: int, gid: int, now: int) -> None:
        self.ino = ino
        self.kind = kind
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.nlink = 2 if kind == DIR else 1
        self.atime = self.mtime = self.ctime = self.btime = now
        self.data = b""
        self.entries: dict[str, int] | None = {} if kind == DIR else None
        self.parent = 0
        self.target: str | None = None
        self._owner: object = None
        self._counted = 0
        self._seen = 0  # the term this inode adds to the viewer's digest
        self._dir = 0  # the folder the inode was linked into last (what the viewer reaches it by)

    def copy(self, owner: object) -> Inode:
        new = Inode.__new__(Inode)
        for name in Inode.__slots__:
            setattr(new, name, getattr(self, name))
        if self.entries is not None:
            new.entries = dict(self.entries)
        new._owner = owner
        return new

    @property
    def size(self) -> int:
        if self.kind == FILE:
            return len(self.data)
        if self.kind == SYMLINK:
            return len((self.target or "").encode())
        if self.kind == DIR:
            return 4096
        return 0

    def digest(self) -> bytes:
        content: Any
        if self.kind == FILE:
            content = hashlib.sha256(self.data).digest()
        elif self.kind == DIR:
            content = sorted((self.entries or {}).items())
        else:
            content = self.target
        return self._digest_with(content)

    def metadata_digest(self) -> bytes:
        """What ``ls -l`` and ``stat`` show of the inode, without its content."""
        return value_digest(("metadata", self.ino, self.kind, self.mode, self.uid, self.gid, self.nlink,
                             self.atime, self.mtime, self.ctime, self.btime, self.parent, self.size))

    def _digest_with(self, content: Any) -> bytes:
        return value_digest(
            (
                self.ino,
                self.kind,
                self.mode,
                self.uid,
                self.gid,
                self.nlink,
                self.atime,
                self.mtime,
                self.ctime,
                self.btime,
                self.parent,
                content,
            )
        )

    def to_stat(self) -> Stat:
        return Stat(
            self.ino,
            self.kind,
            self.mode,
            self.uid,
            self.gid,
            self.nlink,
            self.size,
            self.atime,
            self.mtime,
            self.ctime,
            self.btime,
            self.target,
        )


class FsFrozen(msgspec.Struct, frozen=True):
    """The immutable value a snapshot holds for one filesystem."""

    inodes: Any  # FrozenMap[int, Inode]
    next_ino: int
    digest_sum: int
    case_sensitive: bool
    seen_sum: int = 0


def split_path(path: str) -> list[str]:
    return [part for part in path.split("/") if part and part != "."]


def join(base: str, name: str) -> str:
    if name.startswith("/"):
        return name
    return base.rstrip("/") + "/" + name if base != "/" else "/" + name


ROOT_INO = 1


#: No digest made yet: (sum, next_ino, digest, seen sum, visible digest).
_NO_MEMO = (None, None, b"", None, b"")


class Filesystem:
    """The trusted kernel view of one machine's files."""

    def __init__(self, clock: Clock, case_sensitive: bool = True) -> None:
        self.clock = clock
        self.case_sensitive = case_sensitive
        self.inodes: CowMap[int, Inode] = CowMap()
        self._token = object()
        self._dirty: dict[int, tuple[int, int]] = {}  # ino -> (full term, viewer term) before
        self._sum = 0
        self._seen_sum = 0
        self._memo: tuple = _NO_MEMO  # the last digests, with the sums they were made from
        #: whose view :meth:`visible_digest` digests (the machine's user); None sees all
        self.viewer: Credentials | None = None
        self.next_ino = ROOT_INO
        root = self._new_inode(DIR, 0o755, 0, 0)
        root.parent = root._dir = root.ino

    # -- copy-on-write plumbing ------------------------------------------------------
    @classmethod
    def thaw(cls, frozen: FsFrozen, clock: Clock) -> Filesystem:
        fs = cls.__new__(cls)
        fs.clock = clock
        fs.case_sensitive = frozen.case_sensitive
        fs.inodes = CowMap(frozen.inodes)
        fs._token = object()
        fs._dirty = {}
        fs._sum = frozen.digest_sum
        fs._seen_sum = frozen.seen_sum
        fs._memo = _NO_MEMO
        fs.viewer = None
        fs.next_ino = frozen.next_ino
        return fs

    @classmethod
    def from_inodes(cls, clock: Clock, case_sensitive: bool, inodes: list[Inode], next_ino: int) -> Filesystem:
        """A filesystem holding exactly ``inodes`` (an imported snapshot's, already checked
        by :func:`cwgym.machine.snapshot.check_tree`); the digest is computed afresh."""
        fs = cls.__new__(cls)
        fs.clock = clock
        fs.case_sensitive = case_sensitive
        fs.inodes = CowMap()
        fs._token = object()
        fs._dirty = {}
        fs._sum = 0
        fs._seen_sum = 0
        fs._memo = _NO_MEMO
        fs.viewer = None
        by_ino = {}
        for inode in inodes:
            inode._owner = fs._token
            inode._counted = inode._seen = inode._dir = 0
            fs.inodes.set(inode.ino, inode)
            fs._dirty[inode.ino] = (0, 0)
            by_ino[inode.ino] = inode
        by_ino[ROOT_INO]._dir = ROOT_INO
        for ino in sorted(by_ino):  # each inode is reached through the lowest folder listing it
            for child in (by_ino[ino].entries or {}).values():
                if by_ino[child]._dir == 0:
                    by_ino[child]._dir = ino
        fs.next_ino = next_ino
        return fs

    def freeze(self) -> FsFrozen:
        self._flush()
        self._token = object()
        return FsFrozen(self.inodes.freeze(), self.next_ino, self._sum, self.case_sensitive, self._seen_sum)

    def _flush(self) -> None:
        if not self._dirty:
            return
        total, seen_total = self._sum, self._seen_sum
        viewer = self.viewer
        reach: dict[int, bool] = {ROOT_INO: True}
        for ino, (old_term, old_seen) in self._dirty.items():
            total -= old_term
            seen_total -= old_seen
            inode = self.inodes.get(ino)
            if inode is not None:
                term = entry_term(ino, inode.digest())
                inode._counted = term
                total += term
                if viewer is None:
                    seen = term
                elif not self._reached(inode._dir, viewer, reach):
                    seen = 0  # the viewer cannot even stat it
                elif inode.kind in (FILE, DIR) and not viewer.may(inode, 4):
                    seen = entry_term(ino, inode.metadata_digest())  # ls -l shows it, cat cannot read it
                else:
                    seen = term
                inode._seen = seen
                seen_total += seen
        self._sum = total % MODULUS
        self._seen_sum = seen_total % MODULUS
        self._dirty.clear()

    def _reached(self, folder: int, viewer: Credentials, memo: dict[int, bool]) -> bool:
        """Whether the viewer can reach entries of ``folder``: it can search every folder
        on the way from the root and this one."""
        known = memo.get(folder)
        if known is None:
            directory = self.inodes[folder]
            known = viewer.may(directory, 1) and self._reached(directory._dir, viewer, memo)
            memo[folder] = known
        return known

    def digest(self) -> bytes:
        """A digest of every inode, costing only what changed since the last one."""
        self._flush()
        memo = self._memo
        if memo[0] != self._sum or memo[1] != self.next_ino:
            digest = value_digest((self._sum.to_bytes(32, "big"), self.next_ino, self.case_sensitive))
            memo = self._memo = (self._sum, self.next_ino, digest, *memo[3:])
        return memo[2]

    def visible_digest(self) -> bytes:
        """A digest of what :attr:`viewer` can observe: inodes it can reach (their metadata),
        and the content of those it may read. Costs only what changed, like :meth:`digest`."""
        self._flush()
        memo = self._memo
        if memo[3] != self._seen_sum:
            digest = value_digest((self._seen_sum.to_bytes(32, "big"), self.case_sensitive))
            memo = self._memo = (*memo[:3], self._seen_sum, digest)
        return memo[4]

    def _own(self, ino: int) -> Inode:
        inode = self.inodes[ino]
        if inode._owner is not self._token:
            inode = inode.copy(self._token)
            self.inodes.set(ino, inode)
        if ino not in self._dirty:
            self._dirty[ino] = (inode._counted, inode._seen)
        return inode

    def _resee(self, ino: int) -> None:
        """Mark a folder's whole subtree for the viewer's digest: who can reach what below
        it may have changed (its mode, owner or place did)."""
        pending = [ino]
        while pending:
            for child in (self.inodes[pending.pop()].entries or {}).values():
                inode = self._own(child)
                if inode.kind == DIR:
                    pending.append(child)

    def _new_inode(self, kind: str, mode: int, uid: int, gid: int) -> Inode:
        ino = self.next_ino
        self.next_ino += 1
        inode = Inode(ino, kind, mode, uid, gid, self.clock.now_us)
        inode._owner = self._token
        self.inodes.set(ino, inode)
        self._dirty[ino] = (0, 0)
        return inode

    def _drop(self, ino: int) -> None:
        inode = self.inodes[ino]
        self._dirty.setdefault(ino, (inode._counted, inode._seen))
        self.inodes.delete(ino)

    # -- lookup ------------------------------------------------------------------------
    def inode(self, ino: int) -> Inode:
        """The inode, read-only: never mutate what this returns."""
        return self.inodes[ino]

    def child(self, directory: Inode, name: str) -> int | None:
        entries = directory.entries or {}
        found = entries.get(name)
        if found is None and not self.case_sensitive:
            folded = name.casefold()
            for entry, ino in sorted(entries.items()):
                if entry.casefold() == folded:
                    return ino
        return found

    def walk(
        self,
        path: str,
        cwd: str = "/",
        *,
        follow: bool = True,
        cred: Credentials | None = None,
    ) -> tuple[int, str, int | None]:
        """Resolve ``path`` to ``(parent ino, last name, ino or None)``.

        Intermediate symlinks are always followed; the last one only with ``follow``.
        With ``cred``, every directory passed through needs search (x) permission.
        """
        if not path:
            raise FsError("ENOENT", path)
        full = path if path.startswith("/") else join(cwd, path)
        parts = full.split("/")
        stack: list[str] = list(reversed([p for p in parts if p]))
        current = ROOT_INO
        parent = ROOT_INO
        name = "/"
        hops = 0
        trailing_slash = path.endswith("/") and len(path) > 1
        while stack:
            part = stack.pop()
            directory = self.inodes[current]
            if directory.kind != DIR:
                raise FsError("ENOTDIR", path)
            if cred is not None and not cred.may(directory, 1):
                raise FsError("EACCES", path)
            if part == ".":
                name = part
                parent = current
                continue
            if part == "..":
                parent = current
                current = directory.parent
                name = part
                continue
            if len(part.encode()) > MAX_NAME:
                raise FsError("ENAMETOOLONG", path)
            ino = self.child(directory, part)
            if ino is None:
                if stack:
                    raise FsError("ENOENT", path)
                return current, part, None
            inode = self.inodes[ino]
            if inode.kind == SYMLINK and (stack or follow or trailing_slash):
                hops += 1
                if hops > MAX_SYMLINKS:
                    raise FsError("ELOOP", path)
                target = inode.target or ""
                stack.extend(reversed([p for p in target.split("/") if p]))
                if target.startswith("/"):
                    current = ROOT_INO
                continue
            parent, name, current = current, part, ino
        if trailing_slash and self.inodes[current].kind != DIR:
            raise FsError("ENOTDIR", path)
        return parent, name, current

    def resolve(self, path: str, cwd: str = "/", *, follow: bool = True) -> int:
        """The inode number of ``path`` (trusted)."""
        _, _, ino = self.walk(path, cwd, follow=follow)
        if ino is None:
            raise FsError("ENOENT", path)
        return ino

    def exists(self, path: str, cwd: str = "/") -> bool:
        try:
            self.resolve(path, cwd)
        except FsError:
            return False
        return True

    def path_of(self, ino: int) -> str:
        """The canonical path of a directory inode (walks ``..``)."""
        parts: list[str] = []
        while ino != ROOT_INO:
            inode = self.inodes[ino]
            parent = self.inodes[inode.parent]
            for entry, child in (parent.entries or {}).items():
                if child == ino:
                    parts.append(entry)
                    break
            else:  # pragma: no cover - a directory always has its entry in its parent
                raise FsError("ENOENT", str(ino))
            ino = inode.parent
        return "/" + "/".join(reversed(parts))

    # -- trusted mutation ----------------------------------------------------------------
    def _touch_dir(self, directory: Inode) -> None:
        now = self.clock.now_us
        directory.mtime = directory.ctime = now

    def link_new(self, parent_ino: int, name: str, kind: str, mode: int, uid: int, gid: int) -> Inode:
        """Create a new inode named ``name`` in a directory (trusted; no checks but EEXIST)."""
        if not name or "/" in name or name in (".", ".."):
            raise FsError("EINVAL", name)
        parent = self._own(parent_ino)
        if parent.kind != DIR:
            raise FsError("ENOTDIR", name)
        if self.child(parent, name) is not None:
            raise FsError("EEXIST", name)
        inode = self._new_inode(kind, mode, uid, gid)
        inode.parent = inode._dir = parent_ino
        parent.entries[name] = inode.ino  # type: ignore[index]
        if kind == DIR:
            parent.nlink += 1
        self._touch_dir(parent)
        return inode

    def write_inode(self, ino: int, data: bytes, *, append: bool = False) -> None:
        inode = self._own(ino)
        if inode.kind == NULLDEV:
            return
        if inode.kind == DIR:
            raise FsError("EISDIR")
        inode.data = inode.data + data if append else bytes(data)
        now = self.clock.now_us
        inode.mtime = inode.ctime = now

    def set_mode(self, ino: int, mode: int) -> None:
        inode = self._own(ino)
        inode.mode = mode & 0o7777
        inode.ctime = self.clock.now_us
        if inode.kind == DIR:
            self._resee(ino)

    def set_owner(self, ino: int, uid: int | None, gid: int | None) -> None:
        inode = self._own(ino)
        if uid is not None:
            inode.uid = uid
        if gid is not None:
            inode.gid = gid
        inode.ctime = self.clock.now_us
        if inode.kind == DIR:
            self._resee(ino)

    def set_times(self, ino: int, atime: int | None = None, mtime: int | None = None) -> None:
        inode = self._own(ino)
        if atime is not None:
            inode.atime = atime
        if mtime is not None:
            inode.mtime = mtime
        inode.ctime = self.clock.now_us

    def unlink_entry(self, parent_ino: int, name: str) -> None:
        """Remove a directory entry; the inode goes when its last link does."""
        parent = self._own(parent_ino)
        ino = (parent.entries or {}).get(name)
        if ino is None:
            raise FsError("ENOENT", name)
        inode = self.inodes[ino]
        del parent.entries[name]  # type: ignore[union-attr]
        self._touch_dir(parent)
        if inode.kind == DIR:
            parent.nlink -= 1
            self._drop(ino)
            return
        if inode.nlink <= 1:
            self._drop(ino)
        else:
            owned = self._own(ino)
            owned.nlink -= 1
            owned.ctime = self.clock.now_us

    def add_link(self, parent_ino: int, name: str, ino: int) -> None:
        parent = self._own(parent_ino)
        if self.child(parent, name) is not None:
            raise FsError("EEXIST", name)
        parent.entries[name] = ino  # type: ignore[index]
        self._touch_dir(parent)
        inode = self._own(ino)
        inode.nlink += 1
        inode.ctime = self.clock.now_us

    def move_entry(self, src_parent: int, src_name: str, dst_parent: int, dst_name: str) -> None:
        """Rename; replaces a non-directory target or an empty directory target."""
        source_dir = self.inodes[src_parent]
        ino = (source_dir.entries or {}).get(src_name)
        if ino is None:
            raise FsError("ENOENT", src_name)
        moving = self.inodes[ino]
        if moving.kind == DIR:
            # Refuse moving a directory into itself or below it.
            cursor = dst_parent
            while True:
                if cursor == ino:
                    raise FsError("EINVAL", dst_name)
                if cursor == ROOT_INO:
                    break
                cursor = self.inodes[cursor].parent
        target_ino = (self.inodes[dst_parent].entries or {}).get(dst_name)
        if target_ino == ino:
            return
        if target_ino is not None:
            target = self.inodes[target_ino]
            if target.kind == DIR:
                if moving.kind != DIR:
                    raise FsError("EISDIR", dst_name)
                if target.entries:
                    raise FsError("ENOTEMPTY", dst_name)
            elif moving.kind == DIR:
                raise FsError("ENOTDIR", dst_name)
            self.unlink_entry(dst_parent, dst_name)
        src = self._own(src_parent)
        del src.entries[src_name]  # type: ignore[union-attr]
        self._touch_dir(src)
        dst = self._own(dst_parent)
        dst.entries[dst_name] = ino  # type: ignore[index]
        self._touch_dir(dst)
        owned = self._own(ino)
        owned.ctime = self.clock.now_us
        owned._dir = dst_parent
        if moving.kind == DIR:
            owned.parent = dst_parent
            src.nlink -= 1
            dst.nlink += 1
            self._resee(ino)

    # -- trusted conveniences (world building, owner inspection) ------------------------
    def makedirs(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> int:
        current = ROOT_INO
        for part in split_path(path):
            found = self.child(self.inodes[current], part)
            if found is None:
                current = self.link_new(current, part, DIR, mode, uid, gid).ino
            else:
                if self.inodes[found].kind != DIR:
                    raise FsError("ENOTDIR", path)
                current = found
        return current

    def put_file(self, path: str, data: bytes, uid: int = 0, gid: int = 0, mode: int = 0o644) -> int:
        """Create or replace a regular file's content (trusted)."""
        parent, name, ino = self.walk(path)
        if ino is None:
            ino = self.link_new(parent, name, FILE, mode, uid, gid).ino
        self.write_inode(ino, data)
        return ino

    def read_path(self, path: str, cwd: str = "/") -> bytes:
        inode = self.inodes[self.resolve(path, cwd)]
        if inode.kind == DIR:
            raise FsError("EISDIR", path)
        return inode.data

    def list_path(self, path: str, cwd: str = "/") -> list[str]:
        inode = self.inodes[self.resolve(path, cwd)]
        if inode.kind != DIR:
            raise FsError("ENOTDIR", path)
        return sorted(inode.entries or {})

    def iter_tree(self, path: str = "/") -> Iterator[tuple[str, Inode]]:
        """Every path below ``path`` (itself included), depth first in name order."""
        start = self.resolve(path)
        todo = [(path if path != "/" else "/", start)]
        while todo:
            current_path, ino = todo.pop()
            inode = self.inodes[ino]
            yield current_path, inode
            if inode.kind == DIR:
                for name in sorted(inode.entries or {}, reverse=True):
                    todo.append((join(current_path, name), inode.entries[name]))  # type: ignore[index]

    def stat_path(self, path: str, cwd: str = "/", *, follow: bool = True) -> Stat:
        return self.inodes[self.resolve(path, cwd, follow=follow)].to_stat()


class Credentials:
    """Who a process runs as: a user id and its groups."""

    __slots__ = ("gid", "groups", "uid")

    def __init__(self, uid: int, gid: int, groups: tuple[int, ...] = ()) -> None:
        self.uid = uid
        self.gid = gid
        self.groups = (gid, *groups)

    def may(self, inode: Inode, want: int) -> bool:
        """Whether these credentials have ``want`` (4 read, 2 write, 1 search/execute)."""
        if self.uid == 0:
            if want & 1 and inode.kind != DIR:
                return bool(inode.mode & 0o111)
            return True
        if inode.uid == self.uid:
            bits = (inode.mode >> 6) & 7
        elif inode.gid in self.groups:
            bits = (inode.mode >> 3) & 7
        else:
            bits = inode.mode & 7
        return bits & want == want


class UserFS:
    """The permission-checked filesystem as one user sees it. Actors only ever get this."""

    __slots__ = ("cred", "fs", "umask")

    def __init__(self, fs: Filesystem, cred: Credentials, umask: int = 0o022) -> None:
        self.fs = fs
        self.cred = cred
        self.umask = umask

    def walk(self, path: str, cwd: str, *, follow: bool = True) -> tuple[int, str, int | None]:
        return self.fs.walk(path, cwd, follow=follow, cred=self.cred)

    def lookup(self, path: str, cwd: str, *, follow: bool = True) -> Inode:
        _, _, ino = self.walk(path, cwd, follow=follow)
        if ino is None:
            raise FsError("ENOENT", path)
        return self.fs.inodes[ino]

    def _require(self, inode: Inode, want: int, path: str) -> None:
        if not self.cred.may(inode, want):
            raise FsError("EACCES", path)

    def _require_owner(self, inode: Inode, path: str) -> None:
        if self.cred.uid not in (0, inode.uid):
            raise FsError("EPERM", path)

    def stat(self, path: str, cwd: str, *, follow: bool = True) -> Stat:
        return self.lookup(path, cwd, follow=follow).to_stat()

    def exists(self, path: str, cwd: str, *, follow: bool = True) -> bool:
        try:
            self.lookup(path, cwd, follow=follow)
        except FsError:
            return False
        return True

    def is_dir(self, path: str, cwd: str) -> bool:
        try:
            return self.lookup(path, cwd).kind == DIR
        except FsError:
            return False

    def read(self, path: str, cwd: str) -> bytes:
        inode = self.lookup(path, cwd)
        if inode.kind == DIR:
            raise FsError("EISDIR", path)
        self._require(inode, 4, path)
        return inode.data

    def listdir(self, path: str, cwd: str) -> list[str]:
        inode = self.lookup(path, cwd)
        if inode.kind != DIR:
            raise FsError("ENOTDIR", path)
        self._require(inode, 4, path)
        return sorted(inode.entries or {})

    def write(self, path: str, cwd: str, data: bytes, *, append: bool = False, mode: int = 0o666) -> int:
        """Write a file, creating it (mode minus umask) when missing. Returns its inode."""
        parent, name, ino = self.walk(path, cwd)
        if ino is None:
            if path.endswith("/"):
                raise FsError("EISDIR", path)
            parent_inode = self.fs.inodes[parent]
            self._require(parent_inode, 3, path)
            inode = self.fs.link_new(parent, name, FILE, mode & ~self.umask, self.cred.uid, self.cred.gid)
            ino = inode.ino
        else:
            inode = self.fs.inodes[ino]
            if inode.kind == DIR:
                raise FsError("EISDIR", path)
            self._require(inode, 2, path)
        self.fs.write_inode(ino, data, append=append)
        return ino

    def create(self, path: str, cwd: str, kind: str, *, mode: int, target: str | None = None) -> int:
        parent, name, ino = self.walk(path, cwd, follow=False)
        if ino is not None:
            raise FsError("EEXIST", path)
        if name in (".", "..", "/"):
            raise FsError("EEXIST", path)
        self._require(self.fs.inodes[parent], 3, path)
        inode = self.fs.link_new(parent, name, kind, mode & ~self.umask if kind != SYMLINK else 0o777, self.cred.uid, self.cred.gid)
        if target is not None:
            inode.target = target
        return inode.ino

    def mkdir(self, path: str, cwd: str, mode: int = 0o777) -> int:
        return self.create(path.rstrip("/") or "/", cwd, DIR, mode=mode)

    def symlink(self, target: str, path: str, cwd: str) -> int:
        return self.create(path, cwd, SYMLINK, mode=0o777, target=target)

    def _sticky_ok(self, parent: Inode, child: Inode) -> bool:
        if not parent.mode & 0o1000 or self.cred.uid == 0:
            return True
        return self.cred.uid in (parent.uid, child.uid)

    def unlink(self, path: str, cwd: str) -> None:
        parent, name, ino = self.walk(path, cwd, follow=False)
        if ino is None:
            raise FsError("ENOENT", path)
        inode = self.fs.inodes[ino]
        if inode.kind == DIR:
            raise FsError("EISDIR", path)
        parent_inode = self.fs.inodes[parent]
        self._require(parent_inode, 3, path)
        if not self._sticky_ok(parent_inode, inode):
            raise FsError("EPERM", path)
        self.fs.unlink_entry(parent, name)

    def rmdir(self, path: str, cwd: str) -> None:
        parent, name, ino = self.walk(path.rstrip("/") or "/", cwd, follow=False)
        if ino is None:
            raise FsError("ENOENT", path)
        inode = self.fs.inodes[ino]
        if inode.kind != DIR:
            raise FsError("ENOTDIR", path)
        if ino == ROOT_INO:
            raise FsError("EBUSY", path)
        if name in (".", ".."):
            raise FsError("EINVAL", path)
        if inode.entries:
            raise FsError("ENOTEMPTY", path)
        parent_inode = self.fs.inodes[parent]
        self._require(parent_inode, 3, path)
        if not self._sticky_ok(parent_inode, inode):
            raise FsError("EPERM", path)
        self.fs.unlink_entry(parent, name)

    def rename(self, src: str, dst: str, cwd: str) -> None:
        sp, sn, sino = self.walk(src, cwd, follow=False)
        if sino is None:
            raise FsError("ENOENT", src)
        dp, dn, dino = self.walk(dst, cwd, follow=False)
        if dino is not None and self.fs.inodes[dino].kind == DIR and self.fs.inodes[sino].kind != DIR:
            raise FsError("EISDIR", dst)
        self._require(self.fs.inodes[sp], 3, src)
        self._require(self.fs.inodes[dp], 3, dst)
        if not self._sticky_ok(self.fs.inodes[sp], self.fs.inodes[sino]):
            raise FsError("EPERM", src)
        self.fs.move_entry(sp, sn, dp, dn)

    def link(self, existing: str, new: str, cwd: str) -> None:
        inode = self.lookup(existing, cwd, follow=False)
        if inode.kind == DIR:
            raise FsError("EPERM", existing)
        parent, name, ino = self.walk(new, cwd, follow=False)
        if ino is not None:
            raise FsError("EEXIST", new)
        self._require(self.fs.inodes[parent], 3, new)
        self.fs.add_link(parent, name, inode.ino)

    def chmod(self, path: str, cwd: str, mode: int) -> None:
        inode = self.lookup(path, cwd)
        self._require_owner(inode, path)
        self.fs.set_mode(inode.ino, mode)

    def chown(self, path: str, cwd: str, uid: int | None, gid: int | None, *, follow: bool = True) -> None:
        inode = self.lookup(path, cwd, follow=follow)
        if self.cred.uid != 0:
            if uid is not None and uid != inode.uid:
                raise FsError("EPERM", path)
            if gid is not None and (inode.uid != self.cred.uid or gid not in self.cred.groups):
                raise FsError("EPERM", path)
        self.fs.set_owner(inode.ino, uid, gid)

    def utime(self, path: str, cwd: str, atime: int | None, mtime: int | None) -> None:
        inode = self.lookup(path, cwd)
        if self.cred.uid not in (0, inode.uid):
            self._require(inode, 2, path)
        self.fs.set_times(inode.ino, atime, mtime)

    def readlink(self, path: str, cwd: str) -> str:
        inode = self.lookup(path, cwd, follow=False)
        if inode.kind != SYMLINK:
            raise FsError("EINVAL", path)
        return inode.target or ""

    def realpath(self, path: str, cwd: str) -> str:
        """The canonical absolute path (every symlink resolved); the path must exist."""
        inode = self.lookup(path, cwd)
        if inode.kind == DIR:
            return self.fs.path_of(inode.ino)
        parent, name, _ = self.walk(path, cwd)
        base = self.fs.path_of(parent)
        return join(base, name)

    def may_execute(self, inode: Inode) -> bool:
        return self.cred.may(inode, 1)
