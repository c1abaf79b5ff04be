"""The bounded regex engine: a linear engine past the backtracking bound, the same answers
from both engines, and a clear abort where no linear engine exists."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym.machine.commands._engine import BACKTRACK_STEPS, Regex, RegexTooExpensive, _scan
from cwgym.machine.commands._regex import translate


@pytest.mark.parametrize(
    ("body", "power", "linear"),
    [
        ("abc", 1, True),
        ("a*b", 2, True),
        ("(a+)+$", None, True),
        ("(a|b)*c", None, True),
        ("(?<!\\w)(?:foo)(?!\\w)", 1, False),
        ("(a)\\1", 1, False),
        ("(?m:^)a+", 2, True),
    ],
)
def test_the_scan_bounds_each_pattern(body, power, linear):
    assert _scan(body)[:2] == (power, linear)


def test_a_long_subject_goes_to_the_linear_engine():
    regex = Regex("a*b", re.DOTALL)
    assert regex.limit ** 2 <= BACKTRACK_STEPS < (regex.limit + 1) ** 2
    started = time.perf_counter()
    assert regex.search("a" * 2_000_000) is None  # quadratic for re: minutes
    assert time.perf_counter() - started < 2
    assert regex.search("a" * 2_000_000 + "b").span() == (0, 2_000_001)


def test_nested_repetition_never_backtracks():
    body, _, _ = translate("(a+)+$", extended=True)
    regex = Regex(body)
    assert regex.search("a" * 5000 + "!") is None
    assert regex.search("aaa").span() == (0, 3)


def test_a_backtracking_only_pattern_past_its_bound_aborts_with_a_message():
    regex = Regex("(a+)\\1")
    assert regex.search("aaaa") is not None  # short: fine
    with pytest.raises(RegexTooExpensive) as raised:
        regex.search("a" * 5000)
    assert "too expensive" in raised.value.message


ATOMS = st.sampled_from(["a", "b", ".", "[ab]", "[^a]", "a*", "b+", "(a|b)", "(ab)*", "a?", "^", "$", "x{1,2}"])


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.lists(ATOMS, min_size=1, max_size=5), st.text(alphabet="abx\n", max_size=12))
def test_both_engines_give_the_same_matches(atoms, subject):
    body, _, _ = translate("".join(atoms), extended=True)
    regex = Regex(body, re.DOTALL)
    if regex._re2 is None:
        return
    linear = Regex(body, re.DOTALL)
    linear.limit = -1  # always the linear engine
    assert [m.span() for m in linear.finditer(subject)] == [m.span() for m in regex._py.finditer(subject)]
    assert linear.sub("<>", subject) == regex._py.sub("<>", subject)
    assert linear.split(subject) == regex._py.split(subject)
    found = linear.search(subject)
    expected = regex._py.search(subject)
    assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups()))
