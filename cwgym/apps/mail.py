"""``mail``: a mail client in the manner of Thunderbird Mail, over the world's mail service.

The account is the machine user's on the world's mail service (the rule is in
:mod:`cwgym.apps._mail_client`: the first ``mail`` service whose ``initial_state.users``
names the machine's user; address ``<user>@<domain>``, HTTP Basic sign-in with that
account's password). Without one the window shows **No mail account on this machine**
and one control, ``close`` (it closes the window).

Every view is a request to the service's JSON API made at an event, and its result is
kept in the window's state — the folders, the headers of one folder (at most
:data:`LIST_MAX`, newest first) and the open message — until the next request:

============================  ================================================
opening the window            ``GET /api/folders``, ``GET /api/messages?folder=Inbox``
a folder                      ``GET /api/messages?folder=<name>``
a message                     ``POST /api/messages/<id> {"unread": false}`` when unread
                              (Thunderbird marks what it shows as read), else
                              ``GET /api/messages/<id>``
Get Messages, ``F5``          the folders, the folder's headers and the open message again
Send                          ``POST /api/send {to, cc, subject, body, attachments?}``, then a refresh
Delete                        ``DELETE /api/messages/<id>`` (to Trash; from Trash, for good)
Save (an attachment)          ``GET /api/messages/<id>/attachments/<index>``
============================  ================================================

A request that fails shows its status in a red banner (``GET /api/messages: 401
Unauthorized — wrong user name or password``, or ``Cannot reach <host> (...)`` when no
answer came) and the views keep what they showed. Requests travel through the machine's
network (``Machine.net``): they take the network's logical time and fail as it says
(Wi-Fi off, airplane mode).

Composing (**Write**, **Reply**, **Forward**) fills the window with the compose form: To,
Cc and Subject fields and the message body (plain text, in the monospace font, wrapped at
the window's width). Reply addresses the sender (one's own sent message: its
recipients), prefixes ``Re:`` (once) and quotes the body under ``On <date>, <sender>
wrote:``; Forward prefixes ``Fwd:`` and includes the message under a ``Forwarded
message`` header. Cancel (``Escape``) discards the draft.

**Attachments.** **Attach…** (``Primary+Shift+a``) opens the Attach File(s) dialog over
the compose form: the entries of one folder (folders first, then files with their sizes,
each by name; hidden names are not listed; at most :data:`CHOOSER_MAX`), **Up**, a path
field (a name in the folder shown, ``~/...`` or an absolute path; at most 4096 characters)
and **Attach** / **Cancel**. It starts on the folder of the last file attached (the home
folder at first). A click on a folder opens it, on a file picks it; a double click on a
file, or Attach, attaches it (a path naming a folder opens that folder). A missing or
unreadable file, an eleventh file or one that brings the message past
:data:`ATTACH_BYTES_MAX` bytes is said in the dialog and attaches nothing. Attached files
are listed under the body, each with **Remove**; the window keeps their paths, not their
bytes, and **Send** reads them then (one gone or unreadable by then is said in the banner
and nothing is sent). Forward carries the message's attachments (the service passes on its
own copies); Reply carries none. Attaching and removing are undo steps. A message read
lists its attachments under its headers, each with **Save**: the file goes into
``~/Downloads`` (:data:`DOWNLOADS`, made when missing) under its own name, or — when that
name is taken — ``<name> (1).<ext>``, ``(2)``... (nothing is overwritten; there is no
dialog); the banner names the file, and the file joins the desktop's recent documents.

Caps: To and Cc :data:`ADDRESSES_MAX` characters, Subject :data:`SUBJECT_MAX` (the
service's limit), the body :data:`BODY_MAX` (the service's limit); typing or pasting past
them fails as ``invalid`` and changes nothing.

Control targets (``window:<id>:content:<target>``):

* toolbar: ``get-messages``, ``write``, ``reply``, ``forward``, ``delete`` (the last three
  act on the open message);
* ``folder:<name>`` (the folder pane), ``message:<id>`` (a row of the message list: it
  opens the message), ``dismiss`` (closes the banner);
* reading: ``save-attachment:<i>`` (Save, for the open message's ``i``-th attachment from 0);
* compose: ``compose-to``, ``compose-cc``, ``compose-subject``, ``compose-body`` (text
  fields), ``compose-send``, ``compose-attach``, ``compose-cancel``, ``attachment:<i>`` (a
  row of the attachment pane: picks it), ``attachment-remove:<i>``;
* the Attach dialog (modal: the compose targets are unknown while it is open):
  ``attach-entry:<name>``, ``attach-up``, ``attach-path``, ``attach-confirm``,
  ``attach-cancel``.

Keys: ``F5`` or ``Primary+t`` get messages; ``Primary+n`` (or ``Primary+m``) write;
``Primary+r`` reply; ``Primary+l`` forward; ``Delete`` deletes the open message;
``ArrowUp`` / ``ArrowDown`` / ``Home`` / ``End`` open the previous / next / first / last
message of the list; ``Escape`` closes the banner. Composing: ``Tab`` / ``Shift+Tab``
move between the fields, ``Enter`` in a field goes to the next one, ``Primary+Enter``
sends, ``Escape`` cancels, ``Primary+z`` undoes the last change; the fields take the
usual editing keys (``Primary+a/c/x/v`` in the one-line fields); the body takes
characters, ``Enter``, ``Backspace``, ``Delete``, the arrows (up and down by screen
rows), ``Home`` / ``End`` (the line), ``Primary+Home`` / ``Primary+End`` and
``Primary+v`` (paste). ``Primary+Shift+a`` opens the Attach dialog; with files attached,
``Tab`` also reaches the attachment pane, where the arrows, ``Home`` and ``End`` pick a
file and ``Delete`` or ``Backspace`` removes it. In the Attach dialog: ``ArrowUp`` /
``ArrowDown`` pick an entry (its name goes into the path field), ``Enter`` attaches (or
opens a folder), ``Alt+ArrowUp`` goes up, ``Escape`` cancels; the path field takes the
usual editing keys.
"""

from __future__ import annotations

import base64
import functools
import posixpath
from typing import Any

from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._downloads import DOWNLOADS, safe_name, save_download
from cwgym.apps._mail_client import Account, call, discover, download, folder_query
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import DIR, FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import line_height, measure, wrap

__all__ = [
    "ADDRESSES_MAX",
    "ATTACH_BYTES_MAX",
    "ATTACH_MAX",
    "BODY_MAX",
    "CHOOSER_MAX",
    "DOWNLOADS",
    "LIST_MAX",
    "OPEN_BODY_MAX",
    "SUBJECT_MAX",
    "Mail",
]

#: The longest To or Cc field.
ADDRESSES_MAX = 2000
#: The longest subject (the service's limit).
SUBJECT_MAX = 998
#: The longest message body (the service's limit).
BODY_MAX = 100_000
#: The most message headers a list keeps (newest first).
LIST_MAX = 200
#: The most characters of an open message's body kept in the window (the rest is cut,
#: and said so).
OPEN_BODY_MAX = 20_000
#: Undo steps kept while composing, and the most characters they hold together (older
#: steps are dropped first), so a long body keeps the window's state small.
UNDO_MAX = 100
UNDO_CHARS = 200_000
#: The most files a message carries (the service's limit).
ATTACH_MAX = 10
#: The most bytes a message's files hold together (the service's limit).
ATTACH_BYTES_MAX = 512 * 1024
#: The most entries the Attach dialog lists of one folder (the rest are said to be left out).
CHOOSER_MAX = 500
#: Where Save puts an attachment: this folder of the home folder (made when missing).

TOOL_H = 48
BANNER_H = 32
FOLDER_W = 200
ROW_H = 28
HEAD_H = 26
MARGIN = 12
FIELD_H = 32
LABEL_W = 72
FIELDS = ("compose-to", "compose-cc", "compose-subject", "compose-body")
_FIELD_KEY = {"compose-to": "to", "compose-cc": "cc", "compose-subject": "subject"}
_CAPS = {"to": ADDRESSES_MAX, "cc": ADDRESSES_MAX, "subject": SUBJECT_MAX}
TOOLBAR = (
    ("get-messages", "Get Messages"),
    ("write", "Write"),
    ("reply", "Reply"),
    ("forward", "Forward"),
    ("delete", "Delete"),
)
COMPOSE_BAR = (
    ("compose-send", "Send"),
    ("compose-attach", "Attach…"),
    ("compose-cancel", "Cancel"),
)
#: The compose form's attachment pane: rows shown before it scrolls, a row's height.
ATTACH_ROWS = 3
ATTACH_ROW_H = 26
ATTACH_HEAD_H = 24
#: The Attach dialog's controls (besides its rows ``attach-entry:<name>``).
CHOOSER_TARGETS = ("attach-path", "attach-up", "attach-confirm", "attach-cancel")
CHOOSER_ROW_H = 26


# -- geometry ------------------------------------------------------------------------------


def _buttons(items: tuple[tuple[str, str], ...]) -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in items:
        w = measure(label, "sans", 14) + 26
        out.append((name, label, Rect(x, 8, w, 32)))
        x += w + 6
    return out


def _top(state: dict) -> int:
    return TOOL_H + (BANNER_H if state["error"] or state["status"] else 0)


def _list_rect(width: int, height: int, state: dict) -> Rect:
    """The message list's rows (below its column header)."""
    top = _top(state) + HEAD_H
    h = max(ROW_H * 3, (height - _top(state)) * 2 // 5 - HEAD_H)
    return Rect(FOLDER_W, top, max(0, width - FOLDER_W), h)


def _reading_rect(width: int, height: int, state: dict) -> Rect:
    lst = _list_rect(width, height, state)
    top = lst.bottom + 1
    return Rect(FOLDER_W, top, max(0, width - FOLDER_W), max(0, height - top))


def _compose_rects(width: int, height: int, state: dict) -> dict[str, Rect]:
    top = _top(state) + 36
    fw = max(80, width - LABEL_W - 2 * MARGIN)
    out = {}
    for i, name in enumerate(("compose-to", "compose-cc", "compose-subject")):
        out[name] = Rect(MARGIN + LABEL_W, top + i * (FIELD_H + 8), fw, FIELD_H)
    btop = top + 3 * (FIELD_H + 8) + 4
    files = len(state["compose"]["attachments"]) if state["compose"] is not None else 0
    pane_h = ATTACH_HEAD_H + min(files, ATTACH_ROWS) * ATTACH_ROW_H + 6 if files else 0
    body_h = max(tp.grid()[1] * 2, height - btop - MARGIN - pane_h)
    out["compose-body"] = Rect(MARGIN, btop, max(40, width - 2 * MARGIN), body_h)
    if files:
        out["attachments"] = Rect(
            MARGIN, btop + body_h + 6, max(40, width - 2 * MARGIN), pane_h - 6
        )
    return out


def _chooser_rects(width: int, height: int) -> dict[str, Rect]:
    """The Attach dialog: its box, the Up button, the folder's list, the path field and
    the buttons, centred in the content."""
    w = max(300, min(560, width - 40))
    h = max(300, min(460, height - 40))
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    bw = [measure(label, "sans", 14) + 26 for label in ("Cancel", "Attach")]
    return {
        "box": box,
        "attach-up": Rect(box.right - 16 - 64, box.y + 44, 64, 30),
        "list": Rect(box.x + 16, box.y + 82, w - 32, max(CHOOSER_ROW_H * 2, h - 82 - 136)),
        "attach-path": Rect(box.x + 16, box.bottom - 128, w - 32, FIELD_H),
        "attach-cancel": Rect(box.right - 16 - bw[1] - 8 - bw[0], box.bottom - 46, bw[0], 32),
        "attach-confirm": Rect(box.right - 16 - bw[1], box.bottom - 46, bw[1], 32),
    }


def _body_geom(rect: Rect) -> tuple[Rect, int, int]:
    """The body's text pane, its columns and rows."""
    cw, ch = tp.grid()
    pane = Rect(
        rect.x + 8,
        rect.y + 6,
        max(cw, rect.width - 16 - tp.BAR),
        max(ch, (rect.height - 12) // ch * ch),
    )
    return pane, max(1, pane.width // cw), max(1, pane.height // ch)


@functools.lru_cache(maxsize=64)
def _wrapped(text: str, width: int) -> tuple[str, ...]:
    return tuple(wrap(text, "sans", 14, max(40, width)))


# -- small helpers -------------------------------------------------------------------------


def _addresses(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(a) for a in value)
    return str(value or "")


def _header(m: dict) -> dict[str, Any]:
    return {
        "id": m.get("id"),
        "from": str(m.get("from", "")),
        "to": _addresses(m.get("to")),
        "subject": str(m.get("subject", "")),
        "date": str(m.get("date", "")),
        "unread": bool(m.get("unread", False)),
    }


def _opened(m: dict) -> dict[str, Any]:
    body = str(m.get("body", ""))
    return {
        **_header(m),
        "cc": _addresses(m.get("cc")),
        "folder": str(m.get("folder", "")),
        "body": body[:OPEN_BODY_MAX],
        "truncated": len(body) > OPEN_BODY_MAX,
        "attachments": _files(m.get("attachments")),
    }


def _files(value: Any) -> list[dict[str, Any]]:
    """The attachments an API message lists: ``[{index, name, type, size}]``."""
    out = []
    for a in value if isinstance(value, list) else []:
        if (
            isinstance(a, dict)
            and isinstance(a.get("index"), int)
            and isinstance(a.get("name"), str)
        ):
            size = a.get("size")
            out.append(
                {
                    "index": a["index"],
                    "name": a["name"],
                    "type": str(a.get("type", "")),
                    "size": size if isinstance(size, int) else 0,
                }
            )
    return out[:ATTACH_MAX]


def size_text(n: int) -> str:
    """A file size as the client shows it: ``512 bytes``, ``12.5 KB``, ``1.2 MB``."""
    if n < 1024:
        return f"{n} byte{'s' if n != 1 else ''}"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def _resolve(raw: str, home: str, folder: str) -> str:
    """A typed path: ``~`` is the home folder, a relative path is under ``folder``."""
    raw = raw.strip()
    if raw == "~":
        return home
    if raw.startswith("~/"):
        return posixpath.normpath(home + raw[1:])
    if raw.startswith("/"):
        return posixpath.normpath(raw)
    return posixpath.normpath(f"{folder.rstrip('/')}/{raw}")


def _listing(ctx: AppContext, folder: str) -> tuple[tuple[tuple[str, bool, int], ...], int, str]:
    """``(entries, left out, error)`` of a folder as the Attach dialog lists it: ``(name,
    is a folder, size)``, folders first, then files, each by name without case; hidden
    names (``.x``) are not listed; at most :data:`CHOOSER_MAX`."""
    ufs = ctx.files()
    try:
        names = ufs.listdir(folder, ctx.home)
    except FsError as exc:
        return (), 0, f"Cannot list {folder}: {exc.strerror_text}."
    entries = []
    for name in names:
        if name.startswith("."):
            continue
        try:
            inode = ufs.lookup(posixpath.join(folder, name), ctx.home)
        except FsError:
            continue  # a dangling link
        entries.append((name, inode.kind == DIR, inode.size if inode.kind != DIR else 0))
    entries.sort(key=lambda e: (not e[1], e[0].casefold(), e[0]))
    return tuple(entries[:CHOOSER_MAX]), max(0, len(entries) - CHOOSER_MAX), ""


def _prefixed(subject: str, prefix: str, known: tuple[str, ...]) -> str:
    low = subject.lower()
    return subject if any(low.startswith(k) for k in known) else f"{prefix} {subject}"


class Mail(App):
    id = "mail"
    label = "Mail"
    kind = "native"
    default_size = (980, 620)
    min_size = (640, 420)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        """Open on the Inbox (an argument is ignored: there is no document to open)."""
        label = ctx.theme.label("mail", self.label) if ctx.theme is not None else self.label
        state: dict[str, Any] = {
            "label": label,
            "account": None,
            "folders": [],
            "folder": "Inbox",
            "messages": [],
            "more": 0,
            "selected": None,
            "open": None,
            "compose": None,
            "chooser": None,
            "focus": "list",
            "status": "",
            "error": "",
        }
        account = discover(ctx.machine)
        if account is not None:
            state["account"] = {
                "address": account.address,
                "host": account.host,
                "display": account.display,
            }
            self._refresh(ctx, state, account)
        return state

    def title(self, state: dict) -> str:
        label = state["label"]
        if state["account"] is None:
            return label
        compose = state["compose"]
        if compose is not None:
            subject = compose["subject"]["text"] or "(no subject)"
            return f"Write: {subject} — {label}"
        return f"{state['folder']} — {label}"

    # -- requests ----------------------------------------------------------------------
    def _account(self, ctx: AppContext, state: dict) -> Account | None:
        return discover(ctx.machine) if state["account"] is not None else None

    def _load_folders(self, ctx: AppContext, state: dict, account: Account) -> bool:
        reply = call(ctx.machine, account, "GET", "/api/folders")
        if reply.error:
            state["error"] = reply.error
            return False
        if not isinstance(reply.data, list):
            state["error"] = "GET /api/folders: the server's answer is not a list of folders."
            return False
        state["folders"] = [
            {
                "name": str(f.get("name", "")),
                "total": int(f.get("total", 0)),
                "unread": int(f.get("unread", 0)),
            }
            for f in reply.data
            if isinstance(f, dict) and f.get("name")
        ]
        names = [f["name"] for f in state["folders"]]
        if state["folder"] not in names:
            state["folder"] = "Inbox" if "Inbox" in names else (names[0] if names else "Inbox")
        return True

    def _load_messages(self, ctx: AppContext, state: dict, account: Account) -> bool:
        reply = call(ctx.machine, account, "GET", folder_query(state["folder"]))
        if reply.error:
            state["error"] = reply.error
            return False
        data = reply.data if isinstance(reply.data, dict) else {}
        found = [
            m
            for m in data.get("messages", [])
            if isinstance(m, dict) and isinstance(m.get("id"), int)
        ]
        state["folder"] = str(data.get("folder", state["folder"]))
        state["messages"] = [_header(m) for m in found[:LIST_MAX]]
        state["more"] = max(0, len(found) - LIST_MAX)
        ids = [m["id"] for m in state["messages"]]
        if state["selected"] not in ids:
            state["selected"] = None
        return True

    def _refresh(self, ctx: AppContext, state: dict, account: Account) -> None:
        """The folders, the folder's headers and the open message, again."""
        state["error"] = ""
        if not self._load_folders(ctx, state, account) or not self._load_messages(
            ctx, state, account
        ):
            return
        opened = state["open"]
        if opened is not None:
            reply = call(ctx.machine, account, "GET", f"/api/messages/{opened['id']}")
            if reply.status == 404:
                state["open"] = None
            elif reply.error:
                state["error"] = reply.error
            elif isinstance(reply.data, dict):
                state["open"] = _opened(reply.data)

    def _open(self, ctx: AppContext, state: dict, account: Account, mid: int) -> None:
        header = next((m for m in state["messages"] if m["id"] == mid), None)
        if header is not None and header["unread"]:
            reply = call(ctx.machine, account, "POST", f"/api/messages/{mid}", {"unread": False})
        else:
            reply = call(ctx.machine, account, "GET", f"/api/messages/{mid}")
        if reply.error:
            state["error"] = reply.error
            return
        if not isinstance(reply.data, dict):
            state["error"] = f"GET /api/messages/{mid}: the server's answer is not a message."
            return
        state["selected"] = mid
        state["open"] = _opened(reply.data)
        state["open"]["unread"] = False
        if header is not None and header["unread"]:
            state["messages"] = [
                {**m, "unread": False} if m["id"] == mid else m for m in state["messages"]
            ]
            state["folders"] = [
                {**f, "unread": max(0, f["unread"] - 1)} if f["name"] == state["folder"] else f
                for f in state["folders"]
            ]

    # -- events ------------------------------------------------------------------------
    def _known(self, state: dict, target: str) -> bool:
        if state["account"] is None:
            return False
        if target == "dismiss":
            return bool(state["error"] or state["status"])
        if state["chooser"] is not None:
            return target in CHOOSER_TARGETS or target.startswith("attach-entry:")
        if state["compose"] is not None:
            files = len(state["compose"]["attachments"])
            return (
                target in FIELDS
                or target in ("compose-send", "compose-cancel", "compose-attach")
                or _indexed(target, "attachment:", files)
                or _indexed(target, "attachment-remove:", files)
            )
        if target in ("get-messages", "write", "reply", "forward", "delete"):
            return True
        if target.startswith("save-attachment:"):
            opened = state["open"]
            return opened is not None and _indexed(
                target, "save-attachment:", len(opened["attachments"])
            )
        if target.startswith("folder:"):
            return any(f["name"] == target[7:] for f in state["folders"])
        if target.startswith("message:"):
            raw = target[8:]
            return raw.isdigit() and any(m["id"] == int(raw) for m in state["messages"])
        return False

    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["account"] is None and target == "close":
            ctx.close()  # the only control of the No mail account screen
            return None
        if not self._known(state, target):
            raise UnknownTarget(target)
        if target == "dismiss":
            state["error"] = state["status"] = ""
            return None
        if state["chooser"] is not None:
            return self._chooser_control(ctx, state, target, point)
        if state["compose"] is not None:
            return self._compose_control(ctx, state, target, point)
        account = self._account(ctx, state)
        if account is None:
            raise UnknownTarget(target)
        state["status"] = ""
        if target == "get-messages":
            self._refresh(ctx, state, account)
        elif target == "write":
            self._start_compose(state, "new")
        elif target in ("reply", "forward"):
            if state["open"] is None:
                state["error"] = (
                    "Open a message to reply to first."
                    if target == "reply"
                    else "Open a message to forward first."
                )
            else:
                self._start_compose(state, target)
        elif target == "delete":
            self._delete(ctx, state, account)
        elif target.startswith("save-attachment:"):
            self._save_attachment(ctx, state, account, int(target.partition(":")[2]))
        elif target.startswith("folder:"):
            state["error"] = ""
            previous = state["folder"]
            state["folder"] = target[7:]
            if self._load_messages(ctx, state, account):
                if previous != state["folder"]:
                    state["open"], state["selected"] = None, None
                    ctx.set_scroll_offset("messages", None)
            else:
                state["folder"] = previous
        elif target.startswith("message:"):
            state["error"] = ""
            state["focus"] = "list"
            self._open(ctx, state, account, int(target[8:]))
            ctx.set_scroll_offset("message", None)
        return None

    def double_click(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        """A double click on a file of the Attach dialog attaches it; elsewhere a click."""
        self.activate(ctx, state, target, point, modifiers)
        chooser = state["chooser"]
        if (
            chooser is not None
            and target.startswith("attach-entry:")
            and chooser["selected"] == target[13:]
        ):
            self._attach(ctx, state)
        return None

    def _save_attachment(self, ctx: AppContext, state: dict, account: Account, i: int) -> None:
        """Download attachment ``i`` of the open message into ``~/Downloads`` (a name that
        is taken gets `` (1)``, `` (2)``... before its extension)."""
        m = state["open"]
        a = m["attachments"][i]
        reply = download(ctx.machine, account, f"/api/messages/{m['id']}/attachments/{a['index']}")
        if reply.error:
            state["error"] = reply.error
            return
        name = safe_name(a["name"], "attachment")
        try:
            path = save_download(ctx.machine, name, reply.data or b"", self.id, "attachment")
        except FsError as exc:
            state["error"] = f"Could not save {name} in ~/{DOWNLOADS}: {exc.strerror_text}."
            return
        state["error"] = ""
        state["status"] = f"Saved {posixpath.basename(path)} in ~/{DOWNLOADS}."

    def _delete(self, ctx: AppContext, state: dict, account: Account) -> None:
        opened = state["open"]
        if opened is None:
            state["error"] = "Open a message to delete first."
            return
        reply = call(ctx.machine, account, "DELETE", f"/api/messages/{opened['id']}")
        if reply.error:
            state["error"] = reply.error
            return
        ids = [m["id"] for m in state["messages"]]
        at = ids.index(opened["id"]) if opened["id"] in ids else 0
        state["open"], state["selected"] = None, None
        state["status"] = (
            "Message moved to Trash." if opened["folder"] != "Trash" else "Message deleted."
        )
        self._refresh(ctx, state, account)
        if not state["error"] and state["messages"]:
            self._open(
                ctx, state, account, state["messages"][min(at, len(state["messages"]) - 1)]["id"]
            )

    # -- composing ---------------------------------------------------------------------
    def _start_compose(self, state: dict, kind: str) -> None:
        to = subject = body = ""
        m = state["open"]
        me = state["account"]["address"].lower()
        if kind == "reply" and m is not None:
            mine = m["from"].lower() == me
            to = m["to"] if mine else m["from"]
            subject = _prefixed(m["subject"], "Re:", ("re:",))
            quoted = "\n".join(f"> {line}" if line else ">" for line in m["body"].split("\n"))
            body = f"\n\nOn {m['date']}, {m['from']} wrote:\n{quoted}"
        files: list[dict] = []
        if kind == "forward" and m is not None:
            # Thunderbird forwards the attachments too: the service passes on its own copies
            files = [
                {"name": a["name"], "size": a["size"], "message": m["id"], "index": a["index"]}
                for a in m["attachments"]
            ]
            subject = _prefixed(m["subject"], "Fwd:", ("fwd:", "fw:"))
            head = f"From: {m['from']}\nDate: {m['date']}\nSubject: {m['subject']}\nTo: {m['to']}\n"
            if m["cc"]:
                head += f"Cc: {m['cc']}\n"
            body = f"\n\n---------- Forwarded message ----------\n{head}\n{m['body']}"
        state["compose"] = {
            "kind": kind,
            "reply": m["id"] if kind == "reply" and m is not None else None,
            "to": tp.field(to[:ADDRESSES_MAX]),
            "cc": tp.field(""),
            "subject": tp.field(subject[:SUBJECT_MAX]),
            "body": {"text": body[:BODY_MAX], "caret": 0, "goal": None},
            "attachments": files,
            "picked": 0,
            "folder": None,
            "undo": [],
            "last": None,
        }
        state["focus"] = "compose-body" if kind == "reply" else "compose-to"
        state["error"] = state["status"] = ""

    def _compose_control(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> None:
        c = state["compose"]
        if target == "compose-cancel":
            self._cancel(ctx, state)
            return
        if target == "compose-send":
            self._send(ctx, state)
            return
        if target == "compose-attach":
            self._open_chooser(ctx, state)
            return
        if target.startswith("attachment-remove:"):
            self._remove_attachment(state, int(target.partition(":")[2]))
            return
        if target.startswith("attachment:"):
            state["focus"] = "attachments"
            c["picked"] = int(target.partition(":")[2])
            c["last"] = None
            return
        state["focus"] = target
        c["last"] = None
        if point is None:
            return
        rects = _compose_rects(ctx.width, ctx.height, state)
        if target in _FIELD_KEY:
            f = c[_FIELD_KEY[target]]
            f["caret"], f["anchor"] = tp.field_index(f, rects[target], point[0]), None
            return
        pane, cols, rows = _body_geom(rects["compose-body"])
        cw, ch = tp.grid()
        text = c["body"]["text"]
        w = tp.Wrap(text.split("\n"), cols)
        top = self._body_top(ctx, w, rows)
        row = max(0, min(w.total - 1, top + (point[1] - pane.y) // ch))
        line, col = w.pos_at(row, point[0] - pane.x, cw)
        c["body"]["caret"] = sum(len(x) + 1 for x in w.lines[:line]) + col
        c["body"]["goal"] = None

    # -- attachments -------------------------------------------------------------------
    def _open_chooser(self, ctx: AppContext, state: dict) -> None:
        """The Attach dialog, on the folder of the last file attached (else the home folder)."""
        folder = state["compose"]["folder"] or ctx.home
        state["chooser"] = {
            "folder": folder,
            "path": tp.field(""),
            "selected": None,
            "error": "",
            "back": state["focus"],
        }
        state["focus"] = "attach-path"
        ctx.set_scroll_offset("chooser", None)

    def _close_chooser(self, state: dict) -> None:
        back = state["chooser"]["back"]
        state["chooser"] = None
        state["focus"] = back if back in (*FIELDS, "attachments") else "compose-body"

    def _chooser_go(self, ctx: AppContext, state: dict, folder: str) -> None:
        ch = state["chooser"]
        ch["folder"], ch["selected"], ch["path"], ch["error"] = folder, None, tp.field(""), ""
        ctx.set_scroll_offset("chooser", None)

    def _chooser_control(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> None:
        ch = state["chooser"]
        if target == "attach-cancel":
            self._close_chooser(state)
        elif target == "attach-confirm":
            self._attach(ctx, state)
        elif target == "attach-up":
            self._chooser_go(ctx, state, posixpath.dirname(ch["folder"].rstrip("/")) or "/")
        elif target == "attach-path":
            state["focus"] = "attach-path"
            if point is not None:
                rect = _chooser_rects(ctx.width, ctx.height)["attach-path"]
                ch["path"]["caret"] = tp.field_index(ch["path"], rect, point[0])
                ch["path"]["anchor"] = None
        else:
            name = target[len("attach-entry:") :]
            entries, _more, _problem = _listing(ctx, ch["folder"])
            entry = next((e for e in entries if e[0] == name), None)
            if entry is None:
                raise UnknownTarget(target)
            if entry[1]:
                self._chooser_go(ctx, state, posixpath.join(ch["folder"], name))
            else:
                ch["selected"], ch["path"], ch["error"] = name, tp.field(name), ""
            state["focus"] = "attach-path"

    def _chooser_step(self, ctx: AppContext, state: dict, delta: int) -> None:
        """Select the next (``delta`` 1) or previous (-1) entry of the Attach dialog."""
        ch = state["chooser"]
        entries, _more, _problem = _listing(ctx, ch["folder"])
        if not entries:
            return
        names = [e[0] for e in entries]
        at = (
            names.index(ch["selected"])
            if ch["selected"] in names
            else (-1 if delta > 0 else len(names))
        )
        at = max(0, min(len(names) - 1, at + delta))
        ch["selected"], ch["path"], ch["error"] = names[at], tp.field(names[at]), ""
        lst = _chooser_rects(ctx.width, ctx.height)["list"]
        off = ctx.scroll_offset("chooser") or 0
        y = at * CHOOSER_ROW_H
        if y < off:
            ctx.set_scroll_offset("chooser", y or None)
        elif y + CHOOSER_ROW_H > off + lst.height:
            ctx.set_scroll_offset("chooser", y + CHOOSER_ROW_H - lst.height)

    def _attach(self, ctx: AppContext, state: dict) -> None:
        """Attach the file the dialog's path names (a folder is opened instead). A missing
        or unreadable file, or one past the caps, is said in the dialog and changes nothing."""
        ch, c = state["chooser"], state["compose"]
        raw = ch["path"]["text"].strip()
        if not raw:
            ch["error"] = "Choose a file to attach."
            return
        path = _resolve(raw, ctx.home, ch["folder"])
        ufs = ctx.files()
        try:
            if ufs.lookup(path, ctx.home).kind == DIR:
                ufs.listdir(path, ctx.home)
                self._chooser_go(ctx, state, path)
                return
            data = ufs.read(path, ctx.home)
        except FsError as exc:
            ch["error"] = f"Could not attach {raw}: {exc.strerror_text}."
            return
        name = posixpath.basename(path)
        if len(c["attachments"]) >= ATTACH_MAX:
            ch["error"] = f"A message carries at most {ATTACH_MAX} attachments."
            return
        total = sum(a["size"] for a in c["attachments"]) + len(data)
        if total > ATTACH_BYTES_MAX:
            ch["error"] = (
                f"Could not attach {name} ({size_text(len(data))}): the attachments of a message "
                f"hold at most {size_text(ATTACH_BYTES_MAX)} together."
            )
            return
        self._remember(state, "attach")
        c["attachments"] = [*c["attachments"], {"name": name, "size": len(data), "path": path}]
        c["picked"] = len(c["attachments"]) - 1
        c["folder"] = posixpath.dirname(path)
        self._close_chooser(state)
        self._reveal_file(ctx, state)

    def _reveal_file(self, ctx: AppContext, state: dict) -> None:
        """Scroll the attachment pane so the picked file shows."""
        c = state["compose"]
        rect = _compose_rects(ctx.width, ctx.height, state).get("attachments")
        if rect is None:
            return
        view = rect.height - ATTACH_HEAD_H
        y = c["picked"] * ATTACH_ROW_H
        off = ctx.scroll_offset("attachments") or 0
        if y < off:
            ctx.set_scroll_offset("attachments", y or None)
        elif y + ATTACH_ROW_H > off + view:
            ctx.set_scroll_offset("attachments", y + ATTACH_ROW_H - view)

    def _remove_attachment(self, state: dict, i: int) -> None:
        c = state["compose"]
        self._remember(state, "remove")
        c["attachments"] = [a for k, a in enumerate(c["attachments"]) if k != i]
        c["picked"] = max(0, min(c["picked"], len(c["attachments"]) - 1))
        if not c["attachments"] and state["focus"] == "attachments":
            state["focus"] = "compose-body"

    def _cancel(self, ctx: AppContext, state: dict) -> None:
        state["compose"] = None
        state["focus"] = "list"
        state["status"] = "Message discarded."
        ctx.set_scroll_offset("body", None)

    def _send(self, ctx: AppContext, state: dict) -> None:
        account = self._account(ctx, state)
        if account is None:
            return
        c = state["compose"]
        to, cc = c["to"]["text"].strip(), c["cc"]["text"].strip()
        if not to and not cc:
            state["error"] = "Add at least one recipient in To."
            state["focus"] = "compose-to"
            return
        payload: dict[str, Any] = {
            "to": to,
            "cc": cc,
            "subject": c["subject"]["text"],
            "body": c["body"]["text"],
        }
        files = []
        for a in c["attachments"]:
            if "path" not in a:  # forwarded: the service passes on its own copy
                files.append({"message": a["message"], "index": a["index"]})
                continue
            try:
                data = ctx.files().read(a["path"], ctx.home)
            except FsError as exc:
                state["error"] = f"Could not attach {a['name']}: {exc.strerror_text}."
                return
            files.append({"name": a["name"], "data": base64.b64encode(data).decode("ascii")})
        if files:
            payload["attachments"] = files
        reply = call(ctx.machine, account, "POST", "/api/send", payload)
        if reply.error:
            state["error"] = reply.error
            return
        data = reply.data if isinstance(reply.data, dict) else {}
        bounced = [b.get("address", "") for b in data.get("bounced", []) if isinstance(b, dict)]
        state["compose"] = None
        state["focus"] = "list"
        ctx.set_scroll_offset("body", None)
        self._refresh(ctx, state, account)
        if not state["error"]:
            state["status"] = "Message sent." + (
                f" It could not be delivered to {', '.join(bounced)}: see the Inbox."
                if bounced
                else ""
            )

    def _snapshot(self, c: dict) -> dict:
        return {
            "to": c["to"]["text"],
            "cc": c["cc"]["text"],
            "subject": c["subject"]["text"],
            "body": c["body"]["text"],
            "caret": c["body"]["caret"],
            "attachments": [dict(a) for a in c["attachments"]],
        }

    def _remember(self, state: dict, kind: str) -> None:
        """Keep an undo step before a change (consecutive typing in one field is one step)."""
        c = state["compose"]
        mark = f"{kind}:{state['focus']}"
        if kind == "type" and c["last"] == mark:
            return
        c["undo"] = _trim([*c["undo"], self._snapshot(c)])
        c["last"] = mark

    def _undo(self, state: dict) -> None:
        c = state["compose"]
        if not c["undo"]:
            return
        snap = c["undo"][-1]
        c["undo"] = c["undo"][:-1]
        for name in ("to", "cc", "subject"):
            if c[name]["text"] != snap[name]:
                c[name] = tp.field(snap[name])
        c["body"] = {
            "text": snap["body"],
            "caret": min(snap["caret"], len(snap["body"])),
            "goal": None,
        }
        c["attachments"] = snap["attachments"]
        c["picked"] = max(0, min(c["picked"], len(c["attachments"]) - 1))
        if not c["attachments"] and state["focus"] == "attachments":
            state["focus"] = "compose-body"
        c["last"] = None

    def _field_insert(self, state: dict, text: str) -> None:
        """Type ``text`` into the focused one-line field within its cap."""
        c = state["compose"]
        name = _FIELD_KEY[state["focus"]]
        f = c[name]
        clean = "".join(
            ch if ch.isprintable() else " " for ch in text.replace("\r\n", " ").replace("\n", " ")
        )
        a, k = f["anchor"], f["caret"]
        s, e = (k, k) if a is None or a == k else (min(a, k), max(a, k))
        if len(f["text"]) - (e - s) + len(clean) > _CAPS[name]:
            raise InvalidInput(f"{name} holds at most {_CAPS[name]} characters")
        self._remember(state, "type" if len(text) == 1 else "paste")
        tp.field_type(f, clean)

    def _body_insert(self, ctx: AppContext, state: dict, text: str) -> None:
        b = state["compose"]["body"]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
        if not text:
            return
        if len(b["text"]) + len(text) > BODY_MAX:
            raise InvalidInput(f"a message body holds at most {BODY_MAX} characters")
        self._remember(state, "type" if len(text) == 1 and text != "\n" else "paste")
        k = b["caret"]
        b["text"] = b["text"][:k] + text + b["text"][k:]
        b["caret"], b["goal"] = k + len(text), None
        self._reveal(ctx, state)

    def _body_top(self, ctx: AppContext, w: tp.Wrap, rows: int) -> int:
        _cw, ch = tp.grid()
        return max(0, min((ctx.scroll_offset("body") or 0) // ch, max(0, w.total - rows)))

    def _reveal(self, ctx: AppContext, state: dict) -> None:
        """Scroll the body so its caret shows."""
        b = state["compose"]["body"]
        _pane, cols, rows = _body_geom(_compose_rects(ctx.width, ctx.height, state)["compose-body"])
        w = tp.Wrap(b["text"].split("\n"), cols)
        line, col = _line_col(b["text"], b["caret"])
        row, _cell = w.row_of(line, col)
        top = self._body_top(ctx, w, rows)
        _cw, ch = tp.grid()
        if row < top:
            ctx.set_scroll_offset("body", row * ch or None)
        elif row >= top + rows:
            ctx.set_scroll_offset("body", (row - rows + 1) * ch)

    def _body_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        b = state["compose"]["body"]
        text, k = b["text"], b["caret"]
        name = chord.name
        if name == "Enter":
            self._body_insert(ctx, state, "\n")
            return True
        if name == "Tab" or name == "Shift+Tab":
            return False
        if name in ("Backspace", "Delete"):
            if name == "Backspace" and k > 0:
                self._remember(state, "delete")
                b["text"], b["caret"] = text[: k - 1] + text[k:], k - 1
            elif name == "Delete" and k < len(text):
                self._remember(state, "delete")
                b["text"] = text[:k] + text[k + 1 :]
            b["goal"] = None
            self._reveal(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+v") or name == "Shift+Insert":
            self._body_insert(ctx, state, ctx.clipboard)
            return True
        line, col = _line_col(text, k)
        start = k - col
        lines = text.split("\n")
        new = None
        if name == "ArrowLeft":
            new = max(0, k - 1)
        elif name == "ArrowRight":
            new = min(len(text), k + 1)
        elif name == "Home":
            new = start
        elif name == "End":
            new = start + len(lines[line])
        elif name == ctx.shortcut("Primary+Home"):
            new = 0
        elif name == ctx.shortcut("Primary+End"):
            new = len(text)
        elif name in ("ArrowUp", "ArrowDown"):
            _pane, cols, _rows = _body_geom(
                _compose_rects(ctx.width, ctx.height, state)["compose-body"]
            )
            w = tp.Wrap(lines, cols)
            row, cell = w.row_of(line, col)
            goal = b["goal"] if b["goal"] is not None else cell
            target = row + (-1 if name == "ArrowUp" else 1)
            if target < 0:
                new = 0
            elif target >= w.total:
                new = len(text)
            else:
                cw, _ch = tp.grid()
                tl, tc = w.pos_at(target, goal * cw, cw)
                new = sum(len(x) + 1 for x in lines[:tl]) + tc
            b["caret"] = new
            b["goal"] = goal
            state["compose"]["last"] = None
            self._reveal(ctx, state)
            return True
        if new is not None:
            b["caret"], b["goal"] = new, None
            state["compose"]["last"] = None
            self._reveal(ctx, state)
            return True
        if chord.char is not None:
            self._body_insert(ctx, state, chord.char)
            return True
        return False

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        if state["account"] is None:
            return False
        if state["chooser"] is not None:
            return self._chooser_key(ctx, state, chord)
        if state["compose"] is not None:
            return self._compose_key(ctx, state, chord)
        name = chord.name
        command = None
        if name == "F5" or ctx.pressed(chord, "Primary+t"):
            command = "get-messages"
        elif ctx.pressed(chord, "Primary+n", "Primary+m"):
            command = "write"
        elif ctx.pressed(chord, "Primary+r"):
            command = "reply"
        elif ctx.pressed(chord, "Primary+l"):
            command = "forward"
        elif name == "Delete":
            command = "delete"
        if command is not None:
            self.activate(ctx, state, command, None)
            return True
        if name == "Escape":
            if not (state["error"] or state["status"]):
                return False
            state["error"] = state["status"] = ""
            return True
        if name in ("ArrowUp", "ArrowDown", "Home", "End", "Enter"):
            ids = [m["id"] for m in state["messages"]]
            if not ids:
                return True
            cur = ids.index(state["selected"]) if state["selected"] in ids else None
            if name == "Enter":
                new = cur if cur is not None else 0
            elif cur is None:
                new = len(ids) - 1 if name in ("End", "ArrowUp") else 0
            else:
                new = {"ArrowUp": cur - 1, "ArrowDown": cur + 1, "Home": 0, "End": len(ids) - 1}[
                    name
                ]
            new = max(0, min(len(ids) - 1, new))
            self.activate(ctx, state, f"message:{ids[new]}", None)
            lst = _list_rect(ctx.width, ctx.height, state)
            off = ctx.scroll_offset("messages") or 0
            y = new * ROW_H
            if y < off:
                ctx.set_scroll_offset("messages", y or None)
            elif y + ROW_H > off + lst.height:
                ctx.set_scroll_offset("messages", y + ROW_H - lst.height)
            return True
        return False

    def _chooser_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        """The Attach dialog's keys: ``Enter`` attaches (or opens a folder), ``Escape``
        cancels, ``ArrowUp`` / ``ArrowDown`` pick an entry, ``Alt+ArrowUp`` the parent
        folder; the path field takes the rest."""
        ch = state["chooser"]
        name = chord.name
        state["focus"] = "attach-path"
        if name == "Enter":
            self._attach(ctx, state)
        elif name == "Escape":
            self._close_chooser(state)
        elif name == "Alt+ArrowUp":
            self._chooser_control(ctx, state, "attach-up", None)
        elif name in ("ArrowUp", "ArrowDown"):
            self._chooser_step(ctx, state, -1 if name == "ArrowUp" else 1)
        else:
            before = ch["path"]["text"]
            taken = tp.field_key(ctx, ch["path"], chord)
            if ch["path"]["text"] != before:
                ch["error"], ch["selected"] = "", None
            return taken
        return True

    def _compose_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        c = state["compose"]
        order = (*FIELDS, "attachments") if c["attachments"] else FIELDS
        focus = state["focus"] if state["focus"] in order else "compose-to"
        state["focus"] = focus
        if ctx.pressed(chord, "Primary+Enter"):
            self._send(ctx, state)
            return True
        if name == "Escape":
            self._cancel(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+z"):
            self._undo(state)
            return True
        if ctx.pressed(chord, "Primary+Shift+a"):
            self._open_chooser(ctx, state)
            return True
        if name in ("Tab", "Shift+Tab"):
            i = order.index(focus)
            state["focus"] = order[(i + (1 if name == "Tab" else -1)) % len(order)]
            c["last"] = None
            return True
        if focus == "attachments":
            return self._attachments_key(ctx, state, name)
        if focus == "compose-body":
            return self._body_key(ctx, state, chord)
        if name == "Enter":
            state["focus"] = FIELDS[FIELDS.index(focus) + 1]
            state["compose"]["last"] = None
            return True
        f = state["compose"][_FIELD_KEY[focus]]
        if ctx.pressed(chord, "Primary+v") or name == "Shift+Insert":
            self._field_insert(state, ctx.clipboard)
            return True
        if chord.char is not None:
            self._field_insert(state, chord.char)
            return True
        before = f["text"]
        snapshot = self._snapshot(state["compose"])
        taken = tp.field_key(ctx, f, chord)
        if taken and f["text"] != before:
            c = state["compose"]
            c["undo"] = _trim([*c["undo"], snapshot])
            c["last"] = f"edit:{focus}"
        elif taken:
            state["compose"]["last"] = None
        return taken

    def _attachments_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        """The attachment pane: arrows pick a file, ``Delete`` / ``Backspace`` remove it."""
        c = state["compose"]
        if name in ("ArrowUp", "ArrowDown", "Home", "End"):
            last = len(c["attachments"]) - 1
            c["picked"] = {
                "ArrowUp": max(0, c["picked"] - 1),
                "ArrowDown": min(last, c["picked"] + 1),
                "Home": 0,
                "End": last,
            }[name]
            self._reveal_file(ctx, state)
            return True
        if name in ("Delete", "Backspace"):
            self._remove_attachment(state, c["picked"])
            return True
        return False

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["account"] is None or state["compose"] is None:
            return False
        if state["chooser"] is not None:
            ch = state["chooser"]
            tp.field_type(ch["path"], text)
            ch["error"], ch["selected"] = "", None
            state["focus"] = "attach-path"
            return True
        if state["focus"] == "attachments":
            return False
        focus = state["focus"] if state["focus"] in FIELDS else "compose-to"
        state["focus"] = focus
        if focus == "compose-body":
            self._body_insert(ctx, state, text)
        else:
            self._field_insert(state, text)
        return True

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        """The Attach dialog's folder listing, while the dialog is open."""
        chooser = state.get("chooser")
        if chooser is None:
            return None
        return chooser["folder"], _listing(ctx, chooser["folder"])

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        if state["account"] is None:
            self._paint_no_account(p)
            return
        p.box(Rect(0, 0, p.width, TOOL_H), pal.get("header", pal["button"]), key="mail-toolbar")
        composing = state["compose"] is not None
        for name, label, rect in _buttons(COMPOSE_BAR if composing else TOOLBAR):
            disabled = (
                not composing and name in ("reply", "forward", "delete") and state["open"] is None
            )
            p.button(
                name, label, rect, disabled=disabled, suggested=name in ("compose-send", "write")
            )
        address = state["account"]["address"]
        aw = measure(address, "sans", 13)
        p.text(address, p.width - aw - 14, 16, size=13, color=pal["muted"], key="mail-account")
        banner = state["error"] or state["status"]
        if banner:
            r = Rect(0, TOOL_H, p.width, BANNER_H)
            p.box(
                r, (252, 232, 232, 255) if state["error"] else pal["window"], key="mail-banner-bg"
            )
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(MARGIN, TOOL_H + 2, p.width - 100, BANNER_H - 4),
                key="mail-alert",
                semantic=Semantic("alert" if state["error"] else "status", banner),
            )
            p.text(
                banner, MARGIN, TOOL_H + 8, size=13, color=ERROR if state["error"] else pal["text"],
                width=p.width - 100, key="mail-banner",
            )  # fmt: skip
            p.button("dismiss", "Close", Rect(p.width - 72, TOOL_H + 3, 62, 26))
        if composing:
            self._paint_compose(p, state)
            if state["chooser"] is not None and key is not None:
                self._paint_chooser(p, state, key[1])
            return
        self._paint_folders(p, state)
        self._paint_list(p, state)
        self._paint_reading(p, state)

    def _paint_no_account(self, p: Painter) -> None:
        pal = p.palette
        p.box(Rect(0, 0, p.width, p.height), pal["window"], key="mail-none-bg")
        head = "No mail account on this machine"
        hw = measure(head, "sans-bold", 20)
        y = max(20, p.height // 2 - 60)
        p.paint(
            UiText(head, 20, pal["text"]),
            Rect((p.width - hw) // 2, y, hw, line_height("sans-bold", 20)),
            key="mail-none-head",
            semantic=Semantic("heading", head),
        )
        text = (
            "Thunderbird Mail signs in to the world's mail service with the account named like this "
            "machine's user. No mail service reachable from this machine has one."
        )
        lines = wrap(text, "sans", 14, max(100, min(560, p.width - 40)))
        for i, line in enumerate(lines):
            lw = measure(line, "sans", 14)
            p.text(
                line,
                (p.width - lw) // 2,
                y + 40 + i * 20,
                size=14,
                color=pal["muted"],
                key=("mail-none", i),
            )
        bw = measure("Close", "sans", 14) + 40
        p.button("close", "Close", Rect((p.width - bw) // 2, y + 52 + len(lines) * 20, bw, 34))

    def _paint_folders(self, p: Painter, state: dict) -> None:
        pal = p.palette
        top = _top(state)
        p.box(Rect(0, top, FOLDER_W, p.height - top), pal["window"], key="mail-folders-bg")
        p.paint(
            Box(pal["border"]), Rect(FOLDER_W - 1, top, 1, p.height - top), key="mail-folders-edge"
        )
        p.text(
            state["account"]["address"],
            12,
            top + 10,
            size=12,
            bold=True,
            color=pal["muted"],
            width=FOLDER_W - 20,
            key="mail-folders-head",
        )
        for i, f in enumerate(state["folders"]):
            on = f["name"] == state["folder"]
            r = Rect(6, top + 34 + i * 32, FOLDER_W - 12, 30)
            target = f"folder:{f['name']}"
            label = f["name"] + (f" ({f['unread']})" if f["unread"] else "")
            p.paint(
                RoundedBox(pal["selection"] if on else pal["window"], 6),
                r,
                key=("mail-folder", f["name"]),
                target=target,
                semantic=Semantic("treeitem", label, str(f["total"]), False, True),
                state=NodeState(selected=on),
            )
            p.text(
                f["name"],
                r.x + 10,
                r.y + 6,
                size=14,
                bold=bool(f["unread"]),
                width=r.width - 60,
                key=("mail-folder-name", f["name"]),
                target=target,
            )
            if f["unread"]:
                n = str(f["unread"])
                p.text(
                    n,
                    r.right - 10 - measure(n, "sans-bold", 13),
                    r.y + 7,
                    size=13,
                    bold=True,
                    color=pal["accent"],
                    key=("mail-folder-n", f["name"]),
                    target=target,
                )

    def _paint_list(self, p: Painter, state: dict) -> None:
        pal = p.palette
        lst = _list_rect(p.width, p.height, state)
        hy = lst.y - HEAD_H
        p.box(
            Rect(FOLDER_W, hy, lst.width, HEAD_H), pal.get("header", pal["button"]), key="mail-head"
        )
        sent = state["folder"] in ("Sent", "Drafts")
        cols = _list_cols(lst)
        for name, label in (
            ("who", "Recipient" if sent else "From"),
            ("subject", "Subject"),
            ("date", "Date"),
        ):
            x, _w = cols[name]
            p.paint(
                UiText(label, 12, pal["muted"]),
                Rect(x, hy + 6, measure(label, "sans", 12), line_height("sans", 12)),
                key=("mail-col", name),
                semantic=Semantic("columnheader", label),
            )
        p.paint(
            Box(pal["field"]),
            lst,
            key="mail-list-bg",
            semantic=Semantic("list", f"{state['folder']} messages"),
        )
        p.paint(Box(pal["border"]), Rect(FOLDER_W, lst.bottom, lst.width, 1), key="mail-list-edge")
        rows = state["messages"]
        if not rows:
            p.text(
                f"No messages in {state['folder']}.",
                lst.x + 16,
                lst.y + 12,
                size=14,
                color=pal["muted"],
                key="mail-list-empty",
            )
            return
        offset = p.scroll("messages", lst, len(rows) * ROW_H + (ROW_H if state["more"] else 0))
        with p.clipped(lst):
            for i, m in enumerate(rows):
                y = lst.y + i * ROW_H - offset
                if y + ROW_H <= lst.y or y >= lst.bottom:
                    continue
                p.reuse(
                    (
                        "mail-row",
                        m["id"],
                        m["from"],
                        m["to"],
                        m["subject"],
                        m["date"],
                        m["unread"],
                        m["id"] == state["selected"],
                        sent,
                        y,
                    ),
                    _paint_row,
                    m,
                    sent,
                    m["id"] == state["selected"],
                    Rect(lst.x, y, lst.width, ROW_H),
                    cols,
                )
            if state["more"]:
                y = lst.y + len(rows) * ROW_H - offset
                p.text(
                    f"{state['more']} older messages are not listed.",
                    lst.x + 16,
                    y + 6,
                    size=13,
                    color=pal["muted"],
                    key="mail-more",
                )

    def _paint_reading(self, p: Painter, state: dict) -> None:
        pal = p.palette
        area = _reading_rect(p.width, p.height, state)
        p.box(area, pal["field"], key="mail-read-bg")
        m = state["open"]
        if m is None:
            p.text(
                "Select a message to read it.",
                area.x + 16,
                area.y + 16,
                size=14,
                color=pal["muted"],
                key="mail-read-empty",
            )
            return
        y = area.y + 10
        p.text(
            m["subject"] or "(no subject)",
            area.x + 16,
            y,
            size=17,
            bold=True,
            width=area.width - 32,
            key="mail-read-subject",
        )
        y += 28
        for label, value in (
            ("From", m["from"]),
            ("To", m["to"]),
            ("Cc", m["cc"]),
            ("Date", m["date"]),
        ):
            if not value:
                continue
            p.text(
                label, area.x + 16, y, size=13, color=pal["muted"], key=("mail-read-label", label)
            )
            p.text(
                value,
                area.x + 70,
                y,
                size=13,
                width=area.width - 90,
                key=("mail-read-value", label),
            )
            y += 19
        if m["attachments"]:
            y = self._paint_read_files(p, m["attachments"], area, y)
        p.paint(
            Box(pal["border"]), Rect(area.x + 12, y + 4, area.width - 24, 1), key="mail-read-rule"
        )
        body_rect = Rect(area.x, y + 10, area.width, max(0, area.bottom - y - 10))
        body = m["body"] + (
            "\n\n[The rest of this message is not shown.]" if m["truncated"] else ""
        )
        lines = _wrapped(body, area.width - 40)
        lh = 20
        p.paint(
            Box((0, 0, 0, 0)),
            body_rect,
            key="mail-read-doc",
            semantic=Semantic("document", m["subject"] or "(no subject)", m["body"]),
        )
        offset = p.scroll("message", body_rect, len(lines) * lh + 12)
        with p.clipped(body_rect):
            first = offset // lh
            for i in range(first, min(len(lines), first + body_rect.height // lh + 2)):
                if lines[i]:
                    p.text(
                        lines[i],
                        body_rect.x + 16,
                        body_rect.y + 4 + i * lh - offset,
                        size=14,
                        key=("mail-line", i),
                    )

    def _paint_read_files(self, p: Painter, files: list[dict], area: Rect, y: int) -> int:
        """The open message's attachments, one a line with its Save button; returns the y below."""
        pal = p.palette
        count = f"{len(files)} attachment{'s' if len(files) != 1 else ''}"
        p.text(
            count, area.x + 16, y + 4, size=13, bold=True, color=pal["muted"], key="mail-read-files"
        )
        y += 24
        for i, a in enumerate(files):
            label = f"{a['name']} ({size_text(a['size'])})"
            p.text(
                label,
                area.x + 28,
                y + 5,
                size=13,
                width=area.width - 140,
                key=("mail-read-file", i),
            )
            _small_button(
                p,
                f"save-attachment:{i}",
                "Save",
                f"Save {a['name']}",
                Rect(area.right - 96, y, 80, 26),
            )
            y += 30
        return y

    def _paint_compose(self, p: Painter, state: dict) -> None:
        pal = p.palette
        c = state["compose"]
        top = _top(state)
        p.box(Rect(0, top, p.width, p.height - top), pal["window"], key="mail-compose-bg")
        p.text(
            f"From: {state['account']['display']} <{state['account']['address']}>",
            MARGIN,
            top + 10,
            size=13,
            color=pal["muted"],
            width=p.width - 2 * MARGIN,
            key="mail-compose-from",
        )
        rects = _compose_rects(p.width, p.height, state)
        focus = state["focus"]
        for name, label in (
            ("compose-to", "To"),
            ("compose-cc", "Cc"),
            ("compose-subject", "Subject"),
        ):
            r = rects[name]
            p.text(
                label,
                MARGIN,
                r.y + 7,
                size=14,
                color=pal["muted"],
                key=("mail-compose-label", name),
            )
            tp.paint_field(p, name, c[_FIELD_KEY[name]], r, label=label, focused=focus == name)
        # the body
        r = rects["compose-body"]
        pane, cols, rows = _body_geom(r)
        cw, ch = tp.grid()
        text = c["body"]["text"]
        w = tp.Wrap(text.split("\n"), cols)
        stored = p.scroll_offset("body") or 0
        top_row = max(0, min(stored // ch, max(0, w.total - rows)))
        focused = focus == "compose-body"
        p.paint(
            RoundedBox(
                pal["field"], 6, pal["accent"] if focused else pal["border"], 2 if focused else 1
            ),
            r,
            key="mail-body-bg",
            target="compose-body",
            semantic=Semantic("textbox", "Message body", text, False, True),
            state=NodeState(focused=focused),
        )
        handle = f"window:{p.window}:mail-body"
        tp.paint_rows(
            p,
            w,
            top_row,
            rows,
            pane.x,
            pane.y,
            color=pal["text"],
            target="compose-body",
            pane=handle,
            key="mail-body-row",
        )
        p.scroll("body", pane, w.total * ch, top_row * ch)
        shown = sorted({w.locate(x)[0] for x in range(top_row, min(top_row + rows, w.total))})
        p.buffer("mail-body", w.lines, shown[0] if shown else 0, len(shown))
        if "attachments" in rects:
            self._paint_compose_files(p, state, rects["attachments"])
        if focused:
            line, col = _line_col(text, c["body"]["caret"])
            row, cell = w.row_of(line, col)
            caret = Rect(pane.x + cell * cw, pane.y + (row - top_row) * ch, 2, ch)
            if top_row <= row < top_row + rows:
                p.paint(Box(pal["text"]), caret, key="mail-body-caret", target="compose-body")
            p.focus(
                "compose-body",
                role="textbox",
                label="Message body",
                value=text,
                caret=caret,
                line=line,
                column=col,
                offset=c["body"]["caret"],
                text_entry=True,
            )

    def _paint_compose_files(self, p: Painter, state: dict, r: Rect) -> None:
        """The compose form's attachment pane: a row a file with its Remove button."""
        pal = p.palette
        c = state["compose"]
        files = c["attachments"]
        focused = state["focus"] == "attachments"
        total = sum(a["size"] for a in files)
        head = f"{len(files)} attachment{'s' if len(files) != 1 else ''}, {size_text(total)}"
        p.text(
            head, r.x + 4, r.y + 3, size=13, bold=True, color=pal["muted"], key="mail-compose-files"
        )
        lst = Rect(r.x, r.y + ATTACH_HEAD_H, r.width, max(0, r.height - ATTACH_HEAD_H))
        p.paint(
            RoundedBox(
                pal["field"], 6, pal["accent"] if focused else pal["border"], 2 if focused else 1
            ),
            lst,
            key="mail-compose-files-bg",
            semantic=Semantic("list", "Attachments"),
        )
        offset = p.scroll("attachments", lst, len(files) * ATTACH_ROW_H)
        with p.clipped(lst):
            for i, a in enumerate(files):
                y = lst.y + i * ATTACH_ROW_H - offset
                if y + ATTACH_ROW_H <= lst.y or y >= lst.bottom:
                    continue
                picked = focused and c["picked"] == i
                label = f"{a['name']} ({size_text(a['size'])})"
                p.paint(
                    Box(pal["selection"] if picked else (0, 0, 0, 0)),
                    Rect(lst.x + 2, y, lst.width - 4, ATTACH_ROW_H),
                    key=("mail-file-row", i),
                    target=f"attachment:{i}",
                    semantic=Semantic("listitem", label, None, False, True),
                    state=NodeState(selected=picked, focused=picked or None),
                )
                p.text(
                    label, lst.x + 10, y + 5, size=13, width=lst.width - 110, key=("mail-file-name", i),
                    target=f"attachment:{i}",
                )  # fmt: skip
                _small_button(
                    p, f"attachment-remove:{i}", "Remove", f"Remove {a['name']}",
                    Rect(lst.right - 84, y + 2, 76, ATTACH_ROW_H - 4),
                )  # fmt: skip
        if focused and files:
            p.focus(f"attachment:{c['picked']}", role="listitem", label=files[c["picked"]]["name"])

    def _paint_chooser(self, p: Painter, state: dict, listing: tuple) -> None:
        """The Attach dialog over the compose form: the folder, its entries, the path field."""
        pal = p.palette
        ch = state["chooser"]
        entries, more, problem = listing
        rects = _chooser_rects(p.width, p.height)
        box = rects["box"]
        p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="mail-scrim")
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="mail-chooser",
            semantic=Semantic("dialog", "Attach File(s)"),
        )
        title = "Attach File(s)"
        h = line_height("sans-bold", 15)
        p.paint(
            UiTextBold(title, 15, pal["text"]),
            Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), h),
            key="mail-chooser-title",
        )
        p.text(
            ch["folder"], box.x + 16, box.y + 50, size=13, color=pal["muted"], width=box.width - 120,
            key="mail-chooser-folder",
        )  # fmt: skip
        p.button("attach-up", "Up", rects["attach-up"], disabled=ch["folder"] == "/")
        lst = rects["list"]
        p.paint(
            RoundedBox(pal["field"], 6, pal["border"], 1),
            lst,
            key="mail-chooser-list",
            semantic=Semantic("list", ch["folder"]),
        )
        rows = len(entries) + (1 if more or problem or not entries else 0)
        offset = p.scroll("chooser", lst, rows * CHOOSER_ROW_H)
        with p.clipped(lst):
            for i, (name, is_dir, size) in enumerate(entries):
                y = lst.y + i * CHOOSER_ROW_H - offset
                if y + CHOOSER_ROW_H <= lst.y or y >= lst.bottom:
                    continue
                picked = name == ch["selected"]
                target = f"attach-entry:{name}"
                p.paint(
                    Box(pal["selection"] if picked else (0, 0, 0, 0)),
                    Rect(lst.x + 2, y, lst.width - 4, CHOOSER_ROW_H),
                    key=("mail-entry", name),
                    target=target,
                    semantic=Semantic(
                        "listitem",
                        name + ("/" if is_dir else ""),
                        "folder" if is_dir else size_text(size),
                        False,
                        True,
                    ),
                    state=NodeState(selected=picked),
                )
                p.text(
                    name + ("/" if is_dir else ""),
                    lst.x + 10,
                    y + 5,
                    size=13,
                    bold=is_dir,
                    width=lst.width - 120,
                    key=("mail-entry-name", name),
                    target=target,
                )
                if not is_dir:
                    text = size_text(size)
                    p.text(
                        text,
                        lst.right - 12 - measure(text, "sans", 12),
                        y + 6,
                        size=12,
                        color=pal["muted"],
                        key=("mail-entry-size", name),
                        target=target,
                    )
            note = problem or (
                f"{more} more entries are not listed."
                if more
                else ""
                if entries
                else "This folder is empty."
            )
            if note:
                y = lst.y + len(entries) * CHOOSER_ROW_H - offset
                p.text(
                    note,
                    lst.x + 10,
                    y + 5,
                    size=13,
                    color=ERROR if problem else pal["muted"],
                    key="mail-chooser-note",
                )
        tp.paint_field(
            p, "attach-path", ch["path"], rects["attach-path"], label="File name", focused=True,
            placeholder="A file name, or a path like ~/Documents/report.pdf",
        )  # fmt: skip
        if ch["error"]:  # two lines at most, the second ellipsized
            lines = _wrapped(ch["error"], box.width - 32)
            where = Rect(box.x + 16, rects["attach-path"].bottom + 4, box.width - 32, 38)
            p.paint(
                Box((0, 0, 0, 0)),
                where,
                key="mail-chooser-alert",
                semantic=Semantic("alert", ch["error"]),
            )
            for i, line in enumerate(lines[:2]):
                p.text(
                    line if i == 0 or len(lines) <= 2 else " ".join(lines[1:]),
                    box.x + 16,
                    rects["attach-path"].bottom + 6 + i * 18,
                    size=13,
                    color=ERROR,
                    width=box.width - 32,
                    key=("mail-chooser-error", i),
                )
        p.button("attach-cancel", "Cancel", rects["attach-cancel"])
        p.button("attach-confirm", "Attach", rects["attach-confirm"], suggested=True)

    def is_drag_surface(self, target: str, button: int) -> bool:
        return False

    def cursor(self, target: str) -> str | None:
        return "text" if target in FIELDS else None


def _indexed(target: str, prefix: str, count: int) -> bool:
    """Whether ``target`` is ``<prefix><i>`` with ``0 <= i < count``."""
    if not target.startswith(prefix):
        return False
    raw = target[len(prefix) :]
    return raw.isdigit() and len(raw) < 4 and int(raw) < count


def _small_button(p: Painter, target: str, text: str, label: str, rect: Rect) -> None:
    """A small push button showing ``text`` whose accessible name is ``label`` (``Save
    report.pdf``), so that buttons of one kind on a screen tell apart."""
    pal = p.palette
    p.paint(
        RoundedBox(pal["button"], 6, pal["border"], 1),
        rect,
        key=("mail-small", target),
        target=target,
        semantic=Semantic("button", label, None, False, True),
    )
    w, h = measure(text, "sans", 13), line_height("sans", 13)
    p.paint(
        UiText(text, 13, pal["text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("mail-small-label", target),
        target=target,
    )


def _trim(steps: list[dict]) -> list[dict]:
    """The newest undo steps within :data:`UNDO_MAX` and :data:`UNDO_CHARS`."""
    steps = steps[-UNDO_MAX:]
    size = sum(len(s["body"]) + len(s["to"]) + len(s["cc"]) + len(s["subject"]) for s in steps)
    while len(steps) > 1 and size > UNDO_CHARS:
        s = steps.pop(0)
        size -= len(s["body"]) + len(s["to"]) + len(s["cc"]) + len(s["subject"])
    return steps


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _list_cols(lst: Rect) -> dict[str, tuple[int, int]]:
    date_w = 130
    rest = max(100, lst.width - date_w - 24)
    who_w = rest * 35 // 100
    return {
        "who": (lst.x + 14, who_w),
        "subject": (lst.x + 14 + who_w, rest - who_w),
        "date": (lst.right - date_w, date_w),
    }


def _paint_row(p: Painter, m: dict, sent: bool, selected: bool, r: Rect, cols: dict) -> None:
    pal = p.palette
    target = f"message:{m['id']}"
    who = m["to"] if sent else m["from"]
    subject = m["subject"] or "(no subject)"
    label = f"{who}, {subject}, {m['date']}"
    p.paint(
        Box(pal["selection"] if selected else (0, 0, 0, 0)),
        r,
        key=("mail-row", m["id"]),
        target=target,
        semantic=Semantic("row", label, "unread" if m["unread"] else "read", False, True),
        state=NodeState(selected=selected),
    )
    ty = r.y + (r.height - line_height("sans", 14)) // 2
    bold = m["unread"]
    for col, text in (("who", who), ("subject", subject), ("date", m["date"])):
        x, w = cols[col]
        p.text(
            text,
            x,
            ty,
            size=14 if col != "date" else 13,
            bold=bold,
            color=pal["text"] if col != "date" else pal["muted"],
            width=max(0, w - 12),
            key=(f"mail-row-{col}", m["id"]),
            target=target,
        )
    if m["unread"]:
        p.paint(
            RoundedBox(pal["accent"], 3),
            Rect(r.x + 4, r.y + r.height // 2 - 3, 6, 6),
            key=("mail-row-dot", m["id"]),
            target=target,
        )


register(Mail())
