"""Clicking: buttons, checkboxes and links (MiniWoB++'s click-* tasks)."""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import Button, Checkbox, Element, Form, Link, Text
from cwgym.webtasks import SUBMIT, TaskKind, TaskRandom, register
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
