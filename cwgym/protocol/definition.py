"""World definitions: the shared JSON schema (``schema_version`` 1) as typed msgspec structs.

``load_definition`` decodes a dict, a JSON string or bytes, checks it, and returns a
``WorldDefinition``; every problem is a ``DefinitionError`` naming the JSON path.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import itertools
import re
from typing import Any, Literal

import msgspec

from cwgym.protocol.plain import NotPlainData, check_json

SCHEMA_VERSION = 1

#: Service kinds a definition may place. Each becomes an HTTP handler in ``cwgym.services``.
SERVICE_KINDS = (
    "assistant",
    "bank",
    "calendar",
    "chat",
    "docs",
    "drive",
    "forum",
    "git",
    "issues",
    "mail",
    "media",
    "search",
    "shop",
    "slack",
    "social",
    "static",
    "tasks",
    "wiki",
)


class DefinitionError(ValueError):
    """A world definition that cannot be built; the message starts with the JSON path."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class _Strict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=False):
    pass


class Profile(_Strict):
    """An OS profile: what a family of machines looks like from inside."""

    id: str
    name: str = ""
    family: Literal["linux", "macos", "windows", "ios", "android"] = "linux"
    home: str = "/home/{user}"
    case_sensitive: bool = True
    shell: Literal["posix", "powershell"] = "posix"


class Computer(_Strict):
    """One machine: its profile, address, user and seeded files."""

    id: str
    profile: str
    address: str
    user: str
    node: str | None = None
    initial_files: dict[str, str] = {}
    installed_apps: list[str] = []
    packages: list[str] = []
    presentation: Literal["desktop", "laptop", "phone", "server"] | None = None

    @property
    def node_id(self) -> str:
        """The network node this computer sits on (its own id unless stated)."""
        return self.node or self.id


class Node(_Strict):
    id: str
    address: str
    zone: Literal["local", "internet", "host"] = "local"


class Link(_Strict):
    from_: str = msgspec.field(name="from")
    to: str = msgspec.field(name="to")
    bidirectional: bool = True
    latency_us: int = 0
    loss_per_million: int = 0


class DnsRecord(_Strict):
    name: str
    address: str | None = None
    cname: str | None = None
    ttl_us: int = 60_000_000
    resolver: str | None = None


class Route(_Strict):
    destination: str
    via: str
    node: str | None = None


class Gateway(_Strict):
    allow_local: bool = True
    allow_internet: bool = False
    allow_host: bool = False


class Network(_Strict):
    nodes: list[Node] = []
    links: list[Link] = []
    dns: list[DnsRecord] = []
    routes: list[Route] = []
    implicit_lan: bool = False
    gateway: Gateway = msgspec.field(default_factory=Gateway)


class Service(_Strict):
    id: str
    kind: str
    node: str
    domains: list[str] = []
    port: int = 80
    tls: bool = False
    initial_state: Any = None
    search_entries: list[Any] = []


class WorldDefinition(_Strict):
    """A blueprint: everything a world is built from, before any seed or action."""

    id: str
    schema_version: int = SCHEMA_VERSION
    internet: bool = False
    profiles: list[Profile] = []
    computers: list[Computer] = []
    network: Network = msgspec.field(default_factory=Network)
    services: list[Service] = []
    metadata: dict[str, Any] = {}

    def profile(self, profile_id: str) -> Profile:
        """The profile with this id (the definition was checked, so it exists)."""
        for profile in self.profiles:
            if profile.id == profile_id:
                return profile
        raise KeyError(profile_id)

    def computer(self, computer_id: str) -> Computer | None:
        for computer in self.computers:
            if computer.id == computer_id:
                return computer
        return None

    def to_plain(self) -> dict:
        """The normalised definition as plain JSON-ready data, defaults filled in."""
        return msgspec.to_builtins(self)


_HOSTNAME = re.compile(r"^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$", re.I)
_MSGSPEC_PATH = re.compile(r" - at `(\$[^`]*)`$")

#: Limits on a definition's JSON; past them it is refused with the path named.
MAX_DEFINITION_DEPTH = 64
MAX_NAME_CHARS = 4096  # an object key or a path (PATH_MAX)
MAX_TEXT_CHARS = 16 * 1024 * 1024  # one string value (a seeded file's content)
#: Files the machine build writes itself; an ``initial_files`` entry may not replace them.
SYSTEM_FILES = ("/etc/passwd", "/etc/group", "/etc/hostname", "/etc/os-release")
#: Folders whose contents the machine build owns.
SYSTEM_FOLDERS = ("/dev",)


def check_plain(value: Any) -> None:
    """Refuse what JSON cannot hold or the limits forbid (see
    :func:`cwgym.protocol.plain.check_json`), as a ``DefinitionError`` naming the path."""
    try:
        check_json(value, max_depth=MAX_DEFINITION_DEPTH, max_key=MAX_NAME_CHARS, max_text=MAX_TEXT_CHARS)
    except NotPlainData as exc:
        raise DefinitionError(exc.path, exc.problem) from None


def file_bytes(content: str, where: str = "content") -> bytes:
    """The bytes a file's content stands for: UTF-8 text, or a base64 data URL.

    A value that starts with ``data:`` and holds ``;base64,`` (``data:image/png;base64,iVBOR...``)
    is decoded, so a world can ship a picture, a sound or a database; any other text is
    the file's UTF-8 bytes. A malformed data URL raises :class:`DefinitionError` naming
    ``where``.
    """
    if not content.startswith("data:") or ";base64," not in content:
        return content.encode()
    payload = content.split(";base64,", 1)[1]
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise DefinitionError(where, "is a data URL whose base64 payload does not decode") from None


def normalize_file_path(name: str, path: str) -> str:
    """An ``initial_files`` key made canonical: a relative key stays relative to the home
    folder and may not leave it; an absolute key may not leave ``/`` or name a file or
    folder the machine build owns. Raises ``DefinitionError`` at ``path``."""
    if not name or "\x00" in name or name.endswith("/") or len(name) > MAX_NAME_CHARS:
        raise DefinitionError(path, f"malformed file path {name!r}")
    absolute = name.startswith("/")
    parts: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                where = "the computer's root" if absolute else "the home folder"
                raise DefinitionError(path, f"file path {name!r} leaves {where}")
            parts.pop()
            continue
        if len(part.encode()) > 255:
            raise DefinitionError(path, f"a name in file path {name!r} is longer than 255 bytes")
        parts.append(part)
    if not parts:
        raise DefinitionError(path, f"file path {name!r} names a folder, not a file")
    normal = ("/" if absolute else "") + "/".join(parts)
    if absolute and (normal in SYSTEM_FILES or any(normal == f or normal.startswith(f + "/") for f in SYSTEM_FOLDERS)):
        raise DefinitionError(path, f"file path {name!r} would replace the system file {normal}")
    return normal


def load_definition(source: Any) -> WorldDefinition:
    """Decode and check a world definition from a dict, a JSON string or JSON bytes.

    Raises:
        DefinitionError: with the JSON path of the first problem found.
    """
    if isinstance(source, WorldDefinition):
        check_definition(source)
        return source
    if isinstance(source, (str, bytes, bytearray)):
        try:
            source = msgspec.json.decode(source)
        except msgspec.DecodeError as exc:
            raise DefinitionError("$", f"not valid JSON ({exc})") from None
    if not isinstance(source, dict):
        raise DefinitionError("$", f"expected a JSON object, got {type(source).__name__}")
    check_plain(source)
    version = source.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise DefinitionError(
            "$.schema_version",
            f"unsupported schema_version {version!r}; this engine reads version {SCHEMA_VERSION}",
        )
    try:
        definition = msgspec.convert(source, WorldDefinition)
    except msgspec.ValidationError as exc:
        text = str(exc)
        match = _MSGSPEC_PATH.search(text)
        path = match.group(1) if match else "$"
        problem = _MSGSPEC_PATH.sub("", text)
        raise DefinitionError(path, problem) from None
    check_definition(definition)
    return definition


def _address(path: str, text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        raise DefinitionError(path, f"malformed address {text!r}") from None


def _unique(items: list, what: str, path: str) -> dict[str, int]:
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if not item.id or not item.id.strip():
            raise DefinitionError(f"{path}[{index}].id", f"{what} id must not be blank")
        if item.id in seen:
            raise DefinitionError(
                f"{path}[{index}].id",
                f"duplicate {what} id {item.id!r} (first at {path}[{seen[item.id]}])",
            )
        seen[item.id] = index
    return seen


def check_definition(d: WorldDefinition) -> None:
    """Check references, identities, addresses and listeners; raise on the first problem."""
    if not d.id or not d.id.strip():
        raise DefinitionError("$.id", "world id must not be blank")
    if d.internet and not d.network.gateway.allow_internet:
        raise DefinitionError(
            "$.internet", "joining the public web needs network.gateway.allow_internet: true (it would be unreachable)"
        )
    profiles = _unique(d.profiles, "profile", "$.profiles")
    for i, profile in enumerate(d.profiles):
        if "{user}" not in profile.home and not profile.home.startswith("/"):
            raise DefinitionError(f"$.profiles[{i}].home", "home must be an absolute path template")
    _unique(d.computers, "computer", "$.computers")
    nodes = _unique(d.network.nodes, "network node", "$.network.nodes")
    addresses: dict[Any, str] = {}
    for i, node in enumerate(d.network.nodes):
        address = _address(f"$.network.nodes[{i}].address", node.address)
        if address in addresses:
            raise DefinitionError(
                f"$.network.nodes[{i}].address",
                f"address {node.address} already belongs to node {addresses[address]!r}",
            )
        addresses[address] = node.id
    computer_nodes: dict[str, str] = {}
    for i, computer in enumerate(d.computers):
        path = f"$.computers[{i}]"
        if computer.profile not in profiles:
            raise DefinitionError(f"{path}.profile", f"unknown profile {computer.profile!r}")
        if not computer.user or not re.fullmatch(r"[a-z_][a-z0-9_.-]*", computer.user):
            raise DefinitionError(f"{path}.user", f"malformed user name {computer.user!r}")
        address = _address(f"{path}.address", computer.address)
        node_id = computer.node_id
        if node_id in computer_nodes:
            raise DefinitionError(
                f"{path}.node", f"node {node_id!r} already hosts computer {computer_nodes[node_id]!r}"
            )
        computer_nodes[node_id] = computer.id
        if node_id in nodes:
            node = d.network.nodes[nodes[node_id]]
            if _address(f"{path}.address", node.address) != address:
                raise DefinitionError(
                    f"{path}.address",
                    f"computer address {computer.address} differs from its node's {node.address}",
                )
        elif address in addresses:
            raise DefinitionError(
                f"{path}.address", f"address {computer.address} already belongs to node {addresses[address]!r}"
            )
        else:
            addresses[address] = node_id
        normal: dict[str, str] = {}
        for name, content in computer.initial_files.items():
            where = f"{path}.initial_files[{name!r}]"
            key = normalize_file_path(name, where)
            file_bytes(content, where)
            if key in normal:
                raise DefinitionError(where, f"names the same file as {normal[key]!r}")
            normal[key] = name
        files = sorted(normal)
        for before, after in itertools.pairwise(files):
            if after.startswith(before + "/"):
                raise DefinitionError(f"{path}.initial_files[{normal[after]!r}]", f"is inside {normal[before]!r}, which is a file")
        if list(normal) != list(computer.initial_files):
            computer.initial_files = {key: computer.initial_files[name] for key, name in normal.items()}
    known_nodes = set(nodes) | set(computer_nodes)
    for i, link in enumerate(d.network.links):
        path = f"$.network.links[{i}]"
        for field, value in (("from", link.from_), ("to", link.to)):
            if value not in known_nodes:
                raise DefinitionError(f"{path}.{field}", f"unknown node {value!r}")
        if link.latency_us < 0:
            raise DefinitionError(f"{path}.latency_us", "latency must not be negative")
        if not 0 <= link.loss_per_million <= 1_000_000:
            raise DefinitionError(f"{path}.loss_per_million", "loss must be within 0..1000000")
    for i, record in enumerate(d.network.dns):
        path = f"$.network.dns[{i}]"
        if not _HOSTNAME.match(record.name):
            raise DefinitionError(f"{path}.name", f"malformed DNS name {record.name!r}")
        if (record.address is None) == (record.cname is None):
            raise DefinitionError(path, "a DNS record needs exactly one of address or cname")
        if record.address is not None:
            _address(f"{path}.address", record.address)
        if record.cname is not None and not _HOSTNAME.match(record.cname):
            raise DefinitionError(f"{path}.cname", f"malformed DNS name {record.cname!r}")
        if record.ttl_us < 0:
            raise DefinitionError(f"{path}.ttl_us", "ttl must not be negative")
        if record.resolver is not None and record.resolver not in known_nodes:
            raise DefinitionError(f"{path}.resolver", f"unknown node {record.resolver!r}")
    for i, route in enumerate(d.network.routes):
        path = f"$.network.routes[{i}]"
        if route.via not in known_nodes:
            raise DefinitionError(f"{path}.via", f"unknown node {route.via!r}")
        if route.node is not None and route.node not in known_nodes:
            raise DefinitionError(f"{path}.node", f"unknown node {route.node!r}")
    _unique(d.services, "service", "$.services")
    listeners: dict[tuple[str, int], str] = {}
    for i, service in enumerate(d.services):
        path = f"$.services[{i}]"
        if service.kind not in SERVICE_KINDS:
            raise DefinitionError(f"{path}.kind", f"unknown service kind {service.kind!r}")
        if service.node not in known_nodes:
            raise DefinitionError(f"{path}.node", f"unknown node {service.node!r}")
        if not 1 <= service.port <= 65535:
            raise DefinitionError(f"{path}.port", f"port {service.port} is out of range")
        ports = [service.port] + ([443] if service.tls else [])
        for port in ports:
            key = (service.node, port)
            if key in listeners:
                raise DefinitionError(
                    f"{path}.port",
                    f"port {port} on node {service.node!r} is already taken by service {listeners[key]!r}",
                )
            listeners[key] = service.id
        for j, domain in enumerate(service.domains):
            if not _HOSTNAME.match(domain):
                raise DefinitionError(f"{path}.domains[{j}]", f"malformed domain {domain!r}")
        for j, entry in enumerate(service.search_entries):
            _search_entry(f"{path}.search_entries[{j}]", entry, bool(service.domains))


#: The fields of a ``search_entries`` item and their types.
SEARCH_ENTRY_FIELDS = {"title": str, "url": str, "snippet": str, "keywords": list}


def _search_entry(path: str, entry: Any, has_domain: bool) -> None:
    """A page a service offers search engines: ``{title, url, snippet?, keywords?}``; ``url``
    is absolute (``http://...``) or a path on the service's first domain."""
    if not isinstance(entry, dict):
        raise DefinitionError(path, f"a search entry is an object {{title, url, snippet?, keywords?}}, got {type(entry).__name__}")
    for name, value in entry.items():
        if name not in SEARCH_ENTRY_FIELDS:
            raise DefinitionError(f"{path}.{name}", f"unknown field (known: {', '.join(sorted(SEARCH_ENTRY_FIELDS))})")
        if not isinstance(value, SEARCH_ENTRY_FIELDS[name]):
            raise DefinitionError(f"{path}.{name}", f"expected {SEARCH_ENTRY_FIELDS[name].__name__}")
    for name in ("title", "url"):
        if name not in entry:
            raise DefinitionError(f"{path}.{name}", "required")
    if not all(isinstance(k, str) for k in entry.get("keywords", [])):
        raise DefinitionError(f"{path}.keywords", "a list of strings")
    url = entry["url"]
    if url.startswith("/"):
        if not has_domain:
            raise DefinitionError(f"{path}.url", "a path needs the service to have a domain; give an absolute http:// URL")
    elif not url.startswith(("http://", "https://")):
        raise DefinitionError(f"{path}.url", f"an absolute http(s):// URL or a path starting with /, got {url!r}")
