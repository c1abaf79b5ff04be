"""Clicking: buttons, checkboxes, radios, links, tabs, menus and lists (MiniWoB++'s click-* tasks)."""

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
    Radio,
    Table,
    Text,
)
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, TaskKind, TaskRandom, register
from cwgym.webtasks.clicking_data import SYNONYMS, TEST_LABELS, WIDGETS
from cwgym.webtasks.words import WORDS


@register
class ClickButton(TaskKind):
    name = "click-button"
    family = "clicking"
    miniwob = "click-button"
    title = "Click a button"
    variation = "3-6 buttons: their words, their order, which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(3, 6))
        answer = r.below(len(words))
        return {"instruction": f'Click on the "{words[answer]}" button.', "buttons": words,
                "answer": words[answer], "answer_id": f"b{answer + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        buttons = tuple(Button(w, name="button", value=w, id=f"b{i}") for i, w in enumerate(task["buttons"], 1))
        return [Form(SUBMIT, buttons, id="task")]


@register
class ClickCheckboxes(TaskKind):
    name = "click-checkboxes"
    family = "clicking"
    miniwob = "click-checkboxes"
    title = "Tick checkboxes"
    variation = "4-6 boxes: their words and order; which two to tick"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(4, 6))
        ticked = sorted(r.sample(range(len(words)), 2))
        names = [words[i] for i in ticked]
        return {"instruction": f"Select {names[0]} and {names[1]} and nothing else, then press Submit.",
                "boxes": words, "ticked": ",".join(names),
                "tick_ids": [f"c{i + 1}" for i in ticked]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        boxes = tuple(Checkbox("pick", label=w, value=w, id=f"c{i}") for i, w in enumerate(task["boxes"], 1))
        return [Form(SUBMIT, (*boxes, Button("Submit", id="submit")), id="task")]


@register
class ClickLink(TaskKind):
    name = "click-link"
    family = "clicking"
    miniwob = "click-link"
    title = "Click a link"
    variation = "a paragraph of 12-20 words with 3-5 of them links; which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(12, 20))
        links = sorted(r.sample(range(len(words)), r.randint(3, 5)))
        answer = r.choice(links)
        return {"instruction": f'Click on the link "{words[answer]}".', "words": words, "links": links,
                "answer": words[answer], "answer_id": f"w{answer + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        out: list[Element] = []
        run: list[str] = []
        for i, word in enumerate(task["words"]):
            if i in task["links"]:
                if run:
                    out.append(Text(" ".join(run), id=f"t{i}"))
                    run = []
                out.append(Link(word, f"{SUBMIT}?link={word}", id=f"w{i + 1}"))
            else:
                run.append(word)
        if run:
            out.append(Text(" ".join(run), id="t-end"))
        return out


@register
class ClickButtonSequence(TaskKind):
    name = "click-button-sequence"
    family = "clicking"
    miniwob = "click-button-sequence"
    title = "Click buttons in order"
    variation = "2-4 buttons: their words and order; which two to press, in which order"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(2, 4))
        first, second = r.sample(range(len(words)), 2)
        return {"instruction": f'Click the "{words[first]}" button, then the "{words[second]}" button.',
                "buttons": words, "first": words[first], "second": words[second],
                "first_id": f"b{first + 1}", "second_id": f"b{second + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        pressed = view.get("pressed")
        if pressed is None:  # the first press changes the view: the page remembers it
            buttons = tuple(Button(w, name="press", value=w, id=f"b{i}") for i, w in enumerate(task["buttons"], 1))
            return [Form(ACT, buttons, id="task")]
        buttons = tuple(Button(w, name="second", value=w, id=f"b{i}") for i, w in enumerate(task["buttons"], 1))
        return [Text(f"Pressed: {pressed}", id="pressed"),
                Form(SUBMIT, (Input("first", value=pressed, type="hidden", id="first"), *buttons), id="task")]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        pressed = form.get("press")
        if pressed not in task["buttons"] or "pressed" in view:
            raise TaskInputError(f"the buttons send press=<one of {', '.join(task['buttons'])}>, once")
        return {"pressed": pressed}


@register
class ClickOption(TaskKind):
    name = "click-option"
    family = "clicking"
    miniwob = "click-option"
    title = "Choose an option"
    variation = "3-6 radio buttons: their words and order; which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(3, 6))
        answer = r.below(len(words))
        return {"instruction": f'Select "{words[answer]}" and click Submit.', "options": words,
                "answer": words[answer], "answer_id": f"r{answer + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        radios = tuple(Radio("option", w, label=w, id=f"r{i}") for i, w in enumerate(task["options"], 1))
        return [Form(SUBMIT, (*radios, Button("Submit", id="submit")), id="task")]


@register
class ClickTab(TaskKind):
    name = "click-tab"
    family = "clicking"
    miniwob = "click-tab"
    title = "Click a tab"
    variation = "2-5 numbered tabs over a paragraph of words; which tab is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        tabs = r.randint(2, 5)
        answer = r.randint(1, tabs)
        return {"instruction": f"Click on Tab #{answer}.", "tabs": tabs, "panel": r.sample(WORDS, 8),
                "answer": str(answer), "answer_id": f"t{answer}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        tabs = [Link(f"Tab #{i}", f"{SUBMIT}?tab={i}", id=f"t{i}") for i in range(1, task["tabs"] + 1)]
        return [*tabs, Text(" ".join(task["panel"]), id="panel")]


@register
class ClickTab2(TaskKind):
    name = "click-tab-2"
    family = "clicking"
    miniwob = "click-tab-2"
    title = "Find a link behind a tab"
    variation = "2-4 tabs of 5 words, 2 of them links; which link (never on the first tab)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        tabs = r.randint(2, 4)
        words = r.sample(WORDS, 5 * tabs)
        panels = [words[5 * t:5 * t + 5] for t in range(tabs)]
        links = [sorted(r.sample(range(5), 2)) for _ in range(tabs)]
        tab = r.randint(2, tabs)  # the first tab is open at first: finding the link takes a switch
        slot = r.choice(links[tab - 1])
        word = panels[tab - 1][slot]
        return {"instruction": f'Switch between the tabs to find and click on the link "{word}".',
                "panels": panels, "links": links, "answer": word,
                "tab_id": f"tab{tab}", "answer_id": f"l{tab}-{slot + 1}"}

    def initial_view(self, task: dict[str, Any]) -> dict[str, Any]:
        return {"tab": 1}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        open_tab = view.get("tab", 1)
        out: list[Element] = [Link(("▸ " if i == open_tab else "") + f"Tab #{i}", f"{ACT}?op=tab&tab={i}", id=f"tab{i}")
                              for i in range(1, len(task["panels"]) + 1)]
        out.append(Heading(f"Tab #{open_tab}", level=2, id="panel-title"))
        run: list[str] = []
        for slot, word in enumerate(task["panels"][open_tab - 1]):
            if slot in task["links"][open_tab - 1]:
                if run:
                    out.append(Text(" ".join(run), id=f"p{open_tab}-{slot}"))
                    run = []
                out.append(Link(word, f"{SUBMIT}?link={word}", id=f"l{open_tab}-{slot + 1}"))
            else:
                run.append(word)
        if run:
            out.append(Text(" ".join(run), id=f"p{open_tab}-end"))
        return out

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        tabs = [str(i) for i in range(1, len(task["panels"]) + 1)]
        if form.get("op") != "tab" or form.get("tab") not in tabs:
            raise TaskInputError(f"the tabs send op=tab&tab=<1-{len(tabs)}>")
        return {"tab": int(form["tab"])}


@register
class ClickMenu(TaskKind):
    name = "click-menu"
    family = "clicking"
    miniwob = "click-menu"
    title = "Choose from a menu"
    variation = "3 menus of 3-4 items, all words; which menu and item are asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        sizes = [r.randint(3, 4) for _ in range(3)]
        words = r.sample(WORDS, 3 + sum(sizes))
        menus = words[:3]
        items, start = [], 3
        for size in sizes:
            items.append(words[start:start + size])
            start += size
        menu = r.below(3)
        item = r.below(sizes[menu])
        return {"instruction": f'Open the "{menus[menu]}" menu and select "{items[menu][item]}".',
                "menus": menus, "items": items, "menu": menus[menu], "item": items[menu][item],
                "menu_id": f"m{menu + 1}", "item_id": f"m{menu + 1}-{item + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        open_menu = view.get("open")
        out: list[Element] = []
        for i, word in enumerate(task["menus"], 1):
            top = Button(("▾ " if i == open_menu else "▸ ") + word, name="op", value=f"open:{i}", id=f"m{i}")
            out.append(Form(ACT, (top,), id=f"menu{i}"))
            if i == open_menu:  # the open menu's items, indented under it
                entries = tuple(Button(w, name="item", value=w, id=f"m{i}-{j}") for j, w in enumerate(task["items"][i - 1], 1))
                hidden = Input("menu", value=word, type="hidden", id="menu")
                out.append(Form(SUBMIT, (hidden, ListBlock(entries, id="items")), id="submenu"))
        return out

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        ops = {f"open:{i}": i for i in range(1, len(task["menus"]) + 1)}
        if form.get("op") not in ops:
            raise TaskInputError("the menus send op=open:<1-3>")
        chosen = ops[form["op"]]
        return {} if view.get("open") == chosen else {"open": chosen}


@register
class ClickWidget(TaskKind):
    name = "click-widget"
    family = "clicking"
    miniwob = "click-widget"
    title = "Click a kind of control"
    variation = "a button, a link, a checkbox and a radio button: their words and order; which kind is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, len(WIDGETS))
        order = r.shuffled(range(len(WIDGETS)))  # order[k]: the widget with id w<k+1>
        asked = r.below(len(WIDGETS))
        return {"instruction": f'Click on the {WIDGETS[asked][0]}, then on "Submit".',
                "words": words, "order": order, "answer": WIDGETS[asked][1],
                "answer_id": f"w{order.index(asked) + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        outside: list[Element] = []
        inside: list[Element] = []
        for k, which in enumerate(task["order"]):
            word, wid = task["words"][which], f"w{k + 1}"
            kind = WIDGETS[which][1]
            if kind == "button":  # a button that is not the form's: it tells the page it was pressed
                outside.append(Form(ACT, (Button(word, name="op", value="button", id=wid),), id=f"f{k + 1}"))
            elif kind == "link":
                outside.append(Link(word, f"{ACT}?op=link", id=wid))
            elif kind == "checkbox":
                inside.append(Checkbox("widget", label=word, value="checkbox", id=wid))
            else:
                inside.append(Radio("widget", "radio", label=word, id=wid))
        picked = view.get("picked")
        if picked is not None:
            outside.append(Text(f"Clicked: the {picked}", id="picked-text"))
            inside.append(Input("widget", value=picked, type="hidden", id="picked"))
        return [*outside, Form(SUBMIT, (*inside, Button("Submit", id="submit")), id="task")]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        if form.get("op") not in ("button", "link"):
            raise TaskInputError("the button and the link send op=button or op=link")
        return {"picked": form["op"]}


@register
class ClickTest(TaskKind):
    name = "click-test"
    family = "clicking"
    miniwob = "click-test"
    title = "Click the button"
    variation = "the one button's label and the wording of the instruction"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        label = r.choice(TEST_LABELS)
        verb = r.choice(("Click", "Press", "Click on"))
        return {"instruction": f"{verb} the button.", "label": label, "answer": label}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Form(SUBMIT, (Button(task["label"], name="button", value=task["label"], id="b1"),), id="task")]


@register
class ClickTest2(TaskKind):
    name = "click-test-2"
    family = "clicking"
    miniwob = "click-test-2"
    title = "Click one of two buttons"
    variation = "the two buttons' words and which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, 2)
        answer = r.below(2)
        return {"instruction": f'Click on the "{words[answer]}" button.', "buttons": words,
                "answer": words[answer], "answer_id": f"b{answer + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        buttons = tuple(Button(w, name="button", value=w, id=f"b{i}") for i, w in enumerate(task["buttons"], 1))
        return [Form(SUBMIT, buttons, id="task")]


def _tick_instruction(names: list[str]) -> str:
    return f"Select {', '.join(names[:-1])} and {names[-1]} and nothing else, then press Submit."


def _boxes(words: list[str]) -> list[Element]:
    """Checkboxes two to a row (a table), so a dozen fit the kiosk screen, and Submit."""
    boxes = [Checkbox("pick", label=w, value=w, id=f"c{i}") for i, w in enumerate(words, 1)]
    rows = tuple(tuple(boxes[i:i + 2]) for i in range(0, len(boxes), 2))
    return [Form(SUBMIT, (Table(rows=rows, id="boxes"), Button("Submit", id="submit")), id="task")]


@register
class ClickCheckboxesLarge(TaskKind):
    name = "click-checkboxes-large"
    family = "clicking"
    miniwob = "click-checkboxes-large"
    title = "Tick four of many checkboxes"
    variation = "8-12 boxes: their words and order; which four to tick"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(8, 12))
        ticked = sorted(r.sample(range(len(words)), 4))
        names = [words[i] for i in ticked]
        return {"instruction": _tick_instruction(r.shuffled(names)), "boxes": words, "ticked": ",".join(names),
                "tick_ids": [f"c{i + 1}" for i in ticked]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return _boxes(task["boxes"])


@register
class ClickCheckboxesSoft(TaskKind):
    name = "click-checkboxes-soft"
    family = "clicking"
    miniwob = "click-checkboxes-soft"
    title = "Tick the words similar to others"
    variation = "6-8 boxes: three synonyms of the given words among unrelated words; their order"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        groups = r.sample(SYNONYMS, 3 + r.randint(3, 5))
        given, shown = [], []
        for group in groups[:3]:
            pair = r.sample(group, 2)
            given.append(pair[0])
            shown.append(pair[1])
        shown += [r.choice(group) for group in groups[3:]]
        order = r.shuffled(range(len(shown)))
        words = [shown[i] for i in order]
        ticked = sorted(order.index(i) for i in range(3))
        return {"instruction": f"Select words similar to {given[0]}, {given[1]} and {given[2]} and nothing else, then press Submit.",
                "boxes": words, "ticked": ",".join(words[i] for i in ticked),
                "tick_ids": [f"c{i + 1}" for i in ticked]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return _boxes(task["boxes"])
