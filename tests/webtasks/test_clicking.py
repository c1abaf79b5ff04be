"""The clicking kinds: the page's own view changes and answers the verifier tells apart
(a near miss fails; test_every_kind.py checks what every kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import family_kinds, submit

from cwgym.protocol.page import Button, Checkbox, Form, Link, Radio
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, generate, kind_of
from cwgym.webtasks.clicking_data import SYNONYMS

KINDS = ("click-button", "click-checkboxes", "click-link", "click-button-sequence", "click-option",
         "click-tab", "click-tab-2", "click-menu", "click-widget", "click-test", "click-test-2",
         "click-checkboxes-large", "click-checkboxes-soft")


def test_these_kinds_are_clicking():
    assert set(KINDS) <= family_kinds("clicking")


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind in ("click-button", "click-test-2"):
        return {"button": next(w for w in task["buttons"] if w != task["answer"])}
    if kind == "click-test":
        return {"button": task["answer"] + "!"}
    if kind in ("click-checkboxes", "click-checkboxes-large", "click-checkboxes-soft"):
        return {"pick": ",".join(task["ticked"].split(",")[:-1])}
    if kind in ("click-link", "click-tab-2"):
        return {"link": next(w for w in task.get("words") or task["panels"][0] if w != task["answer"])}
    if kind == "click-button-sequence":
        return {"first": task["second"], "second": task["first"]}
    if kind == "click-option":
        return {"option": next(w for w in task["options"] if w != task["answer"])}
    if kind == "click-tab":
        return {"tab": str(int(task["answer"]) % task["tabs"] + 1)}
    if kind == "click-menu":
        return {"menu": task["menu"], "item": next(w for items in task["items"] for w in items if w != task["item"])}
    return {"widget": "button" if task["answer"] != "button" else "checkbox"}  # click-widget


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def test_the_button_sequence_remembers_the_first_press():
    kind, task = kind_of("click-button-sequence"), generate("click-button-sequence", 5)
    (form,) = kind.page(task, {})
    assert form.action == ACT
    view = kind.act(task, {}, {"press": task["first"]})
    assert view == {"pressed": task["first"]}
    form = kind.page(task, view)[-1]
    assert form.action == SUBMIT and form.children[0].value == task["first"]
    with pytest.raises(TaskInputError):
        kind.act(task, view, {"press": task["second"]})  # the second press is the answer, not a view
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"press": "nope"})


def test_click_tab_2_shows_one_tab_at_a_time_and_the_answer_is_never_on_the_first():
    kind = kind_of("click-tab-2")
    for seed in range(20):
        task = generate("click-tab-2", seed)
        assert task["tab_id"] != "tab1"
        first = {e.id for e in kind.page(task, kind.initial_view(task))}
        assert task["answer_id"] not in first
        view = kind.act(task, {"tab": 1}, {"op": "tab", "tab": task["tab_id"][3:]})
        assert task["answer_id"] in {e.id for e in kind.page(task, view)}
    with pytest.raises(TaskInputError):
        kind.act(task, {"tab": 1}, {"op": "tab", "tab": "9"})


def test_click_menu_opens_and_closes_a_submenu():
    kind, task = kind_of("click-menu"), generate("click-menu", 3)
    assert not any(e.action == SUBMIT for e in kind.page(task, {}) if isinstance(e, Form))
    op = {"op": f"open:{task['menu_id'][1:]}"}
    view = kind.act(task, {}, op)
    sub = next(e for e in kind.page(task, view) if isinstance(e, Form) and e.action == SUBMIT)
    assert sub.children[0].value == task["menu"]
    assert task["item_id"] in {b.id for b in sub.children[1].items}
    assert kind.act(task, view, op) == {}
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "open:7"})


def test_click_widget_has_one_control_of_each_kind_and_the_asked_one_reports_it():
    kind = kind_of("click-widget")
    for seed in range(10):
        task = generate("click-widget", seed)
        page = kind.page(task, {})
        flat = [c for e in page for c in ((e, *e.children) if isinstance(e, Form) else (e,))]
        controls = {e.id: e for e in flat if e.id.startswith("w")}
        assert len(controls) == 4
        asked = controls[task["answer_id"]]
        if isinstance(asked, (Checkbox, Radio)):
            assert asked.value == task["answer"]
        else:  # the button and the link change the view, which the form then carries
            assert isinstance(asked, (Button, Link))
            view = kind.act(task, {}, {"op": task["answer"]})
            assert "picked" not in {c.id for c in page[-1].children}
            hidden = next(c for c in kind.page(task, view)[-1].children if c.id == "picked")
            assert hidden.name == "widget" and hidden.value == task["answer"]
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"op": "radio"})


def test_click_checkboxes_soft_ticks_exactly_the_synonyms():
    group_of = {word: group for group in SYNONYMS for word in group}
    for seed in range(20):
        task = generate("click-checkboxes-soft", seed)
        given = task["instruction"].removeprefix("Select words similar to ").split(" and nothing")[0]
        given = given.replace(" and ", ", ").split(", ")
        similar = [w for w in task["boxes"] if any(group_of[w] == group_of[g] for g in given)]
        assert ",".join(similar) == task["ticked"] and len(similar) == 3
        assert not set(given) & set(task["boxes"])
