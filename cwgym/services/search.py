"""``search``: a web search engine over the world's own pages.

At build time it indexes the ``search_entries`` of every service of the world definition
(``definition.services[i].search_entries``, each ``{title, url, snippet?, keywords?}``; a
path url is joined to that service's first domain, with its port when it is not 80), then
its own ``initial_state.entries`` (absolute urls), then the world's public pages: it crawls
every other service with a domain, building its state from its ``initial_state`` and asking
its kind's :meth:`~cwgym.net.services.ServiceKind.public_pages` what a visitor who is not
signed in sees there (wiki pages, forum threads, public repositories, products...), in
definition order, leaving out a url already indexed. The crawl is a snapshot of the world as
built: a page created later is not found. A malformed entry is refused naming
``$.services[i].search_entries[j]``. The index is stored in the state, so snapshots carry
it, and a state holding an index is re-checked against the world's entries and pages.

Ranking (shared with the ``assistant`` kind, :mod:`cwgym.services._search_index`): for each
distinct query term, 3 × its count in the title + 2 × in the keywords + 1 × in the snippet;
ties go to the url. Ten results a page.

Routes:

- ``GET /``: the search form.
- ``GET /search?q=...&page=N``: results (title link, url, snippet), or "did not match any
  documents"; an empty ``q`` goes back to ``/``.
- ``GET /api/search?q=...&page=N``: ``{query, page, per_page, total, pages, results:
  [{rank, title, url, snippet}]}``.
- ``GET /history``, ``GET /api/history``: the signed-in user's own searches (newest
  first); ``POST /history/clear`` forgets them. Anonymous searches are not kept.
- accounts as every :class:`~cwgym.services.framework.WebService`.

``initial_state.reach`` says whose pages it gathers: ``"world"`` (the default) every
service's, ``"internet"`` only those of services on ``internet``-zone nodes, as the public
web's engine does, so a company's intranet stays out of a public search engine.

``initial_state``: ``{brand?: str, reach?: "world" | "internet", entries?: [{title, url,
snippet?, keywords?}], users?}``;
a built state adds ``index`` (the entries searched, in order) and ``history`` (``{user:
[{q, at_us}]}``, the last 100 searches of each user).
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import urlencode

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import Button, Form, Heading, Input, Link, ListBlock, Table, Text
from cwgym.services._search_index import REACHES, index_for, rank, terms
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

PER_PAGE = 10
HISTORY_KEPT = 100
QUERY_LIMIT = 500


class Search(WebService):
    name = "search"
    title = "Search"
    fields: ClassVar[dict] = {"brand": str, "reach": str, "entries": list, "index": list, "history": dict}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        reach = state.get("reach", "world")
        if reach not in REACHES:
            raise ValueError(f"{where}.reach: one of {', '.join(REACHES)}, got {reach!r}")
        own, index = index_for(state, where, definition, crawl=True, reach=reach)
        history = {}
        for user, searches in state.get("history", {}).items():
            at = f"{where}.history.{user}"
            if user not in users:
                raise ValueError(f"{at}: no such account")
            if not isinstance(searches, list):
                raise ValueError(f"{at}: a list of searches")
            for k, item in enumerate(searches):
                check_fields(item, f"{at}[{k}]", {"q": str, "at_us": int}, ("q", "at_us"))
            history[user] = [dict(item) for item in searches]
        brand = state.get("brand", "Search")
        if not brand.strip():
            raise ValueError(f"{where}.brand: empty")
        return {"brand": brand, "reach": reach, "entries": own, "index": index, "history": history}

    def page(self, ctx: Ctx, title: str, body: Any) -> Any:
        page = super().page(ctx, title, body)
        brand = ctx.state["brand"]
        elements = (Link(brand, "/", id="brand"), *page.elements[1:])
        return type(page)(title if title == brand else f"{title} — {brand}", elements)

    # -- pages -------------------------------------------------------------------------
    def _form(self, q: str = "") -> Form:
        return Form("/search", (Input("q", label="Search", value=q, type="search", id="search-q"),
                                Button("Search", id="search-submit")), method="GET", id="search-form")

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        n = len(ctx.state["index"])
        body = [Heading(ctx.state["brand"], id="home-title"), self._form(),
                Text(f"{n} {'page' if n == 1 else 'pages'} indexed", id="index-size")]
        if ctx.user is not None:
            body.append(Link("Your search history", "/history", id="history-link"))
        return self.page(ctx, ctx.state["brand"], body)

    def _query(self, ctx: Ctx) -> tuple[str, int]:
        q = ctx.query.get("q", "").strip()
        if len(q) > QUERY_LIMIT:
            raise HttpError(400, f"the query is longer than {QUERY_LIMIT} characters")
        raw = ctx.query.get("page", "1")
        if not raw.isdigit() or int(raw) < 1 or int(raw) > 10_000:
            raise HttpError(400, f"page must be a number from 1, got {raw!r}")
        return q, int(raw)

    def _results(self, ctx: Ctx, q: str, page: int) -> tuple[list[tuple[int, dict]], int]:
        found = rank(ctx.state["index"], terms(q))
        if ctx.user is not None and page == 1:
            searches = ctx.state["history"].get(ctx.user, [])
            ctx.state = assoc_in(ctx.state, ["history", ctx.user], [*searches[-(HISTORY_KEPT - 1):], {"q": q, "at_us": ctx.now_us}])
        return found, len(found)

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        q, page = self._query(ctx)
        if not q:
            return Redirect("/")
        found, total = self._results(ctx, q, page)
        pages = max(1, -(-total // PER_PAGE))
        shown = found[(page - 1) * PER_PAGE:page * PER_PAGE]
        body: list = [self._form(q)]
        if total == 0:
            body += [Text(f"Your search - {q} - did not match any documents.", id="no-results"),
                     ListBlock((Text("Make sure that all words are spelled correctly."),
                                Text("Try different keywords."), Text("Try fewer keywords.")), id="suggestions")]
        elif not shown:
            body.append(Text(f"Page {page} has no results: there {'is' if pages == 1 else 'are'} {pages} "
                             f"{'page' if pages == 1 else 'pages'} for this search.", id="no-results"))
        else:
            body.append(Text(f"About {total} {'result' if total == 1 else 'results'} (page {page} of {pages})", id="result-count"))
            for n, (_, item) in enumerate(shown, (page - 1) * PER_PAGE + 1):
                body += [Link(item["title"], item["url"], id=f"result-{n}"), Text(item["url"], id=f"result-{n}-url")]
                if item["snippet"]:
                    body.append(Text(item["snippet"], id=f"result-{n}-snippet"))
        if total:
            nav = []
            if page > 1:
                nav.append(Link("Previous", self._page_url(q, page - 1), id="page-prev"))
            nav += [Link(str(k), self._page_url(q, k), id=f"page-{k}") for k in range(1, pages + 1) if k != page]
            if page < pages:
                nav.append(Link("Next", self._page_url(q, page + 1), id="page-next"))
            body += nav
        return self.page(ctx, q, body)

    @staticmethod
    def _page_url(q: str, page: int) -> str:
        return "/search?" + urlencode({"q": q, **({"page": page} if page > 1 else {})})

    @route("GET", "/api/search")
    def api_search(self, ctx: Ctx) -> Json:
        q, page = self._query(ctx)
        if not q:
            raise HttpError(400, "the field 'q' is required")
        found, total = self._results(ctx, q, page)
        shown = found[(page - 1) * PER_PAGE:page * PER_PAGE]
        results = [{"rank": n, "title": item["title"], "url": item["url"], "snippet": item["snippet"]}
                   for n, (_, item) in enumerate(shown, (page - 1) * PER_PAGE + 1)]
        return Json({"query": q, "page": page, "per_page": PER_PAGE, "total": total,
                     "pages": max(1, -(-total // PER_PAGE)), "results": results})

    # -- history -----------------------------------------------------------------------
    @route("GET", "/history")
    def history(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        searches = list(reversed(ctx.state["history"].get(user, [])))
        body: list = [Heading("Your search history", id="history-title")]
        if not searches:
            body.append(Text("You have not searched for anything yet.", id="history-empty"))
        else:
            rows = tuple((Link(s["q"], self._page_url(s["q"], 1), id=f"history-{k}"), Text(timestamp(s["at_us"])))
                         for k, s in enumerate(searches, 1))
            body += [Table(("Search", "When"), rows, id="history"),
                     Form("/history/clear", (Button("Clear history", id="history-clear"),), id="history-clear-form")]
        return self.page(ctx, "Search history", body)

    @route("GET", "/api/history")
    def api_history(self, ctx: Ctx) -> Json:
        user = ctx.require_user()
        return Json({"user": user, "searches": [{"q": s["q"], "at": timestamp(s["at_us"])}
                                                 for s in reversed(ctx.state["history"].get(user, []))]})

    @route("POST", "/history/clear")
    def clear_history(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        if user in ctx.state["history"]:
            ctx.state = {**ctx.state, "history": {u: s for u, s in ctx.state["history"].items() if u != user}}
        return Json({"cleared": True}) if ctx.wants_json else Redirect("/history")


SERVICE_KINDS.register(Search.name, Search())
