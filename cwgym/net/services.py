"""Service kinds: what answers HTTP on a node's port.

A kind is a :class:`ServiceKind` registered in :data:`SERVICE_KINDS` by a module of the
services layer, ``cwgym.services``, which the registry imports by name on first use (the
net layer never imports it in code: the services fill the net's extension point). An instance's state is plain data,
built from the definition's ``initial_state`` by :meth:`ServiceKind.initial` and kept in the
``network`` subsystem, so snapshots, forks and ``state_hash`` cover it; :meth:`ServiceKind.handle`
answers one request and returns the state after it (the same object when nothing changed).
A service whose kind no module implements answers ``501 Not Implemented`` naming its kind.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.kernel.registry import Registry
from cwgym.net.http import Headers, Request, Response

__all__ = ["SERVICE_KINDS", "ServiceKind", "not_implemented", "text_response"]


class ServiceKind:
    """One kind of service; subclasses implement :meth:`initial` and :meth:`handle`."""

    name: ClassVar[str] = ""

    def initial(self, initial_state: Any, where: str, definition: Any = None) -> Any:
        """The state of a new instance from the definition's ``initial_state`` (also asked
        to check a state being imported from a snapshot: it must accept a state it built).
        ``definition`` is the world's :class:`~cwgym.protocol.definition.WorldDefinition`,
        for kinds that gather from the whole world (a search engine's index).

        Raises:
            ValueError: a malformed ``initial_state``; the message starts with ``where``.
        """
        raise NotImplementedError

    def handle(self, state: Any, request: Request, source: str, now_us: int) -> tuple[Response, Any]:
        """``(response, state after)`` for ``request`` from the node ``source`` at logical
        time ``now_us``. The state is never mutated: a change is a new value."""
        raise NotImplementedError

    def public_pages(self, state: Any, base: str) -> list[dict]:
        """What a search engine's crawler finds here: the pages this service shows a visitor
        who is not signed in, as search entries ``{title, url, snippet, keywords}`` with
        absolute urls on ``base`` (``http://domain[:port]``, the service's first domain),
        read from ``state`` as :meth:`initial` built it. A kind that shows nothing to
        anonymous visitors keeps this default, ``[]``."""
        return []


#: Every implemented service kind, by name.
SERVICE_KINDS: Registry[ServiceKind] = Registry("service kind", "cwgym.services")


def text_response(status: int, text: str, content_type: str = "text/plain; charset=utf-8", **headers: str) -> Response:
    """A response carrying ``text`` as UTF-8."""
    body = text.encode("utf-8")
    pairs = [("Content-Type", content_type), ("Content-Length", str(len(body)))]
    pairs += [(k.replace("_", "-").title(), v) for k, v in headers.items()]
    return Response(status, Headers(tuple(pairs)), body)


def not_implemented(kind: str) -> Response:
    """What a service of an unimplemented kind answers."""
    return text_response(501, f"501 Not Implemented: no service of kind {kind!r} runs in this version of cwgym\n")
