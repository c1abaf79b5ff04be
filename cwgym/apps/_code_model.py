"""What ``code`` (Visual Studio Code) reads from the machine and works out from text: the
explorer's tree, the files Quick Open offers, languages by file name, comment tokens,
find matches, reading and writing a document (a helper module, not an application).

Everything here is a pure function of its arguments; listings are remembered by the
filesystem's digest (and the viewer) so an unchanged tree is not walked again on every
repaint.
"""

from __future__ import annotations

import posixpath
from collections import OrderedDict
from typing import Any, NamedTuple

from cwgym.machine.filesystem import FsError

__all__ = [
    "EXCLUDED",
    "MAX_FILE_BYTES",
    "MAX_QUICK_FILES",
    "MAX_TREE_ROWS",
    "Row",
    "comment_tokens",
    "decode",
    "encode",
    "find_all",
    "language",
    "quick_files",
    "rank_files",
    "resolve",
    "tree",
]

#: Names the explorer and Quick Open leave out, as VS Code's default ``files.exclude``
#: does (every other dot file is shown).
EXCLUDED = frozenset({".git", ".svn", ".hg", "CVS", ".DS_Store", "Thumbs.db"})
#: The most rows the explorer lists (deeper rows are left out).
MAX_TREE_ROWS = 2000
#: The most files Quick Open walks through in a workspace.
MAX_QUICK_FILES = 5000
#: The largest file an editor tab opens (bigger files are refused with a message).
MAX_FILE_BYTES = 1 << 20

_LANGUAGES = {
    ".bat": "Batch",
    ".c": "C",
    ".cc": "C++",
    ".cfg": "Ini",
    ".conf": "Properties",
    ".cpp": "C++",
    ".cs": "C#",
    ".css": "CSS",
    ".csv": "CSV",
    ".go": "Go",
    ".h": "C",
    ".hpp": "C++",
    ".htm": "HTML",
    ".html": "HTML",
    ".ics": "Plain Text",
    ".ini": "Ini",
    ".java": "Java",
    ".js": "JavaScript",
    ".json": "JSON",
    ".jsx": "JavaScript JSX",
    ".kt": "Kotlin",
    ".less": "Less",
    ".lua": "Lua",
    ".md": "Markdown",
    ".mjs": "JavaScript",
    ".php": "PHP",
    ".pl": "Perl",
    ".ps1": "PowerShell",
    ".py": "Python",
    ".r": "R",
    ".rb": "Ruby",
    ".rs": "Rust",
    ".scss": "SCSS",
    ".sh": "Shell Script",
    ".sql": "SQL",
    ".svg": "XML",
    ".swift": "Swift",
    ".toml": "TOML",
    ".ts": "TypeScript",
    ".tsx": "TypeScript JSX",
    ".txt": "Plain Text",
    ".xml": "XML",
    ".yaml": "YAML",
    ".yml": "YAML",
    ".bash": "Shell Script",
    ".zsh": "Shell Script",
}
_NAMES = {
    "Makefile": "Makefile",
    "makefile": "Makefile",
    "Dockerfile": "Dockerfile",
    ".bashrc": "Shell Script",
    ".profile": "Shell Script",
    ".bash_profile": "Shell Script",
    ".gitignore": "Ignore",
    ".env": "Properties",
}
#: Line comment (or block comment pair) of each language.
_COMMENTS: dict[str, tuple[str, str]] = {
    "Python": ("#", ""),
    "Shell Script": ("#", ""),
    "Makefile": ("#", ""),
    "Dockerfile": ("#", ""),
    "YAML": ("#", ""),
    "TOML": ("#", ""),
    "Ruby": ("#", ""),
    "Perl": ("#", ""),
    "R": ("#", ""),
    "PowerShell": ("#", ""),
    "Ignore": ("#", ""),
    "Properties": ("#", ""),
    "Ini": (";", ""),
    "C": ("//", ""),
    "C++": ("//", ""),
    "C#": ("//", ""),
    "Go": ("//", ""),
    "Java": ("//", ""),
    "JavaScript": ("//", ""),
    "JavaScript JSX": ("//", ""),
    "TypeScript": ("//", ""),
    "TypeScript JSX": ("//", ""),
    "Kotlin": ("//", ""),
    "Rust": ("//", ""),
    "Swift": ("//", ""),
    "PHP": ("//", ""),
    "SCSS": ("//", ""),
    "Less": ("//", ""),
    "JSON": ("//", ""),
    "SQL": ("--", ""),
    "Lua": ("--", ""),
    "Batch": ("REM ", ""),
    "CSS": ("/*", "*/"),
    "HTML": ("<!--", "-->"),
    "XML": ("<!--", "-->"),
    "Markdown": ("<!--", "-->"),
}


def language(name: str | None) -> str:
    """The language mode VS Code picks for a file name (``Plain Text`` when unknown)."""
    if not name:
        return "Plain Text"
    base = posixpath.basename(name)
    if base in _NAMES:
        return _NAMES[base]
    _stem, ext = posixpath.splitext(base)
    return _LANGUAGES.get(ext.lower(), "Plain Text")


def comment_tokens(lang: str) -> tuple[str, str] | None:
    """``(start, end)`` of a comment in ``lang`` (``end`` empty for a line comment); ``None``
    for a language without comments (Plain Text, CSV)."""
    return _COMMENTS.get(lang)


def resolve(raw: str, home: str, base: str) -> str:
    """A typed path made absolute: ``~`` is the home folder, a relative path is from ``base``."""
    raw = raw.strip()
    if raw == "~":
        path = home
    elif raw.startswith("~/"):
        path = home + raw[1:]
    elif raw.startswith("/"):
        path = raw
    else:
        path = f"{base.rstrip('/')}/{raw}"
    return posixpath.normpath(path)


def decode(data: bytes) -> tuple[str | None, str, str]:
    """``(text, eol, problem)`` of a file's bytes: the text with ``\\n`` line ends and the
    file's own (``LF`` or ``CRLF``), or ``None`` and why it cannot be shown."""
    if len(data) > MAX_FILE_BYTES:
        return (
            None,
            "LF",
            f"The file is too large to open in the editor (over {MAX_FILE_BYTES // 1024} KiB).",
        )
    if b"\0" in data:
        return None, "LF", "The file is not displayed in the text editor because it is binary."
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return (
            None,
            "LF",
            "The file is not displayed in the text editor because it uses an unsupported text encoding.",
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    eol = "CRLF" if "\r\n" in text else "LF"
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, eol, ""


def encode(text: str, eol: str) -> bytes:
    """A document's bytes on disk: UTF-8 with its line ends."""
    if eol == "CRLF":
        text = text.replace("\n", "\r\n")
    return text.encode("utf-8")


# -- the explorer ----------------------------------------------------------------------------


class Row(NamedTuple):
    """One explorer row: depth under the root, name, path relative to the root, folder?,
    expanded?, readable?"""

    depth: int
    name: str
    rel: str
    folder: bool
    open: bool
    readable: bool


_TREES: OrderedDict[Any, tuple[Row, ...]] = OrderedDict()
_QUICK: OrderedDict[Any, tuple[str, ...]] = OrderedDict()
_KEPT = 64


def _remember(cache: OrderedDict, key: Any, make: Any) -> Any:
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
        return hit
    value = cache[key] = make()
    if len(cache) > _KEPT:
        cache.popitem(last=False)
    return value


def _entries(ufs: Any, folder: str) -> list[tuple[str, bool]] | None:
    """A folder's shown entries, folders first then files, each by name (case-folded,
    then exact); ``None`` when it cannot be listed."""
    try:
        names = ufs.listdir(folder, "/")
    except FsError:
        return None
    out = []
    for name in names:
        if name in EXCLUDED:
            continue
        out.append((name, ufs.is_dir(f"{folder.rstrip('/')}/{name}", "/")))
    out.sort(key=lambda e: (not e[1], e[0].lower(), e[0]))
    return out


def tree(ufs: Any, root: str, expanded: tuple[str, ...]) -> tuple[Row, ...]:
    """The explorer's rows under ``root`` with the folders ``expanded`` (paths relative to
    the root) open, at most :data:`MAX_TREE_ROWS`."""
    key = (ufs.fs.digest(), ufs.cred.uid, ufs.cred.groups, root, expanded)
    return _remember(_TREES, key, lambda: _walk_tree(ufs, root, frozenset(expanded)))


def _walk_tree(ufs: Any, root: str, expanded: frozenset[str]) -> tuple[Row, ...]:
    rows: list[Row] = []

    def visit(folder: str, rel: str, depth: int) -> None:
        entries = _entries(ufs, folder) or []
        for name, is_dir in entries:
            if len(rows) >= MAX_TREE_ROWS:
                return
            child_rel = f"{rel}/{name}" if rel else name
            child = f"{folder.rstrip('/')}/{name}"
            opened = is_dir and child_rel in expanded
            readable = True
            if opened:
                readable = _entries(ufs, child) is not None
            rows.append(Row(depth, name, child_rel, is_dir, opened, readable))
            if opened and readable:
                visit(child, child_rel, depth + 1)

    visit(root, "", 0)
    return tuple(rows)


def quick_files(ufs: Any, root: str) -> tuple[str, ...]:
    """The files under ``root`` (relative paths, depth first in explorer order), at most
    :data:`MAX_QUICK_FILES`."""
    key = (ufs.fs.digest(), ufs.cred.uid, ufs.cred.groups, root)
    return _remember(_QUICK, key, lambda: _walk_files(ufs, root))


def _walk_files(ufs: Any, root: str) -> tuple[str, ...]:
    out: list[str] = []
    stack: list[tuple[str, str]] = [(root, "")]
    while stack and len(out) < MAX_QUICK_FILES:
        folder, rel = stack.pop()
        entries = _entries(ufs, folder) or []
        subfolders = []
        for name, is_dir in entries:
            child_rel = f"{rel}/{name}" if rel else name
            if is_dir:
                subfolders.append((f"{folder.rstrip('/')}/{name}", child_rel))
            elif len(out) < MAX_QUICK_FILES:
                out.append(child_rel)
        stack.extend(reversed(subfolders))
    return tuple(out)


def rank_files(files: tuple[str, ...], query: str) -> list[str]:
    """Quick Open's list for ``query``: files whose path contains it (case-insensitive),
    those whose name starts with it first, then those whose name contains it, then the
    rest, each group by path."""
    q = query.strip().lower()
    if not q:
        return sorted(files, key=lambda f: (f.lower(), f))
    ranked = []
    for f in files:
        low = f.lower()
        if q not in low:
            continue
        name = low.rsplit("/", 1)[-1]
        rank = 0 if name.startswith(q) else 1 if q in name else 2
        ranked.append((rank, low, f))
    ranked.sort()
    return [f for _r, _l, f in ranked]


# -- finding ---------------------------------------------------------------------------------


def find_all(text: str, query: str, case: bool) -> list[int]:
    """The offsets where ``query`` occurs in ``text`` (not overlapping, left to right);
    without ``case`` letters match either case."""
    if not query:
        return []
    hay, needle = text, query
    if not case:
        low_hay, low_needle = text.lower(), query.lower()
        if len(low_hay) == len(text) and len(low_needle) == len(query):
            hay, needle = low_hay, low_needle
    out = []
    at = hay.find(needle)
    while at >= 0:
        out.append(at)
        at = hay.find(needle, at + len(needle))
    return out
