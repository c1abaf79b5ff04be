"""A graph answers a path it found before without searching again: the same hops each time
in a list of the caller's own, and the same ``unreachable`` for a pair no link joins."""

from __future__ import annotations

import pytest

from cwgym.net.graph import Graph
from cwgym.net.http import NetError
from cwgym.protocol.definition import Link, Node

NODES = [Node(id=n, address=f"10.0.0.{i}", zone="local") for i, n in enumerate("abcd", 1)]
LINKS = [Link(from_="a", to="b", latency_us=5), Link(from_="b", to="c", latency_us=5),
         Link(from_="d", to="a", bidirectional=False, latency_us=1)]


def test_a_path_asked_again_is_the_same_hops_in_a_fresh_list():
    graph = Graph(NODES, LINKS)
    first = graph.path("a", "c")
    assert [h.target for h in first] == ["b", "c"]
    first.clear()
    again = graph.cheapest("a", "c")
    assert [h.target for h in again] == ["b", "c"] and again is not first
    assert graph.cheapest("c", "a") == Graph(NODES, LINKS).cheapest("c", "a")  # as a fresh graph finds it


def test_an_unreachable_pair_raises_every_time():
    graph = Graph(NODES, LINKS)
    for _ in range(2):
        with pytest.raises(NetError, match="unreachable") as caught:
            graph.path("a", "d")  # the only link is d -> a
        assert caught.value.code == "unreachable" and "a to d" in caught.value.detail
