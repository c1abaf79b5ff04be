"""``files``: the file manager (GNOME Files in spirit), driven by pointer and keyboard.

A window shows one folder (or a virtual view: Recent, Starred, Trash, Quick Access) per
tab: a toolbar (Back, Forward, Go Up, the path bar, Search, Reload, the view toggle, New
Tab), an action bar (New Folder, New File, Open, Cut, Copy, Paste, Rename, Move to Trash,
Star, Show Hidden; Restore and Empty Trash in the Trash), the tab bar, the sidebar of
places, and the list (or grid) of entries with icon, name, size and modification time.
See ``docs/apps-files.md`` for every control target and key.

The state is plain data on the window (tabs with their location, history, selection,
sort and the offset an inactive tab comes back to; stars; recently opened files; the
inline name field...). The list's and the sidebar's offsets are the window's scroll
offsets (panes ``list`` and ``side``). The listing itself is never kept:
:meth:`Files.paint_key` reads it from the filesystem for every composition and
:meth:`Files.paint` is handed what it read. Closing the last tab closes the window.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from cwgym.apps import APPS, register
from cwgym.apps import _files_model as model
from cwgym.apps import _files_view as view
from cwgym.apps._textpane import FIELD_MAX
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.protocol.catalogue import canonical_id
from cwgym.text import measure, shape

__all__ = ["Files"]

HISTORY = 50
RECENTS = 50
TEXT_FIELDS = ("location", "name", "search")
#: Listings remembered by content (:meth:`Files._listing`); a listing is immutable.
LISTINGS_KEPT = 256
_LISTINGS: OrderedDict[tuple, model.Listing] = OrderedDict()
#: The text fields' targets and the focus each takes.
_FIELDS = {"files-name": "name", "files-location-entry": "location", "files-search-entry": "search"}
SORT_KEYS = {"name": "name", "size": "size", "date": "date", "modified": "date", "mtime": "date"}


def _q(name: str) -> str:
    return f"“{name}”"


def _new_tab(loc: str) -> dict[str, Any]:
    return {"loc": loc, "back": [], "forward": [], "selected": [], "cursor": None, "sort": "name", "desc": False, "scroll": 0, "search": None}


def _field(text: str, select: tuple[int, int] | None = None) -> dict[str, Any]:
    a, c = select if select is not None else (len(text), len(text))
    return {"text": text, "caret": c, "anchor": a}


class Files(App):
    id = "files"
    label = "Files"
    kind = "builtin"
    default_size = (960, 600)
    min_size = (600, 420)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        home = ctx.home
        ufs = ctx.files()
        loc, select = home, None
        if argument:
            path = model.normalize(argument, ctx.cwd, home)
            if path in model.VIRTUAL:
                loc = path
            else:
                try:
                    st = ufs.stat(path, "/")
                except FsError:
                    raise AppError(f"{argument}: no such folder") from None
                if st.is_dir:
                    loc = path
                else:
                    loc, select = model.dirname(path), path
        state: dict[str, Any] = {
            "home": home,
            "tabs": [_new_tab(loc)],
            "active": 0,
            "hidden": False,
            "view": "list",
            "starred": [],
            "recents": [],
            "notice": None,
            "edit": None,
            "entry": None,
            "grab": None,
            "focus": "list",
        }
        if select is not None:
            self._tab(state)["selected"] = [select]
            self._tab(state)["cursor"] = select
        if loc not in model.VIRTUAL:
            try:
                ufs.listdir(loc, "/")
            except FsError as exc:
                if exc.code == "EACCES":
                    self._notice(state, f"You do not have the permissions necessary to view the contents of {_q(model.basename(loc))}.", True)
        return state

    def title(self, state: dict) -> str:
        return view.folder_title(self._tab(state)["loc"], state["home"])

    def document(self, state: dict) -> str:
        return self._tab(state)["loc"]

    # what the scene's window entry lists as its tabs
    def tabs(self, state: dict) -> list[str]:
        return [view.folder_title(t["loc"], state["home"]) for t in state["tabs"]]

    def active_tab(self, state: dict) -> int:
        return state["active"]

    # -- painting ------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> model.Listing:
        """The listing the window shows now: it keys the repaint cache and is what
        :meth:`paint` draws."""
        return self._listing(ctx, state)

    def paint(self, p: Painter, state: dict, key: model.Listing) -> None:
        view.paint(p, state, key)

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _tab(state: dict) -> dict:
        return state["tabs"][state["active"]]

    def _listing(self, ctx: AppContext, state: dict) -> model.Listing:
        """The tab's listing, remembered by everything it is a function of (the
        filesystem's digest, the user, the view settings, the clipboard and the day), so
        an unchanged folder is not read again on every repaint, in any world."""
        tab = self._tab(state)
        search = tab["search"]["text"] if tab["search"] is not None else None
        ufs = ctx.files()
        key = (
            ufs.fs.digest(),
            ufs.cred.uid,
            ufs.cred.groups,
            state["home"],
            tab["loc"],
            state["hidden"],
            tab["sort"],
            tab["desc"],
            search,
            tuple(state["starred"]),
            tuple(state["recents"]),
            ctx.clipboard,
            model.day_of(ctx.now_us),
        )
        found = _LISTINGS.get(key)
        if found is not None:
            _LISTINGS.move_to_end(key)
            return found
        found = _LISTINGS[key] = model.listing(
            ufs,
            state["home"],
            tab["loc"],
            hidden=state["hidden"],
            sort=tab["sort"],
            descending=tab["desc"],
            search=search,
            starred=state["starred"],
            recents=state["recents"],
            clipboard=ctx.clipboard,
            now_us=ctx.now_us,
        )
        if len(_LISTINGS) > LISTINGS_KEPT:
            _LISTINGS.popitem(last=False)
        return found

    @staticmethod
    def _notice(state: dict, text: str, error: bool = False) -> None:
        state["notice"] = {"text": text, "error": error}

    def _layout(self, ctx: AppContext, state: dict) -> view.Layout:
        return view.layout(ctx.width, ctx.height, state)

    def _selected_rows(self, ctx: AppContext, state: dict, listing: model.Listing | None = None) -> list[model.Row]:
        listing = listing or self._listing(ctx, state)
        chosen = set(self._tab(state)["selected"])
        return [r for r in listing.rows if r.path in chosen]

    def _select(self, state: dict, paths: list[str], cursor: str | None = None) -> None:
        tab = self._tab(state)
        tab["selected"] = list(paths)
        tab["cursor"] = cursor if cursor is not None else (paths[-1] if paths else None)

    def _reveal(self, ctx: AppContext, state: dict, listing: model.Listing, path: str | None) -> None:
        """Scroll the list so the row of ``path`` is in view."""
        if path is None:
            return
        index = next((i for i, r in enumerate(listing.rows) if r.path == path), None)
        if index is None:
            return
        lay = self._layout(ctx, state)
        r = view.row_rect(state, lay.list, index)
        top, bottom = r.y - lay.list.y, r.bottom - lay.list.y + (4 if state["view"] == "grid" else 0)
        offset = _offset(ctx, view.LIST)
        if top < offset:
            offset = max(0, top - (4 if state["view"] == "grid" else 0))
        elif bottom > offset + lay.list.height:
            offset = bottom - lay.list.height
        _set_offset(ctx, view.LIST, min(offset, view.max_scroll(state, lay.list, len(listing.rows))))

    def _clamp_list(self, ctx: AppContext, state: dict, listing: model.Listing) -> None:
        limit = view.max_scroll(state, self._layout(ctx, state).list, len(listing.rows))
        _set_offset(ctx, view.LIST, min(_offset(ctx, view.LIST), limit))

    def _end_fields(self, state: dict) -> None:
        state["entry"] = None
        if state["focus"] == "location":
            state["focus"] = "list"

    # -- navigation ------------------------------------------------------------------------
    def _go(self, ctx: AppContext, state: dict, target: str, *, push: bool = True, select: str | None = None) -> bool:
        """Show ``target`` (a path or a virtual view) in the active tab; ``False`` (with a
        visible message) when it cannot be shown."""
        tab = self._tab(state)
        loc = model.normalize(target, tab["loc"] if tab["loc"] not in model.VIRTUAL else state["home"], state["home"])
        if loc not in model.VIRTUAL:
            ufs = ctx.files()
            try:
                st = ufs.stat(loc, "/")
            except FsError as exc:
                if exc.code == "EACCES":
                    self._notice(state, f"You do not have the permissions necessary to open {_q(loc)}.", True)
                else:
                    self._notice(state, f"The location {_q(loc)} does not exist.", True)
                return False
            if not st.is_dir:
                select, loc = loc, model.dirname(loc)
            try:
                ufs.listdir(loc, "/")
            except FsError as exc:
                if exc.code == "EACCES":
                    self._notice(state, f"You do not have the permissions necessary to view the contents of {_q(model.basename(loc))}.", True)
                else:
                    self._notice(state, f"The location {_q(loc)} could not be displayed.", True)
                return False
        if push and loc != tab["loc"]:
            tab["back"] = (tab["back"] + [tab["loc"]])[-HISTORY:]
            tab["forward"] = []
        tab["loc"] = loc
        _set_offset(ctx, view.LIST, 0)
        tab["search"] = None
        state["edit"] = None
        state["entry"] = None
        state["focus"] = "list"
        self._select(state, [select] if select else [])
        if select:
            self._reveal(ctx, state, self._listing(ctx, state), select)
        return True

    def _history(self, ctx: AppContext, state: dict, step: int) -> None:
        tab = self._tab(state)
        source, sink = ("back", "forward") if step < 0 else ("forward", "back")
        while tab[source]:
            loc = tab[source].pop()
            here = tab["loc"]
            if self._go(ctx, state, loc, push=False):
                tab[sink] = (tab[sink] + [here])[-HISTORY:]
                return
        self._notice(state, "There is no previous location." if step < 0 else "There is no next location.")

    def _up(self, ctx: AppContext, state: dict) -> None:
        tab = self._tab(state)
        loc = tab["loc"]
        if loc in model.VIRTUAL or loc == "/":
            self._notice(state, "There is no parent folder.")
            return
        self._go(ctx, state, model.dirname(loc), select=loc)

    # -- opening ---------------------------------------------------------------------------
    def _open_row(self, ctx: AppContext, state: dict, row: model.Row) -> Any:
        if row.kind == "dir":
            if self._tab(state)["loc"] == model.TRASH:
                self._notice(state, f"{_q(row.name)} is in the Trash: restore it to open it.", True)
                return None
            self._go(ctx, state, row.path)
            return None
        if row.kind == "link":
            self._notice(state, f"The link {_q(row.name)} is broken.", True)
            return None
        return self._open_file(ctx, state, row.path, row.name)

    def _open_file(self, ctx: AppContext, state: dict, path: str, name: str) -> Any:
        ufs = ctx.files()
        installed = [canonical_id(a) for a in ctx.machine.installed_apps]
        app_id = next((a.id for _, a in APPS.items() if a.id in installed and a.id != self.id and any(name.endswith(s) for s in a.opens)), None)
        if app_id is None:
            try:
                data = ufs.read(path, "/")
            except FsError as exc:
                if exc.code == "EACCES":
                    self._notice(state, f"You do not have the permissions necessary to open {_q(name)}.", True)
                else:
                    self._notice(state, f"{_q(name)} could not be opened.", True)
                return None
            if not model.is_text(data):
                self._notice(state, f"Cannot open {_q(name)}: there is no application installed for this kind of file.", True)
                return None
            app_id = "editor"
        try:
            window = ctx.launch(app_id, path)
        except AppError:
            label = "the Text Editor" if app_id == "editor" else app_id
            self._notice(state, f"Cannot open {_q(name)}: {label} is not available.", True)
            return None
        state["recents"] = ([path] + [p for p in state["recents"] if p != path])[:RECENTS]
        return {"window": window}

    def _open_selection(self, ctx: AppContext, state: dict) -> Any:
        rows = self._selected_rows(ctx, state)
        if not rows:
            self._notice(state, "Select a file or folder to open.")
            return None
        if len(rows) > 1 and any(r.kind == "dir" for r in rows):
            rows = [r for r in rows if r.kind == "dir"][:1]
        value = None
        for row in rows:
            value = self._open_row(ctx, state, row)
        return value

    # -- naming (new folder, new file, rename) ----------------------------------------------
    def _start_edit(self, ctx: AppContext, state: dict, kind: str) -> None:
        tab = self._tab(state)
        if kind == "rename":
            rows = self._selected_rows(ctx, state)
            if not rows:
                self._notice(state, "Select a file or folder to rename.")
                return
            row = next((r for r in rows if r.path == tab["cursor"]), rows[0])
            if tab["loc"] == model.TRASH:
                self._notice(state, "Files in the Trash cannot be renamed.", True)
                return
            name = row.name
            stem = name.rfind(".") if row.kind != "dir" and name.rfind(".") > 0 else len(name)
            state["edit"] = {"kind": "rename", "target": row.path, "error": "", "hint": "", **_field(name, (0, stem))}
        else:
            if tab["loc"] in model.VIRTUAL:
                self._notice(state, f"New {'folders' if kind == 'new-folder' else 'files'} cannot be created in {model.VIRTUAL[tab['loc']]}.", True)
                return
            name = "Untitled Folder" if kind == "new-folder" else "Untitled Document"
            state["edit"] = {"kind": kind, "target": None, "error": "", "hint": "", **_field(name, (0, len(name)))}
        state["entry"] = None
        state["focus"] = "name"
        # the name panel takes room from the list: keep the selection in view
        self._reveal(ctx, state, self._listing(ctx, state), tab["cursor"])

    def _commit_edit(self, ctx: AppContext, state: dict) -> None:
        edit = state["edit"]
        if edit is None:
            return
        tab = self._tab(state)
        ufs = ctx.files()
        name = edit["text"].strip()
        kind = edit["kind"]
        is_dir = kind == "new-folder" or (kind == "rename" and ufs.is_dir(edit["target"], "/"))
        problem = model.validate_name(name, is_dir)
        if problem:
            edit["error"] = problem
            return
        folder = model.dirname(edit["target"]) if kind == "rename" else tab["loc"]
        path = model.join(folder, name)
        if kind == "rename" and path == edit["target"]:
            state["edit"] = None
            state["focus"] = "list"
            return
        if ufs.exists(path, "/", follow=False):
            other = "folder" if ufs.is_dir(path, "/") else "file"
            edit["error"] = f"A {other} with that name already exists."
            return
        try:
            if kind == "new-folder":
                ufs.mkdir(path, "/")
            elif kind == "new-file":
                ufs.write(path, "/", b"")
            else:
                ufs.rename(edit["target"], path, "/")
        except FsError as exc:
            if exc.code in ("EACCES", "EPERM"):
                what = f"rename {_q(model.basename(edit['target']))}" if kind == "rename" else f"create {_q(name)} here"
                edit["error"] = f"You do not have the permissions necessary to {what}."
            else:
                edit["error"] = f"{_q(name)} could not be {'renamed' if kind == 'rename' else 'created'}: {exc.strerror_text}."
            return
        if kind == "rename":
            old = edit["target"]
            state["starred"] = sorted(model.remap(state["starred"], old, path))
            state["recents"] = model.remap(state["recents"], old, path)
        state["edit"] = None
        state["focus"] = "list"
        self._select(state, [path])
        self._reveal(ctx, state, self._listing(ctx, state), path)

    def _cancel_edit(self, state: dict) -> None:
        state["edit"] = None
        if state["focus"] == "name":
            state["focus"] = "list"

    # -- clipboard, delete, restore ----------------------------------------------------------
    def _clip(self, ctx: AppContext, state: dict, op: str) -> None:
        rows = self._selected_rows(ctx, state)
        if not rows:
            self._notice(state, f"Select files to {op}.")
            return
        if self._tab(state)["loc"] == model.TRASH:
            self._notice(state, "Restore files from the Trash before copying them.", True)
            return
        ctx.clipboard = model.clipboard_text(op, [r.path for r in rows])
        n = len(rows)
        what = _q(rows[0].name) if n == 1 else f"{n} items"
        self._notice(state, f"{what} {'will be moved' if op == model.CLIP_CUT else 'will be copied'} when you paste.")

    def _paste(self, ctx: AppContext, state: dict) -> None:
        tab = self._tab(state)
        op, paths = model.clipboard_files(ctx.clipboard)
        if not paths:
            self._notice(state, "There is nothing to paste.")
            return
        dest = tab["loc"]
        if dest in model.VIRTUAL:
            self._notice(state, f"Files cannot be pasted into {model.VIRTUAL[dest]}.", True)
            return
        ufs = ctx.files()
        done: list[str] = []
        errors: list[str] = []
        for src in paths:
            name = model.basename(src)
            try:
                st = ufs.stat(src, "/", follow=False)
            except FsError:
                errors.append(f"{_q(name)} no longer exists.")
                continue
            is_dir = st.is_dir
            if is_dir and model.inside(dest, src) and not (op == model.CLIP_CUT and dest == model.dirname(src)):
                errors.append(f"You cannot {'move' if op == model.CLIP_CUT else 'copy'} a folder into itself.")
                continue
            try:
                if op == model.CLIP_CUT:
                    if model.dirname(src) == dest:
                        done.append(src)
                        continue
                    target = model.join(dest, name)
                    if ufs.exists(target, "/", follow=False):
                        errors.append(f"{_q(name)} already exists in {_q(model.basename(dest))}.")
                        continue
                    ufs.rename(src, target, "/")
                    state["starred"] = sorted(model.remap(state["starred"], src, target))
                    state["recents"] = model.remap(state["recents"], src, target)
                else:
                    target = model.join(dest, model.copy_name(ufs, dest, name, is_dir))
                    model.copy_tree(ufs, src, target)
                done.append(target)
            except FsError as exc:
                if exc.code in ("EACCES", "EPERM"):
                    errors.append(f"You do not have the permissions necessary to {'move' if op == model.CLIP_CUT else 'copy'} {_q(name)} here.")
                else:
                    errors.append(f"{_q(name)} could not be pasted: {exc.strerror_text}.")
        if op == model.CLIP_CUT and not errors:
            ctx.clipboard = ""
        if errors:
            self._notice(state, errors[0] if len(errors) == 1 else f"{errors[0]} ({len(errors) - 1} more problems)", True)
        elif done:
            self._notice(state, f"{_q(model.basename(done[0]))} pasted." if len(done) == 1 else f"{len(done)} items pasted.")
        if done:
            self._select(state, done)
            self._reveal(ctx, state, self._listing(ctx, state), done[-1])

    def _delete(self, ctx: AppContext, state: dict) -> None:
        tab = self._tab(state)
        rows = self._selected_rows(ctx, state)
        if not rows:
            self._notice(state, "Select files to delete.")
            return
        ufs = ctx.files()
        home = state["home"]
        files_dir, _ = model.trash_dirs(home)
        in_trash = tab["loc"] == model.TRASH
        gone: list[model.Row] = []
        errors: list[str] = []
        for row in rows:
            try:
                if in_trash or model.inside(row.path, files_dir):
                    if in_trash:
                        model.purge(ufs, home, model.basename(row.path))
                    else:
                        model.remove_tree(ufs, row.path)
                else:
                    model.trash(ufs, home, row.path, ctx.now_us)
                gone.append(row)
            except FsError as exc:
                if exc.code in ("EACCES", "EPERM"):
                    errors.append(f"You do not have the permissions necessary to delete {_q(row.name)}.")
                else:
                    errors.append(f"{_q(row.name)} could not be deleted: {exc.strerror_text}.")
        for row in gone:
            state["starred"] = [p for p in state["starred"] if not model.inside(p, row.path)]
            state["recents"] = [p for p in state["recents"] if not model.inside(p, row.path)]
        if errors:
            self._notice(state, errors[0], True)
        elif gone:
            what = _q(gone[0].name) if len(gone) == 1 else f"{len(gone)} items"
            self._notice(state, f"{what} {'deleted permanently' if in_trash else 'moved to the Trash'}.")
        self._select(state, [r.path for r in rows if r not in gone])

    def _restore(self, ctx: AppContext, state: dict) -> None:
        tab = self._tab(state)
        if tab["loc"] != model.TRASH:
            self._notice(state, "Restore puts files in the Trash back: open the Trash first.")
            return
        rows = self._selected_rows(ctx, state)
        if not rows:
            self._notice(state, "Select files in the Trash to restore.")
            return
        ufs = ctx.files()
        restored, errors = [], []
        for row in rows:
            try:
                restored.append(model.restore(ufs, state["home"], model.basename(row.path)))
            except FsError as exc:
                if exc.code == "EEXIST":
                    errors.append(f"{_q(row.name)} cannot be restored: {_q(exc.path)} already exists.")
                elif exc.code in ("EACCES", "EPERM"):
                    errors.append(f"You do not have the permissions necessary to restore {_q(row.name)}.")
                else:
                    errors.append(f"{_q(row.name)} cannot be restored: its original location is unknown.")
        if errors:
            self._notice(state, errors[0], True)
        elif restored:
            self._notice(state, f"{_q(model.basename(restored[0]))} restored to {_q(model.dirname(restored[0]))}." if len(restored) == 1 else f"{len(restored)} items restored.")
        self._select(state, [])

    def _empty_trash(self, ctx: AppContext, state: dict) -> None:
        ufs = ctx.files()
        files_dir, _ = model.trash_dirs(state["home"])
        try:
            names = ufs.listdir(files_dir, "/")
        except FsError:
            names = []
        failed = 0
        for name in names:
            try:
                model.purge(ufs, state["home"], name)
            except FsError:
                failed += 1
        if failed:
            self._notice(state, f"{failed} items could not be deleted from the Trash.", True)
        else:
            self._notice(state, "The Trash is empty." if not names else "Trash emptied.")
        if self._tab(state)["loc"] == model.TRASH:
            self._select(state, [])

    def _star(self, state: dict, rows: list[model.Row]) -> None:
        if not rows:
            self._notice(state, "Select files to star.")
            return
        if self._tab(state)["loc"] == model.TRASH:
            self._notice(state, "Files in the Trash cannot be starred.", True)
            return
        stars = set(state["starred"])
        paths = [r.path for r in rows]
        if all(p in stars for p in paths):
            stars -= set(paths)
        else:
            stars |= set(paths)
        state["starred"] = sorted(stars)

    # -- tabs ------------------------------------------------------------------------------
    def _tab_index(self, state: dict, text: str) -> int:
        if not text.isdigit() or int(text) >= len(state["tabs"]):
            raise UnknownTarget(text)
        return int(text)

    def _close_tab(self, ctx: AppContext, state: dict, index: int) -> None:
        if len(state["tabs"]) == 1:
            ctx.close()  # closing the last tab closes the window, as in GNOME Files
            return
        was_active = index == state["active"]
        del state["tabs"][index]
        if state["active"] > index or state["active"] >= len(state["tabs"]):
            state["active"] -= 1
        state["active"] = max(0, min(state["active"], len(state["tabs"]) - 1))
        if was_active:
            self._show_tab_offset(ctx, state)
        state["edit"] = None
        state["entry"] = None
        state["focus"] = "list"

    def _switch_tab(self, ctx: AppContext, state: dict, index: int) -> None:
        if index != state["active"]:
            # the window's list pane shows the active tab; the others keep their offset
            self._tab(state)["scroll"] = _offset(ctx, view.LIST)
            state["active"] = index
            self._show_tab_offset(ctx, state)
            state["edit"] = None
            state["entry"] = None
            state["focus"] = "list"

    def _show_tab_offset(self, ctx: AppContext, state: dict) -> None:
        """Move the list pane to the offset the (newly) active tab kept."""
        tab = self._tab(state)
        _set_offset(ctx, view.LIST, tab["scroll"])
        tab["scroll"] = 0

    # -- scrolling ---------------------------------------------------------------------------
    def _scroll_by(self, ctx: AppContext, state: dict, pane: str, delta: int) -> bool:
        lay = self._layout(ctx, state)
        listing = self._listing(ctx, state)
        if pane == view.SIDE:
            limit = max(0, view.side_extent(view.side_entries(listing)) - lay.sidebar.height)
        else:
            limit = view.max_scroll(state, lay.list, len(listing.rows))
        old = min(_offset(ctx, pane), limit)
        return _set_offset(ctx, pane, max(0, min(limit, old + delta)))

    # -- hooks -------------------------------------------------------------------------------
    def activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        # the name field's controls and the text fields answer only while they are shown
        if (target in _FIELDS and self._field_of(state, target) is None) or (
            target in ("files-name-ok", "files-name-cancel") and state["edit"] is None
        ):
            raise UnknownTarget(target)
        notice = state["notice"]
        try:
            return self._activate(ctx, state, target, point, modifiers)
        except UnknownTarget:
            state["notice"] = notice  # a target the window lacks changes nothing
            raise

    def _activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...]
    ) -> Any:
        if target.startswith("pane:"):
            # a named click on a scroll bar (no point): page forward
            pane = target.split(":")[1]
            lay = self._layout(ctx, state)
            page = (lay.sidebar if pane == view.SIDE else lay.list).height
            if pane not in (view.SIDE, view.LIST):
                raise UnknownTarget(target)
            self._scroll_by(ctx, state, pane, max(view.ROW_H, page - view.ROW_H))
            return None
        if target not in _FIELDS:
            state["notice"] = None
        tab = self._tab(state)
        if target.startswith("open:"):
            index = target[5:]
            listing = self._listing(ctx, state)
            if not index.isdigit() or int(index) >= len(listing.rows):
                raise UnknownTarget(target)
            row = listing.rows[int(index)]
            self._end_fields(state)
            state["focus"] = "list"
            if "Shift" in modifiers or ctx.primary in modifiers:
                self._click_select(state, listing, row, "Shift" in modifiers)
                return None
            self._select(state, [row.path])
            if point is None:  # application.v1 shell: the row's primary action
                return self._open_row(ctx, state, row)
            return None
        if target.startswith("files-star:"):
            index = target[len("files-star:") :]
            listing = self._listing(ctx, state)
            if not index.isdigit() or int(index) >= len(listing.rows):
                raise UnknownTarget(target)
            self._star(state, [listing.rows[int(index)]])
            return None
        if target.startswith("files-tab:"):
            self._switch_tab(ctx, state, self._tab_index(state, target[len("files-tab:") :]))
            return None
        if target.startswith("files-closetab:"):
            self._close_tab(ctx, state, self._tab_index(state, target[len("files-closetab:") :]))
            return None
        if target.startswith("files-location:"):
            path = target[len("files-location:") :]
            if not path:
                raise UnknownTarget(target)
            self._go(ctx, state, path)
            return None
        if target.startswith("files-sort:"):
            key = SORT_KEYS.get(target[len("files-sort:") :])
            if key is None:
                raise UnknownTarget(target)
            if tab["sort"] == key:
                tab["desc"] = not tab["desc"]
            else:
                tab["sort"], tab["desc"] = key, False
            self._reveal(ctx, state, self._listing(ctx, state), tab["cursor"])
            return None
        if target.startswith("files-place:"):
            place = target[len("files-place:") :]
            if place not in dict(model.PLACES):
                raise UnknownTarget(target)
            self._go(ctx, state, model.join(state["home"], place))
            return None
        if target.startswith("files-view:"):
            mode = target[len("files-view:") :]
            if mode not in ("list", "grid"):
                raise UnknownTarget(target)
            self._set_view(ctx, state, mode)
            return None
        handler = _SIMPLE.get(target)
        if handler is None:
            raise UnknownTarget(target)
        return handler(self, ctx, state, point)

    def double_click(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        if target.startswith("open:"):
            index = target[5:]
            listing = self._listing(ctx, state)
            if not index.isdigit() or int(index) >= len(listing.rows):
                raise UnknownTarget(target)
            row = listing.rows[int(index)]
            state["notice"] = None
            self._end_fields(state)
            state["focus"] = "list"
            self._select(state, [row.path])
            return self._open_row(ctx, state, row)
        if target in _FIELDS:
            field = self._field_of(state, target)
            if field is not None:
                field["anchor"], field["caret"] = 0, len(field["text"])
                state["focus"] = _FIELDS[target]
            return None
        return self.activate(ctx, state, target, point, modifiers)

    def _click_select(self, state: dict, listing: model.Listing, row: model.Row, extend: bool) -> None:
        """Shift+click selects the rows from the anchor to ``row``; a click with the theme's
        primary modifier (Ctrl+click on Ubuntu) adds or removes ``row``. Either way ``row``
        becomes the current one."""
        tab = self._tab(state)
        paths = [r.path for r in listing.rows]
        if extend:
            anchor = next((p for p in tab["selected"] if p in paths and p != tab["cursor"]), tab["cursor"])
            a = paths.index(anchor) if anchor in paths else paths.index(row.path)
            b = paths.index(row.path)
            chosen = paths[min(a, b) : max(a, b) + 1]
            self._select(state, chosen if a <= b else list(reversed(chosen)), row.path)
            return
        chosen = [p for p in tab["selected"] if p != row.path]
        if len(chosen) == len(tab["selected"]):
            chosen.append(row.path)
        self._select(state, chosen, row.path)

    def _set_view(self, ctx: AppContext, state: dict, mode: str) -> None:
        state["view"] = mode
        tab = self._tab(state)
        _set_offset(ctx, view.LIST, 0)
        self._reveal(ctx, state, self._listing(ctx, state), tab["cursor"])

    def _field_of(self, state: dict, target: str) -> dict | None:
        if target == "files-name":
            return state["edit"]
        if target == "files-location-entry":
            return state["entry"]
        if target == "files-search-entry":
            return self._tab(state)["search"]
        return None

    def _click_field(self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None) -> None:
        field = self._field_of(state, target)
        if field is None:
            return
        state["focus"] = _FIELDS[target]
        if point is not None:
            lay = self._layout(ctx, state)
            left = lay.pathbar.x if target != "files-name" else self._name_field_x(state, lay)
            caret = shape(field["text"], view.FONT, view.SIZE).index_at(point[0] - left - 8) if field["text"] else 0
            field["caret"] = field["anchor"] = caret

    @staticmethod
    def _name_field_x(state: dict, lay: view.Layout) -> int:
        title = {"new-folder": "Folder Name", "new-file": "File Name", "rename": "Rename"}[state["edit"]["kind"]]
        return (lay.edit.x if lay.edit is not None else 0) + 24 + measure(title, "sans-bold", view.SIZE)

    # pointer capture on the scroll bars
    def is_drag_surface(self, target: str, button: int) -> bool:
        return button == 0 and target.startswith(("pane:list:", "pane:side:"))

    def drag(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        phase: str,
        point: tuple[int, int],
        button: int,
        modifiers: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> None:
        if phase == "cancel":
            state["grab"] = None
            return
        pane = target.split(":")[1]
        lay = self._layout(ctx, state)
        listing = self._listing(ctx, state)
        rect = lay.sidebar if pane == view.SIDE else lay.list
        if pane == view.SIDE:
            ext = view.side_extent(view.side_entries(listing))
        else:
            ext = view.extent(state, lay.list, len(listing.rows))
        offset = _offset(ctx, pane)
        track = view.bar_track(rect)
        thumb, top, limit = view.bar_geometry(rect.height, ext, track, min(offset, max(0, ext - rect.height)))
        if limit <= 0:
            return
        y = point[1]
        if phase == "down":
            state["grab"] = y - top if top <= y < top + thumb else thumb // 2
        grab = state["grab"] if state["grab"] is not None else thumb // 2
        span = max(1, track.height - thumb)
        new = max(0, min(limit, (y - grab - track.y) * limit // span))
        _set_offset(ctx, pane, new)
        if phase == "up":
            state["grab"] = None

    def wheel(self, ctx: AppContext, state: dict, target: str | None, point: tuple[int, int], dx: int, dy: int, modifiers: tuple[str, ...]) -> bool:
        if not dy or "Shift" in modifiers or "Ctrl" in modifiers:
            return False
        lay = self._layout(ctx, state)
        if lay.list.contains(*point):
            return self._scroll_by(ctx, state, view.LIST, dy)
        if lay.sidebar.contains(*point):
            return self._scroll_by(ctx, state, view.SIDE, dy)
        return False

    # -- keyboard ---------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        focus = state["focus"]
        # shortcuts that work wherever the focus is
        if ctx.pressed(chord, "Primary+l"):
            self._start_location(state)
            return True
        if ctx.pressed(chord, "Primary+f"):
            self._search(ctx, state, None)
            return True
        if ctx.pressed(chord, "Primary+h"):
            self._toggle_hidden(ctx, state, None)
            return True
        if ctx.pressed(chord, "Primary+t"):
            self._newtab(ctx, state, None)
            return True
        if ctx.pressed(chord, "Primary+w"):
            self._close_tab(ctx, state, state["active"])
            return True
        if ctx.pressed(chord, "Primary+PageDown", "Primary+Tab"):
            self._switch_tab(ctx, state, (state["active"] + 1) % len(state["tabs"]))
            return True
        if ctx.pressed(chord, "Primary+PageUp", "Primary+Shift+Tab"):
            self._switch_tab(ctx, state, (state["active"] - 1) % len(state["tabs"]))
            return True
        if ctx.pressed(chord, "F5", "Primary+r"):
            self._reload(ctx, state, None)
            return True
        if chord.is_("Alt+ArrowLeft"):
            state["notice"] = None
            self._history(ctx, state, -1)
            return True
        if chord.is_("Alt+ArrowRight"):
            state["notice"] = None
            self._history(ctx, state, 1)
            return True
        if chord.is_("Alt+ArrowUp"):
            state["notice"] = None
            self._up(ctx, state)
            return True
        if chord.is_("Alt+Home"):
            state["notice"] = None
            self._go(ctx, state, state["home"])
            return True
        if ctx.pressed(chord, "Primary+Shift+n"):
            self._start_edit(ctx, state, "new-folder")
            return True
        if ctx.pressed(chord, "Primary+1", "Primary+2"):
            self._set_view(ctx, state, "list" if chord.key == "1" else "grid")
            return True
        if focus in TEXT_FIELDS:
            return self._field_key(ctx, state, chord)
        return self._list_key(ctx, state, chord)

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        field = self._current_field(state) if state["focus"] in TEXT_FIELDS else self._tab(state)["search"]
        kept = len(field["text"]) - abs(field["caret"] - field["anchor"]) if field is not None else 0
        if kept + sum(ch.isprintable() for ch in text) > FIELD_MAX:
            # refused before anything changes; every line of the text counts, whichever
            # of them an Enter would end early
            raise InvalidInput(f"a field holds at most {FIELD_MAX} characters")
        if state["focus"] not in TEXT_FIELDS:
            # typing in the list searches, as in GNOME Files
            if not text.strip("\n"):
                if "\n" in text:
                    self._open_selection(ctx, state)
                return True
            self._search(ctx, state, None)
        lines = text.split("\n")
        for i, part in enumerate(lines):
            if i > 0:
                self._field_key(ctx, state, Chord("Enter"))
                if state["focus"] not in TEXT_FIELDS:
                    break
            self._insert(ctx, state, "".join(ch for ch in part if ch.isprintable()))
        return True

    # text fields
    def _current_field(self, state: dict) -> dict | None:
        return {"location": state["entry"], "name": state["edit"], "search": self._tab(state)["search"]}.get(state["focus"])

    def _insert(self, ctx: AppContext, state: dict, text: str) -> None:
        field = self._current_field(state)
        if field is None or not text:
            return
        a, c = sorted((field["anchor"], field["caret"]))
        if len(field["text"]) - (c - a) + len(text) > FIELD_MAX:
            raise InvalidInput(f"a field holds at most {FIELD_MAX} characters")
        field["text"] = field["text"][:a] + text + field["text"][c:]
        field["caret"] = field["anchor"] = a + len(text)
        self._edited(ctx, state)

    def _edited(self, ctx: AppContext, state: dict) -> None:
        if state["focus"] == "name" and state["edit"] is not None:
            edit = state["edit"]
            edit["error"] = ""
            edit["hint"] = "Names that begin with “.” are hidden." if edit["text"].startswith(".") else ""
        if state["focus"] == "search":
            _set_offset(ctx, view.LIST, 0)
            self._select(state, [])

    def _field_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        focus = state["focus"]
        field = self._current_field(state)
        if field is None:
            state["focus"] = "list"
            return self._list_key(ctx, state, chord)
        text, c, a = field["text"], field["caret"], field["anchor"]
        lo, hi = sorted((a, c))
        if chord.is_("Enter"):
            if focus == "location":
                typed = field["text"]
                if self._go(ctx, state, typed or "/"):
                    state["entry"] = None
                    state["focus"] = "list"
                else:
                    state["focus"] = "location"
            elif focus == "name":
                self._commit_edit(ctx, state)
            else:
                state["focus"] = "list"
                listing = self._listing(ctx, state)
                if listing.rows:
                    self._select(state, [listing.rows[0].path])
            return True
        if chord.is_("Escape"):
            if focus == "location":
                self._end_fields(state)
            elif focus == "name":
                self._cancel_edit(state)
            else:
                self._search_clear(ctx, state, None)
            return True
        if chord.is_("Tab", "Shift+Tab"):
            state["focus"] = "list"
            return True
        if focus == "search" and chord.is_("ArrowDown"):
            state["focus"] = "list"
            listing = self._listing(ctx, state)
            if listing.rows:
                self._select(state, [listing.rows[0].path])
            return True
        if chord.is_("Backspace"):
            if lo != hi:
                field["text"], field["caret"] = text[:lo] + text[hi:], lo
            elif c > 0:
                field["text"], field["caret"] = text[: c - 1] + text[c:], c - 1
            field["anchor"] = field["caret"]
            self._edited(ctx, state)
        elif chord.is_("Delete"):
            if lo != hi:
                field["text"], field["caret"] = text[:lo] + text[hi:], lo
            else:
                field["text"] = text[:c] + text[c + 1 :]
            field["anchor"] = field["caret"]
            self._edited(ctx, state)
        elif chord.is_("ArrowLeft", "ArrowRight", "Home", "End", "Shift+ArrowLeft", "Shift+ArrowRight", "Shift+Home", "Shift+End"):
            if chord.key == "ArrowLeft":
                new = (lo if lo != hi and not chord.shift else max(0, c - 1))
            elif chord.key == "ArrowRight":
                new = (hi if lo != hi and not chord.shift else min(len(text), c + 1))
            else:
                new = 0 if chord.key == "Home" else len(text)
            field["caret"] = new
            if not chord.shift:
                field["anchor"] = new
        elif ctx.pressed(chord, "Primary+a"):
            field["anchor"], field["caret"] = 0, len(text)
        elif ctx.pressed(chord, "Primary+c", "Primary+x"):
            if lo != hi:
                ctx.clipboard = text[lo:hi]
                if chord.key == "x":
                    field["text"], field["caret"] = text[:lo] + text[hi:], lo
                    field["anchor"] = lo
                    self._edited(ctx, state)
        elif ctx.pressed(chord, "Primary+v"):
            pasted = ctx.clipboard.split("\n")[0]
            self._insert(ctx, state, "".join(ch for ch in pasted if ch.isprintable()))
        elif chord.char is not None:
            self._insert(ctx, state, chord.char)
        else:
            return False
        return True

    # the list
    def _list_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        tab = self._tab(state)
        if ctx.pressed(chord, "Enter", "Primary+o"):
            state["notice"] = None
            self._open_selection(ctx, state)
            return True
        if chord.is_("Delete"):
            state["notice"] = None
            self._delete(ctx, state)
            return True
        if chord.is_("F2"):
            state["notice"] = None
            self._start_edit(ctx, state, "rename")
            return True
        if chord.is_("Backspace"):
            state["notice"] = None
            self._up(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+c", "Primary+x"):
            state["notice"] = None
            self._clip(ctx, state, model.CLIP_CUT if chord.key == "x" else model.CLIP_COPY)
            return True
        if ctx.pressed(chord, "Primary+v"):
            state["notice"] = None
            self._paste(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+a"):
            listing = self._listing(ctx, state)
            self._select(state, [r.path for r in listing.rows], tab["cursor"])
            return True
        if chord.is_("Escape"):
            if tab["search"] is not None:
                self._search_clear(ctx, state, None)
            else:
                state["notice"] = None
                self._select(state, [])
            return True
        moves = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown")
        if chord.key in moves and not chord.ctrl and not chord.alt and not chord.meta:
            self._move(ctx, state, chord.key, chord.shift)
            return True
        if chord.char is not None and chord.char.strip():
            self._search(ctx, state, None)
            self._insert(ctx, state, chord.char)
            return True
        return False

    def _move(self, ctx: AppContext, state: dict, key: str, extend: bool) -> None:
        listing = self._listing(ctx, state)
        rows = listing.rows
        if not rows:
            return
        tab = self._tab(state)
        lay = self._layout(ctx, state)
        paths = [r.path for r in rows]
        current = paths.index(tab["cursor"]) if tab["cursor"] in paths else None
        grid = state["view"] == "grid"
        cols = view.grid_columns(lay.list) if grid else 1
        page = max(1, lay.list.height // (view.TILE_H if grid else view.ROW_H)) * cols
        if current is None:
            new = len(rows) - 1 if key == "End" else 0
        elif key == "ArrowDown":
            new = current + cols
        elif key == "ArrowUp":
            new = current - cols
        elif key == "ArrowRight":
            new = current + 1 if grid else current
        elif key == "ArrowLeft":
            new = current - 1 if grid else current
        elif key == "Home":
            new = 0
        elif key == "End":
            new = len(rows) - 1
        elif key == "PageDown":
            new = current + page
        else:
            new = current - page
        new = max(0, min(len(rows) - 1, new))
        if extend and current is not None:
            anchor = next((p for p in tab["selected"] if p in paths and p != tab["cursor"]), tab["cursor"])
            a = paths.index(anchor) if anchor in paths else current
            lo, hi = sorted((a, new))
            chosen = paths[lo : hi + 1]
            if a > new:
                chosen = list(reversed(chosen))
            self._select(state, chosen, paths[new])
        else:
            self._select(state, [paths[new]])
        self._reveal(ctx, state, listing, paths[new])

    # -- simple targets ----------------------------------------------------------------------
    def _start_location(self, state: dict) -> None:
        tab = self._tab(state)
        tab["search"] = None
        text = tab["loc"]
        state["entry"] = _field(text, (0, len(text)))
        state["focus"] = "location"

    def _search(self, ctx: AppContext, state: dict, point: Any) -> None:
        tab = self._tab(state)
        if tab["search"] is None:
            tab["search"] = _field("")
            state["entry"] = None
        state["focus"] = "search"

    def _search_clear(self, ctx: AppContext, state: dict, point: Any) -> None:
        tab = self._tab(state)
        tab["search"] = None
        _set_offset(ctx, view.LIST, 0)
        if state["focus"] == "search":
            state["focus"] = "list"

    def _toggle_hidden(self, ctx: AppContext, state: dict, point: Any) -> None:
        state["hidden"] = not state["hidden"]
        listing = self._listing(ctx, state)
        shown = {r.path for r in listing.rows}
        tab = self._tab(state)
        self._select(state, [p for p in tab["selected"] if p in shown], tab["cursor"] if tab["cursor"] in shown else None)
        self._reveal(ctx, state, listing, tab["cursor"])
        self._clamp_list(ctx, state, listing)

    def _newtab(self, ctx: AppContext, state: dict, point: Any) -> None:
        loc = self._tab(state)["loc"]
        state["tabs"].insert(state["active"] + 1, _new_tab(loc))
        self._switch_tab(ctx, state, state["active"] + 1)

    def _reload(self, ctx: AppContext, state: dict, point: Any) -> None:
        tab = self._tab(state)
        listing = self._listing(ctx, state)
        shown = {r.path for r in listing.rows}
        self._select(state, [p for p in tab["selected"] if p in shown], tab["cursor"] if tab["cursor"] in shown else None)
        self._clamp_list(ctx, state, listing)
        if listing.error:
            self._notice(state, listing.error, True)

    def _gallery(self, ctx: AppContext, state: dict, point: Any) -> None:
        pictures = model.join(state["home"], "Pictures")
        if ctx.files().is_dir(pictures, "/") and self._tab(state)["loc"] != pictures:
            self._go(ctx, state, pictures)
        self._set_view(ctx, state, "grid")

    def _browse(self, ctx: AppContext, state: dict, point: Any) -> None:
        tab = self._tab(state)
        if tab["search"] is not None:
            self._search_clear(ctx, state, None)
        if tab["loc"] not in model.VIRTUAL:
            return
        folder = next((loc for loc in reversed(tab["back"]) if loc not in model.VIRTUAL), state["home"])
        self._go(ctx, state, folder)

    def _list_click(self, ctx: AppContext, state: dict, point: Any) -> None:
        self._end_fields(state)
        state["focus"] = "list"
        self._select(state, [])

    def _dismiss(self, ctx: AppContext, state: dict, point: Any) -> None:
        state["notice"] = None

    def _pathbar(self, ctx: AppContext, state: dict, point: Any) -> None:
        self._start_location(state)



def _offset(ctx: AppContext, pane: str) -> int:
    """The window's offset of ``pane:<pane>`` (``list`` shows the active tab)."""
    return ctx.scroll_offset(pane) or 0


def _set_offset(ctx: AppContext, pane: str, value: int) -> bool:
    """Move ``pane:<pane>`` to ``value`` px; whether it moved (0 is stored as none)."""
    value = max(0, value)
    if value == _offset(ctx, pane):
        return False
    ctx.set_scroll_offset(pane, value or None)
    return True


def _go_to(loc_of):
    def handler(app: Files, ctx: AppContext, state: dict, point: Any) -> None:
        app._go(ctx, state, loc_of(state))

    return handler


def _field_click(name: str):
    def handler(app: Files, ctx: AppContext, state: dict, point: Any) -> None:
        app._click_field(ctx, state, name, point)

    return handler


_SIMPLE = {
    "files-back": lambda a, c, s, p: a._history(c, s, -1),
    "files-forward": lambda a, c, s, p: a._history(c, s, 1),
    "files-up": lambda a, c, s, p: a._up(c, s),
    "files-root": _go_to(lambda s: "/"),
    "files-home": _go_to(lambda s: s["home"]),
    "files-recents": _go_to(lambda s: model.RECENT),
    "files-starred": _go_to(lambda s: model.STARRED),
    "files-trash": _go_to(lambda s: model.TRASH),
    "files-quick-access": _go_to(lambda s: model.QUICK),
    "files-browse": Files._browse,
    "files-gallery": Files._gallery,
    "files-reload": Files._reload,
    "files-newtab": Files._newtab,
    "files-view": lambda a, c, s, p: a._set_view(c, s, "grid" if s["view"] == "list" else "list"),
    "files-search": Files._search,
    "files-search-clear": Files._search_clear,
    "files-hidden": Files._toggle_hidden,
    "files-star": lambda a, c, s, p: a._star(s, a._selected_rows(c, s)),
    "files-open": lambda a, c, s, p: a._open_selection(c, s),
    "files-new-folder": lambda a, c, s, p: a._start_edit(c, s, "new-folder"),
    "files-new-file": lambda a, c, s, p: a._start_edit(c, s, "new-file"),
    "files-rename": lambda a, c, s, p: a._start_edit(c, s, "rename"),
    "files-cut": lambda a, c, s, p: a._clip(c, s, model.CLIP_CUT),
    "files-copy": lambda a, c, s, p: a._clip(c, s, model.CLIP_COPY),
    "files-paste": lambda a, c, s, p: a._paste(c, s),
    "files-delete": lambda a, c, s, p: a._delete(c, s),
    "files-restore": lambda a, c, s, p: a._restore(c, s),
    "files-empty-trash": lambda a, c, s, p: a._empty_trash(c, s),
    "files-name-ok": lambda a, c, s, p: a._commit_edit(c, s),
    "files-name-cancel": lambda a, c, s, p: a._cancel_edit(s),
    "files-name": _field_click("files-name"),
    "files-location-entry": _field_click("files-location-entry"),
    "files-search-entry": _field_click("files-search-entry"),
    "files-pathbar": Files._pathbar,
    "files-list": Files._list_click,
    "files-dismiss": Files._dismiss,
}

register(Files())
