"""The synthetic network: paths and latency, source-aware DNS with its cache in the state,
the gateway, listeners and the static kind, http.v1, and curl with its exit codes."""

from __future__ import annotations

import copy

import pytest

from cwgym import World
from cwgym.net.dns import Zone
from cwgym.net.graph import LAN_LATENCY_US, Graph
from cwgym.net.http import NetError, Request, parse_url
from cwgym.protocol.definition import DefinitionError, DnsRecord, Gateway, Link, Node, Route
from cwgym.resources import load_world


def office(**services) -> dict:
    """The small office, with a static intranet on the file server (port 8080)."""
    d = copy.deepcopy(load_world("small-office"))
    files = {"/": "<h1>Intranet</h1>\n", "/old": {"status": 301, "location": "/", "body": ""},
             "/notes.txt": "plain\n"}
    d["services"].append({"id": "intranet", "kind": "static", "node": "fileserver", "port": 8080,
                          "domains": ["intranet.office.internal"], "initial_state": {"files": files}, **services})
    d["network"]["dns"].append({"name": "intranet.office.internal", "address": "10.20.1.5", "ttl_us": 5_000_000,
                                "resolver": "fileserver"})
    d["network"]["dns"].append({"name": "docs.office.internal", "cname": "intranet.office.internal", "ttl_us": 2_000_000})
    return d


def shell(world: World, machine: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def run(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def get(url: str, method: str = "GET", **payload) -> dict:
        out = env.step([{"family": "http.v1", "op": "request", "machine": machine,
                         "payload": {"method": method, "url": url, **payload}}])
        return out["outcomes"][0]

    return run, get


# -- paths ----------------------------------------------------------------------------------

NODES = [Node(id=n, address=f"10.0.0.{i}") for i, n in enumerate("abcd", 1)]


def test_the_cheapest_path_wins_and_ties_break_by_hops_then_ids():
    links = [Link(from_="a", to="b", latency_us=5), Link(from_="b", to="d", latency_us=5),
             Link(from_="a", to="c", latency_us=3), Link(from_="c", to="d", latency_us=7),
             Link(from_="a", to="d", latency_us=11)]
    graph = Graph(NODES, links)
    assert [h.target for h in graph.path("a", "d")] == ["b", "d"]  # 10 < 11, and b < c at 10
    assert graph.path("a", "a") == []


def test_one_way_links_routes_and_the_implicit_lan():
    graph = Graph(NODES, [Link(from_="a", to="b", bidirectional=False, latency_us=4)])
    assert [h.target for h in graph.path("a", "b")] == ["b"]
    with pytest.raises(NetError, match="unreachable"):
        graph.path("b", "a")
    lan = Graph(NODES, [], implicit_lan=True)
    assert [h.latency_us for h in lan.path("c", "d")] == [LAN_LATENCY_US]
    routed = Graph(NODES, [], [Route(destination="d", via="b")], implicit_lan=True)
    assert [h.target for h in routed.path("a", "d")] == ["b", "d"]


def test_the_gateway_decides_by_the_destinations_zone():
    nodes = [*NODES[:2], Node(id="web", address="93.184.216.34", zone="internet")]
    links = [Link(from_="a", to="web"), Link(from_="a", to="b")]
    closed = Graph(nodes, links)
    with pytest.raises(NetError, match="egress_denied"):
        closed.path("a", "web")
    assert Graph(nodes, links, gateway=Gateway(allow_internet=True)).path("a", "web")
    with pytest.raises(NetError, match="egress_denied"):
        Graph(nodes, links, gateway=Gateway(allow_local=False)).path("a", "b")


# -- DNS ------------------------------------------------------------------------------------

def test_names_resolve_through_cname_chains_and_expire_on_the_clock():
    zone = Zone([DnsRecord(name="a.test", cname="b.test", ttl_us=10), DnsRecord(name="b.test", address="10.0.0.2", ttl_us=50)])
    cache: dict = {}
    assert zone.resolve("A.test.", "x", 0, cache, lambda n: 0) == ("10.0.0.2", 0, False)
    assert cache == {"a.test": ("10.0.0.2", 10)}  # the chain's shortest ttl
    assert zone.resolve("a.test", "x", 9, cache, lambda n: 0)[2] is True
    assert zone.resolve("a.test", "x", 10, cache, lambda n: 0)[2] is False
    loop = Zone([DnsRecord(name="p.test", cname="q.test"), DnsRecord(name="q.test", cname="p.test")])
    with pytest.raises(NetError, match="CNAME chain"):
        loop.resolve("p.test", "x", 0, {}, lambda n: 0)


def test_a_record_with_a_resolver_answers_only_who_can_reach_it():
    zone = Zone([DnsRecord(name="wiki.internal", address="10.0.0.5", resolver="ns")])
    assert zone.resolve("wiki.internal", "x", 0, {}, lambda n: 40) == ("10.0.0.5", 40, False)
    with pytest.raises(NetError, match="unresolved"):
        zone.resolve("wiki.internal", "x", 0, {}, lambda n: None)


# -- the world ------------------------------------------------------------------------------

def test_two_computers_talk_through_dns_and_http_and_the_clock_pays_the_path():
    world = World(office(), seed=1)
    _, get = shell(world)
    before = world.runtime.clock.now_us
    outcome = get("http://docs.office.internal:8080/notes.txt")
    assert outcome["success"] and outcome["value"]["status"] == 200 and bytes(outcome["value"]["body"]) == b"plain\n"
    # DNS round trip to the file server (2 x 120), then there and back (2 x 120)
    assert world.runtime.clock.now_us - before == 480
    before = world.runtime.clock.now_us
    get("http://docs.office.internal:8080/notes.txt")
    assert world.runtime.clock.now_us - before == 240  # the answer is cached now
    kinds = [e.kind for e in world.runtime.journal.entries() if e.kind.startswith("network.")]
    assert kinds[-3:] == ["network.dns", "network.http_request", "network.http_response"]


def test_the_dns_cache_is_state_forks_own_theirs_and_snapshots_carry_it():
    world = World(office(), seed=1)
    _, get = shell(world)
    empty = world.state_hash()
    fork = world.fork()
    get("http://intranet.office.internal:8080/")
    assert world.state_hash() != empty
    assert fork.state_hash() == empty and world.runtime.network.caches and not fork.runtime.network.caches
    copy_ = World(office(), seed=1)
    copy_.import_snapshot(world.export_snapshot())
    assert copy_.state_hash() == world.state_hash()
    assert copy_.runtime.network.caches == world.runtime.network.caches


def test_http_v1_failures_are_action_failed_and_bad_payloads_invalid():
    world = World(office(), seed=1)
    _, get = shell(world)
    for url in ("http://nowhere.internal/", "http://10.20.1.5:9/", "gopher://x/", "not a url"):
        assert get(url)["error"]["code"] == "action_failed", url
    assert get("http://10.20.1.5:8080/", method="BREW")["error"]["code"] == "action_failed"
    assert get("http://10.20.1.5:8080/", body=[256])["error"]["code"] == "invalid"
    assert get("http://10.20.1.5:8080/", headers={"X": 1})["error"]["code"] == "invalid"
    head = get("http://10.20.1.5:8080/", method="HEAD")["value"]
    assert head["status"] == 200 and head["body"] == [] and ["Content-Type", "text/html; charset=utf-8"] in head["headers"]
    assert get("http://10.20.1.5:8080/", method="POST")["value"]["status"] == 405


def test_a_service_whose_kind_no_module_serves_says_so():
    from cwgym.net.services import SERVICE_KINDS

    wiki = SERVICE_KINDS.unregister("wiki") if "wiki" in SERVICE_KINDS else None  # as if its module were missing
    try:
        world = World(office(), seed=1)
        _, get = shell(world)
        answer = get("http://wiki.office.internal/")["value"]
    finally:
        if wiki is not None:
            SERVICE_KINDS.register("wiki", wiki)
    assert answer["status"] == 501 and b"'wiki'" in bytes(answer["body"])


def test_loss_draws_from_the_links_own_stream():
    d = office()
    d["network"]["links"][0]["loss_per_million"] = 500_000
    outcomes = []
    for _ in range(2):
        world = World(copy.deepcopy(d), seed=3)
        _, get = shell(world)
        outcomes.append([get("http://10.20.1.5:8080/")["success"] for _ in range(12)])
        streams = world.runtime.kernel.rng.states
    assert outcomes[0] == outcomes[1] and True in outcomes[0] and False in outcomes[0]
    assert [name for name in streams if name.startswith("net.loss")] == ["net.loss:reception>fileserver"]


def test_a_static_service_refuses_a_malformed_initial_state_naming_it():
    d = office()
    d["services"][-1]["initial_state"] = {"files": {"no-slash": "x"}}
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\.files\['no-slash'\]"):
        World(d, seed=1)


def test_internet_true_needs_the_gateway_to_allow_the_internet():
    d = office()
    d["internet"] = True
    with pytest.raises(DefinitionError, match=r"\$\.internet: joining the public web needs network.gateway.allow_internet"):
        World(d, seed=1)


def test_a_request_replays_to_the_same_state_hash():
    hashes = []
    for _ in range(2):
        world = World(office(), seed=5)
        run, _ = shell(world)
        run("curl -s http://docs.office.internal:8080/ > page.html")
        hashes.append(world.state_hash())
    assert hashes[0] == hashes[1]
    assert parse_url("http://Docs.Office.Internal:8080/a?b=1") == parse_url("http://docs.office.internal:8080/a?b=1")
    assert str(Request("GET", parse_url("http://x.test")).url) == "http://x.test/"


# -- curl -----------------------------------------------------------------------------------

CURL = [
    ("curl -s http://10.20.1.5:8080/", 0, "<h1>Intranet</h1>\n", ""),
    ("curl -s http://intranet.office.internal:8080/notes.txt", 0, "plain\n", ""),
    ("curl -si http://10.20.1.5:8080/old", 0,
     "HTTP/1.1 301 Moved Permanently\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 0\r\nLocation: /\r\n\r\n", ""),
    ("curl -sL -w '%{http_code}\\n' http://10.20.1.5:8080/old", 0, "<h1>Intranet</h1>\n200\n", ""),
    ("curl -sL --max-redirs 0 http://10.20.1.5:8080/old", 47, "", ""),
    ("curl http://nope.internal/", 6, "", "curl: (6) Could not resolve host: nope.internal\n"),
    ("curl -sS http://10.20.1.5:9/", 7, "", "curl: (7) Failed to connect to 10.20.1.5 port 9 after 0 ms: Connection refused\n"),
    ("curl -s http://10.20.1.5:9/", 7, "", ""),
    ("curl -sf http://10.20.1.5:8080/missing", 22, "", ""),
    ("curl -sS -f http://10.20.1.5:8080/missing", 22, "", "curl: (22) The requested URL returned error: 404\n"),
    ("curl -s http://10.20.1.5:8080/missing", 0, "404 Not Found: /missing\n", ""),
    ("curl -sI http://10.20.1.5:8080/", 0, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 18\r\n\r\n", ""),
    ("curl -s -o page.html http://10.20.1.5:8080/ && cat page.html", 0, "<h1>Intranet</h1>\n", ""),
    ("curl -s -O http://10.20.1.5:8080/notes.txt && cat notes.txt", 0, "plain\n", ""),
    ("curl -s -X DELETE -w '%{http_code}' http://10.20.1.5:8080/", 0, "405 Method Not Allowed\n405", ""),
    ("curl -s -d a=1 -w ' %{http_code}' http://10.20.1.5:8080/", 0, "405 Method Not Allowed\n 405", ""),
    ("curl ftp://x/", 1, "", 'curl: (1) Protocol "ftp" not supported\n'),
    ("curl", 2, "", "curl: (2) no URL specified\ncurl: try 'curl --help' or 'curl --manual' for more information\n"),
    ("curl -s -m 0.0001 http://10.20.1.5:8080/", 28, "", ""),
]


@pytest.mark.parametrize(("command", "status", "stdout", "stderr"), CURL, ids=[c[0][:40] for c in CURL])
def test_curl(command, status, stdout, stderr):
    run, _ = shell(World(office(), seed=1))
    result = run(command)
    assert (result["exit_code"], result["stdout"], result["stderr"]) == (status, stdout, stderr)


def test_a_machine_outside_a_world_has_no_network():
    from cwgym.machine.machine import Machine
    from cwgym.protocol.definition import load_definition

    d = load_definition(office())
    machine = Machine(d.computers[0], d.profile(d.computers[0].profile), World(office()).runtime.clock)
    result = machine.execute("curl -sS http://10.20.1.5:8080/")
    assert result.exit_code == 7 and "Network is unreachable" in result.stderr


def test_a_service_domain_without_a_record_resolves_to_its_node():
    d = office()
    d["services"][-1]["domains"] = ["files.office.internal"]
    run, _ = shell(World(d, seed=1))
    assert run("curl -s http://files.office.internal:8080/notes.txt")["stdout"] == "plain\n"
