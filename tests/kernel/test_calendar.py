"""The one calendar agrees with Python's proleptic Gregorian ``datetime`` wherever that
reaches, round-trips beyond it, and is what every clock of the world reads."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym.kernel.calendar import (
    civil,
    civil_from_days,
    days_from_civil,
    days_in_month,
    is_leap,
    weekday,
)

EPOCH = dt.date(1970, 1, 1)


@settings(derandomize=True, max_examples=500)
@given(st.dates())
def test_agrees_with_datetime(date):
    days = (date - EPOCH).days
    assert days_from_civil(date.year, date.month, date.day) == days
    assert civil_from_days(days) == (date.year, date.month, date.day)
    assert weekday(days) == date.weekday()
    assert days_in_month(date.year, date.month) == ((date.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)).day


@settings(derandomize=True, max_examples=500)
@given(st.integers(min_value=-10**9, max_value=10**9))
def test_round_trips_far_outside_datetime(days):
    assert days_from_civil(*civil_from_days(days)) == days


def test_years_before_one_and_the_epoch():
    assert civil_from_days(0) == (1970, 1, 1)
    assert civil_from_days(days_from_civil(0, 2, 29)) == (0, 2, 29)  # year 0 is a leap year
    assert civil_from_days(days_from_civil(-1, 12, 31) + 1) == (0, 1, 1)
    assert is_leap(0) and not is_leap(-1) and is_leap(-4) and not is_leap(1900) and is_leap(2000)
    assert civil(86400 * 365 + 3600 * 13 + 60 * 7) == (1971, 1, 1, 13, 7, 4)  # a Friday


def test_no_other_module_carries_its_own_copy():
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "cwgym"
    copies = [p for p in package.rglob("*.py") if "146097" in p.read_text() and p.name != "calendar.py"]
    assert copies == []
