"""Drawing a procedure's parameters from a seed.

Each parameter draws from its own named stream of :class:`cwgym.kernel.rng.RandomStreams`
(``procedure:<id>:<param>``), never from Python's ``random``: the same seed gives the same
values on every platform, and adding a parameter never shifts the values of the others.
"""

from __future__ import annotations

from typing import Any

from cwgym.kernel.rng import RandomStreams
from cwgym.procedures.dates import add_days, days_between, is_weekday
from cwgym.procedures.expr import evaluate
from cwgym.procedures.model import (
    ChoiceParam,
    DateParam,
    DecimalParam,
    ExprParam,
    FormatParam,
    IntegerParam,
    NameParam,
    Param,
    Procedure,
    SampleParam,
    WebTaskParam,
)
from cwgym.procedures.names import GIVEN, LISTS, SURNAMES
from cwgym.procedures.template import render, render_value

#: How many times a ``distinct_from`` parameter redraws before giving up.
MAX_REDRAWS = 200


def stream_name(procedure_id: str, param: str) -> str:
    return f"procedure:{procedure_id}:{param}"


def draw_params(procedure: Procedure, seed: int, builtins: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every parameter's value for ``seed``, in the order the procedure lists them.

    ``builtins`` (``home``, ``user``, ``machine``) are visible to templates but not returned.
    """
    streams = RandomStreams(seed)
    scope: dict[str, Any] = dict(builtins or {})
    values: dict[str, Any] = {}
    for param in procedure.params:
        stream = stream_name(procedure.id, param.name)
        value = _draw(param, streams, stream, scope)
        others = _flat(scope[name] for name in param.distinct_from if name in scope)
        tries = 0
        while value in others:
            tries += 1
            if tries > MAX_REDRAWS:
                raise ValueError(f"parameter {param.name!r}: no value distinct from {param.distinct_from} in {MAX_REDRAWS} draws")
            value = _draw(param, streams, stream, scope)
        scope[param.name] = value
        values[param.name] = value
    return values


def _flat(values: Any) -> list[Any]:
    """The values to avoid: a list-valued parameter (a sample) counts item by item."""
    out: list[Any] = []
    for value in values:
        out.extend(value if isinstance(value, list) else [value])
    return out


def _draw(param: Param, streams: RandomStreams, stream: str, scope: dict[str, Any]) -> Any:
    if isinstance(param, ChoiceParam):
        return render_value(param.choices[streams.randbelow(stream, len(param.choices))], scope)
    if isinstance(param, IntegerParam):
        count = (param.max - param.min) // param.step + 1
        return param.min + param.step * streams.randbelow(stream, count)
    if isinstance(param, DecimalParam):
        scale = 10**param.places
        low, high = round(param.min * scale), round(param.max * scale)
        units = low + streams.randbelow(stream, high - low + 1)
        sign = "-" if units < 0 else ""
        whole, frac = divmod(abs(units), scale)
        return f"{sign}{whole}.{frac:0{param.places}d}" if param.places else f"{sign}{whole}"
    if isinstance(param, FormatParam):
        return render(param.template, scope)
    if isinstance(param, DateParam):
        return _draw_date(param, streams, stream, scope)
    if isinstance(param, NameParam):
        if param.of == "person":
            given = GIVEN[streams.randbelow(stream, len(GIVEN))]
            return f"{given} {SURNAMES[streams.randbelow(stream, len(SURNAMES))]}"
        pool = LISTS[param.of]
        return pool[streams.randbelow(stream, len(pool))]
    if isinstance(param, SampleParam):
        pool = list(param.choices) if param.choices is not None else list(LISTS[param.of or ""])
        picked = []
        for _ in range(param.k):
            picked.append(pool.pop(streams.randbelow(stream, len(pool))))
        return [render_value(item, scope) for item in picked]
    if isinstance(param, ExprParam):
        return evaluate(param.expr, scope, param.places)
    if isinstance(param, WebTaskParam):
        from cwgym.webtasks import generate  # the task kinds load on first use

        return generate(param.task, streams.next_u64(stream) >> 11)  # 53 bits: exact as a JSON number
    raise TypeError(f"unknown parameter kind {type(param).__name__}")  # pragma: no cover


def _draw_date(param: DateParam, streams: RandomStreams, stream: str, scope: dict[str, Any]) -> str:
    if param.from_ is not None:
        days = param.add_days or 0
        if isinstance(days, str):
            days = int(render(days, scope))
        day = add_days(scope[param.from_], days)
        while param.weekdays and not is_weekday(day):
            day = add_days(day, 1)
        return day
    assert param.start is not None and param.end is not None
    span = days_between(param.start, param.end) + 1
    candidates = [add_days(param.start, i) for i in range(span)]
    if param.weekdays:
        candidates = [d for d in candidates if is_weekday(d)]
    return candidates[streams.randbelow(stream, len(candidates))]
