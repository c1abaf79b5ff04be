"""Reasoning: counting words, comparing and computing numbers, transforming text, guessing a
number from feedback, copying text and reading symbols (MiniWoB++'s find-word,
find-greatest, simple-arithmetic, simple-algebra, odd-or-even, text-transform, guess-number,
copy-paste and unicode-test tasks).

The answer is always what the page submits: a typed field, a pressed button or chosen
radios. What must be worked out (the word, the number, the parity) is on the page, never
in an element's id.
"""

from __future__ import annotations

from typing import Any

from cwgym.protocol.page import Button, Element, Form, Heading, Input, Radio, Table, Text, TextArea
from cwgym.webtasks import ACT, SUBMIT, TaskInputError, TaskKind, TaskRandom, register
from cwgym.webtasks.reasoning_data import LETTERS, ORDINALS, SYMBOLS, VARIABLES
from cwgym.webtasks.words import WORDS


def _answer_form(label: str, name: str = "answer") -> Form:
    """One text field (``f-answer``) and a Submit button: how a typed answer is sent."""
    return Form(SUBMIT, (Input(name, label=label, id=f"f-{name}"), Button("Submit", id="submit")), id="task")


def _rows(buttons: tuple[Button, ...], table_id: str) -> Table:
    """Buttons three to a row, so six fit the kiosk's width."""
    return Table(rows=tuple(buttons[i:i + 3] for i in range(0, len(buttons), 3)), id=table_id)


def _signed(n: int) -> str:
    """``n`` as a term after an operator: ``+ 3`` or ``- 3``."""
    return f"+ {n}" if n >= 0 else f"- {-n}"


@register
class FindWord(TaskKind):
    name = "find-word"
    family = "reasoning"
    miniwob = "find-word"
    title = "Type the Nth word"
    variation = "a paragraph of 8-12 words; which position is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        words = r.sample(WORDS, r.randint(8, 12))
        n = r.randint(1, len(words))
        return {"instruction": f'Find the {ORDINALS[n - 1]} word in the paragraph, type that into the textbox '
                               f'and press "Submit".',
                "words": words, "answer": words[n - 1]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Text(" ".join(task["words"]), id="paragraph"), _answer_form("Word")]


@register
class FindGreatest(TaskKind):
    name = "find-greatest"
    family = "reasoning"
    miniwob = "find-greatest"
    title = "Click the greatest number"
    variation = "4-6 buttons with distinct numbers from -20 to 99, their order"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        numbers = r.sample(range(-20, 100), r.randint(4, 6))
        best = numbers.index(max(numbers))
        phrase = r.choice(("greatest", "largest", "highest"))
        return {"instruction": f"Click the button with the {phrase} number.", "numbers": numbers,
                "answer": str(numbers[best]), "answer_id": f"b{best + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        buttons = tuple(Button(str(n), name="number", value=str(n), id=f"b{i}") for i, n in enumerate(task["numbers"], 1))
        return [Form(SUBMIT, (_rows(buttons, "numbers"),), id="task")]


#: The operations simple-arithmetic asks for: (name in the instruction, sign on the page).
OPERATIONS = (("addition", "+"), ("subtraction", "-"), ("multiplication", "×"))


@register
class SimpleArithmetic(TaskKind):
    name = "simple-arithmetic"
    family = "reasoning"
    miniwob = "simple-arithmetic"
    title = "Solve an arithmetic problem"
    variation = "the operation (+, - or ×) and its two numbers (0-20 to add and subtract, 1-12 to multiply)"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        op, sign = r.choice(OPERATIONS)
        if sign == "×":
            a, b = r.randint(1, 12), r.randint(1, 12)
            result = a * b
        else:
            a, b = r.randint(0, 20), r.randint(0, 20)
            if sign == "-":
                a, b = max(a, b), min(a, b)  # no negative results
            result = a + b if sign == "+" else a - b
        return {"instruction": f"Solve the {op} problem on the page and type your answer into the textbox. "
                               f'Press "Submit" when done.',
                "problem": f"{a} {sign} {b} =", "answer": str(result)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Heading(task["problem"], level=2, id="problem"), _answer_form("Answer")]


@register
class SimpleAlgebra(TaskKind):
    name = "simple-algebra"
    family = "reasoning"
    miniwob = "simple-algebra"
    title = "Solve for a variable"
    variation = "the variable's letter, its integer value (-9 to 15), the coefficient and constant, the equation's form"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        var = r.choice(VARIABLES)
        value = r.choice([v for v in range(-9, 16) if v != 0])
        a, b = r.randint(1, 9), r.choice([v for v in range(-20, 21) if v != 0])
        c = a * value + b
        term = var if a == 1 else f"{a}{var}"
        form = r.below(3)
        if form == 0:
            equation = f"{term} {_signed(b)} = {c}"
        elif form == 1:
            equation = f"{c} = {term} {_signed(b)}"
        else:  # the constant first: b + ax = c
            equation = f"{b} + {term} = {c}"
        return {"instruction": f'Solve for {var} and type your answer into the textbox. Press "Submit" when done.',
                "equation": equation, "answer": str(value)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Heading(task["equation"], level=2, id="equation"), _answer_form("Answer")]


@register
class OddOrEven(TaskKind):
    name = "odd-or-even"
    family = "reasoning"
    miniwob = "odd-or-even"
    title = "Mark numbers odd or even"
    variation = "4 numbers from -30 to 99 (each row has an Odd and an Even radio); the instruction's wording"

    COUNT = 4

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        numbers = [r.randint(-30, 99) for _ in range(self.COUNT)]
        answers = ["even" if n % 2 == 0 else "odd" for n in numbers]
        wording = r.choice(("Mark the numbers below as odd or even and press Submit when done.",
                            "For each number below, choose Odd or Even, then press Submit."))
        return {"instruction": wording, "numbers": numbers, "answers": answers,
                "pick_ids": [f"r{i}-{2 if a == 'even' else 1}" for i, a in enumerate(answers, 1)]}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        rows = tuple((Text(str(n), emphasis=True, id=f"n{i}"),
                      Radio(f"n{i}", "odd", label="Odd", id=f"r{i}-1"),
                      Radio(f"n{i}", "even", label="Even", id=f"r{i}-2"))
                     for i, n in enumerate(task["numbers"], 1))
        return [Form(SUBMIT, (Table(rows=rows, id="numbers"), Button("Submit", id="submit")), id="task")]


@register
class TextTransform(TaskKind):
    name = "text-transform"
    family = "reasoning"
    miniwob = "text-transform"
    title = "Type text transformed"
    variation = ("either 5-7 letters to type backwards or 3 words to type in a stated order "
                 "(MiniWoB++ shows distorted text instead)")

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        if r.chance(1, 2):
            text = "".join(r.choice(LETTERS) for _ in range(r.randint(5, 7)))
            return {"instruction": 'Type the text shown below backwards (its last letter first) into the textbox, '
                                   'then press "Submit".',
                    "text": text, "answer": text[::-1]}
        words = r.sample(WORDS, 3)
        order = r.choice(((0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))  # never the shown order
        stated = ", ".join(str(i + 1) for i in order)
        return {"instruction": f"Type the three words shown below in the order {stated} (by their position), "
                               f'separated by spaces, into the textbox, then press "Submit".',
                "text": " ".join(words), "answer": " ".join(words[i] for i in order)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [Heading(task["text"], level=2, id="text"), _answer_form("Text")]


def _bisect(lo: int, hi: int, secret: int) -> list[int]:
    """The guesses of a halving search for ``secret`` in ``[lo, hi]``: guess the middle,
    keep the half the feedback points to, stop at a correct guess or one number left."""
    guesses: list[int] = []
    while lo < hi:
        guess = (lo + hi) // 2
        guesses.append(guess)
        if guess == secret:
            break
        lo, hi = (guess + 1, hi) if secret > guess else (lo, guess - 1)
    return guesses


#: The ranges guess-number draws its number from (a dozen buttons at most fit the kiosk).
GUESS_RANGES = ((0, 9), (1, 9), (1, 10), (0, 11), (1, 12))
#: Guesses the expert's halving search makes (the number is drawn so it takes exactly this many).
GUESSES = 3
#: Guesses a page remembers.
MAX_GUESSES = 30


@register
class GuessNumber(TaskKind):
    name = "guess-number"
    family = "reasoning"
    miniwob = "guess-number"
    title = "Guess the number"
    variation = (f"the range (0-9 up to 1-12, one button a number) and the number in it, one a halving "
                 f"search finds with {GUESSES} guesses")

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        lo, hi = r.choice(GUESS_RANGES)
        secret = r.choice([n for n in range(lo, hi + 1) if len(_bisect(lo, hi, n)) == GUESSES])
        guesses = _bisect(lo, hi, secret)
        return {"instruction": f"Guess the number between {lo} and {hi}: press a number to guess it, and the page "
                               f"says whether the number is higher or lower. When you know it, type it under Answer "
                               f'and press "Submit".',
                "low": lo, "high": hi, "guess_ids": [f"g{g}" for g in guesses], "answer": str(secret)}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        secret = int(task["answer"])
        guesses = view.get("guesses", [])
        if guesses:
            last = guesses[-1]
            said = f"{last} is correct!" if last == secret else \
                f"{'Higher' if secret > last else 'Lower'} than {last}."
            feedback = Text(said, emphasis=True, id="feedback")
        else:
            feedback = Text(f"Guess: {task['low']} to {task['high']}", id="feedback")
        buttons = [Button(str(n), name="guess", value=str(n), id=f"g{n}") for n in range(task["low"], task["high"] + 1)]
        keypad = Table(rows=tuple(tuple(buttons[i:i + 4]) for i in range(0, len(buttons), 4)), id="keypad")
        return [feedback, Form(ACT, (keypad,), id="guessing"), _answer_form("Answer")]

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        text = form.get("guess", "").strip()
        lo, hi = task["low"], task["high"]
        if not text.isdigit() or not lo <= int(text) <= hi:
            raise TaskInputError(f"a guess is guess=<a whole number from {lo} to {hi}>")
        guesses = view.get("guesses", [])
        if len(guesses) >= MAX_GUESSES:
            raise TaskInputError(f"the page takes at most {MAX_GUESSES} guesses")
        return {"guesses": [*guesses, int(text)]}


@register
class CopyPaste(TaskKind):
    name = "copy-paste"
    family = "reasoning"
    miniwob = "copy-paste"
    title = "Copy text into a field"
    variation = "3-5 words in the text area"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        text = " ".join(r.sample(WORDS, r.randint(3, 5)))
        wording = r.choice(('Copy the text in the text area below, paste it into the textbox and press "Submit".',
                            'Copy the text from the box at the top into the field below it, then press "Submit".'))
        return {"instruction": wording, "text": text, "answer": text}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        return [TextArea("source", value=task["text"], rows=2, id="source"), _answer_form("Paste here", "text")]


@register
class UnicodeTest(TaskKind):
    name = "unicode-test"
    family = "reasoning"
    miniwob = "unicode-test"
    title = "Click a symbol"
    variation = "3-6 buttons labelled with symbols (some look alike), their order; which one is asked for"

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        symbols = r.sample(SYMBOLS, r.randint(3, 6))
        answer = r.below(len(symbols))
        return {"instruction": f'Click on the "{symbols[answer]}" button.', "buttons": symbols,
                "answer": symbols[answer], "answer_id": f"b{answer + 1}"}

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        buttons = tuple(Button(s, name="symbol", value=s, id=f"b{i}") for i, s in enumerate(task["buttons"], 1))
        return [Form(SUBMIT, (_rows(buttons, "symbols"),), id="task")]
