"""``wiki``: a MediaWiki-like site of pages with full history.

A page has a title and a body of wikitext: ``[[Other page]]`` and ``[[Other page|label]]``
link to pages (a red link, to the create form, when the page does not exist yet),
``[http://host/path label]`` links out, ``== Heading ==`` makes a heading, ``* item`` and
``# item`` make lists (an item links to its first link), ``'''bold'''`` and ``''italic''``
marks are dropped, and a blank line starts a paragraph. Titles are normalized as MediaWiki
does: ``_`` is a space, runs of spaces are one, the first letter is upper case; ``# < > [ ]
{ } |`` are not allowed. Every edit is a revision (id from a counter, author, logical time,
summary); an edit that changes nothing makes none.

Who may edit: signed-in users; anonymous visitors too when ``anonymous_edits`` is true,
their edits attributed to the machine they came from (as MediaWiki shows an IP address).

Routes:

- ``GET /``: the main index: search, create a page, all pages.
- ``GET /wiki/{title}``: a page (``404`` with a create link when missing);
  ``?oldid=N`` shows an old revision.
- ``GET /edit/{title}``, ``POST /edit/{title}`` (``text``, ``summary``?, ``base``? the
  revision the edit started from: another one since is a ``409`` edit conflict);
  ``GET /edit?title=T`` goes to the form of ``T``.
- ``GET /history/{title}``: every revision, newest first.
- ``GET /search?q=``: pages whose title or text hold every word; ``GET /recent``: recent
  changes (the last 50 edits).
- ``GET /api/pages``: ``{pages: [{title, revision, author, at, length}]}``;
  ``GET /api/pages/{title}``: ``{title, text, revision, author, at, summary, links,
  history}``; ``POST /api/pages/{title}`` (JSON ``{text, summary?, base?}``): edits,
  ``201`` when it created the page; ``GET /api/recent``.

``initial_state``: ``{pages?: [{title, text, author?}], anonymous_edits?: bool, brand?: str,
users?}``. A built state holds ``pages`` as ``{title: [revision ids]}``, ``revisions`` as
``{"id": {id, title, text, author, at_us, summary}}`` and ``next_rev``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.http import Headers, Response
from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import (
    Button,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Page,
    Table,
    Text,
    TextArea,
    assign_ids,
    to_html,
)
from cwgym.services._search_index import page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

TITLE_LIMIT = 255
TEXT_LIMIT = 200_000
SUMMARY_LIMIT = 500
RECENT = 50
SEARCH_RESULTS = 100
_BAD_TITLE = re.compile(r"[#<>\[\]{}|\x00-\x1f]")
_INLINE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]|\[(https?://[^\s\]]+)(?: ([^\]]*))?\]")
_HEADING = re.compile(r"^(={1,6})\s*(.*?)\s*\1\s*$")
_WORD = re.compile(r"[^\W_]+")


def normalize_title(raw: str) -> str:
    """``raw`` as a page title (``main_page`` is ``Main page``).

    Raises:
        ValueError: an empty title, a forbidden character, or one over 255 characters.
    """
    title = " ".join(raw.replace("_", " ").split())
    if not title:
        raise ValueError("a title is not empty")
    bad = _BAD_TITLE.search(title)
    if bad:
        raise ValueError(f"a title may not contain {bad.group()!r}")
    if len(title) > TITLE_LIMIT:
        raise ValueError(f"a title is at most {TITLE_LIMIT} characters")
    return title[0].upper() + title[1:]


def page_url(title: str, action: str = "wiki") -> str:
    """``/wiki/Main_Page``: the url of a page (``action`` ``edit`` or ``history``)."""
    return f"/{action}/" + quote(title.replace(" ", "_"), safe="/:()!,'*")


def _plain(text: str) -> str:
    return text.replace("'''", "").replace("''", "")


def _target(raw: str) -> str | None:
    try:
        return normalize_title(raw.partition("#")[0])
    except ValueError:
        return None


def _label(m: re.Match) -> str:
    return m.group(2) or m.group(4) or m.group(1) or m.group(3)


def plain_text(text: str) -> str:
    """The words of wikitext as a reader sees them: headings and list items without their
    marks, links as their labels, no bold or italic quotes, lines joined by spaces."""
    lines = []
    for line in text.split("\n"):
        stripped = line.strip()
        heading = _HEADING.match(stripped)
        if heading and heading.group(2):
            stripped = heading.group(2)
        elif stripped[:1] in ("*", "#"):
            stripped = stripped.lstrip("*#").strip()
        lines.append(_plain(_INLINE.sub(_label, stripped)))
    return " ".join(" ".join(lines).split())


def links_of(text: str) -> list[str]:
    """The pages ``text`` links to, each once, in order."""
    out = []
    for m in _INLINE.finditer(text):
        if m.group(3) is None:
            target = _target(m.group(1))
            if target is not None and target not in out:
                out.append(target)
    return out


class _Renderer:
    """Wikitext to page elements; links numbered in order (``link-3``, ``redlink-4``)."""

    def __init__(self, pages: dict) -> None:
        self.pages = pages
        self.n = 0  # links
        self.blocks = 0  # paragraphs' texts and lists

    def link(self, m: re.Match) -> Element | None:
        if m.group(3) is not None:
            self.n += 1
            return Link(_plain(m.group(4) or m.group(3)), m.group(3), id=f"extlink-{self.n}")
        target = _target(m.group(1))
        if target is None:
            return None
        self.n += 1
        label = _plain(m.group(2) if m.group(2) else m.group(1).strip())
        if target in self.pages:
            return Link(label, page_url(target), id=f"link-{self.n}")
        return Link(label, page_url(target, "edit") + "?redlink=1", id=f"redlink-{self.n}")

    def inline(self, text: str) -> list[Element]:
        out: list[Element] = []
        plain, at = "", 0
        for m in _INLINE.finditer(text):
            element = self.link(m)
            plain += text[at:m.start()]
            at = m.end()
            if element is None:
                plain += m.group(0)
                continue
            if plain.strip():
                out.append(self.text(plain))
            plain = ""
            out.append(element)
        plain += text[at:]
        if plain.strip():
            out.append(self.text(plain))
        return out

    def text(self, plain: str) -> Text:
        self.blocks += 1
        return Text(_plain(plain.strip()), id=f"text-{self.blocks}")

    def item(self, text: str, block: int, k: int) -> Element:
        links = [e for m in _INLINE.finditer(text) if (e := self.link(m)) is not None]
        words = _plain(_INLINE.sub(_label, text)).strip()
        return Link(words, links[0].url, id=links[0].id) if links else Text(words, id=f"list-{block}-item-{k}")

    def render(self, text: str) -> list[Element]:
        out: list[Element] = []
        paragraph: list[str] = []
        items: list[str] = []
        ordered = False
        sections = 0

        def flush() -> None:
            nonlocal paragraph, items
            if paragraph:
                out.extend(self.inline(" ".join(paragraph)))
                paragraph = []
            if items:
                self.blocks += 1
                block = self.blocks
                out.append(ListBlock(tuple(self.item(i, block, k) for k, i in enumerate(items, 1)), ordered=ordered,
                                     id=f"list-{block}"))
                items = []

        for line in text.split("\n"):
            stripped = line.strip()
            heading = _HEADING.match(stripped)
            if heading and heading.group(2):
                flush()
                sections += 1
                out.append(Heading(_plain(heading.group(2)), level=len(heading.group(1)), id=f"section-{sections}"))
            elif stripped[:1] in ("*", "#"):
                if paragraph or (items and ordered != (stripped[0] == "#")):
                    flush()
                ordered = stripped[0] == "#"
                items.append(stripped.lstrip("*#").strip())
            elif not stripped:
                flush()
            else:
                if items:
                    flush()
                paragraph.append(stripped)
        flush()
        return out


class Wiki(WebService):
    name = "wiki"
    title = "Wiki"
    fields: ClassVar[dict] = {"pages": (list, dict), "revisions": dict, "next_rev": int, "anonymous_edits": bool, "brand": str}

    # -- state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        brand = state.get("brand", "Wiki")
        if not brand.strip():
            raise ValueError(f"{where}.brand: empty")
        pages = state.get("pages", [])
        if isinstance(pages, list):
            for field in ("revisions", "next_rev"):
                if field in state:
                    raise ValueError(f"{where}.{field}: only in a built state (pages as an object)")
            built_pages, revisions = self._initial_pages(pages, f"{where}.pages")
            next_rev = len(revisions) + 1
        else:
            built_pages, revisions = self._built_pages(pages, state.get("revisions", {}), where)
            top = max((r["id"] for r in revisions.values()), default=0)
            next_rev = state.get("next_rev", top + 1)
            if next_rev <= top:
                raise ValueError(f"{where}.next_rev: {next_rev} is not above the last revision {top}")
        return {"brand": brand, "anonymous_edits": state.get("anonymous_edits", False), "pages": built_pages,
                "revisions": revisions, "next_rev": next_rev}

    @staticmethod
    def _initial_pages(pages: list, where: str) -> tuple[dict, dict]:
        built: dict[str, list[int]] = {}
        revisions: dict[str, dict] = {}
        for i, page in enumerate(pages):
            at = f"{where}[{i}]"
            check_fields(page, at, {"title": str, "text": str, "author": str}, ("title", "text"))
            try:
                title = normalize_title(page["title"])
            except ValueError as exc:
                raise ValueError(f"{at}.title: {exc}") from None
            if title in built:
                raise ValueError(f"{at}.title: {title!r} is listed twice")
            if len(page["text"]) > TEXT_LIMIT:
                raise ValueError(f"{at}.text: longer than {TEXT_LIMIT} characters")
            n = len(revisions) + 1
            revisions[str(n)] = {"id": n, "title": title, "text": page["text"].replace("\r\n", "\n"),
                                 "author": page.get("author", "system"), "at_us": 0, "summary": "Created page"}
            built[title] = [n]
        return built, revisions

    @staticmethod
    def _built_pages(pages: dict, revisions: Any, where: str) -> tuple[dict, dict]:
        if not isinstance(revisions, dict):
            raise ValueError(f"{where}.revisions: an object of revisions")
        checked = {}
        for key, rev in revisions.items():
            at = f"{where}.revisions.{key}"
            check_fields(rev, at, {"id": int, "title": str, "text": str, "author": str, "at_us": int, "summary": str},
                         ("id", "title", "text", "author", "at_us", "summary"))
            if key != str(rev["id"]):
                raise ValueError(f"{at}.id: {rev['id']} is not its key")
            if rev["title"] not in pages:
                raise ValueError(f"{at}.title: no page {rev['title']!r}")
            checked[key] = dict(rev)
        built = {}
        for title, ids in pages.items():
            at = f"{where}.pages.{title}"
            try:
                if normalize_title(title) != title:
                    raise ValueError(f"not normalized (would be {normalize_title(title)!r})")
            except ValueError as exc:
                raise ValueError(f"{at}: {exc}") from None
            if not isinstance(ids, list) or not ids or not all(isinstance(i, int) and checked.get(str(i), {}).get("title") == title
                                                               for i in ids):
                raise ValueError(f"{at}: a non-empty list of ids of this page's revisions")
            built[title] = list(ids)
        return built, checked

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every page, by title, at ``/wiki/<Title>``: anyone reads a wiki. The snippet is
        the start of its current text without markup."""
        return [page_entry(title, base + page_url(title), plain_text(self._latest(state, title)["text"]))
                for title in sorted(state["pages"])]

    # -- helpers -----------------------------------------------------------------------
    def page(self, ctx: Ctx, title: str, body: Any) -> Page:
        body = list(body)
        page = super().page(ctx, title, body)
        brand = ctx.state["brand"]
        head = page.elements[1:len(page.elements) - len(body)]
        nav = (Link("Recent changes", "/recent", id="nav-recent"),
               Form("/search", (Input("q", label="Search", type="search", id="search-q"),
                                Button("Search", id="search-submit")), method="GET", id="search-form"))
        return Page(title if title == brand else f"{title} — {brand}", (Link(brand, "/", id="brand"), *head, *nav, *body))

    @staticmethod
    def _title(raw: str) -> str:
        try:
            return normalize_title(raw)
        except ValueError as exc:
            raise HttpError(400, f"bad title {raw!r}: {exc}") from None

    @staticmethod
    def _latest(state: dict, title: str) -> dict | None:
        ids = state["pages"].get(title)
        return state["revisions"][str(ids[-1])] if ids else None

    def _may_edit(self, ctx: Ctx) -> str:
        """The author of an edit: the user, or the machine when anonymous edits are on."""
        if ctx.user is not None:
            return ctx.user
        if ctx.state["anonymous_edits"]:
            return ctx.source
        return ctx.require_user()

    def _page_response(self, ctx: Ctx, status: int, page: Page) -> Response:
        body = to_html(assign_ids(page)).encode("utf-8")
        return Response(status, Headers((("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))))), body)

    def _backlinks(self, state: dict, title: str) -> list[str]:
        return sorted(t for t in state["pages"] if title in links_of(self._latest(state, t)["text"]))

    # -- reading -----------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Page:
        brand = ctx.state["brand"]
        titles = sorted(ctx.state["pages"])
        body: list[Element] = [Heading(brand, id="home-title"),
                               Form("/edit", (Input("title", label="Create or edit a page", id="create-title"),
                                              Button("Create page", id="create-submit")), method="GET", id="create-form"),
                               Heading("All pages", level=2, id="all-pages-title")]
        if titles:
            body.append(ListBlock(tuple(Link(t, page_url(t), id=f"page-{k}") for k, t in enumerate(titles, 1)), id="all-pages"))
        else:
            body.append(Text("This wiki has no pages yet.", id="no-pages"))
        return self.page(ctx, brand, body)

    @route("GET", "/wiki")
    def wiki_root(self, ctx: Ctx) -> Redirect:
        return Redirect("/")

    @route("GET", "/wiki/{title...}")
    def view(self, ctx: Ctx) -> Any:
        title = self._title(ctx.params["title"])
        latest = self._latest(ctx.state, title)
        if latest is None:
            if ctx.wants_json:
                raise HttpError(404, f"there is no page {title!r}")
            return self._page_response(ctx, 404, self.page(ctx, title, [
                Heading(title, id="page-title"),
                Text("There is currently no text in this page.", id="missing"),
                Link(f"Create the page {title!r}", page_url(title, "edit"), id="create-link")]))
        shown, notice = latest, []
        if "oldid" in ctx.query:
            raw = ctx.query["oldid"]
            if not raw.isdigit():
                raise HttpError(400, f"oldid is a revision number, got {raw!r}")
            shown = ctx.state["revisions"].get(str(int(raw)))
            if shown is None or shown["title"] != title:
                raise HttpError(404, f"page {title!r} has no revision {raw}")
            if shown is not latest:
                notice = [Text(f"This is an old revision of this page, as edited by {shown['author']} at "
                               f"{timestamp(shown['at_us'])} (revision {shown['id']}). It may differ from the current revision.",
                               id="old-revision"),
                          Link("Go to the current revision", page_url(title), id="current-link")]
        body: list[Element] = [Heading(title, id="page-title"), *notice, *_Renderer(ctx.state["pages"]).render(shown["text"]),
                               Text(f"This page was last edited on {timestamp(latest['at_us'])} by {latest['author']}.",
                                    id="last-edited"),
                               Link("Edit", page_url(title, "edit"), id="edit-link"),
                               Link("History", page_url(title, "history"), id="history-link")]
        backlinks = self._backlinks(ctx.state, title)
        if backlinks:
            body += [Heading("What links here", level=2, id="backlinks-title"),
                     ListBlock(tuple(Link(t, page_url(t), id=f"backlink-{k}") for k, t in enumerate(backlinks, 1)), id="backlinks")]
        return self.page(ctx, title, body)

    @route("GET", "/history/{title...}")
    def history(self, ctx: Ctx) -> Page:
        title = self._title(ctx.params["title"])
        ids = ctx.state["pages"].get(title)
        if not ids:
            raise HttpError(404, f"there is no page {title!r}")
        rows = []
        for i in reversed(ids):
            rev = ctx.state["revisions"][str(i)]
            rows.append((Link(f"Revision {i}", f"{page_url(title)}?oldid={i}", id=f"rev-{i}"),
                         Text(timestamp(rev["at_us"]), id=f"rev-{i}-date"), Text(rev["author"], id=f"rev-{i}-user"),
                         Text(rev["summary"], id=f"rev-{i}-summary"), Text(f"{len(rev['text'])} bytes", id=f"rev-{i}-size")))
        return self.page(ctx, f"Revision history of {title}", [
            Heading(f"{title}: revision history", id="history-title"),
            Table(("Revision", "Date", "User", "Summary", "Size"), tuple(rows), id="history"),
            Link(f"Back to {title}", page_url(title), id="back")])

    @route("GET", "/recent")
    def recent(self, ctx: Ctx) -> Page:
        changes = self._changes(ctx.state)
        body: list[Element] = [Heading("Recent changes", id="recent-title")]
        if not changes:
            body.append(Text("No changes yet.", id="no-changes"))
        else:
            body.append(Table(("Date", "Page", "User", "Summary"), tuple(
                (Text(timestamp(r["at_us"]), id=f"change-{r['id']}-date"),
                 Link(r["title"], f"{page_url(r['title'])}?oldid={r['id']}", id=f"change-{r['id']}"),
                 Text(r["author"], id=f"change-{r['id']}-user"), Text(r["summary"], id=f"change-{r['id']}-summary"))
                for r in changes), id="changes"))
        return self.page(ctx, "Recent changes", body)

    @staticmethod
    def _changes(state: dict) -> list[dict]:
        return sorted(state["revisions"].values(), key=lambda r: -r["id"])[:RECENT]

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        q = ctx.query.get("q", "").strip()
        if not q:
            return Redirect("/")
        if len(q) > 500:
            raise HttpError(400, "the query is longer than 500 characters")
        words = list(dict.fromkeys(_WORD.findall(q.lower())))
        found = []
        for title, ids in ctx.state["pages"].items():
            text = ctx.state["revisions"][str(ids[-1])]["text"]
            in_title, in_text = _WORD.findall(title.lower()), _WORD.findall(text.lower())
            if words and all(w in in_title or w in in_text for w in words):
                score = sum(10 * in_title.count(w) + in_text.count(w) for w in words)
                found.append((-score, title, text))
        found.sort()
        body: list[Element] = [Heading("Search results", id="search-title")]
        try:
            exact = normalize_title(q)
        except ValueError:
            exact = None
        if exact in ctx.state["pages"]:
            body.append(Link(f"There is a page named {exact!r} on this wiki.", page_url(exact), id="exact-match"))
        elif exact is not None:
            body.append(Link(f"Create the page {exact!r} on this wiki!", page_url(exact, "edit"), id="create-link"))
        if not found:
            body.append(Text("There were no results matching the query.", id="no-results"))
        else:
            body.append(Text(f"{len(found)} {'result' if len(found) == 1 else 'results'}", id="result-count"))
            for n, (_, title, text) in enumerate(found[:SEARCH_RESULTS], 1):
                lines = [line for line in text.split("\n") if line.strip()]
                line = next((line for line in lines if any(w in line.lower() for w in words)), lines[0] if lines else "")
                snippet = _plain(_INLINE.sub(_label, line)).strip()
                body += [Link(title, page_url(title), id=f"result-{n}"),
                         Text(snippet[:200] + ("…" if len(snippet) > 200 else ""), id=f"result-{n}-snippet")]
        return self.page(ctx, f"Search results for {q}", body)

    # -- editing -----------------------------------------------------------------------
    @route("GET", "/edit")
    def edit_by_query(self, ctx: Ctx) -> Redirect:
        return Redirect(page_url(self._title(ctx.field("title", limit=TITLE_LIMIT * 2)), "edit"))

    @route("GET", "/edit/{title...}")
    def edit_form(self, ctx: Ctx) -> Page:
        title = self._title(ctx.params["title"])
        self._may_edit(ctx)
        latest = self._latest(ctx.state, title)
        body: list[Element] = [Heading(f"{'Editing' if latest else 'Creating'} {title}", id="edit-title")]
        if ctx.user is None:
            body.append(Text(f"You are not signed in. Your edit will be attributed to {ctx.source}.", id="anonymous-warning"))
        body.append(Form(page_url(title, "edit"), (
            TextArea("text", label="Text", value=latest["text"] if latest else "", rows=20, id="edit-text"),
            Input("summary", label="Summary", id="edit-summary"),
            Input("base", type="hidden", value=str(latest["id"] if latest else 0), id="edit-base"),
            Button("Save page", id="edit-save")), id="edit-form"))
        body.append(Link("Cancel", page_url(title), id="edit-cancel"))
        return self.page(ctx, f"Editing {title}", body)

    def _save(self, ctx: Ctx, title: str) -> tuple[dict, bool, bool]:
        """``(revision now current, created, changed)`` after the edit in ``ctx``."""
        author = self._may_edit(ctx)
        if ctx.json is not None:
            if not isinstance(ctx.json, dict):
                raise HttpError(400, "the body is a JSON object {\"text\": ..., \"summary\"?: ..., \"base\"?: ...}")
            for name in ("text", "summary"):
                if name in ctx.json and not isinstance(ctx.json[name], str):
                    raise HttpError(400, f"the field {name!r} is text")
        text = ctx.field("text", limit=TEXT_LIMIT).replace("\r\n", "\n").rstrip()
        summary = ctx.field("summary", required=False, limit=SUMMARY_LIMIT).strip()
        latest = self._latest(ctx.state, title)
        base = ctx.field("base", required=False).strip()
        if base:
            if not base.isdigit():
                raise HttpError(400, f"the field 'base' is a revision number, got {base!r}")
            current = latest["id"] if latest else 0
            if int(base) != current:
                raise HttpError(409, f"edit conflict: {title!r} was changed (now revision {current}) since revision {base}")
        if latest is not None and latest["text"] == text:
            return latest, False, False
        n = ctx.state["next_rev"]
        rev = {"id": n, "title": title, "text": text, "author": author, "at_us": ctx.now_us,
               "summary": summary or ("Created page" if latest is None else "")}
        state = assoc(ctx.state, "next_rev", n + 1)
        state = assoc_in(state, ["revisions", str(n)], rev)
        ctx.state = assoc_in(state, ["pages", title], [*state["pages"].get(title, []), n])
        return rev, latest is None, True

    @route("POST", "/edit/{title...}")
    def edit(self, ctx: Ctx) -> Redirect:
        title = self._title(ctx.params["title"])
        self._save(ctx, title)
        return Redirect(page_url(title))

    # -- API ---------------------------------------------------------------------------
    @staticmethod
    def _summary(rev: dict) -> dict:
        return {"revision": rev["id"], "author": rev["author"], "at": timestamp(rev["at_us"]), "summary": rev["summary"],
                "length": len(rev["text"])}

    @route("GET", "/api/pages")
    def api_pages(self, ctx: Ctx) -> Json:
        return Json({"pages": [{"title": t, **self._summary(self._latest(ctx.state, t))} for t in sorted(ctx.state["pages"])]})

    @route("GET", "/api/pages/{title...}")
    def api_page(self, ctx: Ctx) -> Json:
        title = self._title(ctx.params["title"])
        latest = self._latest(ctx.state, title)
        if latest is None:
            raise HttpError(404, f"there is no page {title!r}")
        history = [self._summary(ctx.state["revisions"][str(i)]) for i in reversed(ctx.state["pages"][title])]
        return Json({"title": title, "text": latest["text"], **self._summary(latest), "links": links_of(latest["text"]),
                     "history": history})

    @route("POST", "/api/pages/{title...}")
    def api_edit(self, ctx: Ctx) -> Json:
        title = self._title(ctx.params["title"])
        rev, created, changed = self._save(ctx, title)
        return Json({"title": title, "revision": rev["id"], "created": created, "changed": changed}, 201 if created else 200)

    @route("GET", "/api/recent")
    def api_recent(self, ctx: Ctx) -> Json:
        return Json({"changes": [{"title": r["title"], **self._summary(r)} for r in self._changes(ctx.state)]})


SERVICE_KINDS.register(Wiki.name, Wiki())
