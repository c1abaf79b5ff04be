"""Navigation: file trees, search results, phone books and tables (MiniWoB++'s navigate-tree,
search-engine, phone-book and read-table tasks).

Every page fits the 160x210 kiosk without scrolling: what does not fit (the rest of the
results, the rest of the book) is behind a pager, so reaching it is a request to
:data:`~cwgym.webtasks.ACT` the procedure makes, never a scroll whose length depends on
the seed. The item the task asks for is therefore always behind the pager (page 2 or
later), so the pager is a step the task needs.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from cwgym.protocol.page import Button, Element, Form, Input, Link, ListBlock, Table, Text
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, TaskKind, TaskRandom, register
from cwgym.webtasks.words import FIRST_NAMES, LAST_NAMES, WORDS

#: Key/value facts a table shows: a key and the short values it may take.
FACTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Color", ("red", "green", "blue", "yellow", "pink", "brown", "gray", "black")),
    ("Year", tuple(str(y) for y in range(1950, 2021, 3))),
    ("Month", ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")),
    ("Day", ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    ("Pet", ("cat", "dog", "fish", "bird", "hare", "frog")),
    ("Fruit", ("apple", "pear", "plum", "lime", "fig", "kiwi", "mango")),
    ("City", ("Rome", "Oslo", "Lima", "Kyiv", "Bern", "Doha", "Riga", "Baku")),
    ("Size", ("small", "large", "tiny", "huge")),
    ("Shape", ("round", "square", "oval", "star")),
    ("Number", tuple(str(n) for n in range(11, 99, 7))),
)

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")


def _ids(r: TaskRandom, prefix: str, n: int) -> list[str]:
    """``n`` neutral ids ``<prefix>1..n`` in a random order (so an id never tells a position)."""
    return [f"{prefix}{i}" for i in r.shuffled(range(1, n + 1))]


def _pager(pages: int, current: int) -> Table:
    """One row of page links (the current page is plain text)."""
    cells: list[Element] = [Text(f"Page {p}", emphasis=True, id=f"p{p}") if p == current
                            else Link(f"Page {p}", f"{ACT}?op=page&p={p}", id=f"p{p}") for p in range(1, pages + 1)]
    return Table(rows=(tuple(cells),), id="pager")


def _page_of(view: dict[str, Any], form: dict[str, str], pages: int) -> dict[str, Any]:
    """The view after a pager link (``op=page&p=N``)."""
    text = form.get("p", "")
    if form.get("op") != "page" or not text.isdigit() or not 1 <= int(text) <= pages:
        raise TaskInputError(f"the pager takes op=page and p from 1 to {pages}")
    return {**view, "page": int(text)}


@register
class NavigateTree(TaskKind):
    name = "navigate-tree"
    family = "navigation"
    miniwob = "navigate-tree"
    title = "Find a file in a folder tree"
    variation = "names of 2 folders, a subfolder and 7 files, their order; the file asked for is two folders deep"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, 10)
        ids = _ids(r, "n", 10)
        folder, sub, other = (w.title() for w in words[:3])
        files = words[3:]
        # the asked file is in the subfolder of the first folder; siblings list in a random order
        nodes = [
            {"id": ids[0], "name": folder, "folder": True, "parent": ""},
            {"id": ids[1], "name": other, "folder": True, "parent": ""},
            {"id": ids[2], "name": files[0], "folder": False, "parent": ""},
            {"id": ids[3], "name": sub, "folder": True, "parent": ids[0]},
            {"id": ids[4], "name": files[1], "folder": False, "parent": ids[0]},
            {"id": ids[5], "name": files[2], "folder": False, "parent": ids[0]},
            {"id": ids[6], "name": files[3], "folder": False, "parent": ids[3]},
            {"id": ids[7], "name": files[4], "folder": False, "parent": ids[3]},
            {"id": ids[8], "name": files[5], "folder": False, "parent": ids[1]},
            {"id": ids[9], "name": files[6], "folder": False, "parent": ids[1]},
        ]
        target = nodes[6 + r.below(2)]
        order = r.shuffled(range(len(nodes)))  # the order siblings are listed in
        nodes = [nodes[i] for i in order]
        return {"instruction": f'Navigate through the folders and click on the file "{target["name"]}".',
                "nodes": nodes, "answer": target["name"], "answer_id": target["id"],
                "open_ids": [ids[0], ids[3]]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [ListBlock(self._items(task, "", set(view.get("open", []))), id="tree")]

    def _items(self, task: dict[str, Any], parent: str, opened: set[str]) -> tuple[Element, ...]:
        out: list[Element] = []
        for node in task["nodes"]:
            if node["parent"] != parent:
                continue
            if node["folder"]:
                is_open = node["id"] in opened
                out.append(Link(f"{'-' if is_open else '+'} {node['name']}", f"{ACT}?op=toggle&node={node['id']}",
                                id=node["id"]))
                if is_open:
                    out.append(ListBlock(self._items(task, node["id"], opened), id=f"{node['id']}-in"))
            else:
                out.append(Link(node["name"], f"{SUBMIT}?file={quote(node['name'])}", id=node["id"]))
        return tuple(out)

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        nodes = {n["id"]: n for n in task["nodes"]}
        node = nodes.get(form.get("node", ""))
        if form.get("op") != "toggle" or node is None or not node["folder"]:
            raise TaskInputError("the tree takes op=toggle and the id of a folder")
        opened = list(view.get("open", []))
        if node["parent"] and node["parent"] not in opened:
            raise TaskInputError(f"folder {node['id']} is inside a closed folder")
        opened = [i for i in opened if i != node["id"]] if node["id"] in opened else [*opened, node["id"]]
        return {**view, "open": opened}


@register
class SearchEngine(TaskKind):
    name = "search-engine"
    family = "navigation"
    miniwob = "search-engine"
    title = "Search and click a result"
    variation = "the query word, 9 result titles, which result (4th-9th, so on page 2 or 3)"

    PER_PAGE = 3

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, 10)
        query = words[0]
        results = [f"{query.title()} {w}" for w in words[1:]]
        n = r.randint(4, 9)
        ids = _ids(r, "r", 9)
        return {"instruction": f'Enter "{query}" in the search box, press Search, then click the '
                               f"{ORDINALS[n - 1]} search result.",
                "query": query, "results": results, "result_ids": ids, "answer": results[n - 1],
                "answer_id": ids[n - 1], "page_id": f"p{(n - 1) // self.PER_PAGE + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        out: list[Element] = [Form(ACT, (Input("q", type="search", placeholder="Search", value=view.get("q", ""), id="q"),
                                         Button("Search", name="op", value="search", id="go")), id="search")]
        if "q" not in view:
            return out
        if view["q"].strip().casefold() != task["query"].casefold():
            return [*out, Text(f"No results for {view['q']}", id="none")]
        page = view.get("page", 1)
        start = (page - 1) * self.PER_PAGE
        shown = range(start, start + self.PER_PAGE)
        links = tuple(Link(task["results"][i], f"{SUBMIT}?result={quote(task['results'][i])}", id=task["result_ids"][i])
                      for i in shown)
        return [*out, ListBlock(links, id="results"), _pager(len(task["results"]) // self.PER_PAGE, page)]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        if form.get("op") == "search":
            return {"q": form.get("q", "")[:100], "page": 1}
        if "q" not in view:
            raise TaskInputError("search first: there are no results to page through")
        return _page_of(view, form, len(task["results"]) // self.PER_PAGE)


@register
class PhoneBook(TaskKind):
    name = "phone-book"
    family = "navigation"
    miniwob = "phone-book"
    title = "Find a contact's phone or e-mail"
    variation = "8 contacts' names, numbers and addresses, 2 a page; who (page 2-4) and phone or e-mail"

    PER_PAGE = 2

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        firsts, lasts, numbers = r.sample(FIRST_NAMES, 8), r.sample(LAST_NAMES, 8), r.sample(range(1000, 10000), 8)
        people = sorted(({"name": f"{first} {last}", "phone": f"555-{number}",
                          "email": f"{first.lower()}{last[0].lower()}@m.io"}
                         for first, last, number in zip(firsts, lasts, numbers)), key=lambda p: p["name"])
        phone_ids, email_ids = _ids(r, "t", 8), _ids(r, "e", 8)
        for person, tid, eid in zip(people, phone_ids, email_ids):
            person["phone_id"], person["email_id"] = tid, eid
        index = r.randint(self.PER_PAGE, len(people) - 1)
        field = r.choice(("phone", "email"))
        person = people[index]
        what = "phone number" if field == "phone" else "e-mail address"
        return {"instruction": f"Find {person['name']} in the phone book and click on their {what}.",
                "people": people, "field": field, "answer": person[field], "answer_id": person[f"{field}_id"],
                "page_id": f"p{index // self.PER_PAGE + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        page = view.get("page", 1)
        out: list[Element] = []
        for i, person in enumerate(task["people"][(page - 1) * self.PER_PAGE:page * self.PER_PAGE]):
            out += [Text(person["name"], emphasis=True, id=f"name{i + 1}"),
                    Link(person["phone"], f"{SUBMIT}?phone={person['phone']}", id=person["phone_id"]),
                    Link(person["email"], f"{SUBMIT}?email={quote(person['email'])}", id=person["email_id"])]
        return [*out, _pager(len(task["people"]) // self.PER_PAGE, page)]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        return _page_of(view, form, len(task["people"]) // self.PER_PAGE)


def _facts(r: TaskRandom, n: int) -> list[list[str]]:
    return [[key, r.choice(values)] for key, values in r.sample(FACTS, n)]


def _fact_table(rows: list[list[str]]) -> Table:
    return Table(rows=tuple((Text(k, emphasis=True, id=f"k{i}"), Text(v, id=f"v{i}"))
                            for i, (k, v) in enumerate(rows, 1)), id="facts")


@register
class ReadTable(TaskKind):
    name = "read-table"
    family = "navigation"
    miniwob = "read-table"
    title = "Read a value from a table"
    variation = "4 rows of 10 keys (Color, Year, City...) and their values; which key is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        rows = _facts(r, 4)
        key, value = r.choice(rows)
        return {"instruction": f'Enter the value of "{key}" from the table into the text field and press Enter.',
                "rows": rows, "answer": value}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_fact_table(task["rows"]),
                Form(SUBMIT, (Input("answer", placeholder="Answer", id="f1"),), id="task")]


@register
class ReadTable2(TaskKind):
    name = "read-table-2"
    family = "navigation"
    miniwob = "read-table-2"
    title = "Read two values from a table"
    variation = "3 rows of 10 keys (Color, Year, City...) and their values; which two are asked for, in which order"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        rows = _facts(r, 3)
        first, second = r.sample(rows, 2)
        return {"instruction": f'Enter the values of "{first[0]}" and "{second[0]}" from the table into the '
                               "fields named after them, then press Enter.",
                "rows": rows, "keys": [first[0], second[0]], "answer1": first[1], "answer2": second[1]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        k1, k2 = task["keys"]
        return [_fact_table(task["rows"]),
                Form(SUBMIT, (Input("first", placeholder=k1, id="f1"), Input("second", placeholder=k2, id="f2")),
                     id="task")]
