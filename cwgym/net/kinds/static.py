"""``static``: serves the files a world declares, read-only.

``initial_state`` is ``{"files": {path: page}}`` where a page is its text (served as
``text/html`` when the path ends in ``.html`` or ``/``, else ``text/plain``) or an object
``{"body", "content_type"?, "status"?, "location"?}`` (a ``location`` with a 3xx status is a
redirect). ``GET`` and ``HEAD`` are answered; a path ending in ``/`` serves its
``index.html``; anything else is ``404``, and other methods ``405``.
"""

from __future__ import annotations

from typing import Any

from cwgym.net.http import Request, Response
from cwgym.net.services import SERVICE_KINDS, ServiceKind, text_response


class Static(ServiceKind):
    name = "static"

    def initial(self, initial_state: Any, where: str) -> Any:
        state = initial_state if initial_state is not None else {"files": {}}
        if not isinstance(state, dict) or set(state) - {"files"} or not isinstance(state.get("files", {}), dict):
            raise ValueError(f"{where}: a static service's initial_state is {{\"files\": {{path: page}}}}")
        files = {}
        for path, page in state.get("files", {}).items():
            at = f"{where}.files[{path!r}]"
            if not isinstance(path, str) or not path.startswith("/"):
                raise ValueError(f"{at}: a path starts with /")
            if isinstance(page, str):
                page = {"body": page}
            if not isinstance(page, dict) or not isinstance(page.get("body", ""), str) or set(page) - {"body", "content_type", "status", "location"}:
                raise ValueError(f"{at}: a page is text or {{body, content_type?, status?, location?}}")
            status = page.get("status", 200)
            if not isinstance(status, int) or not 100 <= status <= 599:
                raise ValueError(f"{at}.status: {status!r} is not an HTTP status")
            files[path] = page
        return {"files": files}

    def handle(self, state: Any, request: Request, source: str) -> tuple[Response, Any]:
        if request.method not in ("GET", "HEAD"):
            return text_response(405, "405 Method Not Allowed\n", Allow="GET, HEAD"), state
        path = request.url.path.split("?", 1)[0]
        files = state["files"]
        page = files.get(path) or (files.get(path + "index.html") if path.endswith("/") else None)
        if page is None:
            return text_response(404, f"404 Not Found: {path}\n"), state
        html = path.endswith((".html", "/"))
        content_type = page.get("content_type") or ("text/html; charset=utf-8" if html else "text/plain; charset=utf-8")
        extra = {"Location": page["location"]} if page.get("location") else {}
        response = text_response(page.get("status", 200), page.get("body", ""), content_type, **extra)
        if request.method == "HEAD":
            response = Response(response.status, response.headers, b"")
        return response, state


SERVICE_KINDS.register(Static.name, Static())
