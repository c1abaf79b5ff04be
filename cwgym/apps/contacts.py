"""``contacts``: Contacts, an address book in the manner of GNOME Contacts.

Contacts are vCard files in ``~/.local/share/contacts/`` (:data:`CONTACTS_DIR`), one
``.vcf`` file per contact, named after the contact (``Grace Hopper.vcf``; `` 2``, `` 3`` …
appended when the name is taken). Files written by hand may hold several cards: each is a
contact of its own (its id is ``<file>#<n>``, ``n`` from 1), edited and deleted in place.
:mod:`cwgym.apps._vcard` reads and writes the format (vCard 3.0 written, 2.1/3.0/4.0
read; ``FN``, ``N``, ``EMAIL``, ``TEL``, ``ORG``, ``NOTE``, ``CATEGORIES``; every other
property is kept as written). A favourite has ``Favorites`` among its ``CATEGORIES``. A
file that is not a well-formed vCard is skipped and named, with its line, in the status
bar; it is never changed.

Layout: a header bar (Add contact, the search field; on the right Favourite, Edit and
Delete for the selected contact, or Cancel and Save while editing), the list of contacts
sorted by name (★ marks a favourite), the selected contact's details or the edit form
(Name, Email, Phone, Organisation, Notes), and a status bar (messages, skipped files, the
Undo of a deletion).

Control targets (``window:<id>:content:<target>``): ``add``, ``search``,
``contact:<id>`` (a row: the file name, or ``<file>#<n>``), ``favorite``, ``edit``,
``delete``; while editing ``field:name``, ``field:email``, ``field:phone``, ``field:org``,
``field:note``, ``save``, ``cancel``; the deletion dialog's ``delete-cancel`` and
``delete-confirm``; ``undo-delete`` in the status bar after a deletion. Scroll pane:
``pane:list``.

Keys: ``Primary+n`` add, ``Primary+f`` search, ``Primary+z`` undo (in the form: the last
change to a field; else: the last deletion), ``Primary+Shift+z`` / ``Primary+y`` redo in
the form. In the list: arrows, ``Home``/``End`` select, ``Enter`` edits, ``Delete`` asks
to delete, printable characters start a search. In the search field: its editing keys,
``Enter``/``Tab``/``ArrowDown`` to the list, ``Escape`` clears it. In the form: ``Tab`` /
``Shift+Tab`` move between fields, ``Enter`` saves (in Notes it breaks the line),
``Primary+s`` saves, ``Escape`` cancels; each field has the editing keys of
:func:`cwgym.apps._textpane.field_key`. In the dialog: ``Tab``/arrows move between the
buttons, ``Enter`` presses the focused one (Cancel at first), ``Escape`` cancels.

Caps (characters): :data:`FIELD_CAPS` per field, :data:`MAX_SEARCH` for the search;
typing or pasting past them fails with ``invalid`` and changes nothing. Saving refuses (a
message in the form) a contact without a name, an email address without one ``@`` and a
dot after it or with spaces, and a phone number with characters other than digits,
spaces and ``+-().``.

Launch argument: the path of a ``.vcf`` file in the contacts folder (absolute, ``~/`` or a
bare file name), whose first contact is selected. A path elsewhere or a missing file
refuses the launch (``action_failed``).
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.apps import _textpane as tp
from cwgym.apps import _vcard as vc
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine import recent
from cwgym.machine.filesystem import FILE, FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import ellipsize, line_height, measure, wrap

__all__ = ["CONTACTS_DIR", "FIELDS", "FIELD_CAPS", "MAX_SEARCH", "MAX_UNDO", "Contacts"]

#: The contacts folder, relative to the home folder.
CONTACTS_DIR = ".local/share/contacts"
#: The form's fields: (key, label).
FIELDS = (
    ("name", "Name"),
    ("email", "Email"),
    ("phone", "Phone"),
    ("org", "Organisation"),
    ("note", "Notes"),
)
#: The most characters each field holds.
FIELD_CAPS = {"name": 200, "email": 254, "phone": 64, "org": 200, "note": 2000}
#: The most characters the search field holds.
MAX_SEARCH = 200
#: Undo steps of the form.
MAX_UNDO = 50
#: A deleted file is kept for Undo when it is at most this many characters.
UNDO_FILE_MAX = 16_384
#: The most characters of a name used in a file name.
MAX_NAME = 80

HEADER_H = 48
STATUS_H = 30
ROW_H = 52
SIDEBAR_MAX = 300
LIST = "list"
STAR = "★"
PHONE_CHARS = frozenset("0123456789 +-().")
NOTE_ROWS = 5


# -- files ---------------------------------------------------------------------------------


def _folder(ctx: AppContext) -> str:
    return f"{ctx.home}/{CONTACTS_DIR}"


def _path(ctx: AppContext, name: str) -> str:
    return f"{_folder(ctx)}/{name}"


def _is_vcf(name: str) -> bool:
    return name.lower().endswith(".vcf") and not name.startswith(".") and len(name) > 4


def _file_base(name: str) -> str:
    base = "".join(ch if ch.isprintable() else " " for ch in name).replace("/", "-").strip()
    base = base.lstrip(".").strip()[:MAX_NAME].rstrip()
    return base or "Contact"


def _free_name(ctx: AppContext, base: str, current: str | None) -> str:
    ufs = ctx.files()
    candidate = f"{base}.vcf"
    n = 2
    while candidate != current and ufs.exists(_path(ctx, candidate), ctx.home, follow=False):
        candidate = f"{base} {n}.vcf"
        n += 1
    return candidate


def _ensure_folder(ctx: AppContext) -> None:
    ufs = ctx.files()
    current = ctx.home
    for part in CONTACTS_DIR.split("/"):
        current = f"{current}/{part}"
        if not ufs.exists(current, ctx.home):
            ufs.mkdir(current, ctx.home, 0o755)


def _scan(ctx: AppContext) -> tuple[list[tuple[str, str, int, vc.Card]], list[str]]:
    """``(contacts, problems)``: contacts ``(id, file, index, card)`` sorted by name."""
    ufs = ctx.files()
    folder = _folder(ctx)
    try:
        names = ufs.listdir(folder, ctx.home)
        directory = ufs.lookup(folder, ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT":
            return [], []
        return [], [f"~/{CONTACTS_DIR} cannot be read: {exc.strerror_text}"]
    searchable = ufs.cred.may(directory, 1)
    out = []
    problems = []
    for name in names:
        if not _is_vcf(name):
            continue
        # one walk to the folder, then its entries: the list is read on every composition
        inode = ufs.fs.inode(directory.entries[name])
        if inode.kind != FILE:
            continue
        if not searchable or not ufs.cred.may(inode, 4):
            problems.append(f"Skipped {name}: Permission denied")
            continue
        try:
            cards = vc.parse(inode.data)
        except vc.VCardError as exc:
            where = f", line {exc.line}" if exc.line else ""
            problems.append(f"Skipped {name}{where}: {exc.problem}")
            continue
        for i, card in enumerate(cards):
            cid = name if len(cards) == 1 else f"{name}#{i + 1}"
            out.append((cid, name, i, card))
    out.sort(key=lambda c: (c[3].fn.casefold(), c[0]))
    return out, problems


def _matches(card: vc.Card, query: str) -> bool:
    if not query:
        return True
    return any(query in v.casefold() for v in (card.fn, card.email, card.tel, card.org, card.note))


def _visible(contacts: list, search: str) -> list:
    query = search.strip().casefold()
    return [c for c in contacts if _matches(c[3], query)]


def _find(ctx: AppContext, cid: str | None) -> tuple[str, str, int, vc.Card] | None:
    if cid is None:
        return None
    contacts, _problems = _scan(ctx)
    return next((c for c in contacts if c[0] == cid), None)


def _initials(name: str) -> str:
    words = [w for w in name.split() if w[:1].isalnum()]
    if not words:
        return name[:1].upper() or "?"
    return (words[0][0] + (words[-1][0] if len(words) > 1 else "")).upper()


def _check(fields: dict[str, str]) -> str:
    """Why the form cannot be saved, or ""."""
    name = fields["name"].strip()
    if not name:
        return "A contact needs a name."
    email = fields["email"].strip()
    if email:
        local, at, domain = email.partition("@")
        if (
            not at
            or not local
            or "@" in domain
            or "." not in domain.strip(".")
            or any(ch.isspace() for ch in email)
        ):
            return f"“{email}” is not an email address."
    phone = fields["phone"].strip()
    if phone and (not set(phone) <= PHONE_CHARS or not any(ch.isdigit() for ch in phone)):
        return f"“{phone}” is not a phone number (digits, spaces and + - ( ) . only)."
    return ""


# -- geometry ------------------------------------------------------------------------------


class _Geom:
    __slots__ = ("detail", "list", "sidebar", "status")

    def __init__(self, width: int, height: int) -> None:
        self.sidebar = max(180, min(SIDEBAR_MAX, width // 3))
        body = max(0, height - HEADER_H - STATUS_H)
        self.list = Rect(0, HEADER_H, self.sidebar, body)
        self.detail = Rect(self.sidebar + 1, HEADER_H, max(0, width - self.sidebar - 1), body)
        self.status = Rect(0, max(HEADER_H, height - STATUS_H), width, STATUS_H)


def _header(width: int, state: dict, has: bool) -> dict[str, tuple[str, Rect]]:
    g = _Geom(width, 0)
    out: dict[str, tuple[str, Rect]] = {}
    aw = measure("Add contact", "sans", 14) + 24
    out["add"] = ("Add contact", Rect(8, 8, aw, 32))
    sx = 8 + aw + 8
    out["search"] = ("Search contacts", Rect(sx, 8, max(60, g.sidebar - sx - 8), 32))
    if state["form"] is not None:
        right = [("save", "Save"), ("cancel", "Cancel")]
    elif has:
        fav = state.get("favorite", False)
        right = [
            ("delete", "Delete"),
            ("edit", "Edit"),
            ("favorite", "Unfavourite" if fav else "Favourite"),
        ]
    else:
        right = []
    x = width - 8
    for name, label in right:
        bw = measure(label, "sans", 14) + 24
        x -= bw
        out[name] = (label, Rect(x, 8, bw, 32))
        x -= 6
    return out


def _form_rects(detail: Rect) -> dict[str, Rect]:
    x = detail.x + 24
    w = max(120, min(480, detail.width - 48))
    y = detail.y + 44
    out = {}
    for key, _label in FIELDS:
        y += 20
        h = 32 if key != "note" else NOTE_ROWS * tp.grid()[1] + 12
        out[key] = Rect(x, y, w, h)
        y += h + 10
    return out


def _dialog_rects(width: int, height: int) -> tuple[Rect, dict[str, Rect]]:
    w = max(240, min(400, width - 40))
    h = 140
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    controls = {}
    x = box.right - 16
    for name, label in (("delete-confirm", "Delete"), ("delete-cancel", "Cancel")):
        bw = measure(label, "sans", 14) + 32
        x -= bw
        controls[name] = Rect(x, box.bottom - 48, bw, 34)
        x -= 8
    return box, controls


def _undo_rect(status: Rect) -> Rect:
    w = measure("Undo", "sans", 14) + 24
    return Rect(status.right - w - 8, status.y + 3, w, status.height - 6)


# -- the notes field (several lines) -------------------------------------------------------


def _note_view(f: dict, rect: Rect) -> tuple[tp.Wrap, int, int]:
    """``(wrap, first row shown, rows)`` of the notes field: the caret's row is kept in view."""
    cw, ch = tp.grid()
    cols = max(1, (rect.width - 16) // cw)
    rows = max(1, (rect.height - 12) // ch)
    text = f["text"]
    w = tp.Wrap(text.split("\n"), cols)
    line = text.count("\n", 0, f["caret"])
    col = f["caret"] - (text.rfind("\n", 0, f["caret"]) + 1)
    row, _cell = w.row_of(line, col)
    return w, max(0, row - rows + 1), rows


def _note_index(f: dict, rect: Rect, point: tuple[int, int]) -> int:
    cw, ch = tp.grid()
    w, top, _rows = _note_view(f, rect)
    row = max(0, min(w.total - 1, top + (point[1] - rect.y - 6) // ch))
    line, col = w.pos_at(row, point[0] - rect.x - 8, cw)
    return sum(len(s) + 1 for s in w.lines[:line]) + col


def _paint_note(p: Painter, f: dict, rect: Rect, focused: bool) -> None:
    pal = p.palette
    cw, ch = tp.grid()
    text = f["text"]
    p.paint(
        RoundedBox(
            pal["field"], 6, pal["accent"] if focused else pal["border"], 2 if focused else 1
        ),
        rect,
        key=("field", "note"),
        target="field:note",
        semantic=Semantic("textbox", "Notes", text, False, True),
        state=NodeState(focused=True) if focused else None,
    )
    w, top, rows = _note_view(f, rect)
    x, y = rect.x + 8, rect.y + 6
    a, c = f["anchor"], f["caret"]
    if focused and a is not None and a != c:
        s, e = min(a, c), max(a, c)

        def lc(o: int) -> tuple[int, int]:
            return text.count("\n", 0, o), o - (text.rfind("\n", 0, o) + 1)

        for i, c0, n in tp.selection_boxes(w, top, rows, lc(s), lc(e)):
            p.paint(
                Box(pal["selection"]),
                Rect(x + c0 * cw, y + i * ch, n * cw, ch),
                key=("note-sel", i),
                target="field:note",
            )
    tp.paint_rows(
        p, w, top, rows, x, y, color=pal["text"], target="field:note", pane=None, key="note-row"
    )
    if focused:
        line = text.count("\n", 0, c)
        col = c - (text.rfind("\n", 0, c) + 1)
        row, cell = w.row_of(line, col)
        caret = Rect(x + cell * cw, y + (row - top) * ch, 2, ch)
        p.paint(Box(pal["text"]), caret, key="note-caret", target="field:note")
        p.focus(
            "field:note",
            role="textbox",
            label="Notes",
            value=text,
            caret=caret,
            line=line,
            column=col,
            offset=c,
            text_entry=True,
        )


def _guarded(f: dict, cap: int, label: str, change: Any) -> Any:
    """Run ``change()`` on a field; put it back and refuse when it grew past ``cap``."""
    before = dict(f)
    result = change()
    if len(f["text"]) > cap and len(f["text"]) > len(before["text"]):
        f.update(before)
        raise InvalidInput(f"{label} holds at most {cap} characters")
    return result


class Contacts(App):
    id = "contacts"
    label = "Contacts"
    default_size = (980, 640)
    min_size = (600, 400)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        state: dict[str, Any] = {
            "selected": None,
            "name": "",
            "favorite": False,
            "search": tp.field(""),
            "focus": "list",
            "form": None,
            "undo": [],
            "redo": [],
            "group": None,
            "confirm": None,
            "deleted": None,
            "error": "",
            "status": "",
        }
        contacts, _problems = _scan(ctx)
        if argument:
            raw = argument.strip()
            path = (
                ctx.home + raw[1:]
                if raw.startswith("~/")
                else raw
                if raw.startswith("/")
                else _path(ctx, raw)
            )
            folder, name = posixpath.split(posixpath.normpath(path))
            if folder != _folder(ctx) or not _is_vcf(name):
                raise AppError(f"Contacts opens the .vcf files in ~/{CONTACTS_DIR} only")
            if not ctx.files().exists(_path(ctx, name), ctx.home):
                raise AppError(f"there is no contacts file {path}")
            found = next((c for c in contacts if c[1] == name), None)
            if found is None:
                state["error"] = f"{name} holds no contact that can be read"
            else:
                self._select(state, found)
        elif contacts:
            self._select(state, contacts[0])
        return state

    def title(self, state: dict) -> str:
        if state["form"] is not None and state["form"]["of"] is None:
            return "New Contact — Contacts"
        return f"{state['name']} — Contacts" if state["selected"] else "Contacts"

    def document(self, state: dict) -> str:
        return ""

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        return True

    def _select(self, state: dict, entry: tuple | None) -> None:
        if entry is None:
            state.update({"selected": None, "name": "", "favorite": False})
        else:
            state.update({"selected": entry[0], "name": entry[3].fn, "favorite": entry[3].favorite})

    # -- writing -------------------------------------------------------------------------
    def _rewrite(self, ctx: AppContext, file: str, index: int, block: str | None) -> str:
        """Replace card ``index`` of ``file`` with ``block`` (``None``: remove it; the file
        goes when it had that card only). The problem, or ""."""
        ufs = ctx.files()
        path = _path(ctx, file)
        try:
            data = ufs.read(path, ctx.home)
            cards = vc.parse(data)
        except FsError as exc:
            return f"Could not read {file}: {exc.strerror_text}"
        except vc.VCardError as exc:
            return f"{file} is no longer a vCard file ({exc}); it is left as it is."
        if index >= len(cards):
            return f"{file} changed; the contact is not there any more."
        try:
            if len(cards) == 1:
                if block is None:
                    ufs.unlink(path, ctx.home)
                else:
                    ufs.write(path, ctx.home, block.encode("utf-8"))
                return ""
            text = data.decode("utf-8-sig")
            newline = "\r\n" if "\r\n" in text else "\n"
            lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            card = cards[index]
            middle = [] if block is None else block.rstrip("\r\n").split("\r\n")
            out = lines[: card.first] + middle + lines[card.last + 1 :]
            ufs.write(path, ctx.home, newline.join(out).encode("utf-8"))
        except FsError as exc:
            return f"Could not save {file}: {exc.strerror_text}"
        return ""

    def _save(self, ctx: AppContext, state: dict) -> None:
        form = state["form"]
        fields = {k: f["text"] for k, f in form["fields"].items()}
        problem = _check(fields)
        if problem:
            form["error"] = problem
            return
        name = fields["name"].strip()
        if form["of"] is None:
            try:
                _ensure_folder(ctx)
                file = _free_name(ctx, _file_base(name), None)
                ctx.files().write(
                    _path(ctx, file),
                    ctx.home,
                    vc.serialize(fields, False).encode("utf-8"),
                    mode=0o644,
                )
            except FsError as exc:
                form["error"] = f"Could not save the contact: {exc.strerror_text}"
                return
            cid = file
        else:
            entry = _find(ctx, form["of"])
            if entry is None:
                form["error"] = "The contact's file changed or is gone; it was not saved."
                return
            cid, file, index, card = entry
            problem = self._rewrite(ctx, file, index, vc.serialize(fields, card.favorite, card))
            if problem:
                form["error"] = problem
                return
            if cid == file and name != card.fn:
                target = _free_name(ctx, _file_base(name), file)
                if target != file:
                    try:
                        ctx.files().rename(_path(ctx, file), _path(ctx, target), ctx.home)
                        cid = file = target
                    except FsError as exc:
                        state["error"] = f"Saved, but could not rename {file}: {exc.strerror_text}"
        recent.add_recent(ctx.machine, _path(ctx, file), self.id)
        state["form"] = None
        state["undo"], state["redo"], state["group"] = [], [], None
        state["focus"] = "list"
        self._select(state, _find(ctx, cid))
        state["status"] = f"Saved {name}"

    def _toggle_favorite(self, ctx: AppContext, state: dict) -> None:
        entry = _find(ctx, state["selected"])
        if entry is None:
            return
        _cid, file, index, card = entry
        problem = self._rewrite(
            ctx, file, index, vc.serialize(card.fields(), not card.favorite, card)
        )
        if problem:
            state["error"] = problem
            return
        recent.add_recent(ctx.machine, _path(ctx, file), self.id)
        state["favorite"] = not card.favorite
        state["status"] = (
            f"{card.fn} is a favourite"
            if state["favorite"]
            else f"{card.fn} is no longer a favourite"
        )

    def _delete(self, ctx: AppContext, state: dict) -> None:
        confirm = state["confirm"]
        state["confirm"] = None
        entry = _find(ctx, confirm["id"])
        if entry is None:
            state["error"] = "The contact's file changed or is gone; nothing was deleted."
            return
        cid, file, index, card = entry
        contacts, _p = _scan(ctx)
        order = [c[0] for c in _visible(contacts, state["search"]["text"])]
        try:
            before = ctx.files().read(_path(ctx, file), ctx.home).decode("utf-8-sig")
        except (FsError, UnicodeDecodeError):
            before = None
        problem = self._rewrite(ctx, file, index, None)
        if problem:
            state["error"] = problem
            return
        after = None
        if ctx.files().exists(_path(ctx, file), ctx.home):
            after = ctx.files().read(_path(ctx, file), ctx.home).decode("utf-8", "replace")
        keep = (
            before is not None
            and len(before) <= UNDO_FILE_MAX
            and (after is None or len(after) <= UNDO_FILE_MAX)
        )
        state["deleted"] = (
            {"file": file, "before": before, "after": after, "name": card.fn} if keep else None
        )
        state["status"] = f"Deleted {card.fn}"
        state["error"] = ""
        nxt = None
        if cid in order:
            i = order.index(cid)
            rest = order[i + 1 :] + order[:i][::-1]
            nxt = rest[0] if rest else None
        remaining, _p = _scan(ctx)
        by_id = {c[0]: c for c in remaining}
        self._select(state, by_id.get(nxt) if nxt is not None else None)
        state["focus"] = "list"

    def _undo_delete(self, ctx: AppContext, state: dict) -> None:
        deleted = state["deleted"]
        if deleted is None:
            return
        ufs = ctx.files()
        path = _path(ctx, deleted["file"])
        try:
            now = (
                ufs.read(path, ctx.home).decode("utf-8", "replace")
                if ufs.exists(path, ctx.home)
                else None
            )
        except FsError:
            now = ""
        if now != deleted["after"]:
            state["deleted"] = None
            state["error"] = f"{deleted['file']} changed since; the deletion cannot be undone."
            return
        try:
            _ensure_folder(ctx)
            ufs.write(path, ctx.home, deleted["before"].encode("utf-8"), mode=0o644)
        except FsError as exc:
            state["error"] = f"Could not restore {deleted['file']}: {exc.strerror_text}"
            return
        state["deleted"] = None
        state["status"] = f"Restored {deleted['name']}"
        contacts, _p = _scan(ctx)
        back = next(
            (c for c in contacts if c[1] == deleted["file"] and c[3].fn == deleted["name"]), None
        )
        if back is not None:
            self._select(state, back)

    # -- the form ------------------------------------------------------------------------
    def _open_form(self, ctx: AppContext, state: dict, new: bool) -> None:
        if new:
            fields = {k: "" for k, _ in FIELDS}
            of = None
        else:
            entry = _find(ctx, state["selected"])
            if entry is None:
                return
            fields = entry[3].fields()
            of = entry[0]
        state["form"] = {
            "of": of,
            "fields": {k: tp.field(v) for k, v in fields.items()},
            "error": "",
        }
        state["undo"], state["redo"], state["group"] = [], [], None
        state["focus"] = "field:name"
        state["confirm"] = None
        state["status"] = ""

    def _snapshot(self, state: dict) -> dict[str, str]:
        return {k: f["text"] for k, f in state["form"]["fields"].items()}

    def _changed(self, state: dict, before: dict[str, str], group: str | None) -> None:
        """Record an undo step for a change of the form (typing into one field merges)."""
        if self._snapshot(state) == before:
            return
        if group is None or state["group"] != group:
            state["undo"].append(before)
            del state["undo"][:-MAX_UNDO]
        state["group"] = group
        state["redo"] = []
        state["form"]["error"] = ""

    def _form_undo(self, state: dict, redo: bool) -> None:
        src, dst = (state["redo"], state["undo"]) if redo else (state["undo"], state["redo"])
        if not src:
            return
        dst.append(self._snapshot(state))
        texts = src.pop()
        for k, f in state["form"]["fields"].items():
            if f["text"] != texts[k]:
                f["text"], f["caret"], f["anchor"] = texts[k], len(texts[k]), None
        state["group"] = None

    def _field_key(self, ctx: AppContext, state: dict, key: str, chord: Chord) -> bool:
        f = state["form"]["fields"][key]
        name = chord.name
        label = dict(FIELDS)[key]
        before = self._snapshot(state)
        if key == "note" and name in ("Enter", "Shift+Enter"):
            _guarded(f, FIELD_CAPS[key], label, lambda: _insert_raw(f, "\n"))
            self._changed(state, before, None)
            return True
        if key == "note" and name.replace("Shift+", "") in ("ArrowUp", "ArrowDown", "Home", "End"):
            _note_move(f, name.replace("Shift+", ""), chord.shift)
            state["group"] = None
            return True
        taken = _guarded(f, FIELD_CAPS[key], label, lambda: tp.field_key(ctx, f, chord))
        self._changed(state, before, f"type:{key}" if chord.char is not None else None)
        return taken

    # -- painting ------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        contacts, problems = _scan(ctx)
        rows = tuple(
            (c[0], c[3].fn, c[3].email or c[3].org or c[3].tel, c[3].favorite)
            for c in _visible(contacts, state["search"]["text"])
        )
        chosen = next((c for c in contacts if c[0] == state["selected"]), None)
        detail = None
        if chosen is not None:
            card = chosen[3]
            detail = (
                chosen[0],
                chosen[1],
                card.fn,
                card.email,
                card.tel,
                card.org,
                card.note,
                card.favorite,
            )
        return rows, tuple(problems), detail, len(contacts)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        rows, problems, detail, count = key
        pal = p.palette
        g = _Geom(p.width, p.height)
        dialog = state["confirm"]
        focus = state["focus"] if dialog is None else None
        form = state["form"]
        p.box(Rect(0, 0, p.width, HEADER_H), pal.get("header", pal["button"]), key="header")
        for name, (label, rect) in _header(p.width, state, detail is not None).items():
            if name == "search":
                tp.paint_field(
                    p,
                    "search",
                    state["search"],
                    rect,
                    label=label,
                    focused=focus == "search",
                    placeholder=label,
                )
            else:
                p.button(name, label, rect, suggested=name in ("add", "save"))
        offset = p.scroll(LIST, g.list, len(rows) * ROW_H)
        searching = state["search"]["text"] != ""
        p.reuse(
            ("contacts-list", rows, state["selected"], focus == "list", offset, count, searching),
            _paint_list,
            g.list,
            rows,
            state["selected"],
            focus == "list",
            offset,
            count,
            searching,
        )
        p.box(Rect(g.sidebar, HEADER_H, 1, g.list.height), pal["border"], key="divider")
        p.box(g.detail, pal["field"], key="detail-bg")
        if form is not None:
            self._paint_form(p, state, g, focus)
        elif detail is not None:
            p.reuse(("contacts-detail", detail, g.detail), _paint_detail, g.detail, detail)
        else:
            msg = "No contact selected" if count else "No contacts yet"
            hint = "Pick a contact in the list." if count else "Add one with Add contact."
            cx = g.detail.x + g.detail.width // 2
            w1 = measure(msg, "sans-bold", 18)
            p.paint(
                UiTextBold(msg, 18, pal["muted"]),
                Rect(cx - w1 // 2, p.height // 2 - 30, w1, line_height("sans-bold", 18)),
                key="empty",
            )
            p.text(
                hint,
                cx - measure(hint, "sans", 13) // 2,
                p.height // 2,
                size=13,
                color=pal["muted"],
                key="empty-hint",
            )
        # status bar
        st = g.status
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        ty = st.y + (st.height - line_height("sans", 13)) // 2
        room = st.width - 24
        if state["deleted"] is not None:
            ur = _undo_rect(st)
            p.button("undo-delete", "Undo", ur)
            room = ur.x - 20
        message = state["error"] or (problems[0] if problems else "") or state["status"]
        if problems and not state["error"] and len(problems) > 1:
            message = f"{problems[0]} (and {len(problems) - 1} more)"
        if message:
            bad = bool(state["error"] or problems)
            shown = ellipsize(message, "sans", 13, max(0, room))
            p.paint(
                UiText(shown, 13, ERROR if bad else pal["muted"]),
                Rect(10, ty, measure(shown, "sans", 13), line_height("sans", 13)),
                key="status-text",
                semantic=Semantic("alert" if bad else "status", message),
            )
        if focus == "list":
            if state["selected"] is not None and any(r[0] == state["selected"] for r in rows):
                p.focus(f"contact:{state['selected']}", role="listitem", label=state["name"])
            else:
                p.focus(None, role="list", label="Contacts")
        if dialog is not None:
            self._paint_dialog(p, dialog)

    def _paint_form(self, p: Painter, state: dict, g: _Geom, focus: str | None) -> None:
        pal = p.palette
        form = state["form"]
        rects = _form_rects(g.detail)
        title = "New Contact" if form["of"] is None else "Edit Contact"
        p.paint(
            UiTextBold(title, 16, pal["text"]),
            Rect(
                g.detail.x + 24,
                g.detail.y + 12,
                measure(title, "sans-bold", 16),
                line_height("sans-bold", 16),
            ),
            key="form-title",
        )
        for key, label in FIELDS:
            r = rects[key]
            p.text(label, r.x, r.y - 19, size=12, color=pal["muted"], key=("label", key))
            f = form["fields"][key]
            if key == "note":
                _paint_note(p, f, r, focus == "field:note")
            else:
                tp.paint_field(
                    p, f"field:{key}", f, r, label=label, focused=focus == f"field:{key}"
                )
        if form["error"]:
            r = rects["note"]
            p.paint(
                UiText(form["error"], 13, ERROR),
                Rect(
                    r.x, r.bottom + 10, measure(form["error"], "sans", 13), line_height("sans", 13)
                ),
                key="form-error",
                semantic=Semantic("alert", form["error"]),
            )

    def _paint_dialog(self, p: Painter, dialog: dict) -> None:
        pal = p.palette
        p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="scrim")
        box, controls = _dialog_rects(p.width, p.height)
        title = "Delete contact?"
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="dialog",
            semantic=Semantic("dialog", title),
        )
        h = line_height("sans-bold", 15)
        p.paint(
            UiTextBold(title, 15, pal["text"]),
            Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), h),
            key="dialog-title",
        )
        p.text(
            f"“{dialog['name']}” will be deleted.",
            box.x + 16,
            box.y + 46,
            size=13,
            width=box.width - 32,
            key="dialog-text",
        )
        for name, label in (("delete-cancel", "Cancel"), ("delete-confirm", "Delete")):
            p.button(
                name,
                label,
                controls[name],
                focused=dialog["button"] == name,
                suggested=name == "delete-confirm",
            )
        p.focus(
            dialog["button"],
            role="button",
            label="Delete" if dialog["button"] == "delete-confirm" else "Cancel",
        )

    # -- pointer -------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["confirm"] is not None:
            if target == "delete-cancel":
                state["confirm"] = None
            elif target == "delete-confirm":
                self._delete(ctx, state)
            else:
                raise UnknownTarget(target)
            return None
        form = state["form"]
        if target == "search":
            state["focus"] = "search"
            if point is not None:
                rect = _header(ctx.width, state, False)["search"][1]
                state["search"]["caret"] = tp.field_index(state["search"], rect, point[0])
                state["search"]["anchor"] = None
            return None
        if target == "undo-delete" and state["deleted"] is not None:
            self._undo_delete(ctx, state)
            return None
        if form is not None:
            if target == "save":
                self._save(ctx, state)
                return None
            if target == "cancel":
                state["form"] = None
                state["focus"] = "list"
                return None
            if target.startswith("field:") and target[6:] in form["fields"]:
                key = target[6:]
                state["focus"] = target
                state["group"] = None
                f = form["fields"][key]
                if point is not None:
                    r = _form_rects(_Geom(ctx.width, ctx.height).detail)[key]
                    f["caret"] = (
                        _note_index(f, r, point)
                        if key == "note"
                        else tp.field_index(f, r, point[0])
                    )
                    f["anchor"] = None
                return None
        state["status"] = ""
        if target == "add":
            self._open_form(ctx, state, new=True)
            return None
        if target.startswith("contact:"):
            cid = target[8:]
            contacts, _p = _scan(ctx)
            entry = next(
                (c for c in _visible(contacts, state["search"]["text"]) if c[0] == cid), None
            )
            if entry is None:
                raise UnknownTarget(target)
            state["form"] = None
            self._select(state, entry)
            state["focus"] = "list"
            return None
        if form is None and state["selected"] is not None:
            if target == "edit":
                self._open_form(ctx, state, new=False)
                return None
            if target == "favorite":
                self._toggle_favorite(ctx, state)
                return None
            if target == "delete":
                self._ask_delete(ctx, state)
                return None
        raise UnknownTarget(target)

    def double_click(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        return self.activate(ctx, state, target, point, modifiers)

    def _ask_delete(self, ctx: AppContext, state: dict) -> None:
        entry = _find(ctx, state["selected"])
        if entry is not None:
            state["confirm"] = {"id": entry[0], "name": entry[3].fn, "button": "delete-cancel"}

    def wheel(
        self,
        ctx: AppContext,
        state: dict,
        target: str | None,
        point: tuple[int, int],
        dx: int,
        dy: int,
        modifiers: tuple[str, ...],
    ) -> bool:
        return state["confirm"] is not None

    # -- keys ----------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        if state["confirm"] is not None:
            return self._dialog_key(ctx, state, name)
        form = state["form"]
        if name == cmd("Primary+n"):
            self._open_form(ctx, state, new=True)
            return True
        if name == cmd("Primary+f"):
            state["focus"] = "search"
            tp.field_select_all(state["search"])
            return True
        if name == cmd("Primary+z"):
            if form is not None:
                self._form_undo(state, redo=False)
            else:
                self._undo_delete(ctx, state)
            return True
        if name in (cmd("Primary+Shift+z"), cmd("Primary+y")):
            if form is not None:
                self._form_undo(state, redo=True)
            return True
        focus = state["focus"]
        if focus == "search":
            return self._search_key(ctx, state, name, chord)
        if form is not None:
            if name == cmd("Primary+s"):
                self._save(ctx, state)
                return True
            if name == "Escape":
                state["form"] = None
                state["focus"] = "list"
                return True
            keys = [f"field:{k}" for k, _ in FIELDS]
            if name in ("Tab", "Shift+Tab"):
                i = keys.index(focus) if focus in keys else -1
                nxt = keys[(i + (-1 if chord.shift else 1)) % len(keys)]
                state["focus"] = nxt
                state["group"] = None
                tp.field_select_all(form["fields"][nxt[6:]])
                return True
            if focus in keys:
                if name == "Enter" and focus != "field:note":
                    self._save(ctx, state)
                    return True
                return self._field_key(ctx, state, focus[6:], chord)
            if name == "Enter":
                self._save(ctx, state)
                return True
        return self._list_key(ctx, state, name, chord)

    def _dialog_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        confirm = state["confirm"]
        if name == "Escape":
            state["confirm"] = None
        elif name in ("Tab", "Shift+Tab", "ArrowLeft", "ArrowRight"):
            confirm["button"] = (
                "delete-confirm" if confirm["button"] == "delete-cancel" else "delete-cancel"
            )
        elif name in ("Enter", "Space"):
            if confirm["button"] == "delete-confirm":
                self._delete(ctx, state)
            else:
                state["confirm"] = None
        return True

    def _search_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = state["search"]
        if name in ("Enter", "Tab", "ArrowDown"):
            self._to_list(ctx, state)
            return True
        if name == "Escape":
            if f["text"]:
                state["search"] = tp.field("")
                ctx.set_scroll_offset(LIST, None)
            else:
                state["focus"] = "list"
            return True
        before = f["text"]
        taken = _guarded(f, MAX_SEARCH, "the search field", lambda: tp.field_key(ctx, f, chord))
        if f["text"] != before:
            ctx.set_scroll_offset(LIST, None)
        return taken

    def _to_list(self, ctx: AppContext, state: dict) -> None:
        if state["form"] is not None:
            state["focus"] = "field:name"
            return
        state["focus"] = "list"
        contacts, _p = _scan(ctx)
        shown = _visible(contacts, state["search"]["text"])
        if shown and state["selected"] not in {c[0] for c in shown}:
            self._select(state, shown[0])
            ctx.set_scroll_offset(LIST, None)

    def _list_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        contacts, _p = _scan(ctx)
        shown = _visible(contacts, state["search"]["text"])
        ids = [c[0] for c in shown]
        if name in ("ArrowUp", "ArrowDown", "Home", "End"):
            if not ids or state["form"] is not None:
                return True
            i = ids.index(state["selected"]) if state["selected"] in ids else -1
            j = {
                "ArrowUp": max(0, i - 1) if i >= 0 else 0,
                "ArrowDown": min(len(ids) - 1, i + 1),
                "Home": 0,
                "End": len(ids) - 1,
            }[name]
            self._select(state, shown[j])
            state["focus"] = "list"
            g = _Geom(ctx.width, ctx.height)
            offset = ctx.scroll_offset(LIST) or 0
            if j * ROW_H < offset:
                ctx.set_scroll_offset(LIST, j * ROW_H or None)
            elif (j + 1) * ROW_H > offset + g.list.height:
                ctx.set_scroll_offset(LIST, (j + 1) * ROW_H - g.list.height)
            return True
        if name == "Enter":
            if state["selected"] is not None and state["form"] is None:
                self._open_form(ctx, state, new=False)
            return True
        if name == "Delete":
            if state["form"] is None:
                self._ask_delete(ctx, state)
            return True
        if name == "Shift+Tab":
            state["focus"] = "search"
            return True
        if name == "Tab":
            state["focus"] = "field:name" if state["form"] is not None else "search"
            return True
        if chord.char is not None:
            self._type_search(ctx, state, chord.char)
            return True
        return False

    def _type_search(self, ctx: AppContext, state: dict, text: str) -> None:
        f = state["search"]
        _guarded(f, MAX_SEARCH, "the search field", lambda: tp.field_type(f, text))
        state["focus"] = "search"
        ctx.set_scroll_offset(LIST, None)

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["confirm"] is not None:
            return True
        focus = state["focus"]
        form = state["form"]
        if focus == "search":
            f = state["search"]
            _guarded(f, MAX_SEARCH, "the search field", lambda: tp.field_type(f, text))
            ctx.set_scroll_offset(LIST, None)
            return True
        if form is not None and focus.startswith("field:") and focus[6:] in form["fields"]:
            key = focus[6:]
            f = form["fields"][key]
            before = self._snapshot(state)
            if key == "note":
                clean = text.replace("\r\n", "\n").replace("\r", "\n")
                clean = "".join(ch for ch in clean if ch.isprintable() or ch in "\n\t")
                _guarded(f, FIELD_CAPS[key], "Notes", lambda: _insert_raw(f, clean))
            else:
                _guarded(f, FIELD_CAPS[key], dict(FIELDS)[key], lambda: tp.field_type(f, text))
            self._changed(state, before, f"type:{key}" if len(text) == 1 else None)
            return True
        if form is None:
            self._type_search(ctx, state, text)
        return True


def _insert_raw(f: dict, text: str) -> None:
    """Insert ``text`` (line breaks kept) over a field's selection."""
    a, c = f["anchor"], f["caret"]
    s, e = (c, c) if a is None or a == c else (min(a, c), max(a, c))
    f["text"] = f["text"][:s] + text + f["text"][e:]
    f["caret"] = s + len(text)
    f["anchor"] = None


def _note_move(f: dict, key: str, shift: bool) -> None:
    """Line-wise caret moves in the notes field."""
    text, c = f["text"], f["caret"]
    start = text.rfind("\n", 0, c) + 1
    end = text.find("\n", c)
    end = len(text) if end < 0 else end
    col = c - start
    if key == "Home":
        new = start
    elif key == "End":
        new = end
    elif key == "ArrowUp":
        if start == 0:
            new = 0
        else:
            prev = text.rfind("\n", 0, start - 1) + 1
            new = min(prev + col, start - 1)
    else:
        if end >= len(text):
            new = len(text)
        else:
            nxt_end = text.find("\n", end + 1)
            nxt_end = len(text) if nxt_end < 0 else nxt_end
            new = min(end + 1 + col, nxt_end)
    if shift:
        if f["anchor"] is None:
            f["anchor"] = c
    else:
        f["anchor"] = None
    f["caret"] = new
    if f["anchor"] == new:
        f["anchor"] = None


def _paint_list(
    p: Painter,
    rect: Rect,
    rows: tuple,
    selected: str | None,
    focused: bool,
    offset: int,
    count: int,
    searching: bool,
) -> None:
    pal = p.palette
    p.paint(Box(pal["window"]), rect, key="list-bg", semantic=Semantic("list", "Contacts"))
    if not rows:
        msg = "No matching contacts" if searching and count else "No contacts"
        p.text(msg, rect.x + 16, rect.y + 16, size=13, color=pal["muted"], key="list-empty")
        return
    first = offset // ROW_H
    last = min(len(rows), (offset + rect.height) // ROW_H + 1)
    with p.clipped(rect, dy=-offset):
        for i in range(first, last):
            cid, name, sub, favorite = rows[i]
            r = Rect(rect.x, rect.y + i * ROW_H, rect.width, ROW_H)
            on = cid == selected
            target = f"contact:{cid}"
            p.paint(
                Box(pal["selection"] if on else pal["window"]),
                r,
                key=("row", cid),
                target=target,
                semantic=Semantic("listitem", name, "favourite" if favorite else None, False, True),
                state=NodeState(selected=on, focused=True if on and focused else None),
            )
            _avatar(p, name, Rect(r.x + 10, r.y + 8, 36, 36), ("row-avatar", cid), target, 14)
            tw = rect.width - 70
            if favorite:
                sw = measure(STAR, "sans", 14)
                p.paint(
                    UiText(STAR, 14, pal["accent"]),
                    Rect(r.right - sw - 12, r.y + 8, sw, line_height("sans", 14)),
                    key=("row-star", cid),
                    target=target,
                )
                tw -= sw + 8
            shown = ellipsize(name, "sans-bold", 14, max(0, tw))
            p.paint(
                UiTextBold(shown, 14, pal["text"]),
                Rect(
                    r.x + 56,
                    r.y + 8 if sub else r.y + 17,
                    measure(shown, "sans-bold", 14),
                    line_height("sans-bold", 14),
                ),
                key=("row-name", cid),
                target=target,
            )
            if sub:
                s = ellipsize(sub, "sans", 12, max(0, rect.width - 70))
                p.paint(
                    UiText(s, 12, pal["muted"]),
                    Rect(r.x + 56, r.y + 28, measure(s, "sans", 12), line_height("sans", 12)),
                    key=("row-sub", cid),
                    target=target,
                )
            p.paint(Box(pal["border"]), Rect(r.x, r.bottom - 1, r.width, 1), key=("row-line", cid))


def _avatar(p: Painter, name: str, rect: Rect, key: Any, target: str | None, size: int) -> None:
    pal = p.palette
    p.paint(RoundedBox(pal["accent"], rect.width // 2), rect, key=key, target=target)
    text = _initials(name)
    w, h = measure(text, "sans-bold", size), line_height("sans-bold", size)
    p.paint(
        UiTextBold(text, size, pal["accent_text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=(key, "initials"),
        target=target,
    )


def _paint_detail(p: Painter, area: Rect, detail: tuple) -> None:
    pal = p.palette
    _cid, file, name, email, tel, org, note, favorite = detail
    x = area.x + 24
    _avatar(p, name, Rect(x, area.y + 24, 72, 72), "detail-avatar", None, 26)
    nx = x + 90
    shown = ellipsize(
        name + (f"  {STAR}" if favorite else ""), "sans-bold", 22, max(0, area.right - nx - 16)
    )
    p.paint(
        UiTextBold(shown, 22, pal["text"]),
        Rect(nx, area.y + 34, measure(shown, "sans-bold", 22), line_height("sans-bold", 22)),
        key="detail-name",
        semantic=Semantic("heading", name),
    )
    if org:
        p.text(
            org,
            nx,
            area.y + 66,
            size=14,
            color=pal["muted"],
            width=max(0, area.right - nx - 16),
            key="detail-org",
        )
    y = area.y + 124
    vx = x + 130
    width = max(40, area.right - vx - 24)
    for label, value in (("Email", email), ("Phone", tel), ("Organisation", org), ("Notes", note)):
        if not value:
            continue
        p.text(label, x, y, size=13, color=pal["muted"], key=("detail-label", label))
        lines = []
        for part in value.split("\n"):
            lines.extend(wrap(part, "sans", 14, width) or [""])
        lines = lines[:12]
        lh = line_height("sans", 14) + 2
        p.paint(
            Box((0, 0, 0, 0)),
            Rect(vx, y, width, lh * len(lines)),
            key=("detail-value", label),
            semantic=Semantic("text", label, value),
        )
        for i, line in enumerate(lines):
            p.text(line, vx, y + i * lh, size=14, key=("detail-line", label, i))
        y += lh * len(lines) + 14
    p.text(
        f"~/{CONTACTS_DIR}/{file}",
        x,
        area.bottom - 28,
        size=12,
        color=pal["muted"],
        width=area.width - 48,
        key="detail-file",
    )


register(Contacts())
