"""Forms: several controls filled as asked, then one submit (MiniWoB++'s form-sequence,
multi-layouts, multi-orderings, sign-agreement, order-food and book-flight tasks).

A form's fields keep neutral ids by position (``f1``, ``f2``...), so finding the asked
field takes its label, wherever the layout puts it. A select opens on a blank choice, so
leaving it alone never answers by chance.
"""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Option,
    Radio,
    Select,
    Table,
    Text,
    date_parts,
)
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, TaskKind, TaskRandom, register
from cwgym.webtasks.forms_data import AIRLINES, CITIES, DISHES, MAIL_DOMAINS
from cwgym.webtasks.kinds.typing import MONTHS
from cwgym.webtasks.words import FIRST_NAMES, LAST_NAMES, WORDS

#: The fields of multi-layouts and multi-orderings: (submitted name, label).
PERSON_FIELDS = (("first", "First name"), ("last", "Last name"), ("email", "E-mail"), ("city", "City"))
#: The layouts of multi-layouts.
LAYOUTS = ("table", "above", "placeholder", "list")
#: Cities a flight search offers in each of its selects.
SEARCH_CITIES = 6


def _submit(*children: Element, button: str = "Submit") -> Form:
    return Form(SUBMIT, (*children, Button(button, id="submit")), id="task")


def _select(name: str, label: str, blank: str, values: list[str], eid: str) -> Select:
    """A select that opens on ``blank`` (value ``""``): option ``k`` of ``values`` is index ``k + 1``."""
    return Select(name, (Option("", blank), *(Option(v, v) for v in values)), label=label, id=eid)


def _said_date(r: TaskRandom, year: int, month: int, day: int) -> str:
    return f"{month:02d}/{day:02d}/{year}" if r.chance(1, 2) else f"{MONTHS[month - 1]} {day}, {year}"


def _person(r: TaskRandom) -> dict[str, str]:
    first, last = r.choice(FIRST_NAMES), r.choice(LAST_NAMES)
    return {"first": first, "last": last, "email": f"{first.lower()}.{last.lower()}@{r.choice(MAIL_DOMAINS)}",
            "city": r.choice(CITIES)}


def _person_instruction(values: dict[str, str], names: list[str]) -> str:
    labels = dict(PERSON_FIELDS)
    asked = ", ".join(f'{labels[n].lower()} "{values[n]}"' for n in names)
    return f"Fill in the form with {asked}, then press Submit."


@register
class FormSequence(TaskKind):
    name = "form-sequence"
    family = "forms"
    miniwob = "form-sequence"
    title = "Fill a short form"
    variation = "3 radios and 3 checkboxes of words: which to choose and tick; the word to type"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, 7)
        radio, box = r.below(3), r.below(3)
        return {"instruction": f'Choose "{words[radio]}", tick "{words[3 + box]}" and enter "{words[6]}" '
                               "into the text field, then press Submit.",
                "radios": words[:3], "boxes": words[3:6], "choice": words[radio], "tick": words[3 + box],
                "text": words[6], "radio_id": f"r{radio + 1}", "box_id": f"c{box + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        radios = tuple(Radio("choice", w, label=w, id=f"r{i}") for i, w in enumerate(task["radios"], 1))
        boxes = tuple(Checkbox("tick", label=w, value=w, id=f"c{i}") for i, w in enumerate(task["boxes"], 1))
        return [_submit(*radios, *boxes, Input("text", label="Text", id="text"))]


@register
class FormSequence2(TaskKind):
    name = "form-sequence-2"
    family = "forms"
    miniwob = "form-sequence-2"
    title = "Choose from a list and type a number"
    variation = "a select of 4-6 words: which one; the number to type (1-99)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(4, 6))
        pick, number = r.below(len(words)), str(r.randint(1, 99))
        return {"instruction": f'Choose "{words[pick]}" from the list, enter {number} into the number field '
                               "and press Submit.",
                "options": words, "choice": words[pick], "index": str(pick + 1), "number": number}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(_select("choice", "Item", "Choose...", task["options"], "sel"),
                        Input("number", label="Number", type="number", id="num"))]


@register
class MultiLayouts(TaskKind):
    name = "multi-layouts"
    family = "forms"
    miniwob = "multi-layouts"
    title = "Fill a form laid out one of several ways"
    variation = "the layout (a table, labels above, placeholders, a list), the names and e-mail to type"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        values = _person(r)
        names = ["first", "last", "email"]
        return {"instruction": _person_instruction(values, names), "layout": r.choice(LAYOUTS),
                **{n: values[n] for n in names}}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        fields = PERSON_FIELDS[:3]
        layout = task["layout"]
        if layout == "table":
            rows = tuple((Text(label, id=f"l{i}"), Input(name, id=f"f{i}")) for i, (name, label) in enumerate(fields, 1))
            return [_submit(Table(rows=rows, id="grid"))]
        if layout == "placeholder":
            return [_submit(*(Input(name, placeholder=label, id=f"f{i}") for i, (name, label) in enumerate(fields, 1)))]
        inputs = tuple(Input(name, label=label, id=f"f{i}") for i, (name, label) in enumerate(fields, 1))
        if layout == "list":
            return [_submit(ListBlock(inputs, ordered=True, id="items"))]
        return [_submit(*inputs)]


@register
class MultiOrderings(TaskKind):
    name = "multi-orderings"
    family = "forms"
    miniwob = "multi-orderings"
    title = "Fill a form whose fields are shuffled"
    variation = "the order of 4 fields (first and last name, e-mail, city) and the values to type"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        values = _person(r)
        order = r.shuffled([name for name, _ in PERSON_FIELDS])
        asked = r.shuffled(order)
        return {"instruction": _person_instruction(values, asked), "order": order, **values,
                **{f"{name}_id": f"f{order.index(name) + 1}" for name in order}}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        labels = dict(PERSON_FIELDS)
        return [_submit(*(Input(name, label=labels[name], id=f"f{i}") for i, name in enumerate(task["order"], 1)))]


@register
class SignAgreement(TaskKind):
    name = "sign-agreement"
    family = "forms"
    miniwob = "sign-agreement"
    title = "Sign an agreement"
    variation = "the terms' words (a long text to scroll past), the name to sign with"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        sentences = []
        for _ in range(r.randint(14, 18)):  # two screens and more: the form is below them
            words = r.sample(WORDS, r.randint(6, 10))
            sentences.append(" ".join(words).capitalize() + ".")
        name = f"{r.choice(FIRST_NAMES)} {r.choice(LAST_NAMES)}"
        return {"instruction": f'Read the terms, tick "I agree", sign with the full name "{name}" and press Submit.',
                "terms": " ".join(sentences), "name": name}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Heading("Terms of use", level=2, id="terms-title"), Text(task["terms"], id="terms"),
                _submit(Checkbox("agree", label="I agree", value="yes", id="agree"),
                        Input("name", label="Full name", id="name"))]


@register
class OrderFood(TaskKind):
    name = "order-food"
    family = "forms"
    miniwob = "order-food"
    title = "Order food"
    variation = "a menu of 4-6 dishes: which one, and how many (1-6)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        dishes = r.sample(DISHES, r.randint(4, 6))
        pick, quantity = r.below(len(dishes)), r.randint(1, 6)
        return {"instruction": f"Order {quantity} x {dishes[pick]} and press Order.", "dishes": dishes,
                "dish": dishes[pick], "dish_index": str(pick + 1), "quantity": str(quantity),
                "quantity_index": str(quantity)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Heading("Menu", level=2, id="menu"),
                _submit(_select("dish", "Dish", "Choose a dish", task["dishes"], "dish"),
                        _select("quantity", "Quantity", "How many?", [str(n) for n in range(1, 7)], "qty"),
                        button="Order")]


@register
class BuyTicket(TaskKind):
    name = "buy-ticket"
    family = "forms"
    miniwob = "book-flight"
    title = "Book a flight"
    variation = "the route and date; 3-5 flights with their airlines and prices; cheapest or a named airline"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        cities = r.sample(CITIES, SEARCH_CITIES)
        start, end = r.sample(range(SEARCH_CITIES), 2)
        year, month, day = 2026, r.randint(1, 12), r.randint(1, 28)
        count = r.randint(3, 5)
        airlines = r.sample(AIRLINES, count)
        prices = [5 * p for p in r.sample(range(16, 120), count)]
        flights = [{"airline": name, "code": f"{code}{r.randint(100, 999)}", "price": price}
                   for (name, code), price in zip(airlines, prices, strict=True)]
        if r.chance(1, 2):
            pick = prices.index(min(prices))
            which = "the cheapest flight"
        else:
            pick = r.below(count)
            which = f"the {flights[pick]['airline']} flight"
        said = _said_date(r, year, month, day)
        return {"instruction": f"Book {which} from {cities[start]} to {cities[end]} on {said}.",
                "cities": cities, "flights": flights, "from": cities[start], "to": cities[end],
                "from_index": str(start + 1), "to_index": str(end + 1),
                "date": f"{year}-{month:02d}-{day:02d}", "flight": flights[pick]["code"],
                "answer_id": f"book{pick + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        if "from" not in view:
            out: list[Element] = []
            if view.get("problem"):
                out.append(Text(view["problem"], emphasis=True, id="problem"))
            search = (_select("from", "From", "From...", task["cities"], "from"),
                      _select("to", "To", "To...", task["cities"], "to"),
                      Input("date", label="Date", type="date", id="date"),
                      Button("Search", name="op", value="search", id="search"))
            return [*out, Form(ACT, search, id="search-form")]
        rows = tuple((Text(f["airline"], id=f"a{k}"), Text(f"${f['price']}", id=f"p{k}"),
                      Button("Book", name="flight", value=f["code"], id=f"book{k}"))
                     for k, f in enumerate(task["flights"], 1))
        hidden = tuple(Input(n, value=view[n], type="hidden", id=f"q-{n}") for n in ("from", "to", "date"))
        return [Text(f"{view['from']} to {view['to']}, {view['date']}", id="route"),
                Form(SUBMIT, (*hidden, Table(headers=("Airline", "Price", ""), rows=rows, id="flights")), id="task"),
                Link("New search", f"{ACT}?op=new", id="new")]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        op = form.get("op")
        if op == "new":
            return {}
        cities = ["", *task["cities"]]
        if op != "search" or form.get("from") not in cities or form.get("to") not in cities:
            raise TaskInputError("the search sends op=search with from and to among its cities (or op=new)")
        start, end, date = form["from"], form["to"], form.get("date", "")
        if not start or not end or start == end:
            return {"problem": "Choose two different cities."}
        if date_parts(date) is None:
            return {"problem": "Choose a date."}
        return {"from": start, "to": end, "date": date}
