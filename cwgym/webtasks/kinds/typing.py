"""Typing: text, passwords, dates, focus and log-in fields (MiniWoB++'s enter-*, focus-*
and login-user tasks).

Every page is a short form: the expert clicks into a field and types, and the same answer
through ``browser.v1`` is a ``fill``. The focus kinds put each field in a form of its own
that names the field in a hidden input, so pressing Enter in a field tells which one it was.
"""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import Button, Element, Form, Input, Text
from cwgym.webtasks import SUBMIT, TaskKind, TaskRandom, register
from cwgym.webtasks.words import FIRST_NAMES, LAST_NAMES, WORDS

#: Characters of generated strings and passwords: no 0/O or 1/l/I to misread.
CHARS = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: How the focus kinds call the fields, first to third.
ORDINALS = ("1st", "2nd", "3rd")
#: Month names for the dates instructions say in words.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _submit(*children: Element, button: str = "Submit") -> Form:
    return Form(SUBMIT, (*children, Button(button, id="submit")), id="task")


def _string(r: TaskRandom, lo: int, hi: int) -> str:
    return "".join(r.choice(CHARS) for _ in range(r.randint(lo, hi)))


@register
class EnterText(TaskKind):
    name = "enter-text"
    family = "typing"
    miniwob = "enter-text"
    title = "Enter a word"
    variation = "the word or name to type, and the field's label"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        text = r.choice(WORDS) if r.chance(1, 2) else r.choice(FIRST_NAMES)
        return {"instruction": f'Enter "{text}" into the text field and press Submit.', "answer": text,
                "label": r.choice(("Text", "Answer", "Entry", "Input"))}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("text", label=task["label"], id="field"))]


@register
class EnterText2(TaskKind):
    name = "enter-text-2"
    family = "typing"
    miniwob = "enter-text-2"
    title = "Enter a text in upper or lower case"
    variation = "two words in mixed case, and whether upper or lower case is asked"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, 2)
        shown = " ".join("".join(c.upper() if r.chance(1, 2) else c for c in w) for w in words)
        upper = r.chance(1, 2)
        case = "upper" if upper else "lower"
        answer = shown.upper() if upper else shown.lower()
        return {"instruction": f'Type "{shown}" in all {case} case letters in the text field and press Submit.',
                "shown": shown, "answer": answer}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("text", label="Text", id="field"))]


@register
class EnterTextDynamic(TaskKind):
    name = "enter-text-dynamic"
    family = "typing"
    miniwob = "enter-text-dynamic"
    title = "Enter a random string"
    variation = "a string of 5-8 letters and digits"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        text = _string(r, 5, 8)
        return {"instruction": f'Enter "{text}" into the text field and press Submit.', "answer": text}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("text", label="Text", id="field"))]


@register
class EnterPassword(TaskKind):
    name = "enter-password"
    family = "typing"
    miniwob = "enter-password"
    title = "Enter a password twice"
    variation = "a password of 4-8 letters and digits"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        password = _string(r, 4, 8)
        return {"instruction": f'Enter the password "{password}" into both fields and press Submit.',
                "answer": password}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("password", label="Password", type="password", id="pw1"),
                        Input("verify", label="Verify", type="password", id="pw2"))]


@register
class EnterDate(TaskKind):
    name = "enter-date"
    family = "typing"
    miniwob = "enter-date"
    title = "Type a date"
    variation = "the date (2000-2030), said as MM/DD/YYYY or in words; typed as YYYY-MM-DD"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        year, month, day = r.randint(2000, 2030), r.randint(1, 12), r.randint(1, 28)
        said = f"{month:02d}/{day:02d}/{year}" if r.chance(1, 2) else f"{MONTHS[month - 1]} {day}, {year}"
        return {"instruction": f"Enter {said} as the date and hit Submit.",
                "answer": f"{year}-{month:02d}-{day:02d}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_submit(Input("date", label="Date", type="date", id="date"))]


def _focus_form(index: int, label: str) -> Form:
    """Field ``index`` (1-based) in a form of its own: Enter in it sends ``field=<index>``."""
    return Form(SUBMIT, (Input(f"text{index}", label=label, id=f"f{index}"),
                         Input("field", value=str(index), type="hidden", id=f"h{index}")), id=f"form{index}")


@register
class FocusText(TaskKind):
    name = "focus-text"
    family = "typing"
    miniwob = "focus-text"
    title = "Focus a field"
    variation = "the wording of the instruction and the field's label"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        verb = r.choice(("Focus into the textbox", "Put the cursor in the text field", "Click into the field"))
        return {"instruction": f"{verb} and press Enter.", "label": r.choice(("Text", "Field", "Here")),
                "answer": "1"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_focus_form(1, task["label"])]


@register
class FocusText2(TaskKind):
    name = "focus-text-2"
    family = "typing"
    miniwob = "focus-text-2"
    title = "Focus one of three fields"
    variation = "which of the three fields is asked for, and the instruction's wording"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        index = r.randint(1, 3)
        verb = r.choice(("Focus into", "Put the cursor in", "Click into"))
        return {"instruction": f"{verb} the {ORDINALS[index - 1]} text field and press Enter.",
                "answer": str(index), "answer_id": f"f{index}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [_focus_form(i, "") for i in (1, 2, 3)]


@register
class LoginUser(TaskKind):
    name = "login-user"
    family = "typing"
    miniwob = "login-user"
    title = "Log in"
    variation = "the user name and the password"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        user = (r.choice(FIRST_NAMES) + r.choice(LAST_NAMES)[:r.randint(1, 3)]).lower()
        password = _string(r, 3, 6)
        return {"instruction": f'Enter the username "{user}" and the password "{password}", then press Login.',
                "user": user, "password": password}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Text("Sign in", emphasis=True, id="heading"),
                _submit(Input("username", label="Username", id="user"),
                        Input("password", label="Password", type="password", id="pass"), button="Login")]
