"""The widget kinds: seeded generation, pages that render, experts whose gesture counts are
fixed per kind, and answers the verifier tells apart (the procedure's passes, another fails)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.procedures import load_procedure, project, stage, verify
from cwgym.protocol.page import (
    PALETTE,
    Details,
    Dialog,
    Range,
    SortList,
    stepped,
    suggestion_matches,
)
from cwgym.resources import load_world
from cwgym.webtasks import generate, kind_of
from cwgym.webtasks.widgets_data import COUNTRIES

KINDS = ("click-collapsible", "click-collapsible-2", "click-dialog", "click-dialog-2", "choose-list", "use-slider",
         "use-spinner", "enter-time", "choose-date", "use-autocomplete", "use-colorwheel", "drag-sort-numbers")


@pytest.mark.parametrize("kind", KINDS)
def test_generation_is_seeded_and_varies(kind):
    assert generate(kind, 3) == generate(kind, 3)
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["instruction"] for t in tasks}) >= 2
    assert all(set(t) == set(tasks[0]) for t in tasks)
    for key, value in tasks[0].items():  # lists the gestures index into keep their length
        if isinstance(value, list) and key in ("focus", "clicks", "nav", "drags"):
            assert {len(t[key]) for t in tasks} == {len(value)}


def _env(world: World):
    return world.environment({"actor": "agent", "machines": ["kiosk"], "actions": ["http.v1"], "observations": []})


def _get(env, path: str) -> tuple[int, str]:
    out = env.step([{"family": "http.v1", "op": "request", "machine": "kiosk",
                     "payload": {"method": "GET", "url": "http://tasks.web" + path, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


def _ids(elements) -> list[str]:
    out = []
    for element in elements:
        out.append(element.id)
        out += _ids(getattr(element, "children", ()))
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_renders_with_unique_ids(kind):
    world = World(load_world("web-tasks"), seed=0)
    world.set_service_state("tasks", {"task": {"kind": kind, "seed": 4}})
    status, html = _get(_env(world), "/")
    assert status == 200 and "<html" in html
    ids = _ids(kind_of(kind).page(generate(kind, 4), {}))
    assert len(ids) == len(set(ids)) and all(ids)


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "click-collapsible":
        return {"section": task["answer"] + "s"}
    if kind == "click-collapsible-2":
        return {"link": next(w for panel in task["panels"] for w in panel if w != task["answer"])}
    if kind == "click-dialog":
        return {"other": "x"}
    if kind == "click-dialog-2":
        return {"button": next(w for w in ("x", "OK", "Cancel") if w != task["answer"])}
    if kind == "choose-list":
        return {"country": next(w for w in task["items"] if w != task["answer"])}
    if kind == "use-slider":
        return {"value": str(int(task["answer"]) - int(task["step"]))}
    if kind == "use-spinner":
        return {"number": str(-int(task["answer"]))}
    if kind == "enter-time":
        hour, minute = task["answer"].split(":")
        return {"time": f"{(int(hour) + 12) % 24:02d}:{minute}"}  # AM read as PM, or the other way
    if kind == "choose-date":
        return {"date": task["start"]}
    if kind == "use-autocomplete":
        return {"country": task["start"]}
    if kind == "use-colorwheel":
        return {"colour": task["start"]}
    return {"number": ",".join(task["numbers"])}  # drag-sort-numbers, unsorted


@pytest.mark.parametrize("kind", KINDS)
def test_the_procedures_answer_verifies_and_a_wrong_one_does_not(kind):
    world = World(load_world("web-tasks"), seed=0)
    instance = stage(world, load_procedure(f"web-{kind}"), seed=2)
    assert project(world, instance, {"mode": "tool"}).verification.passed
    wrong = World(load_world("web-tasks"), seed=0)
    instance = stage(wrong, load_procedure(f"web-{kind}"), seed=2)
    fields = _wrong(kind, instance.params["task"])
    assert _get(_env(wrong), "/submit?" + urlencode(fields))[0] == 200
    assert wrong.service_state("tasks")["submission"]["fields"] == fields
    assert not verify(wrong, instance).passed


def test_the_collapsibles_hide_the_answer_until_opened():
    task = generate("click-collapsible", 1)
    (section,) = kind_of("click-collapsible").page(task, {})
    assert isinstance(section, Details) and not section.open and "submit" in _ids(section.children)
    task = generate("click-collapsible-2", 1)
    sections = kind_of("click-collapsible-2").page(task, {})
    holder = next(s for s in sections if s.id == task["section_id"])
    assert all(isinstance(s, Details) and not s.open for s in sections)
    assert task["answer_id"] in _ids(holder.children)


def test_the_dialogs_hold_every_button():
    for kind in ("click-dialog", "click-dialog-2"):
        dialog = kind_of(kind).page(generate(kind, 2), {})[-1]
        assert isinstance(dialog, Dialog) and "b1" in _ids(dialog.children)


def test_the_slider_and_spinner_experts_reach_the_asked_value():
    for seed in range(20):
        task = generate("use-slider", seed)
        steps = sum(2 if i < 5 else 1 for i, f in enumerate(task["focus"]) if f == "el:slider")
        assert steps * int(task["step"]) == int(task["answer"]) <= int(task["max"])
        (form,) = kind_of("use-slider").page(task, {})
        assert isinstance(form.children[0], Range)
        task = generate("use-spinner", seed)
        field = kind_of("use-spinner").page(task, {})[0].children[0]
        value = field.value
        for click in task["clicks"]:
            value = stepped(field, value, {"num:up": 1, "num:down": -1, "num": 0}[click])
        assert value == task["answer"] != "0"


def test_the_date_expert_moves_the_month_to_the_asked_date():
    for seed in range(20):
        task = generate("choose-date", seed)
        moves = sum({"cal:date:next": 1, "cal:date:prev": -1, "el:date": 0}[n] for n in task["nav"])
        assert int(task["answer"][5:7]) - int(task["start"][5:7]) == moves != 0


def test_the_completion_is_offered_for_the_typed_start_and_singled_out_by_its_end():
    field = kind_of("use-autocomplete").page(generate("use-autocomplete", 0), {})[0].children[0]
    assert field.suggestions == COUNTRIES
    for seed in range(20):
        task = generate("use-autocomplete", seed)
        shown = suggestion_matches(field, task["start"])
        assert shown[int(task["index"])] == task["answer"] and len(shown) >= 2
        end = task["instruction"].split('ends with "')[1].split('"')[0]
        assert [s for s in shown if s.endswith(end)] == [task["answer"]]


def test_the_colour_is_named_from_the_palette_and_the_picker_starts_elsewhere():
    for seed in range(20):
        task = generate("use-colorwheel", seed)
        assert PALETTE[int(task["index"])] == (task["colour"], task["answer"]) and task["start"] != task["answer"]


def test_drag_sort_always_drags_four_times_and_the_drags_sort():
    lengths = set()
    for seed in range(30):
        task = generate("drag-sort-numbers", seed)
        rows = list(task["numbers"])
        lengths.add(len(rows))
        assert rows != sorted(rows, key=int) and len(task["drags"]) == 4
        for start, end in task["drags"]:
            rows.insert(int(end), rows.pop(int(start)))
        assert rows == sorted(task["numbers"], key=int) and ",".join(rows) == task["answer"]
        assert isinstance(kind_of("drag-sort-numbers").page(task, {})[0].children[0], SortList)
    assert lengths == {4, 5}


def test_dragging_a_row_onto_its_own_place_changes_nothing():
    """A four-number list's expert ends with a drag of the last row onto itself."""
    procedure = load_procedure("web-drag-sort-numbers")
    for seed in range(50):
        world = World(load_world("web-tasks"), seed=0)
        instance = stage(world, procedure, seed=seed)
        if len(instance.params["task"]["numbers"]) == 4:
            break
    assert instance.params["task"]["drags"][-1] == ["3", "3"]
    demo = project(world, instance, {"mode": "gui"})
    assert demo.verification.passed, demo.failure
