"""The reasoning kinds: answers that vary and are right (the word, the sum, the solution, the
parities), ids that do not give them away, the guessing page's feedback, and answers the
verifier tells apart (another one fails; test_every_kind.py checks what every kind shares)."""

from __future__ import annotations

import re

import pytest
from webtask_kit import element_ids, family_kinds, submit, tasks_world

from cwgym.procedures import load_procedure, project, stage
from cwgym.protocol.page import Form, Table, Text
from cwgym.text.fonts import hb_font
from cwgym.webtasks import TaskInputError, generate, kind_of
from cwgym.webtasks.kinds.reasoning import GUESSES, _bisect
from cwgym.webtasks.reasoning_data import ORDINALS, SYMBOLS, VARIABLES

KINDS = ("find-word", "find-greatest", "simple-arithmetic", "simple-algebra", "odd-or-even", "text-transform",
         "guess-number", "copy-paste", "unicode-test")


def test_these_kinds_are_reasoning():
    assert set(KINDS) <= family_kinds("reasoning")


@pytest.mark.parametrize("kind", KINDS)
def test_the_answers_vary_over_seeds(kind):
    tasks = [generate(kind, seed) for seed in range(20)]
    assert len({t["answer"] if isinstance(t.get("answer"), str) else str(t["answers"]) for t in tasks}) >= 5


@pytest.mark.parametrize("kind", KINDS)
def test_the_ids_do_not_give_the_answer_away(kind):
    task = generate(kind, 4)
    ids = element_ids(kind_of(kind).page(task, kind_of(kind).initial_view(task)))
    assert not any(word in i for i in ids for word in ("answer-id", "correct", "right", "solution"))


def _wrong(kind: str, task: dict) -> dict[str, str]:
    """An answer the page could send that is not the asked one."""
    if kind == "find-greatest":
        return {"number": str(min(task["numbers"]))}
    if kind == "unicode-test":
        return {"symbol": next(s for s in task["buttons"] if s != task["answer"])}
    if kind == "odd-or-even":
        flipped = {"odd": "even", "even": "odd"}
        return {f"n{i}": flipped[a] if i == 2 else a for i, a in enumerate(task["answers"], 1)}
    if kind == "copy-paste":
        return {"text": task["text"].rsplit(" ", 1)[0]}
    if kind == "text-transform":
        return {"answer": task["text"]}  # the shown text, untransformed
    if kind == "find-word":
        return {"answer": next(w for w in task["words"] if w != task["answer"])}
    return {"answer": str(int(task["answer"]) + 1)}


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_recorded_and_does_not_verify(kind):
    sent, recorded, passed = submit(kind, lambda task: _wrong(kind, task))
    assert recorded == sent and not passed


def test_the_answers_are_right():
    for seed in range(30):
        task = generate("find-word", seed)
        n = next(i for i, o in enumerate(ORDINALS, 1) if f" {o} word" in task["instruction"])
        assert task["answer"] == task["words"][n - 1]
        task = generate("find-greatest", seed)
        assert int(task["answer"]) == max(task["numbers"]) and len(set(task["numbers"])) == len(task["numbers"])
        assert task["numbers"][int(task["answer_id"][1:]) - 1] == int(task["answer"])
        task = generate("simple-arithmetic", seed)
        a, sign, b, _ = task["problem"].split()
        assert int(task["answer"]) == {"+": int(a) + int(b), "-": int(a) - int(b), "×": int(a) * int(b)}[sign]
        task = generate("odd-or-even", seed)
        assert task["answers"] == ["odd" if n % 2 else "even" for n in task["numbers"]]
        task = generate("unicode-test", seed)
        assert task["buttons"][int(task["answer_id"][1:]) - 1] == task["answer"]


def test_simple_algebra_answers_solve_their_equations():
    forms = set()
    for seed in range(40):
        task = generate("simple-algebra", seed)
        var = task["instruction"].split()[2]
        assert var in VARIABLES and task["answer"] != "0"
        value = task["answer"]
        put = re.sub(rf"(\d*){var}", lambda m, v=value: f"{m.group(1) or 1}*({v})", task["equation"])
        left, right = put.split(" = ")
        assert eval(left) == eval(right), task["equation"]  # digits, signs and parentheses only
        forms.add(task["equation"].index(var) < task["equation"].index("="))
    assert forms == {True, False}


def test_text_transform_reverses_or_reorders():
    modes = set()
    for seed in range(30):
        task = generate("text-transform", seed)
        if "backwards" in task["instruction"]:
            modes.add("reverse")
            assert task["answer"] == task["text"][::-1]
        else:
            modes.add("order")
            order = [int(i) for i in task["instruction"].split("in the order ")[1].split(" (")[0].split(", ")]
            words = task["text"].split()
            assert task["answer"] == " ".join(words[i - 1] for i in order) != task["text"]
    assert modes == {"reverse", "order"}


def test_guess_number_says_higher_or_lower_and_the_halving_search_pins_the_number():
    kind = kind_of("guess-number")
    for seed in range(20):
        task = generate("guess-number", seed)
        secret = int(task["answer"])
        guesses = [int(g[1:]) for g in task["guess_ids"]]
        assert guesses == _bisect(task["low"], task["high"], secret) and len(guesses) == GUESSES
        view: dict = {}
        lo, hi = task["low"], task["high"]
        for guess in guesses:  # the feedback alone leads the search to the number
            view = kind.act(task, view, {"guess": str(guess)})
            said = kind.page(task, view)[0].text
            if said.endswith("correct!"):
                lo = hi = guess
            elif said.startswith("Higher"):
                lo = guess + 1
            else:
                assert said == f"Lower than {guess}."
                hi = guess - 1
        assert lo == hi == secret
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"guess": str(task["high"] + 1)})
    with pytest.raises(TaskInputError):
        kind.act(task, {}, {"guess": "five"})


def test_copy_paste_on_screen_goes_through_the_clipboard():
    world = tasks_world()
    instance = stage(world, load_procedure("web-copy-paste"), seed=1)
    demo = project(world, instance, {"mode": "gui"})
    assert demo.verification.passed
    assert demo.counts["characters_typed"] == 0  # nothing typed: copied and pasted
    assert world.service_state("tasks")["submission"]["fields"]["text"] == instance.params["task"]["text"]


def test_unicode_symbols_are_drawn_by_the_browsers_fonts():
    fonts = [hb_font(name, 12) for name in ("Ubuntu-R.ttf", "DejaVuSans.ttf")]
    assert len(set(SYMBOLS)) == len(SYMBOLS)
    for symbol in SYMBOLS:
        assert any(f.get_nominal_glyph(ord(symbol)) for f in fonts), symbol


def test_odd_or_even_rows_have_a_number_and_two_radios():
    kind, task = kind_of("odd-or-even"), generate("odd-or-even", 7)
    (form,) = kind.page(task, {})
    table = form.children[0]
    assert isinstance(form, Form) and isinstance(table, Table) and len(table.rows) == 4
    for row, number in zip(table.rows, task["numbers"]):
        assert isinstance(row[0], Text) and row[0].text == str(number)
        assert [(r.name, r.value) for r in row[1:]] == [(row[0].id, "odd"), (row[0].id, "even")]
