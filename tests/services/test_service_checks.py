"""Procedures read service state as the owner: ``find`` and ``state`` checks over
``World.inspect()`` ask "is there an order for two blue mugs" without scraping a page."""

from __future__ import annotations

import copy

from cwgym import World
from cwgym.procedures.checks import CHECK_KINDS, CheckResult
from cwgym.resources import load_world


def shop_world() -> World:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "shop", "kind": "shop", "node": "fileserver", "port": 8095, "domains": ["shop.office.internal"],
                          "initial_state": {"users": [{"name": "grace", "password": "pw"}],
                                            "products": [{"sku": "MUG", "name": "Mug", "price_cents": 1250, "stock": 5,
                                                          "options": {"colour": ["blue", "white"]}}]}})
    return World(d)


def judge(world: World, kind: str, spec: dict) -> CheckResult:
    result = CheckResult(index=0, kind=kind, passed=False, subject="")
    CHECK_KINDS[kind].judge(world, world.machine("reception"), spec, result)
    return result


ORDERS = "/state/services/1/state/orders"


def test_a_find_check_sees_an_order_placed_through_the_site():
    world = shop_world()
    env = world.environment({"actor": "grace", "machines": ["reception"], "actions": ["terminal.v1"], "observations": []})

    def sh(command: str) -> None:
        env.step([{"family": "terminal.v1", "op": "execute", "machine": "reception", "payload": {"command": command}}])

    spec = {"pointer": ORDERS, "where": {"/status": "placed"}, "count": 1}
    assert not judge(world, "find", spec).passed
    sh("curl -s -c jar -d username=grace -d password=pw http://shop.office.internal:8095/login -o /dev/null")
    sh("curl -s -b jar -d sku=MUG -d qty=2 -d colour=blue http://shop.office.internal:8095/cart/add -o /dev/null")
    sh("curl -s -b jar -d 'address=1 Office Way' -d payment=card http://shop.office.internal:8095/checkout -o /dev/null")
    result = judge(world, "find", spec)
    assert result.passed, result
    two_blue = {"pointer": ORDERS, "where": {"/status": "placed", "/lines/0/qty": 2, "/lines/0/options/colour": "blue"}}
    assert judge(world, "find", two_blue).passed
    assert not judge(world, "find", {**two_blue, "where": {**two_blue["where"], "/lines/0/qty": 3}}).passed
    stock = judge(world, "state", {"pointer": "/state/services/1/state/products/MUG/stock", "equals": 3})
    assert stock.passed, stock
