"""What every web service kind is built from: routes, requests as a handler sees them,
accounts and sign-in, replies, errors, and state changed without mutation.

A kind subclasses :class:`WebService`, declares its routes with :func:`route` and checks
its own part of ``initial_state`` in :meth:`WebService.validate`::

    class Notes(WebService):
        name = "notes"
        title = "Notes"

        @route("GET", "/")
        def home(self, ctx):
            return self.page(ctx, "Notes", [Heading("Notes")])

A ``PUT`` whose body is neither a form nor JSON, or is not text at all, is an upload: it is
not parsed, and the handler reads ``ctx.request.body`` as bytes. A handler gets a :class:`Ctx` and returns a :class:`~cwgym.protocol.page.Page` (HTML, 200),
a :class:`Json` or a :class:`Redirect` (``303 See Other``), or raises :class:`HttpError`
(``400`` with a message, ``403``, ``404``...): a malformed request never becomes a
traceback. To change state a handler assigns ``ctx.state`` a new value built with
:func:`assoc` and :func:`assoc_in`, never mutating the old one: snapshots and forks share
state objects, so a change costs what it touches and leaves every checkpoint as it was.

Accounts: ``initial_state.users`` is ``[{name, password, display?, email?}]``. ``GET /login``
shows the sign-in form, ``POST /login`` signs in and sets the ``sid`` cookie (a browser keeps
it per profile; ``curl`` sends it with ``-b``), ``POST /logout`` signs out and ``POST
/signup`` opens an account, so a service with no users is still usable. API clients may
send HTTP Basic credentials instead. ``ctx.user`` is the signed-in name or ``None``;
:meth:`Ctx.require_user` redirects to the sign-in page (``401`` for JSON clients).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from typing import Any, ClassVar
from urllib.parse import parse_qsl, quote, unquote

from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.net.http import Headers, Request, Response, reason_phrase
from cwgym.net.services import ServiceKind
from cwgym.protocol.page import (
    Button,
    Element,
    Form,
    Heading,
    Input,
    Link,
    Page,
    Text,
    assign_ids,
    page_json,
    to_html,
)

__all__ = [
    "Ctx",
    "HttpError",
    "Json",
    "Redirect",
    "WebService",
    "assoc",
    "assoc_in",
    "check_fields",
    "next_id",
    "route",
    "timestamp",
]

#: Names of accounts: letters, digits, dot, dash, underscore.
USER_NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
#: The media type of a page sent as the page model itself (a browser's ``Accept`` asks for it).
PAGE_TYPE = "application/vnd.cwgym.page+json"

#: The largest request body a service reads (larger is ``413``).
MAX_BODY = 1 << 20
#: Paths whose matching routes a service kind remembers (forgotten all at once past it).
MATCHED_KEPT = 1024


class HttpError(Exception):
    """Raised by a handler: answered as ``status`` with ``message`` (HTML or JSON)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Json:
    """A JSON reply."""

    __slots__ = ("data", "status")

    def __init__(self, data: Any, status: int = 200) -> None:
        self.data = data
        self.status = status


class Redirect:
    """A ``303 See Other`` to ``url`` (after a form, as the web does)."""

    __slots__ = ("url",)

    def __init__(self, url: str) -> None:
        self.url = url


# -- immutable updates ---------------------------------------------------------------------


def assoc(mapping: dict, key: Any, value: Any) -> dict:
    """A new dict: ``mapping`` with ``key`` set to ``value``."""
    return {**mapping, key: value}


def assoc_in(mapping: dict, keys: Iterable[Any], value: Any) -> dict:
    """A new dict with the value at the path ``keys`` replaced (dicts on the way copied)."""
    keys = list(keys)
    if len(keys) == 1:
        return assoc(mapping, keys[0], value)
    return assoc(mapping, keys[0], assoc_in(mapping.get(keys[0], {}), keys[1:], value))


def next_id(state: dict, counter: str = "next_id") -> tuple[int, dict]:
    """``(n, state after)``: the next number of ``state[counter]`` (from 1), the counter
    moved on. Ids come from counters in the state, never from randomness or the clock."""
    n = state.get(counter, 1)
    return n, {**state, counter: n + 1}


def timestamp(now_us: int) -> str:
    """Logical time as a page shows it: ``2025-09-17 09:00`` (UTC, from the world's epoch)."""
    year, month, day, hour, minute, _ = _civil(WORLD_EPOCH_S + now_us // 1_000_000)
    return f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}"


def _civil(seconds: int) -> tuple[int, int, int, int, int, int]:
    days, rest = divmod(seconds, 86_400)
    z = days + 719_468  # days from 0000-03-01 (Howard Hinnant's civil_from_days)
    era, doe = divmod(z, 146_097)
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    return year, month, day, rest // 3600, rest % 3600 // 60, rest % 60


def check_fields(value: Any, where: str, allowed: dict[str, type | tuple[type, ...]], required: Iterable[str] = ()) -> dict:
    """``value`` checked as an object whose fields have the ``allowed`` types.

    Raises:
        ValueError: naming ``where`` and the field.
    """
    if not isinstance(value, dict):
        raise ValueError(f"{where}: an object, got {type(value).__name__}")
    for name in value:
        if name not in allowed:
            raise ValueError(f"{where}.{name}: unknown field (known: {', '.join(sorted(allowed))})")
        kind = allowed[name]
        if (isinstance(value[name], bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))) or not isinstance(value[name], kind):
            raise ValueError(f"{where}.{name}: expected {_type_name(kind)}, got {type(value[name]).__name__}")
    for name in required:
        if name not in value:
            raise ValueError(f"{where}.{name}: required")
    return value


def _type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


# -- routes --------------------------------------------------------------------------------

Handler = Callable[["WebService", "Ctx"], Any]


def route(method: str, pattern: str) -> Callable[[Handler], Handler]:
    """Declare a handler for ``method`` and a path ``pattern`` (``/wiki/{title}``: a
    segment named ``title``; ``{path...}``: the rest of the path)."""

    def mark(fn: Handler) -> Handler:
        fn.__dict__.setdefault("routes", []).append((method.upper(), pattern))
        return fn

    return mark


def _compile(pattern: str) -> re.Pattern[str]:
    out = ""
    for part in re.split(r"(\{[a-z_]+(?:\.\.\.)?\})", pattern):
        if part.startswith("{"):
            name = part.strip("{}.")
            out += f"(?P<{name}>.+)" if part.endswith("...}") else f"(?P<{name}>[^/]+)"
        else:
            out += re.escape(part)
    return re.compile(out + "/?" if pattern != "/" else "/")


class Ctx:
    """One request as a handler sees it."""

    __slots__ = ("cookies", "form", "json", "now_us", "params", "query", "request", "service", "set_cookies", "source",
                 "state", "user")

    def __init__(self, service: WebService, state: Any, request: Request, source: str, now_us: int = 0) -> None:
        self.service = service
        self.now_us = now_us  # the logical clock: timestamps of what this request creates
        self.state = state
        self.request = request
        self.source = source
        query = request.url.path.partition("?")[2]
        self.query = dict(parse_qsl(query, keep_blank_values=True)) if query else {}
        self.params: dict[str, str] = {}
        self.set_cookies: list[str] = []
        cookie = request.headers.get("cookie")
        self.cookies = _cookies(cookie) if cookie else {}
        self.form: dict[str, str] = {}
        self.json: Any = None
        self.user: str | None = None
        self._read_body()

    @property
    def path(self) -> str:
        return unquote(self.request.url.path.partition("?")[0])

    @property
    def wants_json(self) -> bool:
        accept = self.request.headers.get("accept") or ""
        return "application/json" in accept or self.path.startswith("/api/")

    def _read_body(self) -> None:
        body = self.request.body
        if not body:
            return
        if len(body) > MAX_BODY:
            raise HttpError(413, f"the body is over {MAX_BODY} bytes")
        kind = (self.request.headers.get("content-type") or "").split(";")[0].strip().lower()
        if self.request.method == "PUT" and kind not in ("application/json", "application/x-www-form-urlencoded"):
            return  # an upload (curl -T): the handler reads ctx.request.body as it is
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            if self.request.method == "PUT":
                return  # an upload of bytes, whatever type the client named
            raise HttpError(400, "the body is not UTF-8 text") from None
        if kind == "application/json":
            try:
                self.json = json.loads(text)
            except ValueError as exc:
                raise HttpError(400, f"the body is not JSON ({exc})") from None
            if isinstance(self.json, dict):
                self.form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in self.json.items()}
        else:  # curl -d and browsers send application/x-www-form-urlencoded
            self.form = dict(parse_qsl(text, keep_blank_values=True))

    def signed_in(self) -> str | None:
        """Who the request's ``sid`` cookie or Basic credentials name (``None``: nobody).

        Raises:
            HttpError: ``400`` malformed credentials, ``401`` wrong ones.
        """
        sessions = self.state.get("sessions", {})
        user = sessions.get(self.cookies.get("sid", ""))
        if user is not None:
            return user
        auth = self.request.headers.get("authorization") or ""
        if auth.lower().startswith("basic "):
            try:
                name, _, password = base64.b64decode(auth[6:].strip(), validate=True).decode("utf-8").partition(":")
            except (ValueError, UnicodeDecodeError):
                raise HttpError(400, "malformed Basic credentials") from None
            account = self.state.get("users", {}).get(name)
            if account is None or not account["password"] or account["password"] != password:
                raise HttpError(401, "wrong user name or password")
            return name
        return None

    def field(self, name: str, *, required: bool = True, default: str = "", limit: int = 100_000) -> str:
        """A form (or JSON) field, stripped of nothing; ``400`` when required and missing."""
        value = self.form.get(name, self.query.get(name))
        if value is None or (required and value.strip() == ""):
            if required:
                raise HttpError(400, f"the field {name!r} is required")
            return default
        if len(value) > limit:
            raise HttpError(400, f"the field {name!r} is longer than {limit} characters")
        return value

    def require_user(self) -> str:
        """The signed-in user; otherwise to the sign-in page (``401`` for a JSON client)."""
        if self.user is None:
            if self.wants_json:
                raise HttpError(401, "sign in first")
            raise _SignIn(self.request.url.path)
        return self.user


class _SignIn(Exception):
    def __init__(self, back: str) -> None:
        super().__init__(back)
        self.back = back


def _cookies(header: str) -> dict[str, str]:
    out = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            out[name] = value
    return out


# -- the service ---------------------------------------------------------------------------


#: kind name -> (whether a state is written in the reference engine's form of the kind, the
#: reader turning it into cwgym's form): filled by :mod:`cwgym.services.reference_form`,
#: which the kind registry imports with every module of this package
REFERENCE_FORMS: dict[str, tuple[Callable[[dict], bool], Callable[[dict, str], dict]]] = {}


class WebService(ServiceKind):
    """A service kind with routes, accounts and pages; see the module docstring."""

    #: the brand shown on every page
    title: ClassVar[str] = ""
    #: the fields of ``initial_state`` besides ``users``, with their types
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {}
    _routes: ClassVar[list[tuple[str, re.Pattern[str], str]]]
    #: path -> the routes matching it, in order: (method, handler, captured segments)
    _matched: ClassVar[dict[str, tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = []
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                for method, pattern in getattr(fn, "routes", ()):
                    table.append((method, _compile(pattern), attr))
        # the most literal text first, so /wiki/new wins over /wiki/{title} and
        # /events/{id}.ics over /events/{id}
        cls._routes = sorted(table, key=lambda r: (-len(re.sub(r"\(\?P<\w+>[^)]*\)", "", r[1].pattern)), r[1].pattern))
        cls._matched = {}

    # -- state -------------------------------------------------------------------------
    def initial(self, initial_state: Any, where: str, definition: Any = None) -> Any:
        state = {} if initial_state is None else initial_state
        if not isinstance(state, dict):
            raise ValueError(f"{where}: an object, got {type(state).__name__}")
        reference = REFERENCE_FORMS.get(self.name)
        if reference is not None and reference[0](state):
            converted = reference[1](state, where)
            try:
                return self.initial(converted, where, definition)
            except ValueError as exc:
                raise ValueError(f"{exc} (read from the reference engine's form of {self.name!r}; the path "
                                 f"names cwgym's form of it)") from None
        # dict: a built state. ``brand`` (the site's name) is every kind's, as in the reference engine
        known = {"users": (list, dict), "sessions": dict, "next_session": int, "brand": str, **self.fields}
        check_fields(state, where, known)
        users = self._users(state.get("users", []), f"{where}.users")
        own_brand = "brand" in self.fields  # a kind that shows its brand its own way keeps it
        framework = ("users", "sessions", "next_session") + (() if own_brand else ("brand",))
        rest = {k: v for k, v in state.items() if k not in framework}
        built = self.validate(rest, where, users, definition)
        if not own_brand and "brand" in state:
            if not state["brand"].strip():
                raise ValueError(f"{where}.brand: the site's name must not be blank")
            built = {**built, "brand": state["brand"]}
        sessions = state.get("sessions", {})
        if not all(isinstance(k, str) and v in users for k, v in sessions.items()):
            raise ValueError(f"{where}.sessions: each session names an account")
        return {**built, "users": users, "sessions": dict(sessions), "next_session": state.get("next_session", 1)}

    @staticmethod
    def _users(value: Any, where: str) -> dict[str, dict]:
        if isinstance(value, dict):  # a state already built (a snapshot being loaded)
            for name, account in value.items():
                if not isinstance(account, dict):
                    raise ValueError(f"{where}.{name}: an account object {{password, display, email}}, "
                                     f"got {type(account).__name__}")
            value = [{"name": n, **u} for n, u in value.items()]
        users: dict[str, dict] = {}
        for i, user in enumerate(value):
            at = f"{where}[{i}]"
            if isinstance(user, str):  # a name alone (the reference engine's form): an account without a password
                user = {"name": user, "password": ""}
            check_fields(user, at, {"name": str, "password": str, "display": str, "email": str}, ("name", "password"))
            if not USER_NAME.match(user["name"]):
                raise ValueError(f"{at}.name: letters, digits, '.', '-' and '_' only")
            if user["name"] in users:
                raise ValueError(f"{at}.name: {user['name']!r} is listed twice")
            users[user["name"]] = {"password": user["password"], "display": user.get("display", user["name"]),
                                   "email": user.get("email", "")}
        return users

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        """This kind's part of ``initial_state`` checked and filled with defaults (an empty
        ``{}`` must give a usable service; a state this method built must pass again
        unchanged, as snapshots are checked with it). ``definition`` is the world's, or
        ``None`` outside one. Raises ``ValueError`` naming the path."""
        return state

    # -- answering ---------------------------------------------------------------------
    def handle(self, state: Any, request: Request, source: str, now_us: int) -> tuple[Response, Any]:
        try:
            ctx = Ctx(self, state, request, source, now_us)
        except HttpError as exc:
            return self._error_response(None, exc), state
        try:
            ctx.user = ctx.signed_in()
            reply = self._dispatch(ctx)
        except _SignIn as exc:
            return self._respond(ctx, Redirect(f"/login?next={quote(exc.back)}")), state
        except HttpError as exc:
            return self._error_response(ctx, exc), state  # a refusal changes nothing
        response = self._respond(ctx, reply)
        if request.method == "HEAD":
            response = Response(response.status, response.headers, b"")
        return response, ctx.state

    def _dispatch(self, ctx: Ctx) -> Any:
        method = "GET" if ctx.request.method == "HEAD" else ctx.request.method
        path = ctx.path
        allowed = []
        for route_method, attr, params in self._matching(path):
            if route_method != method:
                allowed.append(route_method)
                continue
            ctx.params = dict(params)
            return getattr(self, attr)(ctx)
        if allowed:
            raise HttpError(405, f"{ctx.request.method} is not allowed here (allowed: {', '.join(sorted(set(allowed)))})")
        raise HttpError(404, f"no page at {path}")

    def _matching(self, path: str) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
        """The routes whose pattern matches ``path``, in order (remembered by path: a
        service answers the same few paths over and over)."""
        matched = self._matched.get(path)
        if matched is None:
            matched = tuple(
                (route_method, attr, tuple(match.groupdict().items()))
                for route_method, pattern, attr in self._routes
                if (match := pattern.fullmatch(path)) is not None
            )
            if len(self._matched) >= MATCHED_KEPT:
                self._matched.clear()
            self._matched[path] = matched
        return matched

    def _respond(self, ctx: Ctx, reply: Any) -> Response:
        extra = [("Set-Cookie", c) for c in ctx.set_cookies]
        if isinstance(reply, Page) and PAGE_TYPE in (ctx.request.headers.get("accept") or ""):
            body = page_json(assign_ids(reply))  # a browser asks for the page model itself
            return Response(200, Headers((("Content-Type", PAGE_TYPE), ("Content-Length", str(len(body))), *extra)), body)
        if isinstance(reply, Page):
            body = to_html(assign_ids(reply)).encode("utf-8")
            return Response(200, Headers((("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))), *extra)), body)
        if isinstance(reply, Json):
            body = json.dumps(reply.data, sort_keys=True, ensure_ascii=False).encode("utf-8")
            return Response(reply.status, Headers((("Content-Type", "application/json"), ("Content-Length", str(len(body))), *extra)), body)
        if isinstance(reply, Redirect):
            return Response(303, Headers((("Location", reply.url), ("Content-Length", "0"), *extra)), b"")
        if isinstance(reply, Response):
            return reply
        raise TypeError(f"{type(self).__name__}: a handler returned {type(reply).__name__}")

    def _error_response(self, ctx: Ctx | None, exc: HttpError) -> Response:
        if ctx is not None and ctx.wants_json:
            return self._respond(ctx, Json({"error": exc.message}, exc.status))
        page = Page(f"{exc.status} — {self.title}", (Heading(f"{exc.status} {reason_phrase(exc.status)}", id="error-title"),
                                                     Text(exc.message, id="error-message"),
                                                     Link("Home", "/", id="error-home")))
        body = to_html(page).encode("utf-8")
        return Response(exc.status, Headers((("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))))), body)

    # -- pages -------------------------------------------------------------------------
    def page(self, ctx: Ctx, title: str, body: Iterable[Element]) -> Page:
        """A page of this service: the brand, who is signed in, then ``body``."""
        brand = ctx.state.get("brand", self.title)
        head: list[Element] = [Link(brand, "/", id="brand")]
        if ctx.user is None:
            head.append(Link("Sign in", "/login", id="sign-in"))
        else:
            head.append(Text(f"Signed in as {ctx.state['users'][ctx.user]['display']}", id="signed-in"))
            head.append(Form("/logout", (Button("Sign out", id="sign-out"),), id="logout"))
        return Page(f"{title} — {brand}" if title not in (self.title, brand) else title, (*head, *body))

    # -- accounts ----------------------------------------------------------------------
    @route("GET", "/login")
    def login_form(self, ctx: Ctx) -> Page:
        back = ctx.query.get("next", "/")
        return self.page(ctx, "Sign in", [
            Heading("Sign in", id="login-title"),
            Form("/login", (Input("username", label="User name", id="login-username"),
                            Input("password", label="Password", type="password", id="login-password"),
                            Input("next", type="hidden", value=back, id="login-next"),
                            Button("Sign in", id="login-submit")), id="login-form"),
            Link("Create an account", "/signup", id="signup-link"),
        ])

    @route("POST", "/login")
    def login(self, ctx: Ctx) -> Any:
        name, password = ctx.field("username"), ctx.field("password")
        account = ctx.state["users"].get(name)
        if account is None or not account["password"] or account["password"] != password:
            raise HttpError(403, "wrong user name or password")
        n = ctx.state["next_session"]
        token = hashlib.sha256(f"{name}\0{account['password']}\0{n}".encode()).hexdigest()[:32]
        ctx.state = {**ctx.state, "sessions": assoc(ctx.state["sessions"], token, name), "next_session": n + 1}
        ctx.set_cookies.append(f"sid={token}; Path=/; HttpOnly")
        if ctx.wants_json:
            return Json({"user": name, "session": token})
        back = ctx.form.get("next", "/")
        return Redirect(back if back.startswith("/") else "/")

    @route("POST", "/logout")
    def logout(self, ctx: Ctx) -> Any:
        token = ctx.cookies.get("sid", "")
        if token in ctx.state["sessions"]:
            ctx.state = {**ctx.state, "sessions": {k: v for k, v in ctx.state["sessions"].items() if k != token}}
        ctx.set_cookies.append("sid=; Path=/; Max-Age=0")
        return Redirect("/")

    @route("GET", "/signup")
    def signup_form(self, ctx: Ctx) -> Page:
        return self.page(ctx, "Create an account", [
            Heading("Create an account", id="signup-title"),
            Form("/signup", (Input("username", label="User name", id="signup-username"),
                             Input("display", label="Full name", id="signup-display"),
                             Input("password", label="Password", type="password", id="signup-password"),
                             Button("Create account", id="signup-submit")), id="signup-form"),
        ])

    @route("POST", "/signup")
    def signup(self, ctx: Ctx) -> Any:
        name, password = ctx.field("username", limit=64), ctx.field("password", limit=256)
        if not USER_NAME.match(name):
            raise HttpError(400, "a user name is letters, digits, '.', '-' and '_'")
        if name in ctx.state["users"]:
            raise HttpError(409, f"the user name {name!r} is taken")
        display = ctx.field("display", required=False, default=name, limit=200) or name
        ctx.state = assoc_in(ctx.state, ["users", name], {"password": password, "display": display, "email": ""})
        return self.login(ctx)
