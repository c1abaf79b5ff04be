"""``drive``: file storage in the manner of Google Drive or Nextcloud — each account's own
tree of folders and files, uploads from a machine, downloads, rename and move, a trash, and
read-only sharing with other accounts.

Paths are the names from the root joined by ``/`` (``reports/2026/q3.txt``); a name is 1 to
255 characters without ``/``, control characters, ``.`` or ``..``. A file goes into an
existing folder (uploading into a missing one is ``409``, as WebDAV answers). Bodies are
stored as text: a UTF-8 upload as it is, anything else base64-encoded with
``"encoding": "base64"`` beside it; a download gives the original bytes back, with a
``Content-Type`` from the name's extension. Every account has ``quota_bytes`` (15 GB by
default) counted over its files and its trash; an upload that would pass it is ``507
Insufficient Storage``. A file or folder shared with another account appears under their
"Shared with me", read-only; a share follows its item when the owner renames or moves it and
is suspended while the item is in the trash.

Pages (forms post ``application/x-www-form-urlencoded``; ``?owner=NAME`` on ``/files/...``
and ``/download/...`` opens what NAME shared with you):

======================================  =============================================================
``GET /`` · ``GET /files/{path...}``    a folder's listing (with the new-folder and upload forms, quota) or a file's page
``POST /folders``                       ``parent``, ``name``: a new folder
``POST /upload``                        ``folder``, ``name``, ``content``: a text file (replaces one of the same name)
``GET /download/{path...}``             the file's bytes
``POST /rename`` · ``POST /move``       ``path`` and ``name`` (same folder) / ``to`` (the new full path)
``POST /delete``                        ``path``: to the trash (with everything under it)
``GET /trash``                          the trash; ``POST /trash/{id}/restore``, ``POST /trash/{id}/delete``, ``POST /trash/empty``
``POST /share`` · ``POST /unshare``     ``path``, ``user``: read-only access for another account
``GET /shared``                         Shared with me
======================================  =============================================================

JSON API (HTTP Basic or the ``sid`` cookie): ``PUT /api/files/{path...}`` (the raw request
body, as ``curl -T file URL`` or ``curl --data-binary @file URL`` send it; ``201``, or
``200`` when it replaced a file), ``GET /api/files/{path...}`` (a folder: its listing as JSON;
a file: its bytes), ``GET /api/files`` (the root), ``GET /api/info/{path...}``,
``DELETE /api/files/{path...}`` (to the trash), ``POST /api/folders`` ``{path}``,
``POST /api/move`` ``{from, to}``, ``POST /api/share`` ``{path, user}``, ``GET /api/shared``,
``GET /api/trash``, ``POST /api/trash/{id}/restore``, ``GET /api/quota``.

``initial_state``::

    {"users": [{"name", "password"}], "files"?: {user: {path: text}}, "quota_bytes"?: int}

A path ending in ``/`` is an empty folder; the folders above every file are made. The built
state keeps ``files`` as ``{user: {path: {"type": "folder" | "file", "modified", "content"?,
"encoding"?, "size"?}}}``, with ``trash`` (``{user: {id: {path, items, shares, deleted}}}``),
``shares`` (``[{owner, path, user}]``) and the counter ``next_trash``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.http import Headers, Response
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Form, Heading, Input, Link, ListBlock, Table, Text, TextArea
from cwgym.services.framework import (
    MAX_BODY,
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc,
    assoc_in,
    check_fields,
    next_id,
    route,
    timestamp,
)

DEFAULT_QUOTA = 15_000_000_000
TYPES = {
    "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8", "csv": "text/csv; charset=utf-8",
    "log": "text/plain; charset=utf-8", "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
    "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "json": "application/json",
    "xml": "application/xml", "yaml": "application/yaml", "yml": "application/yaml", "pdf": "application/pdf",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
    "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "py": "text/x-python; charset=utf-8",
    "sh": "application/x-sh", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def content_type(path: str) -> str:
    """The ``Content-Type`` a download of ``path`` carries, by its extension."""
    name = path.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return TYPES.get(ext, "application/octet-stream")


def _clean(path: str, *, root_ok: bool = False) -> str:
    """``path`` as ``a/b/c``; ``400`` when a name in it is not allowed."""
    parts = [p for p in path.strip("/").split("/") if p != ""] if path.strip("/") else []
    if not parts:
        if root_ok:
            return ""
        raise HttpError(400, "a path names a file or folder (the root cannot be changed)")
    for part in parts:
        if part in (".", "..") or len(part) > 255 or any(ord(ch) < 32 for ch in part):
            raise HttpError(400, f"{part!r} is not a file name (1-255 characters, no '/', no control characters, not '.' or '..')")
    return "/".join(parts)


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + "/")


def _size(entry: dict) -> int:
    return entry.get("size", 0)


def _human(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}".replace(".0 ", " ")
        n /= 1000
    return str(n)


class Drive(WebService):
    name = "drive"
    title = "Drive"
    fields: ClassVar[dict] = {"files": dict, "quota_bytes": int, "trash": dict, "shares": list, "next_trash": int}

    # -- state ---------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        quota = state.get("quota_bytes", DEFAULT_QUOTA)
        if quota <= 0:
            raise ValueError(f"{where}.quota_bytes: a positive number of bytes, got {quota}")
        files: dict[str, dict] = {}
        for user, tree in state.get("files", {}).items():
            at = f"{where}.files.{user}"
            if user not in users:
                raise ValueError(f"{at}: {user!r} is not an account in users")
            if not isinstance(tree, dict):
                raise ValueError(f"{at}: an object of path to text, got {type(tree).__name__}")
            files[user] = self._tree(tree, at)
        trash = state.get("trash", {})
        for user, items in trash.items():
            if user not in users or not isinstance(items, dict):
                raise ValueError(f"{where}.trash.{user}: the trash of an account, by id")
            for tid, item in items.items():
                check_fields(item, f"{where}.trash.{user}[{tid!r}]", {"path": str, "items": dict, "shares": list, "deleted": str},
                             ("path", "items", "shares", "deleted"))
        shares = state.get("shares", [])
        for i, share in enumerate(shares):
            at = f"{where}.shares[{i}]"
            check_fields(share, at, {"owner": str, "path": str, "user": str}, ("owner", "path", "user"))
            if share["owner"] not in users or share["user"] not in users:
                raise ValueError(f"{at}: owner and user are accounts in users")
            if share["path"] not in files.get(share["owner"], {}):
                raise ValueError(f"{at}.path: {share['owner']} has no {share['path']!r}")
        return {"files": files, "quota_bytes": quota, "trash": trash, "shares": shares,
                "next_trash": state.get("next_trash", 1)}

    @staticmethod
    def _tree(tree: dict, at: str) -> dict:
        out: dict[str, dict] = {}
        for raw, value in tree.items():
            where = f"{at}[{raw!r}]"
            try:
                path = _clean(raw)
            except HttpError as exc:
                raise ValueError(f"{where}: {exc.message}") from None
            if isinstance(value, dict):  # a built entry
                check_fields(value, where, {"type": str, "modified": str, "content": str, "encoding": str, "size": int},
                             ("type", "modified"))
                if value["type"] not in ("file", "folder") or (value["type"] == "file" and "content" not in value):
                    raise ValueError(f"{where}: a file has type 'file' and content, a folder type 'folder'")
                if value.get("encoding", "utf-8") not in ("utf-8", "base64"):
                    raise ValueError(f"{where}.encoding: 'utf-8' or 'base64'")
                entry = value
            elif isinstance(value, str):
                if raw.endswith("/"):
                    if value:
                        raise ValueError(f"{where}: a path ending in '/' is a folder; its value is \"\"")
                    entry = {"type": "folder", "modified": timestamp(0)}
                else:
                    entry = {"type": "file", "modified": timestamp(0), "content": value, "encoding": "utf-8",
                             "size": len(value.encode("utf-8"))}
            else:
                raise ValueError(f"{where}: a file's text, got {type(value).__name__}")
            parent = _parent(path)
            while parent:
                if out.get(parent, {}).get("type") == "file":
                    raise ValueError(f"{where}: {parent!r} is a file, not a folder")
                out.setdefault(parent, {"type": "folder", "modified": timestamp(0)})
                parent = _parent(parent)
            if path in out and (out[path]["type"] == "folder") != (entry["type"] == "folder"):
                raise ValueError(f"{where}: {path!r} is both a file and a folder")
            out[path] = entry
        return out

    # -- reading -------------------------------------------------------------------------
    def _used(self, state: dict, user: str) -> int:
        used = sum(_size(e) for e in state["files"].get(user, {}).values())
        return used + sum(_size(e) for item in state["trash"].get(user, {}).values() for e in item["items"].values())

    def _locate(self, ctx: Ctx, path: str) -> tuple[str, str, dict | None]:
        """``(owner, path, entry)`` of a path the signed-in user may read: their own, or (with
        ``?owner=``) inside something that owner shared with them. ``entry`` is None at the root."""
        user = ctx.require_user()
        owner = ctx.query.get("owner", user) or user
        path = _clean(path, root_ok=True)
        tree = ctx.state["files"].get(owner, {})
        if owner != user and (owner not in ctx.state["users"] or not any(
                s["owner"] == owner and s["user"] == user and _under(path, s["path"]) for s in ctx.state["shares"])):
                raise HttpError(404, f"{owner} has shared no {path or 'root folder'!r} with you")
        if path == "":
            return owner, path, None
        if path not in tree:
            raise HttpError(404, f"no file or folder {path!r}")
        return owner, path, tree[path]

    def _listing(self, state: dict, owner: str, folder: str) -> list[tuple[str, dict]]:
        tree = state["files"].get(owner, {})
        children = [(p, e) for p, e in tree.items() if _parent(p) == folder and p != folder]
        return sorted(children, key=lambda pe: (pe[1]["type"] != "folder", pe[0].lower(), pe[0]))

    def _shared_with(self, state: dict, user: str) -> list[dict]:
        return sorted((s for s in state["shares"] if s["user"] == user), key=lambda s: (s["owner"], s["path"]))

    @staticmethod
    def _bytes(entry: dict) -> bytes:
        if entry.get("encoding") == "base64":
            return base64.b64decode(entry["content"])
        return entry["content"].encode("utf-8")

    def _info(self, state: dict, owner: str, path: str, entry: dict) -> dict:
        info = {"path": path, "name": path.rsplit("/", 1)[-1], "type": entry["type"], "modified": entry["modified"],
                "owner": owner}
        if entry["type"] == "file":
            info.update(size=entry["size"], content_type=content_type(path))
        info["shared_with"] = sorted(s["user"] for s in state["shares"] if s["owner"] == owner and s["path"] == path)
        return info

    # -- changes -------------------------------------------------------------------------
    def _write(self, ctx: Ctx, user: str, path: str, data: bytes | str) -> bool:
        """Store a file; True when it replaced one."""
        path = _clean(path)
        tree = ctx.state["files"].get(user, {})
        parent = _parent(path)
        if parent and tree.get(parent, {}).get("type") != "folder":
            raise HttpError(409, f"the folder {parent!r} does not exist; create it first")
        old = tree.get(path)
        if old is not None and old["type"] == "folder":
            raise HttpError(409, f"{path!r} is a folder")
        if isinstance(data, str):
            entry = {"content": data, "encoding": "utf-8", "size": len(data.encode("utf-8"))}
        else:
            try:
                entry = {"content": data.decode("utf-8"), "encoding": "utf-8", "size": len(data)}
            except UnicodeDecodeError:
                entry = {"content": base64.b64encode(data).decode("ascii"), "encoding": "base64", "size": len(data)}
        free = ctx.state["quota_bytes"] - (self._used(ctx.state, user) - (_size(old) if old else 0))
        if entry["size"] > free:
            raise HttpError(507, f"not enough storage: the file is {entry['size']} bytes and {max(free, 0)} "
                                 f"of your {ctx.state['quota_bytes']} bytes are free")
        ctx.state = assoc_in(ctx.state, ["files", user], assoc(tree, path, {"type": "file", "modified": timestamp(ctx.now_us), **entry}))
        return old is not None

    def _mkdir(self, ctx: Ctx, user: str, path: str) -> str:
        path = _clean(path)
        tree = ctx.state["files"].get(user, {})
        parent = _parent(path)
        if parent and tree.get(parent, {}).get("type") != "folder":
            raise HttpError(409, f"the folder {parent!r} does not exist")
        if path in tree:
            raise HttpError(409, f"{path!r} already exists")
        ctx.state = assoc_in(ctx.state, ["files", user], assoc(tree, path, {"type": "folder", "modified": timestamp(ctx.now_us)}))
        return path

    def _move(self, ctx: Ctx, user: str, source: str, target: str) -> str:
        source, target = _clean(source), _clean(target)
        tree = ctx.state["files"].get(user, {})
        if source not in tree:
            raise HttpError(404, f"no file or folder {source!r}")
        if target == source:
            return target
        if _under(target, source):
            raise HttpError(409, "a folder cannot move into itself")
        if target in tree:
            raise HttpError(409, f"{target!r} already exists")
        parent = _parent(target)
        if parent and tree.get(parent, {}).get("type") != "folder":
            raise HttpError(409, f"the folder {parent!r} does not exist")

        def moved(p: str) -> str:
            return target + p[len(source):] if _under(p, source) else p

        new_tree = {moved(p): e for p, e in tree.items()}
        new_tree[target] = {**new_tree[target], "modified": timestamp(ctx.now_us)}
        shares = [{**s, "path": moved(s["path"])} if s["owner"] == user else s for s in ctx.state["shares"]]
        ctx.state = {**assoc_in(ctx.state, ["files", user], new_tree), "shares": shares}
        return target

    def _trash(self, ctx: Ctx, user: str, path: str) -> int:
        path = _clean(path)
        tree = ctx.state["files"].get(user, {})
        if path not in tree:
            raise HttpError(404, f"no file or folder {path!r}")
        items = {p: e for p, e in tree.items() if _under(p, path)}
        mine = [s for s in ctx.state["shares"] if s["owner"] == user and _under(s["path"], path)]
        n, state = next_id(ctx.state, "next_trash")
        item = {"path": path, "items": items, "shares": mine, "deleted": timestamp(ctx.now_us)}
        state = assoc_in(state, ["files", user], {p: e for p, e in tree.items() if not _under(p, path)})
        state = assoc_in(state, ["trash", user], assoc(state["trash"].get(user, {}), str(n), item))
        ctx.state = {**state, "shares": [s for s in state["shares"] if s not in mine]}
        return n

    def _trash_item(self, ctx: Ctx, user: str) -> tuple[str, dict]:
        tid = ctx.params["id"]
        item = ctx.state["trash"].get(user, {}).get(tid)
        if item is None:
            raise HttpError(404, f"nothing in your trash has the id {tid!r}")
        return tid, item

    def _restore(self, ctx: Ctx, user: str) -> str:
        tid, item = self._trash_item(ctx, user)
        tree = ctx.state["files"].get(user, {})
        if item["path"] in tree:
            raise HttpError(409, f"{item['path']!r} exists again; rename or delete it before restoring")
        new_tree = {**tree, **item["items"]}
        parent = _parent(item["path"])
        while parent and parent not in new_tree:  # folders deleted since come back empty
            new_tree[parent] = {"type": "folder", "modified": timestamp(ctx.now_us)}
            parent = _parent(parent)
        state = assoc_in(ctx.state, ["files", user], new_tree)
        state = assoc_in(state, ["trash", user], {k: v for k, v in state["trash"][user].items() if k != tid})
        ctx.state = {**state, "shares": [*state["shares"], *item["shares"]]}
        return item["path"]

    def _purge(self, ctx: Ctx, user: str, tid: str | None) -> None:
        ctx.state = assoc_in(ctx.state, ["trash", user],
                             {} if tid is None else {k: v for k, v in ctx.state["trash"].get(user, {}).items() if k != tid})

    def _share(self, ctx: Ctx, user: str, share: bool) -> tuple[str, str]:
        path = _clean(ctx.field("path", limit=4096))
        other = ctx.field("user", limit=64).strip()
        if path not in ctx.state["files"].get(user, {}):
            raise HttpError(404, f"no file or folder {path!r}")
        if other not in ctx.state["users"]:
            raise HttpError(404, f"no account named {other!r}")
        if other == user:
            raise HttpError(400, "you cannot share with yourself")
        record = {"owner": user, "path": path, "user": other}
        rest = [s for s in ctx.state["shares"] if s != record]
        ctx.state = {**ctx.state, "shares": [*rest, record] if share else rest}
        return path, other

    # -- pages ---------------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        if ctx.user is None:
            return self.page(ctx, "Drive", [
                Heading("Drive", id="home-title"),
                Text("Store your files, reach them from any machine, share them.", id="home-intro"),
                Link("Sign in to open your drive", "/login", id="home-sign-in"),
            ])
        return self._folder_page(ctx, ctx.user, "")

    @route("GET", "/files")
    def files_root(self, ctx: Ctx) -> Any:
        return self.browse(ctx)

    @route("GET", "/files/{path...}")
    def browse(self, ctx: Ctx) -> Any:
        owner, path, entry = self._locate(ctx, ctx.params.get("path", ""))
        if entry is None or entry["type"] == "folder":
            return self._folder_page(ctx, owner, path)
        return self._file_page(ctx, owner, path, entry)

    def _q(self, ctx: Ctx, owner: str) -> str:
        return "" if owner == ctx.user else f"?owner={quote(owner)}"

    def _crumbs(self, ctx: Ctx, owner: str, path: str) -> Text:
        top = "My Drive" if owner == ctx.user else f"Shared by {owner}"
        return Text(" / ".join([top, *path.split("/")]) if path else top, id="breadcrumbs")

    def _folder_page(self, ctx: Ctx, owner: str, folder: str) -> Any:
        mine = owner == ctx.user
        q = self._q(ctx, owner)
        rows = []
        for p, e in self._listing(ctx.state, owner, folder):
            name = p.rsplit("/", 1)[-1]
            rows.append((Link(name + ("/" if e["type"] == "folder" else ""), f"/files/{quote(p)}{q}", id=f"item-{p}"),
                         Text("Folder" if e["type"] == "folder" else _human(e["size"]), id=f"item-{p}-size"),
                         Text(e["modified"], id=f"item-{p}-modified")))
        body: list = [Heading(folder.rsplit("/", 1)[-1] if folder else ("My Drive" if mine else f"Shared by {owner}"), id="folder-title"),
                      self._crumbs(ctx, owner, folder)]
        if folder:
            body.append(Link("Up", f"/files/{quote(_parent(folder))}{q}" if _parent(folder) or mine else "/shared", id="folder-up"))
        body.append(Table(("Name", "Size", "Modified"), tuple(rows), id="listing") if rows else Text("This folder is empty.", id="listing-empty"))
        if mine:
            used = self._used(ctx.state, owner)
            body += [
                Form("/folders", (Input("parent", type="hidden", value=folder, id="new-folder-parent"),
                                  Input("name", label="New folder", required=True, id="new-folder-name"),
                                  Button("Create folder", id="new-folder-create")), id="new-folder"),
                Form("/upload", (Input("folder", type="hidden", value=folder, id="upload-folder"),
                                 Input("name", label="File name", required=True, id="upload-name"),
                                 TextArea("content", label="Contents", rows=10, id="upload-content"),
                                 Button("Upload", id="upload-submit")), id="upload"),
                ListBlock((Link("Shared with me", "/shared", id="nav-shared"), Link("Trash", "/trash", id="nav-trash")), id="nav"),
                Text(f"Storage: {_human(used)} of {_human(ctx.state['quota_bytes'])} used", id="quota"),
            ]
        return self.page(ctx, folder or "Drive", body)

    def _file_page(self, ctx: Ctx, owner: str, path: str, entry: dict) -> Any:
        q = self._q(ctx, owner)
        name = path.rsplit("/", 1)[-1]
        body: list = [Heading(name, id="file-title"), self._crumbs(ctx, owner, path),
                      Text(f"{_human(entry['size'])} · {content_type(path).split(';')[0]} · modified {entry['modified']}", id="file-meta"),
                      Link("Download", f"/download/{quote(path)}{q}", id="file-download")]
        if entry.get("encoding") == "utf-8":
            body.append(Text(entry["content"], id="file-preview"))
        else:
            body.append(Text("No preview for a binary file.", id="file-preview"))
        if owner == ctx.user:
            shared = [s["user"] for s in ctx.state["shares"] if s["owner"] == owner and s["path"] == path]
            body += [
                Form("/rename", (Input("path", type="hidden", value=path, id="rename-path"),
                                 Input("name", label="Rename to", value=name, id="rename-name"),
                                 Button("Rename", id="rename-submit")), id="rename"),
                Form("/move", (Input("path", type="hidden", value=path, id="move-path"),
                               Input("to", label="Move to (full path)", value=path, id="move-to"),
                               Button("Move", id="move-submit")), id="move"),
                Form("/share", (Input("path", type="hidden", value=path, id="share-path"),
                                Input("user", label="Share with (user name, can view)", id="share-user"),
                                Button("Share", id="share-submit")), id="share"),
                Text(f"Shared with: {', '.join(sorted(shared))}" if shared else "Not shared", id="file-shared"),
                Form("/delete", (Input("path", type="hidden", value=path, id="delete-path"),
                                 Button("Move to trash", id="delete-submit")), id="delete"),
            ]
        return self.page(ctx, name, body)

    @route("GET", "/download/{path...}")
    def download(self, ctx: Ctx) -> Any:
        _, path, entry = self._locate(ctx, ctx.params["path"])
        if entry is None or entry["type"] == "folder":
            raise HttpError(400, f"{path or 'the root'!r} is a folder; download its files one by one")
        data = self._bytes(entry)
        name = path.rsplit("/", 1)[-1].replace('"', "_")
        return Response(200, Headers((("Content-Type", content_type(path)), ("Content-Length", str(len(data))),
                                      ("Content-Disposition", f'attachment; filename="{name}"'))), data)

    @route("POST", "/folders")
    def new_folder(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        parent = _clean(ctx.field("parent", required=False, limit=4096), root_ok=True)
        name = ctx.field("name", limit=255).strip()
        if "/" in name:
            raise HttpError(400, "a folder name has no '/'")
        path = self._mkdir(ctx, user, f"{parent}/{name}" if parent else name)
        return Redirect(f"/files/{quote(path)}")

    @route("POST", "/upload")
    def upload_form(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        folder = _clean(ctx.field("folder", required=False, limit=4096), root_ok=True)
        name = ctx.field("name", limit=255).strip()
        if "/" in name:
            raise HttpError(400, "a file name has no '/'")
        path = _clean(f"{folder}/{name}" if folder else name)
        self._write(ctx, user, path, ctx.field("content", required=False, limit=MAX_BODY))
        return Redirect(f"/files/{quote(path)}")

    @route("POST", "/rename")
    def rename(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path = _clean(ctx.field("path", limit=4096))
        name = ctx.field("name", limit=255).strip()
        if "/" in name:
            raise HttpError(400, "a name has no '/'; use Move to change folders")
        parent = _parent(path)
        target = self._move(ctx, user, path, f"{parent}/{name}" if parent else name)
        return Redirect(f"/files/{quote(target)}")

    @route("POST", "/move")
    def move(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        target = self._move(ctx, user, ctx.field("path", limit=4096), ctx.field("to", limit=4096))
        return Redirect(f"/files/{quote(target)}")

    @route("POST", "/delete")
    def delete(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path = _clean(ctx.field("path", limit=4096))
        self._trash(ctx, user, path)
        return Redirect(f"/files/{quote(_parent(path))}" if _parent(path) else "/")

    @route("GET", "/trash")
    def trash(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        items = sorted(ctx.state["trash"].get(user, {}).items(), key=lambda kv: int(kv[0]))
        rows = tuple((Text(item["path"], id=f"trash-{tid}-path"), Text(item["deleted"], id=f"trash-{tid}-deleted"),
                      Form(f"/trash/{tid}/restore", (Button("Restore", id=f"trash-{tid}-restore"),), id=f"trash-{tid}-restore-form"),
                      Form(f"/trash/{tid}/delete", (Button("Delete forever", id=f"trash-{tid}-delete"),), id=f"trash-{tid}-delete-form"))
                     for tid, item in items)
        body: list = [Heading("Trash", id="trash-title")]
        if rows:
            body += [Table(("Name", "Deleted", "", ""), rows, id="trash-items"),
                     Form("/trash/empty", (Button("Empty trash", id="trash-empty"),), id="trash-empty-form")]
        else:
            body.append(Text("The trash is empty.", id="trash-none"))
        body.append(Link("My Drive", "/files", id="trash-back"))
        return self.page(ctx, "Trash", body)

    @route("POST", "/trash/{id}/restore")
    def restore(self, ctx: Ctx) -> Any:
        path = self._restore(ctx, ctx.require_user())
        return Redirect(f"/files/{quote(path)}")

    @route("POST", "/trash/{id}/delete")
    def purge(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        tid, _ = self._trash_item(ctx, user)
        self._purge(ctx, user, tid)
        return Redirect("/trash")

    @route("POST", "/trash/empty")
    def empty_trash(self, ctx: Ctx) -> Any:
        self._purge(ctx, ctx.require_user(), None)
        return Redirect("/trash")

    @route("POST", "/share")
    def share(self, ctx: Ctx) -> Any:
        path, _ = self._share(ctx, ctx.require_user(), True)
        return Redirect(f"/files/{quote(path)}")

    @route("POST", "/unshare")
    def unshare(self, ctx: Ctx) -> Any:
        path, _ = self._share(ctx, ctx.require_user(), False)
        return Redirect(f"/files/{quote(path)}")

    @route("GET", "/shared")
    def shared(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        rows = []
        for s in self._shared_with(ctx.state, user):
            entry = ctx.state["files"][s["owner"]][s["path"]]
            ref = f"{s['owner']}:{s['path']}"
            rows.append((Link(s["path"].rsplit("/", 1)[-1] + ("/" if entry["type"] == "folder" else ""),
                              f"/files/{quote(s['path'])}?owner={quote(s['owner'])}", id=f"shared-{ref}"),
                         Text(ctx.state["users"][s["owner"]]["display"], id=f"shared-{ref}-owner"),
                         Text("Folder" if entry["type"] == "folder" else _human(entry["size"]), id=f"shared-{ref}-size")))
        return self.page(ctx, "Shared with me", [
            Heading("Shared with me", id="shared-title"),
            Table(("Name", "Owner", "Size"), tuple(rows), id="shared-items") if rows else Text("Nothing is shared with you.", id="shared-none"),
            Link("My Drive", "/files", id="shared-back"),
        ])

    # -- JSON API ------------------------------------------------------------------------
    @route("PUT", "/api/files/{path...}")
    def api_put(self, ctx: Ctx) -> Json:
        user = ctx.require_user()
        body = ctx.request.body
        if len(body) > MAX_BODY:
            raise HttpError(413, f"the file is over {MAX_BODY} bytes")
        if (ctx.request.headers.get("content-transfer-encoding") or "").lower() == "base64":
            try:
                body = base64.b64decode(body, validate=True)
            except binascii.Error:
                raise HttpError(400, "the body is not base64 (Content-Transfer-Encoding: base64)") from None
        path = _clean(ctx.params["path"])
        replaced = self._write(ctx, user, path, body)
        entry = ctx.state["files"][user][path]
        return Json(self._info(ctx.state, user, path, entry), 200 if replaced else 201)

    @route("GET", "/api/files")
    def api_root(self, ctx: Ctx) -> Any:
        return self.api_get(ctx)

    @route("GET", "/api/files/{path...}")
    def api_get(self, ctx: Ctx) -> Any:
        owner, path, entry = self._locate(ctx, ctx.params.get("path", ""))
        if entry is not None and entry["type"] == "file":
            return self.download(ctx)
        return Json({"path": path, "owner": owner,
                     "items": [self._info(ctx.state, owner, p, e) for p, e in self._listing(ctx.state, owner, path)]})

    @route("GET", "/api/info/{path...}")
    def api_info(self, ctx: Ctx) -> Any:
        owner, path, entry = self._locate(ctx, ctx.params["path"])
        if entry is None:
            raise HttpError(400, "the root has no info; GET /api/files lists it")
        return Json(self._info(ctx.state, owner, path, entry))

    @route("DELETE", "/api/files/{path...}")
    def api_delete(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path = _clean(ctx.params["path"])
        n = self._trash(ctx, user, path)
        return Json({"trashed": path, "trash_id": str(n)})

    @route("POST", "/api/folders")
    def api_folder(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path = self._mkdir(ctx, user, ctx.field("path", limit=4096))
        return Json(self._info(ctx.state, user, path, ctx.state["files"][user][path]), 201)

    @route("POST", "/api/move")
    def api_move(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        target = self._move(ctx, user, ctx.field("from", limit=4096), ctx.field("to", limit=4096))
        return Json(self._info(ctx.state, user, target, ctx.state["files"][user][target]))

    @route("POST", "/api/share")
    def api_share(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path, _ = self._share(ctx, user, ctx.field("unshare", required=False) not in ("1", "true"))
        return Json(self._info(ctx.state, user, path, ctx.state["files"][user][path]))

    @route("GET", "/api/shared")
    def api_shared(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        return Json({"items": [self._info(ctx.state, s["owner"], s["path"], ctx.state["files"][s["owner"]][s["path"]])
                               for s in self._shared_with(ctx.state, user)]})

    @route("GET", "/api/trash")
    def api_trash(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        items = sorted(ctx.state["trash"].get(user, {}).items(), key=lambda kv: int(kv[0]))
        return Json({"items": [{"id": tid, "path": item["path"], "deleted": item["deleted"]} for tid, item in items]})

    @route("POST", "/api/trash/{id}/restore")
    def api_restore(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        path = self._restore(ctx, user)
        return Json(self._info(ctx.state, user, path, ctx.state["files"][user][path]))

    @route("GET", "/api/quota")
    def api_quota(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        return Json({"used": self._used(ctx.state, user), "quota": ctx.state["quota_bytes"]})


SERVICE_KINDS.register(Drive.name, Drive())
