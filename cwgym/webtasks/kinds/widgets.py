"""Native widgets: disclosures, dialogs, lists, sliders, spinners, time, date and colour
pickers, suggestion boxes and reorderable lists (MiniWoB++'s click-collapsible,
click-dialog, choose-*, use-* and drag-sort tasks).

Each page is one form whose answer needs the widget operated the way a person does: the
expert's gestures are the widget's own (expand the summary, press the spinner, click the
calendar day, drag the row), and the same answer through ``browser.v1`` is a ``fill``.
"""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import (
    PALETTE,
    Button,
    Details,
    Dialog,
    Element,
    Form,
    Input,
    Link,
    Option,
    Range,
    Select,
    SortList,
    Text,
    suggestion_matches,
)
from cwgym.webtasks import SUBMIT, TaskKind, TaskRandom, register
from cwgym.webtasks.widgets_data import COUNTRIES, SECTION_WORDS
from cwgym.webtasks.words import WORDS

#: Steps of every use-slider range: the expert reaches any of them in a fixed number of presses.
SLIDER_STEPS = 10
#: How far use-spinner asks from 0: the expert always clicks this many times.
SPIN_CLICKS = 10
#: Rows the drag-sort list has at most: the expert always drags this many times less one.
SORT_ROWS = 5


def _submit(*children: Element) -> Form:
    return Form(SUBMIT, (*children, Button("Submit", id="submit")), id="task")


@register
class ClickCollapsible(TaskKind):
    name = "click-collapsible"
    family = "clicking"
    miniwob = "click-collapsible"
    title = "Expand a section and submit"
    variation = "the section's title and text; Submit is inside it, shown only when it is expanded"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        title = r.choice(SECTION_WORDS)
        verb = r.choice(("Expand", "Open"))
        return {"instruction": f'{verb} the section "{title}" below and click Submit.',
                "section": title, "text": r.sample(WORDS, 6), "answer": title}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        inside = (Text(" ".join(task["text"]), id="text"),
                  Form(SUBMIT, (Button("Submit", name="section", value=task["section"], id="submit"),), id="task"))
        return [Details(task["section"], inside, id="sec")]


@register
class ClickCollapsible2(TaskKind):
    name = "click-collapsible-2"
    family = "clicking"
    miniwob = "click-collapsible-2"
    title = "Find a link in a section"
    variation = "2-3 closed sections of 5 words, 2 of them links; which link, in which section"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        count = r.randint(2, 3)
        words = r.sample(WORDS, 5 * count)
        panels = [words[5 * s:5 * s + 5] for s in range(count)]
        links = [sorted(r.sample(range(5), 2)) for _ in range(count)]
        section = r.below(count)
        slot = r.choice(links[section])
        word = panels[section][slot]
        return {"instruction": f'Expand the sections below to find and click on the link "{word}".',
                "panels": panels, "links": links, "answer": word,
                "section_id": f"s{section + 1}", "answer_id": f"l{section + 1}-{slot + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        out: list[Element] = []
        for s, (panel, links) in enumerate(zip(task["panels"], task["links"], strict=True), 1):
            inside: list[Element] = []
            run: list[str] = []
            for slot, word in enumerate(panel):
                if slot in links:
                    if run:
                        inside.append(Text(" ".join(run), id=f"p{s}-{slot}"))
                        run = []
                    inside.append(Link(word, f"{SUBMIT}?link={word}", id=f"l{s}-{slot + 1}"))
                else:
                    run.append(word)
            if run:
                inside.append(Text(" ".join(run), id=f"p{s}-end"))
            out.append(Details(f"Section #{s}", tuple(inside), id=f"s{s}"))
        return out


@register
class ClickDialog(TaskKind):
    name = "click-dialog"
    family = "clicking"
    miniwob = "click-dialog"
    title = "Close a dialog"
    variation = "the dialog's title and text, and the wording of the instruction"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        title = r.choice(SECTION_WORDS)
        wording = r.choice(('Close the dialog box by clicking the "x".',
                            f'Close the "{title}" dialog by clicking its "x".'))
        return {"instruction": wording, "dialog": title, "text": r.sample(WORDS, 5), "answer": "x"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        inside = (Form(SUBMIT, (Button("×", name="close", value="x", id="b1"),), id="task"),
                  Text(" ".join(task["text"]), id="text"))
        return [Text(" ".join(reversed(task["text"])), id="behind"), Dialog(task["dialog"], inside, id="dialog")]


@register
class ClickDialog2(TaskKind):
    name = "click-dialog-2"
    family = "clicking"
    miniwob = "click-dialog-2"
    title = "Press a dialog's button"
    variation = 'the dialog\'s title and text, the order of OK and Cancel, which of them or the "x" is asked for'

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        order = r.shuffled(("OK", "Cancel"))
        labels = ["x", *order]
        asked = r.below(3)
        return {"instruction": f'Click the button in the dialog box labeled "{labels[asked]}".',
                "dialog": r.choice(SECTION_WORDS), "text": r.sample(WORDS, 5), "order": order,
                "answer": labels[asked], "answer_id": f"b{asked + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        buttons = (Button("×", name="button", value="x", id="b1"),
                   Text(" ".join(task["text"]), id="text"),
                   *(Button(w, name="button", value=w, id=f"b{i}") for i, w in enumerate(task["order"], 2)))
        return [Text(" ".join(reversed(task["text"])), id="behind"),
                Dialog(task["dialog"], (Form(SUBMIT, buttons, id="task"),), id="dialog")]


@register
class ChooseList(TaskKind):
    name = "choose-list"
    family = "widgets"
    miniwob = "choose-list"
    title = "Pick from a drop-down list"
    variation = "5-8 countries in a drop-down, their order, which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        items = r.sample(COUNTRIES, r.randint(5, 8))
        answer = r.below(len(items))
        return {"instruction": f"Select {items[answer]} from the list and click Submit.", "items": items,
                "answer": items[answer], "answer_index": str(answer)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        options = tuple(Option(w, w) for w in task["items"])
        return [_submit(Select("country", options, id="list"))]


@register
class UseSlider(TaskKind):
    name = "use-slider"
    family = "widgets"
    miniwob = "use-slider"
    title = "Set a slider"
    variation = "the slider's range (0-10 by 1, 0-20 by 2, 0-50 by 5 or 0-100 by 10) and the asked value"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        high, step = r.choice(((10, 1), (20, 2), (50, 5), (100, 10)))
        steps = r.randint(1, SLIDER_STEPS)  # never the minimum: the expert starts from Home
        # The expert's fixed presses: five of ArrowRight x2 and one of ArrowRight x1, each
        # after a click that focuses the slider (its label) or nothing (the page).
        pairs, single = divmod(steps, 2)
        focus = ["el:slider"] * pairs + ["page"] * (SLIDER_STEPS // 2 - pairs) + ["el:slider" if single else "page"]
        return {"instruction": f"Select {steps * step} with the slider and hit Submit.", "max": str(high),
                "step": str(step), "focus": focus, "answer": str(steps * step)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        # The page draws no number on the thumb: the scale says what each step is worth.
        scale = Text(f"0 to {task['max']}, in steps of {task['step']}", id="scale")
        return [_submit(Range("value", label="Value", min="0", max=task["max"], step=task["step"], id="slider"), scale)]


@register
class UseSpinner(TaskKind):
    name = "use-spinner"
    family = "widgets"
    miniwob = "use-spinner"
    title = "Set a number with a spinner"
    variation = "the asked number, -10 to 10 but not 0 (the field starts at 0)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        value = r.choice([n for n in range(-SPIN_CLICKS, SPIN_CLICKS + 1) if n])
        # The expert's fixed clicks: the arrow as many times as it takes, then into the field.
        clicks = ["num:up" if value > 0 else "num:down"] * abs(value) + ["num"] * (SPIN_CLICKS - abs(value))
        return {"instruction": f"Select {value} with the spinner and hit Submit.", "answer": str(value),
                "clicks": clicks}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("number", label="Number", value="0", type="number", min="-10", max="10", id="num"))]


def _clock(hour: int, minute: int) -> str:
    """``14, 5`` as ``2:05 PM``."""
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


@register
class EnterTime(TaskKind):
    name = "enter-time"
    family = "typing"
    miniwob = "enter-time"
    title = "Enter a time"
    variation = "the asked time, said as on a 12-hour clock (2:35 PM), entered as HH:MM"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        hour, minute = r.below(24), r.below(60)
        return {"instruction": f"Enter {_clock(hour, minute)} as the time and press Submit.",
                "answer": f"{hour:02d}:{minute:02d}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("time", label="Time", type="time", id="time"))]


@register
class ChooseDate(TaskKind):
    name = "choose-date"
    family = "widgets"
    miniwob = "choose-date"
    title = "Choose a date"
    variation = "the date the field starts at, and the asked one 1-2 months before or after it"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        year, month = 2026, r.randint(3, 10)
        shift = r.choice((-2, -1, 1, 2))
        start = f"{year}-{month:02d}-{r.randint(1, 28):02d}"
        asked_month, day = month + shift, r.randint(1, 28)
        answer = f"{year}-{asked_month:02d}-{day:02d}"
        # The expert's two clicks in the open month: the arrow as often as it takes, then
        # (one month away) on the month's own background, which changes nothing.
        nav = ["cal:date:next" if shift > 0 else "cal:date:prev"] * abs(shift) + ["el:date"] * (2 - abs(shift))
        return {"instruction": f"Select {asked_month:02d}/{day:02d}/{year} as the date and hit Submit.",
                "start": start, "answer": answer, "nav": nav}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("date", label="Date", value=task["start"], type="date", id="date"))]


@register
class UseAutocomplete(TaskKind):
    name = "use-autocomplete"
    family = "widgets"
    miniwob = "use-autocomplete"
    title = "Complete a word"
    variation = "the asked country: the start to type (2 letters) and the ending that singles it out"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        field = Input("country", suggestions=COUNTRIES)
        while True:  # a country that shares its start with another: choosing is the skill
            answer = r.choice(COUNTRIES)
            start = answer[:2]
            shown = suggestion_matches(field, start)
            if len(shown) >= 2 and answer in shown:
                break
        others = [s for s in shown if s != answer]
        end = next(answer[-n:] for n in range(2, len(answer) + 1) if not any(o.endswith(answer[-n:]) for o in others))
        return {"instruction": f'Enter an item that starts with "{start}" and ends with "{end}", then submit.',
                "start": start, "answer": answer, "index": str(shown.index(answer))}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("country", label="Country", suggestions=COUNTRIES, id="field"))]


@register
class UseColorwheel(TaskKind):
    name = "use-colorwheel"
    family = "widgets"
    miniwob = "use-colorwheel"
    title = "Pick a colour"
    variation = "the asked colour of the 16-colour palette and the colour the picker starts at"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        asked, start = r.sample(range(len(PALETTE)), 2)
        return {"instruction": f"Select the colour {PALETTE[asked][0]} with the colour picker and hit Submit.",
                "start": PALETTE[start][1], "colour": PALETTE[asked][0], "answer": PALETTE[asked][1],
                "index": str(asked)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("colour", label="Colour", value=task["start"], type="color", id="picker"))]


@register
class DragSortNumbers(TaskKind):
    name = "drag-sort-numbers"
    family = "widgets"
    miniwob = "drag-sort-numbers"
    title = "Sort numbers by dragging"
    variation = "4-5 distinct numbers from 1 to 20 in an unsorted order"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        count = r.randint(4, SORT_ROWS)
        numbers = r.sample(range(1, 21), count)
        while numbers == sorted(numbers):
            numbers = r.shuffled(numbers)
        order = [str(n) for n in numbers]
        # Selection by dragging: the smallest left is dragged onto place p (the rows from p
        # move down one); a list shorter than SORT_ROWS drags its last row onto itself.
        moves, rows = [], list(numbers)
        for p in range(SORT_ROWS - 1):
            if p >= len(rows):
                p = len(rows) - 1
            q = rows.index(min(rows[p:]))
            rows.insert(p, rows.pop(q))
            moves.append([str(q), str(p)])
        verb = r.choice(("Sort", "Drag"))
        return {"instruction": f"{verb} the {count} numbers into increasing order, the lowest at the top, then submit.",
                "numbers": order, "drags": moves, "sorted": "\n".join(str(n) for n in rows),
                "answer": ",".join(str(n) for n in rows)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(SortList("number", tuple(task["numbers"]), label="Numbers", id="list"))]
