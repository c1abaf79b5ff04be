"""The page model: what a service answers and a browser lays out.

A :class:`Page` is a title, a language and a list of typed elements from a closed
vocabulary — headings, text, links, images, lists, tables, forms with inputs, text areas,
selects, checkboxes, radios and buttons, and the native widgets a browser draws without
scripts: disclosures (:class:`Details`), modal dialogs (:class:`Dialog`), sliders
(:class:`Range`) and reorderable lists (:class:`SortList`); number, time, date and colour
inputs are :class:`Input` types, and an input may offer ``suggestions`` (HTML's
``datalist``); a colour picker offers the named colours of :data:`PALETTE`. Every element has an
``id`` that is stable for the same content (services name them; :func:`assign_ids` fills
the ones left empty from the element's position), so an agent's ``click{id}`` means the
same control on every visit.

The same page serialises to HTML (:func:`to_html`) for ``curl`` and ``http.v1``, and to a
projection of plain data (:func:`projection`) for observation channels. Both are pure
functions of the page.
"""

from __future__ import annotations

import calendar
import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from html import escape
from typing import Literal, Union

import msgspec

__all__ = [
    "PALETTE",
    "Button",
    "Checkbox",
    "Details",
    "Dialog",
    "Element",
    "Form",
    "Heading",
    "Image",
    "Input",
    "Link",
    "ListBlock",
    "Option",
    "Page",
    "Radio",
    "Range",
    "Select",
    "SortList",
    "Table",
    "Text",
    "TextArea",
    "assign_ids",
    "color_value",
    "date_parts",
    "number_text",
    "page_from_json",
    "page_json",
    "projection",
    "range_value",
    "step_bounds",
    "stepped",
    "suggestion_matches",
    "to_html",
    "value_problem",
]

PAGE_VERSION = 1


class _Element(msgspec.Struct, kw_only=True, frozen=True, tag_field="kind"):
    id: str = ""


class Heading(_Element, tag="heading"):
    text: str
    level: int = 1


class Text(_Element, tag="text"):
    text: str
    emphasis: bool = False  # painted bold


class Link(_Element, tag="link"):
    text: str
    url: str


class Image(_Element, tag="image"):
    src: str
    alt: str = ""
    width: int = 0  # 0: the layout decides
    height: int = 0


class ListBlock(_Element, tag="list"):
    items: tuple[Element, ...] = ()
    ordered: bool = False


class Table(_Element, tag="table"):
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[Element, ...], ...] = ()


class Input(_Element, tag="input"):
    """A one-line field. ``min``, ``max`` and ``step`` are text, as HTML writes them
    (``""``: absent); a ``number`` field steps by them, a ``time`` field holds ``HH:MM``,
    a ``date`` field ``YYYY-MM-DD`` and a ``color`` field ``#rrggbb`` (empty: ``#000000``).
    ``suggestions`` are what a dropdown under the field offers as it is typed into
    (HTML's ``<datalist>``); any text may still be typed."""

    name: str
    label: str = ""
    value: str = ""
    placeholder: str = ""
    type: Literal["text", "password", "email", "number", "search", "hidden", "date", "url", "time", "color"] = "text"
    required: bool = False
    min: str = ""
    max: str = ""
    step: str = ""
    suggestions: tuple[str, ...] = ()


class Range(_Element, tag="range"):
    """A slider (``<input type=range>``): ``min``, ``max`` and ``step`` as HTML writes them
    (``""``: HTML's defaults 0, 100 and 1); ``value`` ``""`` is the middle step."""

    name: str
    label: str = ""
    value: str = ""
    min: str = ""
    max: str = ""
    step: str = ""


class TextArea(_Element, tag="textarea"):
    name: str
    label: str = ""
    value: str = ""
    rows: int = 4


class Option(msgspec.Struct, frozen=True):
    value: str
    label: str


class Select(_Element, tag="select"):
    name: str
    options: tuple[Option, ...]
    label: str = ""
    value: str = ""


class Checkbox(_Element, tag="checkbox"):
    name: str
    label: str = ""
    value: str = "on"
    checked: bool = False


class Radio(_Element, tag="radio"):
    name: str
    value: str
    label: str = ""
    checked: bool = False


class Button(_Element, tag="button"):
    text: str
    name: str = ""
    value: str = ""


class Form(_Element, tag="form"):
    action: str
    children: tuple[Element, ...] = ()
    method: Literal["GET", "POST"] = "POST"


class Details(_Element, tag="details"):
    """A disclosure: the ``summary`` line toggles it; ``children`` show only while open."""

    summary: str
    children: tuple[Element, ...] = ()
    open: bool = False


class SortList(_Element, tag="sortlist"):
    """A list whose rows the user drags (or moves with Alt+ArrowUp/ArrowDown) into an
    order; a form submits one ``name=item`` pair per row, in the order shown. ``items``
    are one-line texts (a browser's order is them joined by newlines)."""

    name: str
    items: tuple[str, ...] = ()
    label: str = ""


class Dialog(_Element, tag="dialog"):
    """A modal dialog (``<dialog open>``) over the page, named by ``title``; while a page
    has one, the page behind it is inert."""

    title: str = ""
    children: tuple[Element, ...] = ()


Element = Union[Heading, Text, Link, Image, ListBlock, Table, Input, TextArea, Select, Checkbox, Radio, Button, Form,  # noqa: UP007
                Range, Details, Dialog, SortList]

#: The colours a colour picker offers, as ``(name, #rrggbb)`` in the order it shows them
#: (web tasks name colours by these names).
PALETTE: tuple[tuple[str, str], ...] = (
    ("red", "#ff0000"), ("green", "#008000"), ("blue", "#0000ff"), ("yellow", "#ffff00"),
    ("orange", "#ffa500"), ("purple", "#800080"), ("pink", "#ffc0cb"), ("brown", "#a52a2a"),
    ("black", "#000000"), ("white", "#ffffff"), ("gray", "#808080"), ("cyan", "#00ffff"),
    ("magenta", "#ff00ff"), ("navy", "#000080"), ("olive", "#808000"), ("teal", "#008080"),
)
#: Suggestions a field's dropdown shows at most.
MAX_SUGGESTIONS = 8


class Page(msgspec.Struct, frozen=True):
    """One page: ``title``, ``lang`` and its ``elements`` in reading order."""

    title: str
    elements: tuple[Element, ...] = ()
    lang: str = "en"


# -- ids ----------------------------------------------------------------------------------


def assign_ids(page: Page) -> Page:
    """``page`` with every empty ``id`` named by the element's kind and position
    (``heading-3``, ``form-1.input-2``): stable for the same page structure."""
    return _cached(_assign_ids, page)


@lru_cache(maxsize=512)
def _assign_ids(page: Page) -> Page:
    return msgspec.structs.replace(page, elements=_assign(page.elements, ""))


def _cached(fn, page: Page):
    """``fn(page)`` through its cache: pages repeat (the same empty inbox, the same form),
    and a page built with a list somewhere is not hashable, so it is rendered afresh."""
    try:
        hash(page)
    except TypeError:
        return fn.__wrapped__(page)
    return fn(page)


def _assign(elements: tuple[Element, ...], prefix: str) -> tuple[Element, ...]:
    out = []
    for index, element in enumerate(elements, 1):
        kind = type(element).__struct_config__.tag
        eid = element.id or f"{prefix}{kind}-{index}"
        changes: dict = {"id": eid}
        if isinstance(element, Form | Details | Dialog):
            changes["children"] = _assign(element.children, f"{eid}.")
        elif isinstance(element, ListBlock):
            changes["items"] = _assign(element.items, f"{eid}.")
        elif isinstance(element, Table):
            changes["rows"] = tuple(_assign(row, f"{eid}.r{r}.") for r, row in enumerate(element.rows, 1))
        out.append(msgspec.structs.replace(element, **changes))
    return tuple(out)


# -- the values widgets take (HTML's value sanitisation) ---------------------------------

_FLOAT = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?")
_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
_LIMIT = Decimal("1e15")  #: numbers past this are not ones a field steps through


def _number(text: str) -> Decimal | None:
    """``text`` as HTML's valid floating-point number (``1``, ``-2.5``, ``.5``, ``1e3``), or None."""
    if not _FLOAT.fullmatch(text):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() and abs(value) <= _LIMIT else None


def number_text(value: Decimal) -> str:
    """A number as a form submits it: no exponent, no trailing zeros (``2.50`` → ``2.5``)."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def step_bounds(e: Input | Range) -> tuple[Decimal | None, Decimal | None, Decimal]:
    """``(min, max, step)`` of a number field or slider: a slider's absent or unreadable
    bounds are 0 and 100 (a max below the min is the min), a field's are None; a step
    that is absent, not positive or ``any`` is 1."""
    low, high, step = _number(e.min), _number(e.max), _number(e.step)
    if isinstance(e, Range):
        low = Decimal(0) if low is None else low
        high = Decimal(100) if high is None else high
        high = max(low, high)
    return low, high, step if step is not None and step > 0 else Decimal(1)


def _snap(value: Decimal, e: Input | Range) -> Decimal:
    """``value`` on the nearest step (from the min, else 0; ties go up), within the bounds."""
    low, high, step = step_bounds(e)
    base = low if low is not None else Decimal(0)
    snapped = base + ((value - base) / step + Decimal("0.5")).to_integral_value(rounding="ROUND_FLOOR") * step
    if high is not None and snapped > high:
        snapped -= ((snapped - high) / step).to_integral_value(rounding="ROUND_CEILING") * step
    if low is not None and snapped < low:
        snapped = low
    return snapped


def range_value(e: Range, value: str | None = None) -> str:
    """What a slider holds for ``value`` (None: its own), as HTML sanitises it: a number
    clamped to the bounds and put on the nearest step; anything else is the middle step."""
    number = _number(e.value if value is None else value)
    if number is None:
        low, high, _ = step_bounds(e)
        number = low + (high - low) / 2  # type: ignore[operator]
    return number_text(_snap(number, e))


def stepped(e: Input | Range, value: str, steps: int) -> str:
    """``value`` moved ``steps`` steps (negative: down), as a spinner's arrows or a slider's
    keys move it, put on a step and kept within the bounds. An empty or unreadable value
    does not step: it becomes 0, or the min when 0 is below it."""
    low, _, step = step_bounds(e)
    number = _number(value)
    if number is None:
        number, steps = (Decimal(0) if low is None or low <= 0 else low), 0
    base = low if low is not None else Decimal(0)
    k = ((number - base) / step).to_integral_value(rounding="ROUND_FLOOR")
    off = base + k * step != number  # off its steps: the first step up is the next one above
    moved = base + (k + steps + (1 if off and steps < 0 else 0)) * step if steps else number
    return number_text(_snap(moved, e))


def suggestion_matches(e: Input, text: str) -> tuple[str, ...]:
    """The suggestions a field holding ``text`` shows: those starting with it (any case),
    in order, at most :data:`MAX_SUGGESTIONS`; none while it is empty."""
    if not text:
        return ()
    low = text.casefold()
    return tuple(s for s in e.suggestions if s.casefold().startswith(low))[:MAX_SUGGESTIONS]


def date_parts(text: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a ``YYYY-MM-DD`` date that exists, else None."""
    match = _DATE.fullmatch(text)
    if match is None:
        return None
    year, month, day = (int(g) for g in match.groups())
    if not (year >= 1 and 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]):
        return None
    return year, month, day


def color_value(e: Input, value: str | None = None) -> str:
    """What a colour field holds for ``value`` (None: its own), as HTML sanitises it:
    ``#rrggbb`` in lower case, ``#000000`` for anything else."""
    text = e.value if value is None else value
    return text.lower() if _COLOR.fullmatch(text) else "#000000"


def value_problem(e: Element, value: str) -> str | None:
    """Why ``value`` is not one ``e`` can be filled with, or None when it is: a slider takes
    a number on one of its steps within its bounds, a ``number`` field a number (or nothing;
    one out of its bounds is taken, as a browser takes it, and is the server's to refuse),
    a ``time`` field ``HH:MM`` (or nothing)."""
    if isinstance(e, Range):
        number = _number(value)
        if number is None or number_text(_snap(number, e)) != number_text(number):
            low, high, step = step_bounds(e)
            return (f"{e.id or 'the slider'} takes a number from {number_text(low)} to {number_text(high)}"  # type: ignore[arg-type]
                    f" in steps of {number_text(step)}, not {value!r}")
        return None
    if isinstance(e, Input) and e.type == "number" and value and _number(value) is None:
        return f"{e.id or 'the field'} takes a number, not {value!r}"
    if isinstance(e, Input) and e.type == "time" and value and not _TIME.fullmatch(value):
        return f"{e.id or 'the field'} takes a time as HH:MM (00:00 to 23:59), not {value!r}"
    if isinstance(e, Input) and e.type == "date" and value and date_parts(value) is None:
        return f"{e.id or 'the field'} takes a date as YYYY-MM-DD (one that exists), not {value!r}"
    if isinstance(e, Input) and e.type == "color" and not _COLOR.fullmatch(value):
        return f"{e.id or 'the field'} takes a colour as #rrggbb, not {value!r}"
    if isinstance(e, SortList) and sorted(value.split("\n")) != sorted(e.items):
        return (f"{e.id or 'the list'} takes its items in a new order, one a line "
                f"(a permutation of {list(e.items)!r}), not {value!r}")
    return None


# -- the model on the wire ------------------------------------------------------------------


def page_json(page: Page) -> bytes:
    """``page`` as JSON bytes (what a service sends a browser that asks for the model)."""
    return msgspec.json.encode(page)


def page_from_json(data: bytes) -> Page:
    """The page in JSON ``data``.

    Raises:
        ValueError: not a page (the message names the field).
    """
    try:
        return msgspec.json.decode(data, type=Page)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ValueError(f"not a page: {exc}") from None


# -- projection ---------------------------------------------------------------------------


def projection(page: Page) -> dict:
    """The page as plain data: ``{version, title, lang, elements}``, each element a dict
    with its ``kind`` and fields (a form's controls under ``children``)."""
    return {"version": PAGE_VERSION, "title": page.title, "lang": page.lang,
            "elements": msgspec.json.decode(msgspec.json.encode(page.elements))}


# -- HTML ---------------------------------------------------------------------------------


def to_html(page: Page) -> str:
    """The page as an HTML5 document; ids become ``id`` attributes."""
    return _cached(_to_html, page)


@lru_cache(maxsize=512)
def _to_html(page: Page) -> str:
    body = "".join(_html(e) for e in page.elements)
    return (f'<!DOCTYPE html>\n<html lang="{escape(page.lang)}">\n<head><meta charset="utf-8">'
            f"<title>{escape(page.title)}</title></head>\n<body>\n{body}</body>\n</html>\n")


def _attrs(**values: str | bool) -> str:
    parts = []
    for name, value in values.items():
        name = name.rstrip("_").replace("_", "-")
        if value is True:
            parts.append(f" {name}")
        elif value not in (False, ""):
            parts.append(f' {name}="{escape(str(value))}"')
    return "".join(parts)


def _labelled(label: str, control: str, eid: str) -> str:
    if not label:
        return control + "\n"
    return f'<label for="{escape(eid)}">{escape(label)}</label> {control}\n'


def _html(e: Element) -> str:
    if isinstance(e, Heading):
        level = min(max(e.level, 1), 6)
        return f"<h{level}{_attrs(id=e.id)}>{escape(e.text)}</h{level}>\n"
    if isinstance(e, Text):
        text = escape(e.text).replace("\n", "<br>")
        return f"<p{_attrs(id=e.id)}>{f'<strong>{text}</strong>' if e.emphasis else text}</p>\n"
    if isinstance(e, Link):
        return f"<a{_attrs(id=e.id, href=e.url)}>{escape(e.text)}</a>\n"
    if isinstance(e, Image):
        return f"<img{_attrs(id=e.id, src=e.src, alt=e.alt, width=str(e.width or ''), height=str(e.height or ''))}>\n"
    if isinstance(e, ListBlock):
        tag = "ol" if e.ordered else "ul"
        items = "".join(f"<li>{_html(item).rstrip()}</li>\n" for item in e.items)
        return f"<{tag}{_attrs(id=e.id)}>\n{items}</{tag}>\n"
    if isinstance(e, Table):
        head = "".join(f"<th>{escape(h)}</th>" for h in e.headers)
        rows = "".join("<tr>" + "".join(f"<td>{_html(c).rstrip()}</td>" for c in row) + "</tr>\n" for row in e.rows)
        return f"<table{_attrs(id=e.id)}>\n" + (f"<tr>{head}</tr>\n" if head else "") + rows + "</table>\n"
    if isinstance(e, Input):
        listed = f"{e.id}-list" if e.suggestions else ""
        control = f"<input{_attrs(id=e.id, type=e.type, name=e.name, value=e.value, placeholder=e.placeholder, required=e.required, min=e.min, max=e.max, step=e.step, list=listed)}>"
        if e.suggestions:
            options = "".join(f'<option value="{escape(s)}"></option>' for s in e.suggestions)
            control += f'<datalist id="{escape(listed)}">{options}</datalist>'
        return _labelled("" if e.type == "hidden" else e.label, control, e.id)
    if isinstance(e, TextArea):
        return _labelled(e.label, f"<textarea{_attrs(id=e.id, name=e.name, rows=str(e.rows))}>{escape(e.value)}</textarea>", e.id)
    if isinstance(e, Select):
        options = "".join(f"<option{_attrs(value=o.value, selected=o.value == e.value)}>{escape(o.label)}</option>" for o in e.options)
        return _labelled(e.label, f"<select{_attrs(id=e.id, name=e.name)}>{options}</select>", e.id)
    if isinstance(e, Checkbox | Radio):
        kind = "checkbox" if isinstance(e, Checkbox) else "radio"
        control = f"<input{_attrs(id=e.id, type=kind, name=e.name, value=e.value, checked=e.checked)}>"
        return f'{control} <label for="{escape(e.id)}">{escape(e.label)}</label>\n'
    if isinstance(e, Button):
        return f"<button{_attrs(id=e.id, type='submit', name=e.name, value=e.value)}>{escape(e.text)}</button>\n"
    if isinstance(e, Form):
        inner = "".join(_html(c) for c in e.children)
        return f"<form{_attrs(id=e.id, action=e.action, method=e.method.lower())}>\n{inner}</form>\n"
    if isinstance(e, Range):
        control = f"<input{_attrs(id=e.id, type='range', name=e.name, value=e.value, min=e.min, max=e.max, step=e.step)}>"
        return _labelled(e.label, control, e.id)
    if isinstance(e, Details):
        inner = "".join(_html(c) for c in e.children)
        return f"<details{_attrs(id=e.id, open=e.open)}><summary>{escape(e.summary)}</summary>\n{inner}</details>\n"
    if isinstance(e, SortList):
        items = "".join(f"<li>{escape(item)}</li>\n" for item in e.items)
        return f"<ol{_attrs(id=e.id, data_sortable=True, name=e.name, aria_label=e.label)}>\n{items}</ol>\n"
    if isinstance(e, Dialog):
        inner = "".join(_html(c) for c in e.children)
        return f"<dialog{_attrs(id=e.id, open=True, aria_label=e.title)}>\n{inner}</dialog>\n"
    raise TypeError(f"not a page element: {type(e).__name__}")
