"""begin_external / complete_external: real traffic only with the gateway's allowance, an
explicit address set and an adapter the owner supplies; the answer is checked on the way
back (timeline, deadline, size), and a world with an effect outstanding is no checkpoint.
The adapter here answers from a table: nothing in the test suite opens a socket."""

from __future__ import annotations

import pytest
from test_network import office

from cwgym import World
from cwgym.environment.external import ExternalError, ExternalRequest, ExternalResponse
from cwgym.environment.replay import replay
from cwgym.protocol.errors import TrajectoryError

ADDRESS = "93.184.216.34"


class TableAdapter:
    """An adapter answering from ``pages`` by URL; it records what it was asked."""

    def __init__(self, pages: dict[str, ExternalResponse]) -> None:
        self.pages = pages
        self.asked: list[ExternalRequest] = []

    def perform(self, request: ExternalRequest) -> ExternalResponse:
        self.asked.append(request)
        return self.pages[request.url]


def open_office() -> dict:
    d = office()
    d["network"]["gateway"]["allow_internet"] = True
    return d


def begin(world: World, url: str = "http://example.com/", **options):
    return world.begin_external("reception", "GET", url, addresses=options.pop("addresses", [ADDRESS]), **options)


def test_an_answer_comes_back_through_the_adapter_and_costs_its_logical_time():
    world = World(open_office())
    adapter = TableAdapter({"http://example.com/": ExternalResponse(200, (("Content-Type", "text/html"),), b"<h1>Example</h1>", 45_000)})
    request = begin(world)
    assert request.addresses == (ADDRESS,) and request.method == "GET"
    t0 = world.runtime.clock.now_us
    response = world.run_external(request, adapter)
    assert (response.status, response.body) == (200, b"<h1>Example</h1>")
    assert world.runtime.clock.now_us - t0 == 45_000
    kinds = [e["kind"] for e in world.trajectory()]
    assert kinds[-2:] == ["network.external_begin", "network.external_complete"]
    world.snapshot()  # resolved: checkpoints are allowed again


def test_egress_needs_the_gateways_allowance():
    with pytest.raises(ExternalError, match="egress_denied"):
        begin(World(office()))


@pytest.mark.parametrize("options, problem", [
    ({"addresses": []}, "non-empty"),
    ({"addresses": "93.184.216.34"}, "non-empty"),
    ({"addresses": ["not-an-ip"]}, "not an IP address"),
    ({"addresses": ["10.20.1.5"]}, "not a public address"),
    ({"timeout_us": 0}, "timeout_us"),
    ({"max_response_bytes": True}, "max_response_bytes"),
])
def test_malformed_authorisations_are_refused_and_nothing_is_pending(options, problem):
    world = World(open_office())
    with pytest.raises(ExternalError, match=problem):
        begin(world, **options)
    world.snapshot()


def test_the_request_may_not_override_host_nor_name_an_address_outside_the_set():
    world = World(open_office())
    with pytest.raises(ExternalError, match="Host header"):
        world.begin_external("reception", "GET", "http://example.com/", {"Host": "evil.example"}, addresses=[ADDRESS])
    with pytest.raises(ExternalError, match="not among the authorised"):
        begin(world, "http://1.1.1.1/")
    with pytest.raises(ExternalError, match="method"):
        world.begin_external("reception", "FETCH", "http://example.com/", addresses=[ADDRESS])
    with pytest.raises(ExternalError, match="no machine"):
        world.begin_external("nobody", "GET", "http://example.com/", addresses=[ADDRESS])


def test_an_unresolved_effect_refuses_every_checkpoint_until_completed_or_cancelled():
    world = World(open_office())
    request = begin(world)
    for checkpoint in (world.snapshot, world.fork, world.export_snapshot):
        with pytest.raises(ValueError, match="unresolved external effects"):
            checkpoint()
    world.cancel_external(request)
    world.snapshot()
    with pytest.raises(ExternalError, match="not_found"):
        world.complete_external(request, ExternalResponse(200))


def test_a_restore_makes_an_outstanding_request_stale():
    world = World(open_office())
    snap = world.snapshot()
    request = begin(world)
    world.restore(snap)
    with pytest.raises(ExternalError, match="stale"):
        world.complete_external(request, ExternalResponse(200))
    world.snapshot()


def test_the_deadline_and_the_size_limit_are_checked_and_resolve_the_effect():
    world = World(open_office())
    late = begin(world, timeout_us=1_000)
    with pytest.raises(ExternalError, match="deadline_exceeded"):
        world.complete_external(late, ExternalResponse(200, elapsed_us=1_001))
    big = begin(world, max_response_bytes=4)
    with pytest.raises(ExternalError, match="too_large"):
        world.complete_external(big, {"status": 200, "body": b"12345"})
    world.snapshot()
    odd = begin(world)
    with pytest.raises(ExternalError, match="invalid"):
        world.complete_external(odd, {"status": 99})
    world.complete_external(odd, ExternalResponse(204))  # a malformed answer leaves it pending


def test_a_redirect_is_returned_not_followed():
    world = World(open_office())
    adapter = TableAdapter({"http://example.com/": ExternalResponse(301, (("Location", "http://www.example.com/"),))})
    response = world.run_external(begin(world), adapter)
    assert response.status == 301 and len(adapter.asked) == 1


def test_an_adapter_that_fails_leaves_nothing_pending():
    world = World(open_office())
    with pytest.raises(KeyError):
        world.run_external(begin(world, "http://example.com/missing"), TableAdapter({}))
    world.snapshot()


def test_a_run_with_real_answers_does_not_replay():
    d = open_office()
    world = World(d)
    world.run_external(begin(world), TableAdapter({"http://example.com/": ExternalResponse(200)}))
    with pytest.raises(TrajectoryError, match="real internet"):
        replay(d, 0, world.trajectory())
