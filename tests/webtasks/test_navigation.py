"""The navigation kinds: the tree's and the search's view changes, and answers the verifier
tells apart (another one fails; test_every_kind.py checks what every kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import element_ids, family_kinds, submit

from cwgym.webtasks import TaskInputError, generate, kind_of

KINDS = ("navigate-tree", "search-engine", "phone-book", "read-table", "read-table-2")


def test_these_kinds_are_navigation():
    assert set(KINDS) <= family_kinds("navigation")


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "navigate-tree":
        return {"file": next(n["name"] for n in task["nodes"] if not n["folder"] and n["name"] != task["answer"])}
    if kind == "search-engine":
        return {"result": task["results"][0]}
    if kind == "phone-book":
        return {task["field"]: next(p[task["field"]] for p in task["people"] if p[task["field"]] != task["answer"])}
    if kind == "read-table":
        return {"answer": task["answer"] + "x"}
    return {"first": task["answer2"], "second": task["answer1"]}


def test_the_tree_opens_only_folders_that_show():
    kind, task = kind_of("navigate-tree"), generate("navigate-tree", 1)
    folder, sub = task["open_ids"]
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "toggle", "node": sub})
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "toggle", "node": task["answer_id"]})
    view = kind.act(task, kind.act(task, {}, {"op": "toggle", "node": folder}), {"op": "toggle", "node": sub})
    ids = element_ids(kind.page(task, view))
    assert task["answer_id"] in ids and task["answer_id"] not in element_ids(kind.page(task, {}))
    assert kind.act(task, view, {"op": "toggle", "node": folder})["open"] == [sub]


def test_search_shows_results_only_for_the_asked_query_and_pages_them():
    kind, task = kind_of("search-engine"), generate("search-engine", 5)
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "page", "p": "2"})
    wrong = kind.act(task, {}, {"op": "search", "q": "zzz"})
    assert task["answer_id"] not in element_ids(kind.page(task, wrong))
    view = kind.act(task, {}, {"op": "search", "q": task["query"].upper()})
    assert task["answer_id"] not in element_ids(kind.page(task, view))  # always on page 2 or 3
    view = kind.act(task, view, {"op": "page", "p": task["page_id"][1:]})
    assert task["answer_id"] in element_ids(kind.page(task, view))
    with pytest.raises(TaskInputError):
        kind.act(task, view, {"op": "page", "p": "4"})

