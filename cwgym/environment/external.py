"""Live traffic to the real internet, on the owner's explicit say: ``begin_external`` and
``complete_external``.

The simulator never opens a socket. When an owner wants a real page inside a world, three
parties take part:

1. the world, which checks the policy and the request and pins the addresses the owner
   authorises (:meth:`Externals.begin`: the gateway must allow the internet, the request
   may not override ``Host``, the address set is explicit and non-empty);
2. an :class:`ExternalAdapter` the owner supplies, which performs the I/O outside the
   world (a test adapter answers from a table; a real one would connect only to the pinned
   addresses and never follow a redirect itself);
3. the world again, which takes the answer back (:meth:`Externals.complete`) only if it
   belongs to this world's current timeline (its generation: a restore, reset or import
   since ``begin`` makes it stale), arrives within its deadline on the logical clock, and
   fits the response-size limit. A redirect is returned as it is: following it is a new
   ``begin``, authorised again.

While an effect is unresolved the world refuses to be checkpointed (``snapshot``, ``fork``,
``export_snapshot``): a checkpoint that depends on the outside world is not one.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Protocol

import msgspec

from cwgym.net.http import METHODS, NetError, parse_url

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUT_US",
    "ExternalAdapter",
    "ExternalError",
    "ExternalRequest",
    "ExternalResponse",
    "Externals",
]

#: How long an external request may take on the logical clock unless the owner says.
DEFAULT_TIMEOUT_US = 30_000_000
#: The largest body accepted back unless the owner says (1 MiB).
DEFAULT_MAX_RESPONSE_BYTES = 1 << 20


class ExternalError(ValueError):
    """An external effect refused; ``str()`` is ``"<code>: <message>"``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class ExternalRequest(msgspec.Struct, frozen=True):
    """An authorised request waiting for its adapter: what may be sent, and to where."""

    id: int
    generation: int
    machine: str
    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    addresses: tuple[str, ...]
    deadline_us: int
    max_response_bytes: int


class ExternalResponse(msgspec.Struct, frozen=True):
    """What an adapter brings back; ``elapsed_us`` is how long it took on the logical
    clock (the adapter decides: real time must not leak into a world by itself)."""

    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    elapsed_us: int = 0


class ExternalAdapter(Protocol):
    """Performs one authorised request outside the world (connecting only to its pinned
    ``addresses``, never following redirects)."""

    def perform(self, request: ExternalRequest) -> ExternalResponse: ...


class Externals:
    """The unresolved external effects of one runtime, and its timeline's generation."""

    __slots__ = ("generation", "next_id", "pending", "runtime")

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.generation = 0
        self.next_id = 1
        self.pending: dict[int, ExternalRequest] = {}

    def new_timeline(self) -> None:
        """The state was replaced (restore, reset, import): what was pending is stale."""
        self.generation += 1
        self.pending.clear()

    def begin(self, machine_id: str, method: str, url: str, headers: Any = (), body: bytes = b"", *,
              addresses: Any, timeout_us: int = DEFAULT_TIMEOUT_US,
              max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES) -> ExternalRequest:
        """Authorise one request from ``machine_id`` to the pinned ``addresses``.

        Raises:
            ExternalError: ``egress_denied`` (the gateway does not allow the internet),
                ``invalid`` (unknown machine, bad method, URL, headers, body, addresses or
                limits, a ``Host`` header).
        """
        runtime = self.runtime
        if runtime.topology.computer(machine_id) is None:
            raise ExternalError("invalid", f"no machine {machine_id!r}")
        if not runtime.definition.network.gateway.allow_internet:
            raise ExternalError("egress_denied", "the gateway does not allow internet destinations (network.gateway.allow_internet)")
        if not isinstance(method, str) or method.upper() not in METHODS:
            raise ExternalError("invalid", f"method {method!r} is not one of {sorted(METHODS)}")
        try:
            parsed = parse_url(url)
        except NetError as exc:
            raise ExternalError("invalid", exc.detail) from None
        pairs = _headers(headers)
        if any(name.lower() == "host" for name, _ in pairs):
            raise ExternalError("invalid", "a Host header may not be set: the URL names the host")
        if not isinstance(body, bytes):
            raise ExternalError("invalid", "the body is bytes")
        pinned = _addresses(addresses, parsed.host)
        for name, value in (("timeout_us", timeout_us), ("max_response_bytes", max_response_bytes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ExternalError("invalid", f"{name} is a positive integer, got {value!r}")
        request = ExternalRequest(self.next_id, self.generation, machine_id, method.upper(), str(parsed), pairs, body,
                                  pinned, runtime.clock.now_us + timeout_us, max_response_bytes)
        self.next_id += 1
        self.pending[request.id] = request
        runtime.record("network.external_begin", machine_id, None,
                       {"id": request.id, "method": request.method, "url": request.url, "addresses": list(pinned)})
        return request

    def complete(self, request: ExternalRequest, response: ExternalResponse) -> ExternalResponse:
        """Take ``response`` back for ``request``; the clock advances by its ``elapsed_us``.

        Raises:
            ExternalError: ``stale`` (another timeline's request), ``not_found`` (not
                pending: completed or cancelled already), ``deadline_exceeded``,
                ``too_large`` or ``invalid`` (a malformed response). Any refusal but
                ``invalid`` resolves the effect: it is no longer pending.
        """
        if not isinstance(request, ExternalRequest):
            raise ExternalError("invalid", "complete_external takes the request begin_external returned")
        if request.generation != self.generation:
            raise ExternalError("stale", f"request {request.id} belongs to a timeline this world has left (restored, reset or imported since)")
        if self.pending.get(request.id) != request:
            raise ExternalError("not_found", f"request {request.id} is not pending")
        response = _response(response)
        runtime = self.runtime
        del self.pending[request.id]
        if runtime.clock.now_us + response.elapsed_us > request.deadline_us:
            runtime.record("network.external_timeout", request.machine, None, {"id": request.id})
            raise ExternalError("deadline_exceeded", f"request {request.id} answered after its deadline ({request.deadline_us} us)")
        if len(response.body) > request.max_response_bytes:
            runtime.record("network.external_refused", request.machine, None, {"id": request.id, "bytes": len(response.body)})
            raise ExternalError("too_large", f"{len(response.body)} bytes is over the limit of {request.max_response_bytes}")
        runtime.sleep(response.elapsed_us)
        runtime.record("network.external_complete", request.machine, None,
                       {"id": request.id, "status": response.status, "bytes": len(response.body)})
        return response

    def cancel(self, request: ExternalRequest) -> None:
        """Drop a pending request without an answer (no error if it is not pending)."""
        current = isinstance(request, ExternalRequest) and request.generation == self.generation
        if current and self.pending.pop(request.id, None) is not None:
            self.runtime.record("network.external_cancel", request.machine, None, {"id": request.id})

    def check_checkpointable(self) -> None:
        """Raise when an effect is unresolved (see the module docstring)."""
        if self.pending:
            ids = sorted(self.pending)
            raise ValueError(f"invalid: the world holds unresolved external effects {ids}; complete or cancel them before a checkpoint")


def _headers(value: Any) -> tuple[tuple[str, str], ...]:
    items = value.items() if isinstance(value, dict) else value
    try:
        pairs = tuple((name, text) for name, text in items)
    except (TypeError, ValueError):
        raise ExternalError("invalid", "headers are a mapping or (name, value) pairs of strings") from None
    if not all(isinstance(n, str) and isinstance(v, str) and n and "\n" not in n + v and "\r" not in n + v for n, v in pairs):
        raise ExternalError("invalid", "headers are non-empty single-line strings")
    return pairs


def _addresses(value: Any, host: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)) or not value:
        raise ExternalError("invalid", "addresses is a non-empty collection of IP addresses")
    pinned = []
    for item in value:
        try:
            address = ipaddress.ip_address(item)
        except ValueError:
            raise ExternalError("invalid", f"{item!r} is not an IP address") from None
        if not address.is_global:
            raise ExternalError("invalid", f"{item} is not a public address: the world's own network answers that")
        pinned.append(str(address))
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and str(literal) not in pinned:
        raise ExternalError("invalid", f"the URL's address {host} is not among the authorised addresses")
    return tuple(sorted(set(pinned)))


def _response(value: Any) -> ExternalResponse:
    if isinstance(value, dict):
        try:
            value = msgspec.convert(value, ExternalResponse)
        except msgspec.ValidationError as exc:
            raise ExternalError("invalid", f"malformed response ({exc})") from None
    if not isinstance(value, ExternalResponse):
        raise ExternalError("invalid", "an adapter answers an ExternalResponse")
    if not 100 <= value.status <= 599 or value.elapsed_us < 0:
        raise ExternalError("invalid", "a response has a status within 100..599 and elapsed_us >= 0")
    _headers(value.headers)
    return value
