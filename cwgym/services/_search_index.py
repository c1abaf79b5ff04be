"""The world's search index, shared by the ``search`` and ``assistant`` kinds.

An entry is ``{title, url, snippet, keywords}``. :func:`world_entries` gathers the
``search_entries`` of every service of a world definition (a path url is joined to the
service's first domain, with its port when that is not 80); :func:`entries` checks a kind's
own ``initial_state.entries``; :func:`public_entries` crawls the world when it is built: the
pages every service shows a visitor who is not signed in
(:meth:`~cwgym.net.services.ServiceKind.public_pages` of its kind, over the state its
``initial_state`` builds), each kind making its entries with :func:`page_entry`. :func:`rank` scores entries against query terms: for each
distinct term, 3 × its count in the title + 2 × in the keywords + 1 × in the snippet;
entries scoring 0 are left out, ties go to the url, then to the index order. Terms are
lower-cased runs of letters and digits with a plural ``s`` dropped (``printers`` finds
``printer``). Pure functions of plain data: no clock, no randomness.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from cwgym.net.services import SERVICE_KINDS, ServiceKind
from cwgym.services.framework import check_fields

__all__ = ["base_url", "clip", "entries", "index_for", "page_entry", "public_entries", "rank", "terms", "world_entries"]

_WORD = re.compile(r"[^\W_]+")
_ENTRY_FIELDS = {"title": str, "url": str, "snippet": str, "keywords": list}
TITLE_WEIGHT, KEYWORD_WEIGHT, SNIPPET_WEIGHT = 3, 2, 1
#: How much of a crawled page's text its snippet keeps, and of its title (a results page cuts both).
SNIPPET_CHARS, TITLE_CHARS = 160, 200


def terms(text: str) -> list[str]:
    """The search terms of ``text``, in order (repeats kept)."""
    out = []
    for word in _WORD.findall(text.lower()):
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def _get(obj: Any, name: str, default: Any = None) -> Any:
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def entry(value: Any, where: str, base: str | None = None) -> dict:
    """One entry checked and filled (``snippet`` "", ``keywords`` []); a path url is joined
    to ``base`` (``http://host[:port]``) when given, else refused.

    Raises:
        ValueError: naming ``where`` and the field.
    """
    check_fields(value, where, _ENTRY_FIELDS, ("title", "url"))
    title, url = value["title"].strip(), value["url"].strip()
    if not title:
        raise ValueError(f"{where}.title: empty")
    if len(title) > 500:
        raise ValueError(f"{where}.title: longer than 500 characters")
    if url.startswith("/") and base is not None:
        url = base + url
    elif not re.match(r"^https?://[^/\s]+(/\S*)?$", url):
        hint = "http://host/path or a path starting with /" if base is not None else "an absolute http:// or https:// url"
        raise ValueError(f"{where}.url: {value['url']!r} is not {hint}")
    keywords = value.get("keywords", [])
    for k, word in enumerate(keywords):
        if not isinstance(word, str):
            raise ValueError(f"{where}.keywords[{k}]: expected str, got {type(word).__name__}")
    return {"title": title, "url": url, "snippet": value.get("snippet", ""), "keywords": list(keywords)}


def clip(text: str, limit: int = SNIPPET_CHARS) -> str:
    """``text`` with its whitespace collapsed, cut at a word to at most ``limit`` characters
    (``…`` marks the cut)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,.;:-") + "…"


def page_entry(title: str, url: str, text: str = "", keywords: Iterable[str] = ()) -> dict:
    """A crawled page as an entry: ``title`` and the snippet (the start of ``text``) clipped,
    ``keywords`` without blanks or repeats."""
    return {"title": clip(title, TITLE_CHARS), "url": url, "snippet": clip(text),
            "keywords": list(dict.fromkeys(k for k in keywords if k.strip()))}


def base_url(service: Any) -> str | None:
    """``http://domain[:port]`` of a service's first domain (the port left out when it is
    80), or ``None`` for a service without a domain."""
    domains = _get(service, "domains", []) or []
    port = _get(service, "port", 80)
    return f"http://{domains[0]}{'' if port == 80 else f':{port}'}" if domains else None


def entries(value: Any, where: str) -> list[dict]:
    """A kind's own ``entries`` (absolute urls only), checked and filled."""
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list of entries, got {type(value).__name__}")
    return [entry(e, f"{where}[{j}]") for j, e in enumerate(value)]


#: What an index may gather: ``world`` every service, ``internet`` only the services on
#: ``internet``-zone nodes (a public engine does not see into an office's LAN).
REACHES = ("world", "internet")


def _in_reach(definition: Any, service: Any, reach: str) -> bool:
    if reach == "world":
        return True
    zones = {_get(n, "id"): _get(n, "zone", "local") for n in _get(_get(definition, "network"), "nodes", []) or []}
    return zones.get(_get(service, "node"), "local") == reach


def world_entries(definition: Any, search_kinds_too: bool = False, reach: str = "world") -> list[dict]:
    """Every service's ``search_entries`` in definition order (and, with
    ``search_kinds_too``, the ``initial_state.entries`` of every ``search`` service), of the
    services within ``reach`` (:data:`REACHES`).

    Raises:
        ValueError: naming ``$.services[i].search_entries[j]`` (or the initial state's path).
    """
    if definition is None:
        return []
    out: list[dict] = []
    for i, service in enumerate(_get(definition, "services", []) or []):
        if not _in_reach(definition, service, reach):
            continue
        base = base_url(service)
        listed = _get(service, "search_entries", []) or []
        if not isinstance(listed, list):
            raise ValueError(f"$.services[{i}].search_entries: a list of entries")
        for j, value in enumerate(listed):
            where = f"$.services[{i}].search_entries[{j}]"
            if base is None and isinstance(value, dict) and isinstance(value.get("url"), str) and value["url"].startswith("/"):
                raise ValueError(f"{where}.url: a path url needs the service to have a domain")
            out.append(entry(value, where, base))
        if search_kinds_too and _get(service, "kind") == "search":
            own = _get(service, "initial_state")
            if isinstance(own, dict) and "entries" in own:
                out.extend(entries(own["entries"], f"$.services[{i}].initial_state.entries"))
    return out


def public_entries(definition: Any, reach: str = "world") -> list[dict]:
    """The public pages of every service of ``definition`` with a domain and within
    ``reach``, in definition order: its kind's :meth:`~cwgym.net.services.ServiceKind.public_pages` over the state
    built from its ``initial_state``, as the world builds it. Kinds without public pages
    (the default hook) are not built at all, which also keeps search kinds from crawling
    each other.

    Raises:
        ValueError: a malformed ``initial_state`` (``$.services[i].initial_state``, as the
            world would report it), or a kind's entry naming ``$.services[i]``.
    """
    if definition is None:
        return []
    out: list[dict] = []
    for i, service in enumerate(_get(definition, "services", []) or []):
        base = base_url(service)
        kind = SERVICE_KINDS.get(_get(service, "kind", ""))
        if base is None or kind is None or type(kind).public_pages is ServiceKind.public_pages:
            continue
        if not _in_reach(definition, service, reach):
            continue
        state = kind.initial(_get(service, "initial_state"), f"$.services[{i}].initial_state", definition)
        out.extend(entry(page, f"$.services[{i}] (public page {j})") for j, page in enumerate(kind.public_pages(state, base)))
    return out


def index_for(state: dict, where: str, definition: Any, search_kinds_too: bool = False,
              crawl: bool = False, reach: str = "world") -> tuple[list[dict], list[dict]]:
    """``(own entries, index)`` for a kind's state: the index is the world's entries, then
    the own ones, then (with ``crawl``) the world's public pages whose url is not listed
    yet — of the services within ``reach``. A state that already holds an ``index`` must hold this one (outside a world, with
    no definition, a carried index is checked and kept)."""
    own = entries(state.get("entries", []), f"{where}.entries")
    carried = state.get("index")
    if carried is not None and definition is None:
        return own, entries(carried, f"{where}.index")
    index = [*world_entries(definition, search_kinds_too, reach), *own]
    if crawl:
        seen = {e["url"] for e in index}
        for page in public_entries(definition, reach):
            if page["url"] not in seen:
                seen.add(page["url"])
                index.append(page)
    if carried is not None and carried != index:
        raise ValueError(f"{where}.index: does not match the search entries of this world" + (" and the public pages crawled when it was built" if crawl else ""))
    return own, index


def rank(index: list[dict], query_terms: list[str]) -> list[tuple[int, dict]]:
    """``(score, entry)`` for every entry matching a term, best first, ties by url then
    index order."""
    wanted = list(dict.fromkeys(query_terms))
    if not wanted:
        return []
    scored = []
    for position, item in enumerate(index):
        title, snippet = terms(item["title"]), terms(item["snippet"])
        keywords = [t for k in item["keywords"] for t in terms(k)]
        score = sum(TITLE_WEIGHT * title.count(t) + KEYWORD_WEIGHT * keywords.count(t) + SNIPPET_WEIGHT * snippet.count(t)
                    for t in wanted)
        if score:
            scored.append((-score, item["url"], position, item))
    scored.sort(key=lambda s: s[:3])
    return [(-s[0], s[3]) for s in scored]
