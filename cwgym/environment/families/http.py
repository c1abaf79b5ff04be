"""http.v1: ``request {method, url, headers?, body?}`` from the acting machine.

The request travels the world's network from the machine's node (:mod:`cwgym.net.network`:
DNS, gateway, route, listener) and the value is ``{status, headers, body}`` with ``body`` a
list of byte values and ``headers`` a list of ``[name, value]`` pairs. As in the reference
engine, a request that gets no response (missing method, malformed URL, unresolvable
host, a destination the gateway denies, nothing listening) is ``action_failed``; a body
that is neither text nor a list of bytes is ``invalid``. A redirect is returned as it is.
"""

from __future__ import annotations

from typing import Any

from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.net.http import METHODS, Headers, NetError, Request, parse_url
from cwgym.protocol import errors


def _body(value: Any) -> bytes:
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, list) and all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 255 for b in value):
        return bytes(value)
    raise invalid()


def _headers(value: Any) -> Headers:
    if value is None:
        return Headers()
    if isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return Headers.of(value)
    if isinstance(value, list) and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in value):
        return Headers.of([tuple(p) for p in value])
    raise invalid()


class HttpFamily:
    version = "1"
    owned = True  # each value is built afresh from the response
    refuses_first = True  # a malformed request is refused before it is sent
    touches_desktop = False  # a request goes through the network and services only

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        if op != "request":
            raise unsupported()
        method = payload.get("method")
        headers, body = _headers(payload.get("headers")), _body(payload.get("body"))
        if not isinstance(method, str) or method.upper() not in METHODS or not isinstance(payload.get("url"), str):
            raise errors.ActionError(errors.ACTION_FAILED)
        try:
            request = Request(method.upper(), parse_url(payload["url"]), headers, body)
            response = ctx.runtime.http(ctx.machine.id, request, ctx.machine.user)
        except NetError:
            raise errors.ActionError(errors.ACTION_FAILED) from None
        return {"status": response.status, "headers": [list(p) for p in response.headers.items], "body": list(response.body)}


FAMILIES.register("http.v1", HttpFamily())
