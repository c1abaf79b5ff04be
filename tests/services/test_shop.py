"""The shop kind end to end: catalogue, search and sorting, product pages, the cart against the
stock, checkout, orders placed / delivered (48 logical hours later) / cancelled / returned,
privacy between users and machines, and state that snapshots, forks and replays."""

from __future__ import annotations

import base64
import copy
import json

import pytest
from service_client import SiteClient

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.shop import DELIVERY_US, Shop, money

HOST = "http://shop.office.internal:8080"
STATE = {
    "users": [{"name": "ann", "password": "pw", "display": "Ann Lee"}, {"name": "bob", "password": "pw"}],
    "products": [
        {"sku": "mug-1", "name": "Blue mug", "price_cents": 1250, "category": "Kitchen", "stock": 3,
         "description": "A stoneware mug for coffee", "options": {"colour": ["blue", "red"]},
         "reviews": [{"user": "cara", "rating": 4, "text": "Nice"}]},
        {"sku": "tee-1", "name": "Cotton T-shirt", "price_cents": 900, "category": "Clothing",
         "options": {"size": ["S", "M", "L"]}},
        {"sku": "pot-1", "name": "Coffee pot", "price_cents": 3000, "category": "Kitchen", "featured": True},
    ],
    "addresses": {"ann": "1 Main St, Springfield"},
}


def definition(state=STATE) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "shop", "kind": "shop", "node": "fileserver", "port": 8080,
                          "domains": ["shop.office.internal"], "initial_state": copy.deepcopy(state)})
    d["network"]["dns"].append({"name": "shop.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


class Machine(SiteClient):
    host = HOST


def state_of(world: World) -> dict:
    return world.runtime.network.services["shop"]


def test_an_empty_shop_has_a_home_page_and_an_empty_catalogue():
    world = World(definition({}))
    pc = Machine(world)
    status, html = pc.http("GET", "/")
    assert status == 200 and '<p id="empty">The shop has no products yet.</p>' in html
    assert pc.api("GET", "/api/products") == (200, {"products": []})
    assert state_of(world)["currency"] == "USD" and state_of(world)["products"] == {}


def test_prices_are_cents_shown_in_the_shops_currency():
    assert money(1250, "USD") == "$12.50"
    assert money(123456, "EUR") == "€1,234.56"
    assert money(5, "CHF") == "0.05 CHF"
    world = World(definition({**STATE, "currency": "GBP"}))
    status, html = Machine(world).http("GET", "/p/mug-1")
    assert status == 200 and '<p id="product-price"><strong>£12.50</strong></p>' in html


def test_home_lists_categories_and_featured_products():
    _, html = Machine(World(definition())).http("GET", "/")
    assert '<a id="category-clothing" href="/s?category=Clothing">Clothing</a>' in html
    assert '<a id="category-kitchen" href="/s?category=Kitchen">Kitchen</a>' in html
    assert '<ul id="featured">\n<li><a id="product-pot-1" href="/p/pot-1">Coffee pot — $30.00</a></li>\n</ul>' in html


def test_search_matches_name_description_category_and_sorts():
    pc = Machine(World(definition()))
    skus = lambda q: [p["sku"] for p in pc.api("GET", f"/api/products?{q}")[1]["products"]]  # noqa: E731
    assert skus("k=coffee") == ["pot-1", "mug-1"]  # the name outranks the description
    assert skus("k=kitchen&sort=price-desc") == ["pot-1", "mug-1"]
    assert skus("sort=price-asc") == ["tee-1", "mug-1", "pot-1"]
    assert skus("category=Clothing") == ["tee-1"]
    assert skus("k=nothing+like+this") == []
    status, html = pc.http("GET", "/s?k=mug")
    assert status == 200 and '<h1 id="results-title">1 result for &quot;mug&quot;</h1>' in html
    assert pc.api("GET", "/api/products?sort=cheapest") == (400, {"error": "sort is one of relevance, price-asc, price-desc, got 'cheapest'"})


def test_a_product_page_shows_price_options_stock_and_reviews():
    pc = Machine(World(definition()))
    status, html = pc.http("GET", "/p/mug-1")
    assert status == 200
    assert '<p id="product-stock">In stock (3 left)</p>' in html
    assert '<select id="add-colour" name="colour"><option value="blue" selected>blue</option><option value="red">red</option></select>' in html
    assert '<p id="review-1">★★★★☆ cara: Nice</p>' in html and "Reviews (1, 4.0 of 5)" in html
    assert pc.http("GET", "/p/nope")[0] == 404
    assert pc.api("GET", "/api/products/mug-1")[1]["rating"] == 4.0


def test_a_review_needs_a_rating_and_is_one_per_user():
    world = World(definition())
    pc = Machine(world)
    assert pc.http("POST", "/p/tee-1/reviews", form={"rating": "5"})[0] == 303  # to the sign-in page
    assert pc.http("POST", "/p/tee-1/reviews", "ann", form={"rating": "9", "text": "x"})[0] == 400
    assert pc.http("POST", "/p/tee-1/reviews", "ann", form={"rating": "5", "text": "Soft"})[0] == 303
    assert pc.http("POST", "/p/tee-1/reviews", "ann", form={"rating": "1", "text": "again"})[0] == 409
    assert state_of(world)["products"]["tee-1"]["reviews"] == [{"user": "ann", "rating": 5, "text": "Soft", "date": "2026-09-17"}]


def test_the_cart_needs_sign_in_and_respects_the_stock():
    world = World(definition())
    pc = Machine(world)
    assert "\r\nLocation: /login?next=/cart\r\n" in pc.run(f"curl -s -i {HOST}/cart")["stdout"]
    assert pc.http("POST", "/cart/add", form={"sku": "mug-1"})[0] == 303
    assert state_of(world)["carts"] == {}
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "mug-1", "qty": 2, "colour": "red"})[0] == 201
    before = state_of(world)
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "mug-1", "qty": 2, "colour": "blue"}) == \
        (400, {"error": "only 3 of Blue mug in stock (2 already in your cart)"})
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "mug-1", "qty": 1}) == (400, {"error": "choose a colour: one of blue, red"})
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "mug-1", "qty": 0, "colour": "red"})[0] == 400
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "tee-1", "colour": "red", "size": "M"}) == \
        (400, {"error": "Cotton T-shirt has no colour to choose"})
    assert pc.api("POST", "/api/cart", "ann", js={"sku": "nope"})[0] == 404
    assert state_of(world) is before  # a refusal changes nothing
    pc.http("POST", "/cart/add", "ann", form={"sku": "mug-1", "qty": "1", "colour": "red"})  # merges with the red line
    cart = pc.api("GET", "/api/cart", "ann")[1]
    assert [(x["id"], x["sku"], x["qty"], x["options"]) for x in cart["lines"]] == [(1, "mug-1", 3, {"colour": "red"})]
    assert (cart["total_cents"], cart["total"]) == (3750, "$37.50")


def test_cart_lines_update_and_remove():
    world = World(definition())
    pc = Machine(world)
    pc.http("POST", "/cart/add", "ann", form={"sku": "tee-1", "size": "M", "qty": "2"})
    pc.http("POST", "/cart/add", "ann", form={"sku": "pot-1"})
    _, html = pc.http("GET", "/cart", "ann")
    assert '<p id="line-1-subtotal">$18.00</p>' in html and '<p id="cart-total"><strong>Total: $48.00</strong></p>' in html
    assert pc.http("POST", "/cart/1/update", "ann", form={"qty": "4"})[0] == 303
    assert pc.http("POST", "/cart/1/update", "ann", form={"qty": "11"})[0] == 400  # 10 in stock
    assert pc.http("POST", "/cart/1/update", "ann", form={"qty": "lots"})[0] == 400
    assert pc.http("POST", "/cart/2/remove", "ann")[0] == 303
    assert pc.http("POST", "/cart/9/remove", "ann")[0] == 404
    assert pc.http("POST", "/cart/1/remove", "bob")[0] == 404  # ann's line is not in bob's cart
    assert [(x["sku"], x["qty"]) for x in pc.api("GET", "/api/cart", "ann")[1]["lines"]] == [("tee-1", 4)]
    assert pc.api("POST", "/api/cart/1", "ann", js={"qty": 0})[1]["lines"] == []


def test_an_order_from_one_machine_is_seen_from_another_only_by_its_own_request_and_by_no_one_else():
    world = World(definition())
    reception, laptop = Machine(world, "reception"), Machine(world, "legal-laptop")
    assert laptop.api("GET", "/api/orders", "ann") == (200, {"orders": []})
    reception.run(f"curl -s -u ann:pw -d 'sku=mug-1&qty=2&colour=blue' {HOST}/cart/add")
    result = reception.run(f"curl -s -i -u ann:pw -d 'address=2 Elm St&payment=invoice' {HOST}/checkout")
    assert result["stdout"].startswith("HTTP/1.1 303 See Other\r\nLocation: /orders/1\r\n")
    status, orders = laptop.api("GET", "/api/orders", "ann")
    assert status == 200 and [(o["id"], o["status"], o["total_cents"], o["payment"], o["address"]) for o in orders["orders"]] == \
        [("1", "placed", 2500, "invoice", "2 Elm St")]
    _, html = laptop.http("GET", "/orders/1", "ann")
    assert '<p id="order-status"><strong>Status: placed</strong></p>' in html and 'id="cancel-order"' in html
    assert laptop.http("GET", "/orders/1", "bob")[0] == 403
    assert laptop.api("POST", "/api/orders/1/cancel", "bob")[0] == 403
    assert laptop.api("GET", "/api/orders", "bob") == (200, {"orders": []})
    assert laptop.http("GET", "/orders/1")[0] == 303  # signed out: to the sign-in page
    assert laptop.http("GET", "/orders/7", "ann")[0] == 404


def test_stock_is_taken_by_an_order_and_given_back_by_a_cancel():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/cart", "ann", js={"sku": "mug-1", "qty": 3, "colour": "red"})
    pc.api("POST", "/api/cart", "bob", js={"sku": "mug-1", "qty": 1, "colour": "blue"})
    status, order = pc.api("POST", "/api/orders", "ann", js={"payment": "card"})
    assert status == 201 and order["address"] == "1 Main St, Springfield"  # the saved address
    assert state_of(world)["products"]["mug-1"]["stock"] == 0
    assert state_of(world)["carts"]["ann"] == []
    assert pc.http("GET", "/p/mug-1")[1].count("Out of stock") == 1
    before = state_of(world)
    assert pc.api("POST", "/api/orders", "bob", js={"address": "9 Oak Rd"}) == \
        (409, {"error": "only 0 of Blue mug left; update your cart"})
    assert state_of(world) is before
    assert pc.api("POST", "/api/orders/1/cancel", "ann")[1]["status"] == "cancelled"
    assert state_of(world)["products"]["mug-1"]["stock"] == 3
    assert pc.api("POST", "/api/orders/1/cancel", "ann") == (409, {"error": "order 1 is cancelled and can no longer be cancelled"})
    assert pc.api("POST", "/api/orders", "bob", js={"address": "9 Oak Rd"})[1]["id"] == "2"
    assert state_of(world)["products"]["mug-1"]["stock"] == 2


def test_checkout_refuses_malformed_input_and_changes_nothing():
    world = World(definition({**STATE, "addresses": {}}))
    pc = Machine(world)
    assert pc.api("POST", "/api/orders", "ann", js={"address": "x"}) == (400, {"error": "your cart is empty"})
    pc.api("POST", "/api/cart", "ann", js={"sku": "pot-1"})
    before = state_of(world)
    assert pc.api("POST", "/api/orders", "ann", js={}) == \
        (400, {"error": "the field 'address' is required: where should we ship the order?"})
    assert pc.api("POST", "/api/orders", "ann", js={"address": "x", "payment": "bitcoin"}) == \
        (400, {"error": "payment is one of card, invoice, got 'bitcoin'"})
    assert pc.http("POST", "/checkout", "ann", form={"address": "x" * 1001})[0] == 400
    assert state_of(world) is before


def test_an_order_is_delivered_48_logical_hours_later_and_can_then_be_returned():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/cart", "ann", js={"sku": "pot-1", "qty": 2})
    pc.api("POST", "/api/orders", "ann", js={"address": "1 Main St"})
    assert pc.api("POST", "/api/orders/1/return", "ann") == (409, {"error": "order 1 is placed: only a delivered order can be returned"})
    pc.run("sleep 172800")  # 48 hours
    _, html = pc.http("GET", "/orders/1", "ann")
    assert '<p id="order-status"><strong>Status: delivered</strong></p>' in html and 'id="return-order"' in html
    assert pc.api("POST", "/api/orders/1/cancel", "ann")[0] == 409
    assert pc.api("POST", "/api/orders/1/return", "ann")[1]["status"] == "return requested"
    assert state_of(world)["products"]["pot-1"]["stock"] == 8  # a return is a request, not yet a restock


def test_delivery_is_derived_from_the_clock_when_read():
    shop = Shop()
    state = shop.initial(copy.deepcopy(STATE), "x")
    auth = ("Authorization", "Basic " + base64.b64encode(b"ann:pw").decode())

    def call(state, method, path, body=b"", now=0):
        request = Request(method, parse_url("http://s" + path), Headers((auth, ("Content-Type", "application/json"))), body)
        response, after = shop.handle(state, request, "reception", now)
        return response.status, json.loads(response.body), after

    _, _, state = call(state, "POST", "/api/cart", b'{"sku": "pot-1"}', now=1000)
    _, order, state = call(state, "POST", "/api/orders", b"{}", now=1000)
    assert (order["status"], order["delivery_us"]) == ("placed", 1000 + DELIVERY_US)
    assert call(state, "GET", "/api/orders/1", now=1000 + DELIVERY_US - 1)[1]["status"] == "placed"
    assert call(state, "GET", "/api/orders/1", now=1000 + DELIVERY_US)[1]["status"] == "delivered"
    assert state["orders"]["1"]["status"] == "placed"  # stored as placed; delivered is read off the clock


@pytest.mark.parametrize(("bad", "where"), [
    ({"currency": "dollars"}, r"currency: a three-letter code"),
    ({"products": [{"sku": "a", "name": "A"}]}, r"products\[0\]\.price_cents: required"),
    ({"products": [{"sku": "a b", "name": "A", "price_cents": 1}]}, r"products\[0\]\.sku"),
    ({"products": [{"sku": "a", "name": "A", "price_cents": -1}]}, r"products\[0\]\.price_cents"),
    ({"products": [{"sku": "a", "name": "A", "price_cents": 1, "options": {"colour": []}}]}, r"products\[0\]\.options\.colour"),
    ({"products": [{"sku": "a", "name": "A", "price_cents": 1, "options": {"flavour": ["x"]}}]}, r"products\[0\]\.options\.flavour: unknown"),
    ({"products": [{"sku": "a", "name": "A", "price_cents": 1}, {"sku": "a", "name": "B", "price_cents": 2}]},
     r"products\[1\]\.sku: 'a' is listed twice"),
    ({"products": [{"sku": "a", "name": "A", "price_cents": 1, "reviews": [{"user": "x", "rating": 6}]}]},
     r"products\[0\]\.reviews\[0\]\.rating"),
    ({"addresses": {"zed": "x"}}, r"addresses\.zed: no such user"),
])
def test_a_malformed_initial_state_names_the_path(bad, where):
    with pytest.raises((DefinitionError, ValueError), match=rf"\$\.services\[\d+\]\.initial_state\.{where}"):
        World(definition({"users": [], **bad}))


def test_a_built_state_passes_its_own_check_unchanged():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/cart", "ann", js={"sku": "tee-1", "size": "L"})
    pc.api("POST", "/api/cart", "bob", js={"sku": "pot-1"})
    pc.api("POST", "/api/orders", "bob", js={"address": "9 Oak Rd"})
    state = copy.deepcopy(state_of(world))
    rest = {k: v for k, v in state.items() if k not in ("users", "sessions", "next_session")}
    assert Shop().validate(rest, "x", state["users"]) == rest


def test_a_snapshot_keeps_the_shop_as_it_was_and_a_fork_goes_its_own_way():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/cart", "ann", js={"sku": "pot-1", "qty": 2})
    snap = world.snapshot()
    pc.api("POST", "/api/orders", "ann", js={"address": "1 Main St"})
    fork = world.fork(snap)
    other = Machine(fork)
    assert other.api("GET", "/api/orders", "ann") == (200, {"orders": []})
    assert other.api("GET", "/api/cart", "ann")[1]["total_cents"] == 6000
    assert fork.runtime.network.services["shop"]["products"]["pot-1"]["stock"] == 10
    other.api("POST", "/api/cart", "ann", js={"sku": "pot-1"})
    assert [o["id"] for o in pc.api("GET", "/api/orders", "ann")[1]["orders"]] == ["1"]
    assert pc.api("GET", "/api/cart", "ann")[1]["lines"] == []
    assert state_of(world)["products"]["pot-1"]["stock"] == 8
    loaded = World(definition())
    loaded.import_snapshot(world.export_snapshot())
    assert loaded.state_hash() == world.state_hash() and loaded.runtime.network.services["shop"] == state_of(world)


def test_replaying_the_same_steps_gives_the_same_state_hash():
    d = definition()
    world = World(d, seed=3)
    pc = Machine(world)
    pc.run(f"curl -s -u ann:pw -d 'sku=mug-1&colour=red&qty=2' {HOST}/cart/add")
    pc.api("POST", "/api/orders", "ann", js={"address": "1 Main St", "payment": "invoice"})
    pc.http("POST", "/login", form={"username": "bob", "password": "pw"})
    again = replay(d, 3, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["shop"]["orders"]["1"]["total_cents"] == 2500
