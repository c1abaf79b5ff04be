"""``shop``: an online shop — a catalogue, product pages with options and reviews, a cart,
checkout, and orders that are delivered, cancelled or returned.

Routes (HTML; the cart, checkout and orders need a signed-in user, the catalogue does not):

====== =========================== ===============================================================
GET    ``/``                       categories and featured products
GET    ``/s?k=&category=&sort=``   search (``sort``: ``relevance``, ``price-asc``, ``price-desc``)
GET    ``/p/{sku}``                product: price, options, stock, description, reviews
POST   ``/p/{sku}/reviews``        write a review (``rating`` 1–5, ``text``)
POST   ``/cart/add``               ``sku``, ``qty``, ``colour``/``size`` when the product has them
GET    ``/cart``                   the cart with its total
POST   ``/cart/{line}/update``     ``qty`` (0 removes the line)
POST   ``/cart/{line}/remove``     remove a line
GET    ``/checkout``               shipping address and payment method form
POST   ``/checkout``               ``address``, ``payment`` (``card`` or ``invoice``): places the order
GET    ``/orders``                 your orders
GET    ``/orders/{id}``            one order with its status
POST   ``/orders/{id}/cancel``     cancel while ``placed`` (the stock comes back)
POST   ``/orders/{id}/return``     ask for a return once ``delivered``
====== =========================== ===============================================================

JSON API: ``GET /api/products`` (``k``, ``category``, ``sort``), ``GET /api/products/{sku}``,
``GET /api/cart``, ``POST /api/cart`` (``{sku, qty, colour?, size?}``), ``POST
/api/cart/{line}`` (``{qty}``), ``DELETE /api/cart/{line}``, ``GET /api/orders``, ``POST
/api/orders`` (``{address, payment}``), ``GET /api/orders/{id}``, ``POST
/api/orders/{id}/cancel`` and ``/return``.

An order is ``placed``; it is ``delivered`` once the logical clock passes its placing time
plus 48 hours (derived when read, so deterministic). ``cancelled`` and ``return requested``
are stored. Ordering takes the stock, cancelling gives it back. Another user's order is
``403``; a missing one ``404``.

``initial_state``::

    {"users": [...], "currency"?: "USD",
     "products"?: [{"sku", "name", "price_cents", "category"?, "description"?, "stock"?: 10,
                    "options"?: {"colour"?: [...], "size"?: [...]}, "featured"?: false,
                    "reviews"?: [{"user", "rating", "text", "date"?}]}],
     "addresses"?: {user: "address text"}}

The service adds ``carts``, ``orders``, ``next_order`` and ``next_line`` (a world may seed them
in that same shape).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

from cwgym.net.services import SERVICE_KINDS
from cwgym.protocol.page import (
    Button,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Option,
    Select,
    Table,
    Text,
    TextArea,
)
from cwgym.services._search_index import page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

SKU = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
CURRENCY = re.compile(r"^[A-Z]{3}$")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CAD": "CA$", "AUD": "A$"}
OPTIONS = ("colour", "size")
PAYMENTS = {"card": "Card on file", "invoice": "Invoice"}
DELIVERY_US = 48 * 3600 * 1_000_000
STATUSES = ("placed", "cancelled", "return requested")
DEFAULT_STOCK = 10
MAX_QTY = 999
SORTS = {"relevance": "Relevance", "price-asc": "Price: low to high", "price-desc": "Price: high to low"}

PRODUCT_FIELDS = {"sku": str, "name": str, "price_cents": int, "category": str, "description": str,
                  "stock": int, "options": dict, "featured": bool, "reviews": list}
ORDER_FIELDS = {"id": str, "user": str, "lines": list, "total_cents": int, "address": str, "payment": str,
                "placed_us": int, "placed": str, "status": str}
LINE_FIELDS = {"id": int, "sku": str, "qty": int, "options": dict}


def money(cents: int, currency: str) -> str:
    """``$12.50``, ``€1,200.00``; a currency without a symbol: ``12.50 CHF``."""
    whole, frac = divmod(abs(cents), 100)
    sign, amount, symbol = "-" if cents < 0 else "", f"{whole:,}.{frac:02d}", SYMBOLS.get(currency)
    return f"{sign}{symbol}{amount}" if symbol else f"{sign}{amount} {currency}"


def slug(text: str) -> str:
    """A name as part of an element id: ``Home & Garden`` -> ``home-garden``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _positive(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}: a whole number 0 or more, got {value!r}")
    return value


class Shop(WebService):
    name = "shop"
    title = "Shop"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {"currency": str, "products": (list, dict), "addresses": dict, "carts": dict, "orders": dict,
              "next_order": int, "next_line": int}

    # -- state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        currency = state.get("currency", "USD")
        if not CURRENCY.match(currency):
            raise ValueError(f"{where}.currency: a three-letter code like USD, got {currency!r}")
        raw = state.get("products", [])
        entries = [(f"{where}.products[{k!r}]", v) for k, v in raw.items()] if isinstance(raw, dict) else \
            [(f"{where}.products[{i}]", v) for i, v in enumerate(raw)]
        products: dict[str, dict] = {}
        for at, product in entries:
            check_fields(product, at, PRODUCT_FIELDS, ("sku", "name", "price_cents"))
            sku = product["sku"]
            if not SKU.match(sku):
                raise ValueError(f"{at}.sku: letters, digits, '.', '-' and '_' (1 to 64), got {sku!r}")
            if sku in products:
                raise ValueError(f"{at}.sku: {sku!r} is listed twice")
            _positive(product["price_cents"], f"{at}.price_cents")
            options = check_fields(product.get("options", {}), f"{at}.options", dict.fromkeys(OPTIONS, list))
            for key, values in options.items():
                if not values or not all(isinstance(v, str) and v.strip() for v in values) or len(set(values)) != len(values):
                    raise ValueError(f"{at}.options.{key}: a list of distinct non-empty names")
            reviews = []
            for r, review in enumerate(product.get("reviews", [])):
                rat = f"{at}.reviews[{r}]"
                check_fields(review, rat, {"user": str, "rating": int, "text": str, "date": str}, ("user", "rating"))
                if not 1 <= review["rating"] <= 5:
                    raise ValueError(f"{rat}.rating: 1 to 5, got {review['rating']}")
                reviews.append({"user": review["user"], "rating": review["rating"], "text": review.get("text", ""),
                                "date": review.get("date", "")})
            products[sku] = {"sku": sku, "name": product["name"], "price_cents": product["price_cents"],
                             "category": product.get("category", ""), "description": product.get("description", ""),
                             "stock": _positive(product.get("stock", DEFAULT_STOCK), f"{at}.stock"),
                             "options": {k: list(v) for k, v in options.items()},
                             "featured": product.get("featured", False), "reviews": reviews}
        addresses = state.get("addresses", {})
        for user, text in addresses.items():
            if user not in users:
                raise ValueError(f"{where}.addresses.{user}: no such user")
            if not isinstance(text, str):
                raise ValueError(f"{where}.addresses.{user}: an address is text")
        carts = state.get("carts", {})
        top_line = 0
        for user, lines in carts.items():
            if user not in users or not isinstance(lines, list):
                raise ValueError(f"{where}.carts.{user}: a list of lines of an existing user")
            for i, line in enumerate(lines):
                check_fields(line, f"{where}.carts.{user}[{i}]", LINE_FIELDS, tuple(LINE_FIELDS))
                if line["sku"] not in products:
                    raise ValueError(f"{where}.carts.{user}[{i}].sku: no product {line['sku']!r}")
                top_line = max(top_line, line["id"])
        orders = state.get("orders", {})
        for key, order in orders.items():
            at = f"{where}.orders[{key!r}]"
            check_fields(order, at, ORDER_FIELDS, tuple(ORDER_FIELDS))
            if order["id"] != key or not key.isdigit():
                raise ValueError(f"{at}.id: the order's number, as its key")
            if order["user"] not in users:
                raise ValueError(f"{at}.user: no such user {order['user']!r}")
            if order["status"] not in STATUSES:
                raise ValueError(f"{at}.status: one of {', '.join(STATUSES)}")
        top_order = max((int(k) for k in orders), default=0)
        return {"currency": currency, "products": products, "addresses": dict(addresses), "carts": dict(carts),
                "orders": dict(orders), "next_order": max(state.get("next_order", 1), top_order + 1),
                "next_line": max(state.get("next_line", 1), top_line + 1)}

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every product, by SKU, at ``/p/<sku>``: the catalogue needs no account. The
        snippet is its description; its category is a keyword."""
        return [page_entry(p["name"], f"{base}/p/{quote(sku)}", p["description"], [p["category"]])
                for sku, p in sorted(state["products"].items())]

    # -- helpers -----------------------------------------------------------------------
    @staticmethod
    def _money(ctx: Ctx, cents: int) -> str:
        return money(cents, ctx.state["currency"])

    @staticmethod
    def _product(ctx: Ctx, sku: str) -> dict:
        product = ctx.state["products"].get(sku)
        if product is None:
            raise HttpError(404, f"no product {sku!r}")
        return product

    @staticmethod
    def _status(order: dict, now_us: int) -> str:
        if order["status"] == "placed" and now_us >= order["placed_us"] + DELIVERY_US:
            return "delivered"
        return order["status"]

    def _order(self, ctx: Ctx, number: str) -> dict:
        user = ctx.require_user()
        order = ctx.state["orders"].get(number)
        if order is None:
            raise HttpError(404, f"no order {number}")
        if order["user"] != user:
            raise HttpError(403, f"order {number} belongs to another account")
        return order

    def _product_json(self, ctx: Ctx, p: dict) -> dict:
        return {**p, "price": self._money(ctx, p["price_cents"]), "currency": ctx.state["currency"],
                "rating": self._rating(p)}

    @staticmethod
    def _rating(p: dict) -> float | None:
        ratings = [r["rating"] for r in p["reviews"]]
        return round(sum(ratings) / len(ratings), 1) if ratings else None

    def _order_json(self, ctx: Ctx, order: dict) -> dict:
        return {**order, "status": self._status(order, ctx.now_us), "total": self._money(ctx, order["total_cents"]),
                "delivery_us": order["placed_us"] + DELIVERY_US}

    @staticmethod
    def _qty(ctx: Ctx, name: str = "qty", default: str = "1", low: int = 1) -> int:
        text = ctx.field(name, required=False, default=default, limit=10).strip() or default
        if not text.isdigit() or not low <= int(text) <= MAX_QTY:
            raise HttpError(400, f"the quantity is a whole number from {low} to {MAX_QTY}, got {text!r}")
        return int(text)

    def _search(self, ctx: Ctx) -> list[dict]:
        words = ctx.query.get("k", "").lower().split()
        category = ctx.query.get("category", "")
        sort = ctx.query.get("sort", "relevance") or "relevance"
        if sort not in SORTS:
            raise HttpError(400, f"sort is one of {', '.join(SORTS)}, got {sort!r}")
        scored = []
        for p in ctx.state["products"].values():
            if category and p["category"] != category:
                continue
            name, desc, cat = p["name"].lower(), p["description"].lower(), p["category"].lower()
            score = sum(3 * (w in name) + 2 * (w in cat) + (w in desc) for w in words)
            if words and not all(w in name or w in cat or w in desc for w in words):
                continue
            scored.append((score, p))
        if sort == "price-asc":
            scored.sort(key=lambda s: (s[1]["price_cents"], s[1]["name"], s[1]["sku"]))
        elif sort == "price-desc":
            scored.sort(key=lambda s: (-s[1]["price_cents"], s[1]["name"], s[1]["sku"]))
        else:
            scored.sort(key=lambda s: (-s[0], s[1]["name"], s[1]["sku"]))
        return [p for _, p in scored]

    def _cards(self, ctx: Ctx, products: list[dict], list_id: str) -> ListBlock:
        return ListBlock(tuple(Link(f"{p['name']} — {self._money(ctx, p['price_cents'])}", f"/p/{quote(p['sku'])}",
                                    id=f"product-{p['sku']}") for p in products), id=list_id)

    def _cart(self, ctx: Ctx, user: str) -> list[dict]:
        return ctx.state["carts"].get(user, [])

    def _in_cart(self, ctx: Ctx, user: str, sku: str, skip: int | None = None) -> int:
        return sum(line["qty"] for line in self._cart(ctx, user) if line["sku"] == sku and line["id"] != skip)

    def _cart_json(self, ctx: Ctx, user: str) -> dict:
        lines = []
        for line in self._cart(ctx, user):
            p = ctx.state["products"][line["sku"]]
            lines.append({**line, "name": p["name"], "price_cents": p["price_cents"],
                          "subtotal_cents": p["price_cents"] * line["qty"]})
        total = sum(line["subtotal_cents"] for line in lines)
        return {"lines": lines, "total_cents": total, "total": self._money(ctx, total), "currency": ctx.state["currency"]}

    # -- catalogue -----------------------------------------------------------------------
    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        products = sorted(ctx.state["products"].values(), key=lambda p: (p["name"], p["sku"]))
        featured = [p for p in products if p["featured"]] or products[:4]
        categories = sorted({p["category"] for p in products if p["category"]})
        body = [Heading("Shop", id="home-title"), self._search_form(ctx, "", "", "relevance")]
        body.append(Heading("Categories", level=2, id="categories-title"))
        body.append(ListBlock(tuple(Link(c, f"/s?{urlencode({'category': c})}", id=f"category-{slug(c)}") for c in categories),
                              id="categories"))
        body.append(Heading("Featured", level=2, id="featured-title"))
        body.append(self._cards(ctx, featured, "featured") if featured else Text("The shop has no products yet.", id="empty"))
        if ctx.user:
            body.append(Link(f"Cart ({sum(line['qty'] for line in self._cart(ctx, ctx.user))})", "/cart", id="cart-link"))
            body.append(Link("Your orders", "/orders", id="orders-link"))
        return self.page(ctx, "Shop", body)

    def _search_form(self, ctx: Ctx, k: str, category: str, sort: str) -> Form:
        return Form("/s", (Input("k", label="Search", value=k, type="search", id="search-k"),
                           Input("category", type="hidden", value=category, id="search-category"),
                           Select("sort", tuple(Option(v, t) for v, t in SORTS.items()), label="Sort by", value=sort,
                                  id="search-sort"),
                           Button("Search", id="search-submit")), method="GET", id="search-form")

    @route("GET", "/s")
    def search(self, ctx: Ctx) -> Any:
        found = self._search(ctx)
        k, category = ctx.query.get("k", ""), ctx.query.get("category", "")
        what = f'"{k}"' if k else category or "all products"
        body = [self._search_form(ctx, k, category, ctx.query.get("sort", "relevance") or "relevance"),
                Heading(f"{len(found)} result{'s' * (len(found) != 1)} for {what}", id="results-title"),
                self._cards(ctx, found, "results") if found else Text("No products match.", id="no-results")]
        return self.page(ctx, f"Search: {k or category}", body)

    @route("GET", "/api/products")
    def api_products(self, ctx: Ctx) -> Json:
        return Json({"products": [self._product_json(ctx, p) for p in self._search(ctx)]})

    @route("GET", "/api/products/{sku}")
    def api_product(self, ctx: Ctx) -> Json:
        return Json(self._product_json(ctx, self._product(ctx, ctx.params["sku"])))

    @route("GET", "/p/{sku}")
    def product(self, ctx: Ctx) -> Any:
        p = self._product(ctx, ctx.params["sku"])
        sku = p["sku"]
        stock = f"In stock ({p['stock']} left)" if p["stock"] else "Out of stock"
        body = [Heading(p["name"], id="product-name"), Text(self._money(ctx, p["price_cents"]), emphasis=True, id="product-price"),
                Text(stock, id="product-stock")]
        if p["category"]:
            body.append(Link(p["category"], f"/s?{urlencode({'category': p['category']})}", id="product-category"))
        if p["description"]:
            body.append(Text(p["description"], id="product-description"))
        if p["stock"]:
            controls = [Input("sku", type="hidden", value=sku, id="add-sku")]
            controls += [Select(k, tuple(Option(v, v) for v in vals), label=k.capitalize(), value=vals[0], id=f"add-{k}")
                         for k, vals in p["options"].items()]
            controls += [Input("qty", label="Quantity", value="1", type="number", id="add-qty"),
                         Button("Add to cart", id="add-to-cart")]
            body.append(Form("/cart/add", tuple(controls), id="add-form"))
        rating = self._rating(p)
        body.append(Heading(f"Reviews ({len(p['reviews'])}" + (f", {rating} of 5)" if rating else ")"), level=2, id="reviews-title"))
        body.append(ListBlock(tuple(Text(f"{'★' * r['rating']}{'☆' * (5 - r['rating'])} {r['user']}: {r['text']}", id=f"review-{i}")
                                    for i, r in enumerate(p["reviews"], 1)), id="reviews"))
        if ctx.user:
            body.append(Form(f"/p/{quote(sku)}/reviews", (
                Select("rating", tuple(Option(str(n), f"{n} star{'s' * (n != 1)}") for n in range(5, 0, -1)), label="Rating",
                       value="5", id="review-rating"),
                TextArea("text", label="Your review", id="review-text"), Button("Post review", id="review-submit")),
                id="review-form"))
        return self.page(ctx, p["name"], body)

    @route("POST", "/p/{sku}/reviews")
    def review(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        p = self._product(ctx, ctx.params["sku"])
        rating = ctx.field("rating", limit=1)
        if rating not in ("1", "2", "3", "4", "5"):
            raise HttpError(400, f"the rating is 1 to 5, got {rating!r}")
        if any(r["user"] == user for r in p["reviews"]):
            raise HttpError(409, "you have already reviewed this product")
        review = {"user": user, "rating": int(rating), "text": ctx.field("text", required=False, limit=2000),
                  "date": timestamp(ctx.now_us)[:10]}
        ctx.state = assoc_in(ctx.state, ["products", p["sku"], "reviews"], [*p["reviews"], review])
        return Json(review, 201) if ctx.wants_json else Redirect(f"/p/{quote(p['sku'])}")

    # -- cart ----------------------------------------------------------------------------
    @route("POST", "/cart/add")
    def cart_add(self, ctx: Ctx) -> Any:
        if ctx.user is None and not ctx.wants_json:
            sku = ctx.form.get("sku", "")
            return Redirect(f"/login?next={quote('/p/' + sku if sku in ctx.state['products'] else '/cart')}")
        user = ctx.require_user()
        p = self._product(ctx, ctx.field("sku", limit=64))
        qty = self._qty(ctx)
        chosen = {}
        for key, values in p["options"].items():
            value = ctx.field(key, required=False, default=values[0] if len(values) == 1 else "", limit=200)
            if value not in values:
                raise HttpError(400, f"choose a {key}: one of {', '.join(values)}" + (f" (not {value!r})" if value else ""))
            chosen[key] = value
        extra = set(ctx.form) & set(OPTIONS) - set(p["options"])
        if extra:
            raise HttpError(400, f"{p['name']} has no {', '.join(sorted(extra))} to choose")
        have = self._in_cart(ctx, user, p["sku"])
        if have + qty > p["stock"]:
            raise HttpError(400, f"only {p['stock']} of {p['name']} in stock" + (f" ({have} already in your cart)" if have else ""))
        lines = self._cart(ctx, user)
        same = next((line for line in lines if line["sku"] == p["sku"] and line["options"] == chosen), None)
        if same is not None:
            lines = [{**line, "qty": line["qty"] + qty} if line is same else line for line in lines]
        else:
            line_id = ctx.state["next_line"]
            ctx.state = assoc(ctx.state, "next_line", line_id + 1)
            lines = [*lines, {"id": line_id, "sku": p["sku"], "qty": qty, "options": chosen}]
        ctx.state = assoc_in(ctx.state, ["carts", user], lines)
        return Json(self._cart_json(ctx, user), 201) if ctx.wants_json else Redirect("/cart")

    def _line(self, ctx: Ctx, user: str) -> dict:
        number = ctx.params["line"]
        line = next((x for x in self._cart(ctx, user) if str(x["id"]) == number), None)
        if line is None:
            raise HttpError(404, f"no line {number} in your cart")
        return line

    def _set_qty(self, ctx: Ctx, user: str, line: dict, qty: int) -> None:
        lines = self._cart(ctx, user)
        if qty == 0:
            lines = [x for x in lines if x["id"] != line["id"]]
        else:
            p = ctx.state["products"][line["sku"]]
            if self._in_cart(ctx, user, line["sku"], skip=line["id"]) + qty > p["stock"]:
                raise HttpError(400, f"only {p['stock']} of {p['name']} in stock")
            lines = [{**x, "qty": qty} if x["id"] == line["id"] else x for x in lines]
        ctx.state = assoc_in(ctx.state, ["carts", user], lines)

    @route("GET", "/cart")
    def cart(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        cart = self._cart_json(ctx, user)
        rows = []
        for line in cart["lines"]:
            n = line["id"]
            chosen = ", ".join(f"{k}: {v}" for k, v in line["options"].items())
            rows.append((Link(line["name"] + (f" ({chosen})" if chosen else ""), f"/p/{quote(line['sku'])}", id=f"line-{n}-name"),
                         Text(self._money(ctx, line["price_cents"]), id=f"line-{n}-price"),
                         Form(f"/cart/{n}/update", (Input("qty", label="Quantity", value=str(line["qty"]), type="number", id=f"line-{n}-qty"),
                                                    Button("Update", id=f"line-{n}-update")), id=f"line-{n}-update-form"),
                         Text(self._money(ctx, line["subtotal_cents"]), id=f"line-{n}-subtotal"),
                         Form(f"/cart/{n}/remove", (Button("Remove", id=f"line-{n}-remove"),), id=f"line-{n}-remove-form")))
        body = [Heading("Shopping cart", id="cart-title")]
        if rows:
            body += [Table(("Product", "Price", "Quantity", "Subtotal", ""), tuple(rows), id="cart-lines"),
                     Text(f"Total: {cart['total']}", emphasis=True, id="cart-total"),
                     Link("Proceed to checkout", "/checkout", id="checkout-link")]
        else:
            body.append(Text("Your cart is empty.", id="cart-empty"))
        return self.page(ctx, "Cart", body)

    @route("POST", "/cart/{line}/update")
    def cart_update(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        line = self._line(ctx, user)
        self._set_qty(ctx, user, line, self._qty(ctx, default="", low=0))
        return Json(self._cart_json(ctx, user)) if ctx.wants_json else Redirect("/cart")

    @route("POST", "/cart/{line}/remove")
    def cart_remove(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        self._set_qty(ctx, user, self._line(ctx, user), 0)
        return Json(self._cart_json(ctx, user)) if ctx.wants_json else Redirect("/cart")

    @route("GET", "/api/cart")
    def api_cart(self, ctx: Ctx) -> Json:
        return Json(self._cart_json(ctx, ctx.require_user()))

    @route("POST", "/api/cart")
    def api_cart_add(self, ctx: Ctx) -> Any:
        return self.cart_add(ctx)

    @route("POST", "/api/cart/{line}")
    def api_cart_update(self, ctx: Ctx) -> Any:
        return self.cart_update(ctx)

    @route("DELETE", "/api/cart/{line}")
    def api_cart_remove(self, ctx: Ctx) -> Any:
        return self.cart_remove(ctx)

    # -- checkout and orders -------------------------------------------------------------
    @route("GET", "/checkout")
    def checkout_form(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        cart = self._cart_json(ctx, user)
        if not cart["lines"]:
            return self.page(ctx, "Checkout", [Heading("Checkout", id="checkout-title"),
                                               Text("Your cart is empty.", id="cart-empty"), Link("Continue shopping", "/", id="home-link")])
        items = tuple(Text(f"{x['qty']} × {x['name']} — {self._money(ctx, x['subtotal_cents'])}", id=f"checkout-line-{x['id']}")
                      for x in cart["lines"])
        return self.page(ctx, "Checkout", [
            Heading("Checkout", id="checkout-title"), ListBlock(items, id="checkout-lines"),
            Text(f"Order total: {cart['total']}", emphasis=True, id="checkout-total"),
            Form("/checkout", (TextArea("address", label="Shipping address", value=ctx.state["addresses"].get(user, ""), id="checkout-address"),
                               Select("payment", tuple(Option(k, v) for k, v in PAYMENTS.items()), label="Payment method",
                                      value="card", id="checkout-payment"),
                               Button("Place your order", id="place-order")), id="checkout-form")])

    @route("POST", "/checkout")
    def checkout(self, ctx: Ctx) -> Any:
        user = ctx.require_user()
        address = ctx.field("address", required=False, limit=1000).strip() or ctx.state["addresses"].get(user, "")
        if not address:
            raise HttpError(400, "the field 'address' is required: where should we ship the order?")
        payment = ctx.field("payment", required=False, default="card", limit=20) or "card"
        if payment not in PAYMENTS:
            raise HttpError(400, f"payment is one of {', '.join(PAYMENTS)}, got {payment!r}")
        cart = self._cart_json(ctx, user)
        if not cart["lines"]:
            raise HttpError(400, "your cart is empty")
        products = ctx.state["products"]
        for sku in {x["sku"] for x in cart["lines"]}:
            wanted = self._in_cart(ctx, user, sku)
            if wanted > products[sku]["stock"]:
                raise HttpError(409, f"only {products[sku]['stock']} of {products[sku]['name']} left; update your cart")
        for sku in {x["sku"] for x in cart["lines"]}:
            products = assoc_in(products, [sku, "stock"], products[sku]["stock"] - self._in_cart(ctx, user, sku))
        number = str(ctx.state["next_order"])
        order = {"id": number, "user": user, "address": address, "payment": payment, "placed_us": ctx.now_us,
                 "placed": timestamp(ctx.now_us), "status": "placed", "total_cents": cart["total_cents"],
                 "lines": [{k: x[k] for k in ("sku", "name", "qty", "options", "price_cents")} for x in cart["lines"]]}
        ctx.state = {**ctx.state, "products": products, "next_order": ctx.state["next_order"] + 1,
                     "orders": assoc(ctx.state["orders"], number, order), "carts": assoc(ctx.state["carts"], user, []),
                     "addresses": assoc(ctx.state["addresses"], user, address)}
        return Json(self._order_json(ctx, order), 201) if ctx.wants_json else Redirect(f"/orders/{number}")

    def _mine(self, ctx: Ctx) -> list[dict]:
        user = ctx.require_user()
        return sorted((o for o in ctx.state["orders"].values() if o["user"] == user), key=lambda o: -int(o["id"]))

    @route("GET", "/orders")
    def orders(self, ctx: Ctx) -> Any:
        rows = tuple((Link(f"Order #{o['id']}", f"/orders/{o['id']}", id=f"order-{o['id']}"), Text(o["placed"]),
                      Text(self._money(ctx, o["total_cents"])), Text(self._status(o, ctx.now_us), id=f"order-{o['id']}-status"))
                     for o in self._mine(ctx))
        body = [Heading("Your orders", id="orders-title")]
        body.append(Table(("Order", "Placed", "Total", "Status"), rows, id="orders") if rows
                    else Text("You have no orders yet.", id="orders-empty"))
        return self.page(ctx, "Your orders", body)

    @route("GET", "/orders/{id}")
    def order(self, ctx: Ctx) -> Any:
        o = self._order(ctx, ctx.params["id"])
        status = self._status(o, ctx.now_us)
        eta = timestamp(o["placed_us"] + DELIVERY_US)
        body = [Heading(f"Order #{o['id']}", id="order-title"), Text(f"Placed {o['placed']}", id="order-placed"),
                Text(f"Status: {status}", emphasis=True, id="order-status")]
        if status == "placed":
            body.append(Text(f"Arriving by {eta}", id="order-eta"))
        rows = tuple((Text(x["name"] + "".join(f", {k}: {v}" for k, v in x["options"].items())), Text(str(x["qty"])),
                      Text(self._money(ctx, x["price_cents"] * x["qty"]))) for x in o["lines"])
        body += [Table(("Item", "Quantity", "Subtotal"), rows, id="order-lines"),
                 Text(f"Total: {self._money(ctx, o['total_cents'])}", emphasis=True, id="order-total"),
                 Text(f"Ship to: {o['address']}", id="order-address"), Text(f"Payment: {PAYMENTS[o['payment']]}", id="order-payment")]
        if status == "placed":
            body.append(Form(f"/orders/{o['id']}/cancel", (Button("Cancel order", id="cancel-order"),), id="cancel-form"))
        if status == "delivered":
            body.append(Form(f"/orders/{o['id']}/return", (Button("Return items", id="return-order"),), id="return-form"))
        return self.page(ctx, f"Order #{o['id']}", body)

    @route("POST", "/orders/{id}/cancel")
    def cancel(self, ctx: Ctx) -> Any:
        o = self._order(ctx, ctx.params["id"])
        status = self._status(o, ctx.now_us)
        if status != "placed":
            raise HttpError(409, f"order {o['id']} is {status} and can no longer be cancelled")
        products = ctx.state["products"]
        for x in o["lines"]:
            if x["sku"] in products:
                products = assoc_in(products, [x["sku"], "stock"], products[x["sku"]]["stock"] + x["qty"])
        ctx.state = {**ctx.state, "products": products, "orders": assoc_in(ctx.state["orders"], [o["id"], "status"], "cancelled")}
        return Json(self._order_json(ctx, ctx.state["orders"][o["id"]])) if ctx.wants_json else Redirect(f"/orders/{o['id']}")

    @route("POST", "/orders/{id}/return")
    def request_return(self, ctx: Ctx) -> Any:
        o = self._order(ctx, ctx.params["id"])
        status = self._status(o, ctx.now_us)
        if status != "delivered":
            raise HttpError(409, f"order {o['id']} is {status}: only a delivered order can be returned")
        ctx.state = assoc_in(ctx.state, ["orders", o["id"], "status"], "return requested")
        return Json(self._order_json(ctx, ctx.state["orders"][o["id"]])) if ctx.wants_json else Redirect(f"/orders/{o['id']}")

    @route("GET", "/api/orders")
    def api_orders(self, ctx: Ctx) -> Json:
        return Json({"orders": [self._order_json(ctx, o) for o in self._mine(ctx)]})

    @route("POST", "/api/orders")
    def api_checkout(self, ctx: Ctx) -> Any:
        return self.checkout(ctx)

    @route("GET", "/api/orders/{id}")
    def api_order(self, ctx: Ctx) -> Json:
        return Json(self._order_json(ctx, self._order(ctx, ctx.params["id"])))

    @route("POST", "/api/orders/{id}/cancel")
    def api_cancel(self, ctx: Ctx) -> Any:
        return self.cancel(ctx)

    @route("POST", "/api/orders/{id}/return")
    def api_return(self, ctx: Ctx) -> Any:
        return self.request_return(ctx)


SERVICE_KINDS.register(Shop.name, Shop())
