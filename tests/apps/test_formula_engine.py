"""The spreadsheet's formula engine (cwgym.apps._formula), as pure functions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cwgym.apps import _formula as fx


def shown(cells: dict, name: str) -> str:
    sheet = fx.Sheet(cells)
    return sheet.shown(*fx.parse_cell(name))


def one(formula: str, **cells: str) -> str:
    return shown({**cells, "Z1": formula}, "Z1")


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=0.1+0.2", "0.3"),
        ("=1/3", "0.333333333333333"),
        ("=2/3", "0.666666666666667"),
        ("=1/3*3", "1"),
        ("=10/4", "2.5"),
        ("=-2^2", "4"),
        ("=2^3^2", "64"),
        ("=2^0.5", "1.4142135623731"),
        ("=2^-1", "0.5"),
        ("=7-2*3", "1"),
        ("=(7-2)*3", "15"),
        ("=10%", "0.1"),
        ("=50%*8", "4"),
        ("=1e20*3", "3E+20"),
        ("=0.000001", "1E-06"),
        ("=0.00001", "0.00001"),
        ("=123456789012345678", "1.23456789012346E+17"),
        ("=999999999999999", "999999999999999"),
        ("=1-1", "0"),
        ("=-0", "0"),
        ('="a"&"b"&1&TRUE', "ab1TRUE"),
        ('="say ""hi"""', 'say "hi"'),
        ("=1<2", "TRUE"),
        ("=2<=1", "FALSE"),
        ('="abc"="ABC"', "TRUE"),
        ('=1<"a"', "TRUE"),
        ("=1<>1", "FALSE"),
        ("=TRUE+1", "2"),
        ('="3"+4', "7"),
        ("=1/0", "#DIV/0!"),
        ('=1+"x"', "#VALUE!"),
        ("=nosuch(1)", "#NAME?"),
        ("=foo", "#NAME?"),
        ("=BA1001", "#REF!"),
        ("=ZZ1", "#REF!"),
        ("=#REF!+1", "#REF!"),
        ("=10^400", "#NUM!"),
        ("=SQRT(-1)", "Err:502"),
        ("=(-8)^(1/3)", "Err:502"),
        ("=ROUND(1;2;3)", "Err:504"),
        ("=1 2", "Err:509"),
        ("=1+", "Err:510"),
        ("=(1+2", "Err:508"),
        ("=1+2)", "Err:508"),
        ("=1#", "Err:501"),
        ('="open', "Err:501"),
        ("=" + "(" * 60 + "1" + ")" * 60, "Err:512"),
        ("=" + "+".join(["1"] * 400), "400"),
    ],
)
def test_expressions(formula, expected):
    assert one(formula) == expected


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=SUM(A1:A4)", "10.5"),
        ("=SUM(A1:A4;10)", "20.5"),
        ("=SUM(A:A)", "10.5"),
        ("=SUM(A1,A2)", "3"),
        ("=AVERAGE(A1:A4)", "2.625"),
        ("=AVERAGE(C1:C3)", "#DIV/0!"),
        ("=MIN(A1:A4)", "1"),
        ("=MAX(A1:B4)", "7.5"),
        ("=MAX(C1:C3)", "0"),
        ("=COUNT(A1:B4)", "5"),
        ("=COUNTA(A1:B4)", "6"),
        ("=COUNTBLANK(A1:B4)", "2"),
        ('=IF(A1>1;"big";"small")', "small"),
        ('=IF(A2>1;"big";"small")', "big"),
        ('=IF(A1>1;"big")', "FALSE"),
        ("=IF(B1;1;2)", "#VALUE!"),
        ('=IFERROR(1/0;"none")', "none"),
        ("=ROUND(2.5)", "3"),
        ("=ROUND(-2.5)", "-3"),
        ("=ROUND(2.345;2)", "2.35"),
        ("=ROUND(1234;-2)", "1200"),
        ("=ROUNDUP(2.301;1)", "2.4"),
        ("=ROUNDDOWN(-2.39;1)", "-2.3"),
        ("=INT(-2.5)", "-3"),
        ("=ABS(-4)", "4"),
        ("=MOD(-7;3)", "2"),
        ("=MOD(1;0)", "#DIV/0!"),
        ("=SQRT(16)", "4"),
        ("=POWER(2;10)", "1024"),
        ("=PRODUCT(A1:A2;4)", "8"),
        ('=CONCATENATE("a";1;"b")', "a1b"),
        ("=CONCAT(A1:B2)", "1x2"),
        ("=LEN(B1)", "1"),
        ('=UPPER("abc")&LOWER("DEF")', "ABCdef"),
        ('=TRIM("  a   b ")', "a b"),
        ('=LEFT("hello";2)&RIGHT("hello";2)&MID("hello";2;3)', "heloell"),
        ("=AND(TRUE;A1>0)", "TRUE"),
        ("=OR(FALSE;A1>5)", "FALSE"),
        ("=NOT(A1)", "FALSE"),
        ("=ISBLANK(C1)", "TRUE"),
        ("=ISNUMBER(A1)&ISTEXT(B1)&ISERROR(1/0)", "TRUETRUETRUE"),
        ('=SUMIF(D1:D4;"travel";A1:A4)', "4"),
        ('=SUMIF(A1:A4;">2")', "7.5"),
        ('=SUMIF(A1:A4;">2";B1)', "7.5"),
        ('=COUNTIF(D1:D4;"tr*")', "2"),
        ('=COUNTIF(D1:D4;"<>travel")', "2"),
        ('=AVERAGEIF(D1:D4;"travel";A1:A4)', "2"),
        ("=CEILING(4.2;0.5)", "4.5"),
        ("=FLOOR(4.7;2)", "4"),
        ("=sum(a1:a2)", "3"),
        ("=A1:A2", "#VALUE!"),
        ("=C1", "0"),
        ('=C1&""', ""),
    ],
)
def test_functions(formula, expected):
    cells = {
        "A1": "1",
        "A2": "2",
        "A3": "3",
        "A4": "4.5",
        "B1": "x",
        "B4": "7.5",
        "D1": "travel",
        "D2": "meals",
        "D3": "Travel",
        "D4": "office",
    }
    assert one(formula, **cells) == expected


def test_circular_references_are_err_522_and_never_raise():
    cells = {
        "A1": "=B1+1",
        "B1": "=A1",
        "C1": "=A1*2",
        "D1": "=D1",
        "E1": "=SUM(E1:E2)",
        "F1": "=1",
    }
    sheet = fx.Sheet(cells)
    for name in ("A1", "B1", "C1", "D1", "E1"):
        assert sheet.shown(*fx.parse_cell(name)) == "Err:522"
    assert sheet.shown(*fx.parse_cell("F1")) == "1"


def test_a_long_chain_of_references_computes_without_recursion():
    cells = {"A1": "1", **{f"A{r}": f"=A{r - 1}+1" for r in range(2, 1001)}}
    sheet = fx.Sheet(cells)
    assert sheet.shown(*fx.parse_cell("A1000")) == "1000"


def test_constants():
    assert fx.constant("") is None
    assert fx.constant("12") == Decimal(12)
    assert fx.constant(" 1.50 ") == Decimal("1.50")
    assert fx.constant("1e3") == Decimal(1000)
    assert fx.constant("'12") == "12"
    assert fx.constant("true") is True
    assert fx.constant("1,000") == "1,000"
    assert fx.constant("2026-09-01") == "2026-09-01"
    assert fx.constant("10%") == "10%"
    assert fx.display(True) == "TRUE"
    assert fx.display(None) == ""


def test_shift_moves_relative_parts_only():
    assert (
        fx.shift("=A1+$B$2+SUM(A1:B3)+C$4+$D5+SUM(A:B)", 2, 1)
        == "=B3+$B$2+SUM(B3:C5)+D$4+$D7+SUM(B:C)"
    )
    assert fx.shift("=A1", -1, 0) == "=#REF!"
    assert fx.shift("=SUM(A1:A3)", -1, 0) == "=SUM(#REF!)"
    assert fx.shift('="A1"&A1', 1, 0) == '="A1"&A2'
    assert fx.shift("=LOG10(A1)", 1, 0) == "=LOG10(A2)"
    assert fx.shift("=AZ1", 0, 1) == "=#REF!"
    assert fx.shift("plain A1", 1, 1) == "plain A1"
    assert fx.shift("=1+", 1, 0) == "=1+"


def test_normalize_capitalises_and_closes_parentheses():
    assert fx.normalize("=sum(a1:b2") == "=SUM(A1:B2)"
    assert fx.normalize('=if(a1>0;"yes";true') == '=IF(A1>0;"yes";TRUE)'
    assert fx.normalize('="keep case"&a1') == '="keep case"&A1'
    assert fx.normalize("=1+") == "=1+"
    assert fx.normalize("text") == "text"


def test_sort_key_orders_numbers_text_errors():
    values = ["b", Decimal(2), fx.Err("#DIV/0!"), "A", Decimal(-1), True]
    ordered = sorted(values, key=fx.sort_key)
    assert ordered == [Decimal(-1), True, Decimal(2), "A", "b", fx.Err("#DIV/0!")]


def test_names():
    assert (
        fx.col_name(0) == "A"
        and fx.col_name(25) == "Z"
        and fx.col_name(26) == "AA"
        and fx.col_name(51) == "AZ"
    )
    assert fx.parse_cell("b3") == (1, 2)
    assert fx.parse_cell("AZ1000") == (51, 999)
    assert (
        fx.parse_cell("BA1") is None
        and fx.parse_cell("A1001") is None
        and fx.parse_cell("A0") is None
    )


def test_sheets_are_shared_by_content():
    a = fx.sheet_for({"A1": "=1+1"})
    assert fx.sheet_for({"A1": "=1+1"}) is a
    assert fx.sheet_for({"A1": "=1+2"}) is not a
