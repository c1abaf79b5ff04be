"""The widget kinds: experts whose gesture counts are fixed per kind, and answers the
verifier tells apart (a near miss fails; test_every_kind.py checks what every kind shares)."""

from __future__ import annotations

import pytest
from webtask_kit import element_ids, submit, tasks_world

from cwgym.procedures import load_procedure, project, stage
from cwgym.protocol.page import (
    PALETTE,
    Details,
    Dialog,
    Range,
    SortList,
    stepped,
    suggestion_matches,
)
from cwgym.webtasks import generate, kind_of
from cwgym.webtasks.widgets_data import COUNTRIES

KINDS = ("click-collapsible", "click-collapsible-2", "click-dialog", "click-dialog-2", "choose-list", "use-slider",
         "use-spinner", "enter-time", "choose-date", "use-autocomplete", "use-colorwheel", "drag-sort-numbers")


@pytest.mark.parametrize("kind", KINDS)
def test_the_gesture_lists_keep_their_length_over_seeds(kind):
    tasks = [generate(kind, seed) for seed in range(20)]
    for key, value in tasks[0].items():  # lists the gestures index into keep their length
        if isinstance(value, list) and key in ("focus", "clicks", "nav", "drags"):
            assert {len(t[key]) for t in tasks} == {len(value)}


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
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def test_the_collapsibles_hide_the_answer_until_opened():
    task = generate("click-collapsible", 1)
    (section,) = kind_of("click-collapsible").page(task, {})
    assert isinstance(section, Details) and not section.open and "submit" in element_ids(section.children)
    task = generate("click-collapsible-2", 1)
    sections = kind_of("click-collapsible-2").page(task, {})
    holder = next(s for s in sections if s.id == task["section_id"])
    assert all(isinstance(s, Details) and not s.open for s in sections)
    assert task["answer_id"] in element_ids(holder.children)


def test_the_dialogs_hold_every_button():
    for kind in ("click-dialog", "click-dialog-2"):
        dialog = kind_of(kind).page(generate(kind, 2), {})[-1]
        assert isinstance(dialog, Dialog) and "b1" in element_ids(dialog.children)


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
        world = tasks_world()
        instance = stage(world, procedure, seed=seed)
        if len(instance.params["task"]["numbers"]) == 4:
            break
    assert instance.params["task"]["drags"][-1] == ["3", "3"]
    demo = project(world, instance, {"mode": "gui"})
    assert demo.verification.passed, demo.failure
