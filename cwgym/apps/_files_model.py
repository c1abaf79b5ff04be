"""The file manager's model: locations, the listing it shows, and the file operations.

Everything here reaches the machine only through the user's permission-checked
:class:`~cwgym.machine.filesystem.UserFS`; nothing is cached between calls, so a listing
is always what the filesystem holds now (after a snapshot restore too).

Locations are absolute paths, or one of the virtual views' URIs (:data:`VIRTUAL`).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, NamedTuple

from cwgym.desktop.clock import MONTHS
from cwgym.kernel.calendar import civil
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine.filesystem import DIR, FILE, SYMLINK, FsError, UserFS

__all__ = [
    "PLACES",
    "QUICK",
    "RECENT",
    "STARRED",
    "TRASH",
    "VIRTUAL",
    "Listing",
    "Row",
    "basename",
    "clipboard_files",
    "clipboard_text",
    "copy_name",
    "copy_tree",
    "dirname",
    "format_mtime",
    "format_size",
    "is_text",
    "join",
    "listing",
    "makedirs",
    "normalize",
    "purge",
    "remap",
    "restore",
    "trash",
    "trash_dirs",
    "validate_name",
]

RECENT = "recent:///"
STARRED = "starred:///"
TRASH = "trash:///"
QUICK = "quick-access:///"
#: The virtual views and the name each shows.
VIRTUAL = {RECENT: "Recent", STARRED: "Starred", TRASH: "Trash", QUICK: "Quick Access"}

#: The home folder's standard places (the sidebar lists those that exist), with symbols.
PLACES = (
    ("Desktop", "folder"),
    ("Documents", "document"),
    ("Downloads", "download"),
    ("Music", "music"),
    ("Pictures", "pictures"),
    ("Videos", "videos"),
)

#: The most entries a search walks and the most results it shows.
SEARCH_VISITS = 5000
SEARCH_RESULTS = 500
#: The most bytes looked at to tell a text file from a binary one.
SNIFF = 8192
CLIP_COPY, CLIP_CUT = "copy", "cut"


# -- paths ---------------------------------------------------------------------------------


def join(folder: str, name: str) -> str:
    return f"{folder.rstrip('/')}/{name}" if folder != "/" else f"/{name}"


def dirname(path: str) -> str:
    head = path.rstrip("/").rsplit("/", 1)[0]
    return head or "/"


def basename(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1] or "/"


def normalize(text: str, cwd: str, home: str) -> str:
    """An absolute, ``.``/``..``-free path for typed ``text`` (``~`` is the home folder).

    A virtual view's URI (``trash:///``...) and ``file://`` URIs are understood too.
    """
    text = text.strip()
    for uri in VIRTUAL:
        if text.rstrip("/") == uri.rstrip("/"):
            return uri
    if text.startswith("file://"):
        text = unquote(text[len("file://") :]) or "/"
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    if not text.startswith("/"):
        text = join(cwd if cwd.startswith("/") else home, text)
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or below it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def remap(paths: list[str], old: str, new: str) -> list[str]:
    """``paths`` with ``old`` (and everything below it) renamed to ``new``."""
    out = []
    for p in paths:
        if inside(p, old):
            p = new + p[len(old) :]
        out.append(p)
    return out


# -- formatting ---------------------------------------------------------------------------


def format_size(size: int) -> str:
    """A byte count as GNOME writes it: ``1 byte``, ``512 bytes``, ``1.2 kB``, ``3.4 MB``."""
    if size == 1:
        return "1 byte"
    if size < 1000:
        return f"{size} bytes"
    value = float(size)
    for unit in ("kB", "MB", "GB", "TB"):
        value /= 1000
        if value < 999.95 or unit == "TB":
            return f"{value:.1f} {unit}"
    return f"{size} bytes"  # pragma: no cover - the loop always returns


def format_items(count: int) -> str:
    if count < 0:
        return "—"
    return "1 item" if count == 1 else f"{count} items"


def _civil_us(us: int) -> tuple[int, int, int, int, int, int]:
    return civil(WORLD_EPOCH_S + us // 1_000_000)


def format_mtime(mtime_us: int, now_us: int) -> str:
    """A modification time as GNOME Files shows it: ``09:00`` today, ``17 Sep`` this year,
    ``17 Sep 2025`` before. Times come from the machine's logical clock."""
    return format_day_time(mtime_us, day_of(now_us))


def format_day_time(mtime_us: int, today: tuple[int, int, int]) -> str:
    """:func:`format_mtime` with today given as ``(year, month, day)``."""
    year, month, day, hour, minute, _ = _civil_us(mtime_us)
    if (year, month, day) == today:
        return f"{hour:02d}:{minute:02d}"
    if year == today[0]:
        return f"{day} {MONTHS[month - 1]}"
    return f"{day} {MONTHS[month - 1]} {year}"


def day_of(now_us: int) -> tuple[int, int, int]:
    y, m, d, *_ = _civil_us(now_us)
    return (y, m, d)


def iso_time(now_us: int) -> str:
    y, m, d, hh, mm, _ = _civil_us(now_us)
    ss = (WORLD_EPOCH_S + now_us // 1_000_000) % 60
    return f"{y:04d}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}"


_DIGITS = re.compile(r"(\d+)")
_PERCENT = re.compile(rb"%([0-9A-Fa-f]{2})")
_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")


def quote(path: str) -> str:
    """Percent-encode a path for a ``file://`` URI or a ``.trashinfo`` (``/`` kept)."""
    return "".join(chr(b) if b in _SAFE else f"%{b:02X}" for b in path.encode("utf-8", "surrogateescape"))


def unquote(text: str) -> str:
    """Undo :func:`quote` (invalid UTF-8 is replaced)."""
    raw = _PERCENT.sub(lambda m: bytes([int(m.group(1), 16)]), text.encode("utf-8", "surrogateescape"))
    return raw.decode("utf-8", "replace")


def natural_key(name: str) -> tuple:
    """GNOME's file-name order: case-insensitive, digit runs compared as numbers."""
    parts = _DIGITS.split(name.casefold())
    key = tuple((0, int(p), p) if p.isdigit() else (1, 0, p) for p in parts if p)
    return (key, name)


# -- the listing ---------------------------------------------------------------------------


class Row(NamedTuple):
    """One displayed entry.

    ``kind`` is ``dir``, ``file``, ``link`` (a broken symbolic link) or ``other``;
    ``size`` is bytes for a file, the number of (shown) entries for a folder, ``-1`` when
    unknown; ``location`` is the folder shown in the Location column of a virtual view or
    a search (the original folder in the Trash); ``key`` is the name in the Trash for a
    trashed entry, else the path.
    """

    path: str
    name: str
    kind: str
    size: int
    mtime: int
    location: str
    starred: bool
    cut: bool
    key: str


class Listing(NamedTuple):
    """What a window shows besides its state (the ``paint_key``): the rows in display
    order, a message replacing them (``error``, or ``empty``), the home folder's existing
    places, the day (times read relative to it: only the day, so the logical clock
    ticking does not repaint), whether the clipboard holds files, the home folder."""

    rows: tuple[Row, ...]
    error: str
    empty: str
    places: tuple[str, ...]
    today: tuple[int, int, int]
    paste: bool
    home: str


def _quoted(name: str) -> str:
    return f"“{name}”"


def _children(ufs: UserFS, folder: str) -> list[tuple[str, Any]]:
    """``(name, inode or None)`` of a folder's entries, by name (``listdir`` permissions).

    The folder is walked once; a child's inode is read directly when the folder may be
    searched (what a ``stat`` of the child would check), else it is ``None``. Symbolic
    links are given as ``None`` too, to be followed by a full ``stat``.
    """
    names = ufs.listdir(folder, "/")
    inode = ufs.lookup(folder, "/")
    searchable = ufs.cred.may(inode, 1)
    out = []
    for name in names:
        child = ufs.fs.inodes.get(inode.entries[name]) if searchable else None
        out.append((name, child if child is not None and child.kind != SYMLINK else None))
    return out


def _count(ufs: UserFS, inode: Any, hidden: bool) -> int:
    if not ufs.cred.may(inode, 4):
        return -1
    return sum(1 for n in inode.entries or {} if hidden or not n.startswith("."))


def _entry(ufs: UserFS, path: str, name: str, hidden: bool, location: str, starred: set[str], cut: set[str], key: str = "", inode: Any = None) -> Row:
    if inode is not None:
        if inode.kind == DIR:
            return Row(path, name, "dir", _count(ufs, inode, hidden), inode.mtime, location, path in starred, path in cut, key or path)
        kind = "file" if inode.kind == FILE else "other"
        return Row(path, name, kind, inode.size, inode.mtime, location, path in starred, path in cut, key or path)
    try:
        st = ufs.stat(path, "/")
    except FsError:
        try:
            st = ufs.stat(path, "/", follow=False)
        except FsError:
            return Row(path, name, "other", -1, 0, location, path in starred, path in cut, key or path)
        if st.kind == SYMLINK:
            return Row(path, name, "link", st.size, st.mtime, location, path in starred, path in cut, key or path)
    if st.kind == DIR:
        try:
            count = sum(1 for n in ufs.listdir(path, "/") if hidden or not n.startswith("."))
        except FsError:
            count = -1
        return Row(path, name, "dir", count, st.mtime, location, path in starred, path in cut, key or path)
    kind = "file" if st.kind == FILE else "other"
    return Row(path, name, kind, st.size, st.mtime, location, path in starred, path in cut, key or path)


def _sort(rows: list[Row], key: str, descending: bool) -> list[Row]:
    if key == "size":
        def k(r: Row) -> tuple:
            return (r.size, natural_key(r.name), r.path)
    elif key == "date":
        def k(r: Row) -> tuple:
            return (r.mtime, natural_key(r.name), r.path)
    else:
        def k(r: Row) -> tuple:
            return (natural_key(r.name), r.path)
    folders = sorted((r for r in rows if r.kind == "dir"), key=k, reverse=descending)
    files = sorted((r for r in rows if r.kind != "dir"), key=k, reverse=descending)
    return folders + files


def trash_dirs(home: str) -> tuple[str, str]:
    """The Trash's ``files`` and ``info`` folders (freedesktop.org layout)."""
    base = f"{home}/.local/share/Trash"
    return f"{base}/files", f"{base}/info"


def trash_origin(ufs: UserFS, home: str, name: str) -> str | None:
    """The original path a trashed entry came from (its ``.trashinfo``), if known."""
    _, info = trash_dirs(home)
    try:
        text = ufs.read(f"{info}/{name}.trashinfo", "/").decode("utf-8", "replace")
    except FsError:
        return None
    for line in text.splitlines():
        if line.startswith("Path="):
            return unquote(line[5:].strip())
    return None


def _search(ufs: UserFS, folder: str, needle: str, hidden: bool) -> list[tuple[str, str]]:
    """``(path, name)`` of entries below ``folder`` whose name contains ``needle``
    (case-insensitive), walking breadth first in name order, bounded."""
    found: list[tuple[str, str]] = []
    queue = [folder]
    visits = 0
    while queue and visits < SEARCH_VISITS and len(found) < SEARCH_RESULTS:
        current = queue.pop(0)
        try:
            names = ufs.listdir(current, "/")
        except FsError:
            continue
        for name in names:
            visits += 1
            if not hidden and name.startswith("."):
                continue
            path = join(current, name)
            if needle in name.casefold():
                found.append((path, name))
            if ufs.is_dir(path, "/"):
                try:
                    if ufs.stat(path, "/", follow=False).kind == DIR:
                        queue.append(path)
                except FsError:
                    pass
    return found


def _display_folder(path: str, home: str) -> str:
    if inside(path, home):
        return "Home" + path[len(home) :]
    return path


def listing(
    ufs: UserFS,
    home: str,
    location: str,
    *,
    hidden: bool,
    sort: str,
    descending: bool,
    search: str | None,
    starred: list[str],
    recents: list[str],
    clipboard: str,
    now_us: int,
) -> Listing:
    """The rows a tab shows, sorted (folders first) and filtered; see :class:`Listing`."""
    stars = set(starred)
    op, clip_paths = clipboard_files(clipboard)
    cut = set(clip_paths) if op == CLIP_CUT else set()
    rows: list[Row] = []
    error = empty = ""
    needle = (search or "").strip().casefold()
    if location == TRASH:
        files, _ = trash_dirs(home)
        try:
            names = ufs.listdir(files, "/")
        except FsError:
            names = []
        for name in names:
            origin = trash_origin(ufs, home, name)
            shown = basename(origin) if origin else name
            if needle and needle not in shown.casefold():
                continue
            where = _display_folder(dirname(origin), home) if origin else ""
            rows.append(_entry(ufs, join(files, name), shown, True, where, stars, cut, key=name))
        empty = "No Results Found" if needle else "Trash is Empty"
    elif location in (RECENT, STARRED, QUICK):
        if location == RECENT:
            paths = recents
            empty = "No Recent Files"
        elif location == STARRED:
            paths = sorted(stars)
            empty = "No Starred Files"
        else:
            paths = [home] + [join(home, p) for p, _ in PLACES]
            empty = "No Places"
        seen = set()
        for path in paths:
            if path in seen or not ufs.exists(path, "/"):
                continue
            seen.add(path)
            name = "Home" if path == home else basename(path)
            if needle and needle not in name.casefold():
                continue
            rows.append(_entry(ufs, path, name, hidden, _display_folder(dirname(path), home), stars, cut))
        if needle:
            empty = "No Results Found"
    else:
        try:
            children = _children(ufs, location)
        except FsError as exc:
            children = []
            if exc.code == "EACCES":
                error = f"You do not have the permissions necessary to view the contents of {_quoted(basename(location))}."
            elif exc.code == "ENOTDIR":
                error = f"{_quoted(location)} is not a folder."
            else:
                error = f"The folder {_quoted(location)} does not exist."
        if needle and not error:
            for path, name in _search(ufs, location, needle, hidden):
                rows.append(_entry(ufs, path, name, hidden, _display_folder(dirname(path), home), stars, cut))
            empty = "No Results Found"
        else:
            for name, inode in children:
                if not hidden and name.startswith("."):
                    continue
                rows.append(_entry(ufs, join(location, name), name, hidden, "", stars, cut, inode=inode))
            empty = "Folder is Empty"
    places = tuple(p for p, _ in PLACES if ufs.is_dir(join(home, p), "/"))
    return Listing(
        tuple(_sort(rows, sort, descending)), error, empty, places, day_of(now_us), bool(clip_paths), home
    )


# -- the clipboard -------------------------------------------------------------------------


def clipboard_text(op: str, paths: list[str]) -> str:
    """Files on the clipboard, in GNOME's ``x-special/gnome-copied-files`` form:
    the operation (``copy`` or ``cut``) on the first line, then one ``file://`` URI a line."""
    return "\n".join([op, *(f"file://{quote(p)}" for p in paths)])


def clipboard_files(text: str) -> tuple[str, list[str]]:
    """``(operation, paths)`` from clipboard text; ``("", [])`` when it holds no files."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if not lines or lines[0] not in (CLIP_COPY, CLIP_CUT):
        return "", []
    paths = []
    for line in lines[1:]:
        if not line.startswith("file:///"):
            return "", []
        paths.append(unquote(line[len("file://") :]))
    return (lines[0], paths) if paths else ("", [])


# -- operations ----------------------------------------------------------------------------


def validate_name(name: str, folder: bool) -> str:
    """Why ``name`` cannot name a new or renamed entry ('' when it can)."""
    what = "Folder" if folder else "File"
    if not name.strip():
        return f"{what} name cannot be empty."
    if "/" in name:
        return f"{what} names cannot contain “/”."
    if name in (".", ".."):
        return f"{_quoted(name)} is not a valid {what.lower()} name."
    if len(name.encode()) > 255:
        return f"{what} name is too long."
    return ""


def makedirs(ufs: UserFS, path: str) -> None:
    """Create ``path`` and its missing parents (``mkdir -p``)."""
    current = ""
    for part in path.strip("/").split("/"):
        current = f"{current}/{part}"
        if not ufs.exists(current, "/"):
            ufs.mkdir(current, "/")


def copy_name(ufs: UserFS, folder: str, name: str, is_dir: bool) -> str:
    """A free name in ``folder`` for a copy of ``name``: ``name``, else ``a (copy).txt``,
    ``a (copy 2).txt``..."""
    if not ufs.exists(join(folder, name), "/", follow=False):
        return name
    stem, ext = name, ""
    if not is_dir and "." in name[1:]:
        cut = name.rindex(".")
        stem, ext = name[:cut], name[cut:]
    for n in range(1, 10_000):
        label = "copy" if n == 1 else f"copy {n}"
        candidate = f"{stem} ({label}){ext}"
        if not ufs.exists(join(folder, candidate), "/", follow=False):
            return candidate
    raise FsError("EEXIST", join(folder, name))


def copy_tree(ufs: UserFS, src: str, dst: str) -> None:
    """Copy a file, symbolic link or folder (recursively) from ``src`` to a new ``dst``."""
    st = ufs.stat(src, "/", follow=False)
    if st.kind == SYMLINK:
        ufs.symlink(ufs.readlink(src, "/"), dst, "/")
    elif st.kind == DIR:
        ufs.mkdir(dst, "/", (st.mode & 0o777) | 0o700)
        for name in ufs.listdir(src, "/"):
            copy_tree(ufs, join(src, name), join(dst, name))
    else:
        ufs.write(dst, "/", ufs.read(src, "/"), mode=st.mode & 0o777)


def remove_tree(ufs: UserFS, path: str) -> None:
    """Delete ``path`` for good (recursively for a folder)."""
    st = ufs.stat(path, "/", follow=False)
    if st.kind == DIR:
        for name in ufs.listdir(path, "/"):
            remove_tree(ufs, join(path, name))
        ufs.rmdir(path, "/")
    else:
        ufs.unlink(path, "/")


def _trash_name(ufs: UserFS, files: str, info: str, name: str) -> str:
    for n in range(1, 100_000):
        if n == 1:
            candidate = name
        else:
            dot = name.find(".", 1)
            candidate = f"{name[:dot]}.{n}{name[dot:]}" if dot > 0 else f"{name}.{n}"
        if not ufs.exists(join(files, candidate), "/", follow=False) and not ufs.exists(
            join(info, candidate + ".trashinfo"), "/", follow=False
        ):
            return candidate
    raise FsError("EEXIST", name)


def trash(ufs: UserFS, home: str, path: str, now_us: int) -> str:
    """Move ``path`` to the Trash with its ``.trashinfo``; returns its name in the Trash."""
    files, info = trash_dirs(home)
    makedirs(ufs, files)
    makedirs(ufs, info)
    ufs.lookup(path, "/", follow=False)
    name = _trash_name(ufs, files, info, basename(path))
    record = f"[Trash Info]\nPath={quote(path)}\nDeletionDate={iso_time(now_us)}\n"
    ufs.write(join(info, name + ".trashinfo"), "/", record.encode())
    try:
        ufs.rename(path, join(files, name), "/")
    except FsError:
        ufs.unlink(join(info, name + ".trashinfo"), "/")
        raise
    return name


def restore(ufs: UserFS, home: str, name: str) -> str:
    """Put a trashed entry back where it came from; returns that path.

    Raises :class:`FsError` ``EEXIST`` when something is in the way, ``ENOENT`` when the
    entry has no record of its origin.
    """
    files, info = trash_dirs(home)
    origin = trash_origin(ufs, home, name)
    if origin is None:
        raise FsError("ENOENT", name)
    if ufs.exists(origin, "/", follow=False):
        raise FsError("EEXIST", origin)
    makedirs(ufs, dirname(origin))
    ufs.rename(join(files, name), origin, "/")
    with contextlib.suppress(FsError):
        ufs.unlink(join(info, name + ".trashinfo"), "/")
    return origin


def purge(ufs: UserFS, home: str, name: str) -> None:
    """Delete a trashed entry for good, with its record."""
    files, info = trash_dirs(home)
    remove_tree(ufs, join(files, name))
    if ufs.exists(join(info, name + ".trashinfo"), "/", follow=False):
        ufs.unlink(join(info, name + ".trashinfo"), "/")


def is_text(data: bytes) -> bool:
    """Whether a file's bytes look like text the Text Editor can open (UTF-8, no NUL)."""
    head = data[:SNIFF]
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a multi-byte character cut by the sniffing window is still text
        return len(data) > SNIFF and exc.start >= len(head) - 3
    return True
