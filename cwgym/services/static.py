"""``static``: serves the files a world declares; with ``writable``, clients may upload.

``initial_state`` is ``{"files": {path: page}, "writable"?: bool}`` where a page is its text (served as
``text/html`` when the path ends in ``.html``, ``.htm`` or ``/``, else ``text/plain``) or an object
``{"body", "content_type"?, "status"?, "location"?, "uploaded"?}`` (a ``location`` with a 3xx
status is a redirect). ``GET`` and ``HEAD`` are answered; a path ending in ``/`` serves its
``index.html``, or lists the folder (``Directory listing for /``) when it has none; a
missing page is ``404``. A ``writable`` service also takes ``PUT`` (the
body, UTF-8 text, becomes the page at that path, with the request's ``Content-Type``:
``201 Created`` or ``204 No Content`` when it replaced one) and ``DELETE`` (``204``, or
``404``), like a WebDAV share without folders. Other methods are ``405``. The files live
in the service's state, so what one machine uploads another sees only by asking for it.

A page the world ships that is served as HTML is held to the page model when the world
loads (:func:`~cwgym.protocol.html_reader.check_html`): markup the model cannot show (a script, a
style, a video) fails the load, naming the file, the element and its line, instead of
vanishing when a browser reads the page. A page a client uploads is marked ``"uploaded":
true``; it arrived at run time and is read as a browser reads any page, so it is not checked
(a world may ship one marked so, to start from a messy upload).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from html import escape
from typing import Any
from urllib.parse import quote

from cwgym.net.http import Headers, Request, Response
from cwgym.net.services import SERVICE_KINDS, ServiceKind, text_response
from cwgym.protocol.html_reader import check_html, parse_html
from cwgym.protocol.page import Form, Heading, Link, ListBlock, Table, Text
from cwgym.services._search_index import page_entry

#: Paths served as ``text/html`` when the page names no content type.
HTML_PATHS = (".html", ".htm", "/")
_PAGE_KEYS = {"body", "content_type", "status", "location", "uploaded"}


def served_as_html(path: str, page: dict) -> bool:
    """Whether ``page`` at ``path`` is served as HTML: its content type says so, or it
    names none and the path ends in one of :data:`HTML_PATHS`."""
    content_type = page.get("content_type")
    if content_type:
        return content_type.split(";", 1)[0].strip().lower() == "text/html"
    return path.endswith(HTML_PATHS)


class Static(ServiceKind):
    name = "static"

    def initial(self, initial_state: Any, where: str, definition: Any = None) -> Any:
        state = initial_state if initial_state is not None else {"files": {}}
        if not isinstance(state, dict) or set(state) - {"files", "writable"} or not isinstance(state.get("files", {}), dict):
            raise ValueError(f"{where}: a static service's initial_state is {{\"files\": {{path: page}}, \"writable\"?: bool}}")
        if not isinstance(state.get("writable", False), bool):
            raise ValueError(f"{where}.writable: true or false")
        files = {}
        for path, page in state.get("files", {}).items():
            at = f"{where}.files[{path!r}]"
            if not isinstance(path, str) or not path.startswith("/"):
                raise ValueError(f"{at}: a path starts with /")
            if isinstance(page, str):
                page = {"body": page}
            if not isinstance(page, dict) or not isinstance(page.get("body", ""), str) or set(page) - _PAGE_KEYS:
                raise ValueError(f"{at}: a page is text or {{body, content_type?, status?, location?, uploaded?}}")
            status = page.get("status", 200)
            if not isinstance(status, int) or not 100 <= status <= 599:
                raise ValueError(f"{at}.status: {status!r} is not an HTTP status")
            if not isinstance(page.get("content_type", ""), str):
                raise ValueError(f"{at}.content_type: a media type such as \"text/html\", not {page['content_type']!r}")
            if not isinstance(page.get("uploaded", False), bool):
                raise ValueError(f"{at}.uploaded: true or false")
            if served_as_html(path, page) and not page.get("uploaded", False):
                check_html(page.get("body", ""), at)
            files[path] = page
        return {"files": files, "writable": state.get("writable", False)}

    def handle(self, state: Any, request: Request, source: str, now_us: int) -> tuple[Response, Any]:
        path = request.url.path.split("?", 1)[0]
        allowed = "GET, HEAD, PUT, DELETE" if state["writable"] else "GET, HEAD"
        if request.method not in allowed.split(", "):
            return text_response(405, "405 Method Not Allowed\n", Allow=allowed), state
        files = state["files"]
        if request.method == "PUT":
            return self._put(state, path, request)
        if request.method == "DELETE":
            if path not in files:
                return text_response(404, f"404 Not Found: {path}\n"), state
            return Response(204, Headers(), b""), {**state, "files": {p: f for p, f in files.items() if p != path}}
        page = files.get(path) or (files.get(path + "index.html") if path.endswith("/") else None)
        if page is None and path.endswith("/"):
            return self._index(files, path, request.method), state
        if page is None:
            return text_response(404, f"404 Not Found: {path}\n"), state
        html = path.endswith(HTML_PATHS)
        content_type = page.get("content_type") or ("text/html; charset=utf-8" if html else "text/plain; charset=utf-8")
        extra = {"Location": page["location"]} if page.get("location") else {}
        response = text_response(page.get("status", 200), page.get("body", ""), content_type, **extra)
        if request.method == "HEAD":
            response = Response(response.status, response.headers, b"")
        return response, state


    def public_pages(self, state: Any, base: str) -> list[dict]:
        """Every page served ``200`` as HTML (:func:`served_as_html`: ``.html``, ``.htm``, a
        folder's ``/``, or a ``text/html`` type), by path; a static site has no accounts, so
        a visitor sees them all. Titled by its ``<title>``, else its first heading, else its
        url; the snippet is the start of its text. A path a url cannot carry as it is (a
        space, a ``?``) is left out: no request reaches it."""
        out = []
        for path, page in sorted(state["files"].items()):
            if page.get("status", 200) != 200 or not served_as_html(path, page) or quote(path, safe=_URL_SAFE) != path:
                continue
            url = base + path
            title, text = _title_and_text(page.get("body", ""), url)
            out.append(page_entry(title, url, text))
        return out

    @staticmethod
    def _index(files: dict, folder: str, method: str) -> Response:
        """``Index of /folder/`` (as ``python3 -m http.server`` lists one) when a folder
        has no ``index.html``: its files and subfolders, or ``404`` when it has none."""
        entries = sorted({p[len(folder):].split("/", 1)[0] + ("/" if "/" in p[len(folder):] else "")
                          for p in files if p.startswith(folder) and p != folder})
        if not entries and folder != "/":
            return text_response(404, f"404 Not Found: {folder}\n")
        title = f"Directory listing for {escape(folder)}"
        items = "".join(f'<li><a href="{escape(quote(e))}">{escape(e)}</a></li>\n' for e in entries)
        html = (f'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{title}</title></head>\n'
                f"<body>\n<h1>{title}</h1>\n<hr>\n<ul>\n{items}</ul>\n<hr>\n</body>\n</html>\n")
        response = text_response(200, html, "text/html; charset=utf-8")
        return Response(200, response.headers, b"") if method == "HEAD" else response

    @staticmethod
    def _put(state: Any, path: str, request: Request) -> tuple[Response, Any]:
        try:
            text = request.body.decode("utf-8")
        except UnicodeDecodeError:
            return text_response(415, "415 Unsupported Media Type: the body is UTF-8 text\n"), state
        if path.endswith("/"):
            return text_response(409, "409 Conflict: a page needs a name, not a folder\n"), state
        page = {"body": text, "uploaded": True}
        content_type = request.headers.get("content-type")
        if content_type:
            page["content_type"] = content_type
        replaced = path in state["files"]
        after = {**state, "files": {**state["files"], path: page}}
        if replaced:
            return Response(204, Headers(), b""), after
        return text_response(201, f"201 Created: {path}\n", Location=path), after


_URL_SAFE = "/:@!$&'()*+,;=-._~"


@lru_cache(maxsize=256)
def _title_and_text(html: str, url: str) -> tuple[str, str]:
    """``(title, text)`` of a page as a crawler reads it (cached by content: a world is
    crawled again each time it is built or loaded)."""
    shown = parse_html(html, url)
    words = list(_words(shown.elements))
    title = shown.title if shown.title != url else next((w for heading, w in words if heading), url)
    return title, " ".join(w for _, w in words if w != title)


def _words(elements: tuple) -> Iterator[tuple[bool, str]]:
    """``(is a heading, text)`` of every heading, text and link of a page, in reading order."""
    for e in elements:
        if isinstance(e, (Heading, Text, Link)) and e.text.strip():
            yield isinstance(e, Heading), e.text
        elif isinstance(e, ListBlock):
            yield from _words(e.items)
        elif isinstance(e, Table):
            yield from _words(tuple(cell for row in e.rows for cell in row))
        elif isinstance(e, Form):
            yield from _words(e.children)


SERVICE_KINDS.register(Static.name, Static())
