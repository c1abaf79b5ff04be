"""Reading a procedure: JSON, then its msgspec types, then the rules shape cannot express.

Every problem is a :class:`~cwgym.procedures.errors.ProcedureError` naming the file, the
JSON path and what is wrong there.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from cwgym.procedures.checks import Check, decode_hook, problems_of
from cwgym.procedures.dates import add_days, days_between, is_weekday, parse_iso
from cwgym.procedures.errors import ProcedureError, from_msgspec
from cwgym.procedures.expr import ExprError, names_in
from cwgym.procedures.files import is_octal_mode
from cwgym.procedures.matching import pointer_problem
from cwgym.procedures.model import (
    ChoiceParam,
    Click,
    DateParam,
    DecimalParam,
    DoubleClick,
    Drag,
    ExprParam,
    FormatParam,
    Gesture,
    IntegerParam,
    Key,
    NameParam,
    Param,
    Procedure,
    RightClick,
    SampleParam,
    Scroll,
    Target,
    ToolCall,
    Type,
    WebTaskParam,
)
from cwgym.procedures.names import LISTS, NAME_KINDS
from cwgym.procedures.template import TemplateError, refs, walk_strings
from cwgym.protocol.plain import NotPlainData, check_json

#: Names every template can read besides the parameters: the machine's home, user and id.
BUILTINS = ("home", "user", "machine")

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")

#: The operations of the built-in tool families and the payload fields each needs.
TOOL_OPS: dict[str, dict[str, tuple[str, ...]]] = {
    "terminal.v1": {"execute": ("command",)},
    "filesystem.v1": {
        "read": ("path",),
        "write": ("path", "content"),
        "list": ("path",),
        "stat": ("path",),
        "mkdir": ("path",),
        "remove": ("path",),
        "move": ("from", "to"),
    },
}


def parse_procedure(data: Any, file: str = "<procedure>") -> Procedure:
    """A validated :class:`Procedure` from JSON text, bytes or already-decoded data.

    Raises:
        ProcedureError: naming ``file``, the JSON path and the problem.
    """
    if isinstance(data, Procedure):
        validate(data, file)
        return data
    if isinstance(data, (str, bytes)):
        try:
            data = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise ProcedureError(file, "$", f"not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProcedureError(file, "$", f"a procedure is a JSON object, got {type(data).__name__}")
    try:
        check_json(data)
    except NotPlainData as exc:
        raise ProcedureError(file, exc.path, exc.problem) from None
    try:
        procedure = msgspec.convert(data, Procedure, dec_hook=decode_hook)
    except msgspec.ValidationError as exc:
        error = from_msgspec(file, str(exc))
        known = _TAGS.get(error.path.rsplit(".", 1)[-1]) if error.problem.startswith("invalid value") else None
        if known:
            error = ProcedureError(file, error.path, f"{error.problem} (known: {', '.join(known)})")
        raise error from None
    validate(procedure, file)
    return procedure


def _tags(union: Any) -> tuple[str, ...]:
    return tuple(kind.__struct_config__.tag for kind in union.__args__)


_TAGS = {"do": _tags(Gesture), "kind": _tags(Param)}


def validate(procedure: Procedure, file: str = "<procedure>") -> None:
    """Check the rules the types cannot: names, references, gestures, tool calls, checks."""
    _Validator(procedure, file).run()


class _Validator:
    def __init__(self, procedure: Procedure, file: str) -> None:
        self.p = procedure
        self.file = file
        self.params: dict[str, Any] = {}

    def fail(self, path: str, problem: str) -> ProcedureError:
        return ProcedureError(self.file, path, problem)

    def run(self) -> None:
        p = self.p
        if not _SLUG.match(p.id):
            raise self.fail("$.id", f"an id is lower-case letters, digits and hyphens, got {p.id!r}")
        if not _SLUG.match(p.domain):
            raise self.fail("$.domain", f"a domain is lower-case letters, digits and hyphens, got {p.domain!r}")
        if not p.instruction.strip():
            raise self.fail("$.instruction", "the instruction is empty")
        for index, param in enumerate(p.params):
            self.param(param, f"$.params[{index}]")
        self.templates(p.instruction, "$.instruction", captures=None)
        for index, entry in enumerate(p.setup):
            self.setup(entry, f"$.setup[{index}]")
        if not p.phases:
            raise self.fail("$.phases", "a procedure needs at least one phase")
        bound: list[str] = []
        for index, phase in enumerate(p.phases):
            self.phase(phase, f"$.phases[{index}]", bound)
        if not p.verify:
            raise self.fail("$.verify", "a procedure needs at least one check")
        for index, check in enumerate(p.verify):
            self.check(check, f"$.verify[{index}]", bound)

    # -- parameters ---------------------------------------------------------------------
    def param(self, param: Any, path: str) -> None:
        name = param.name
        if not _IDENT.match(name):
            raise self.fail(f"{path}.name", f"a parameter name is letters, digits, _ and -, got {name!r}")
        if name in self.params:
            raise self.fail(f"{path}.name", f"parameter {name!r} is defined twice")
        if name in BUILTINS:
            raise self.fail(f"{path}.name", f"{name!r} is a built-in name ({', '.join(BUILTINS)})")
        for i, other in enumerate(param.distinct_from):
            if other not in self.params:
                raise self.fail(f"{path}.distinct_from[{i}]", f"no earlier parameter {other!r}")
        if isinstance(param, WebTaskParam):
            from cwgym.webtasks import generate  # the task kinds load on first use

            try:
                generate(param.task, 0)
            except ValueError as exc:
                raise self.fail(f"{path}.task", str(exc)) from None
        if isinstance(param, ChoiceParam):
            if not param.choices:
                raise self.fail(f"{path}.choices", "a choice needs at least one value")
            for i, choice in enumerate(param.choices):
                self.choice_value(choice, f"{path}.choices[{i}]")
            fields = [set(c) for c in param.choices if isinstance(c, dict)]
            if fields and len(fields) != len(param.choices):
                raise self.fail(f"{path}.choices", "choices are either all objects or none")
            if fields and any(f != fields[0] for f in fields):
                raise self.fail(f"{path}.choices", "object choices must all have the same fields")
        elif isinstance(param, IntegerParam):
            if param.min > param.max:
                raise self.fail(f"{path}.max", f"max {param.max} is below min {param.min}")
            if param.step < 1:
                raise self.fail(f"{path}.step", "step must be at least 1")
        elif isinstance(param, DecimalParam):
            if param.min > param.max:
                raise self.fail(f"{path}.max", f"max {param.max} is below min {param.min}")
            if not 0 <= param.places <= 6:
                raise self.fail(f"{path}.places", "places must be 0..6")
        elif isinstance(param, FormatParam):
            self.templates(param.template, f"{path}.template", captures=None)
        elif isinstance(param, DateParam):
            self.date(param, path)
        elif isinstance(param, NameParam):
            if param.of not in NAME_KINDS:
                raise self.fail(f"{path}.of", f"unknown list {param.of!r} (known: {', '.join(NAME_KINDS)})")
        elif isinstance(param, SampleParam):
            if (param.choices is None) == (param.of is None):
                raise self.fail(path, "a sample draws from exactly one of choices or of")
            if param.of is not None and param.of not in LISTS:
                raise self.fail(f"{path}.of", f"unknown list {param.of!r} (known: {', '.join(LISTS)})")
            pool = param.choices if param.choices is not None else LISTS[param.of or ""]
            if not 1 <= param.k <= len(pool):
                raise self.fail(f"{path}.k", f"k must be 1..{len(pool)}")
            for i, choice in enumerate(param.choices or []):
                self.choice_value(choice, f"{path}.choices[{i}]")
        elif isinstance(param, ExprParam):
            try:
                used = names_in(param.expr)
            except ExprError as exc:
                raise self.fail(f"{path}.expr", str(exc)) from None
            for other in used:
                if other not in self.params:
                    raise self.fail(f"{path}.expr", f"no earlier parameter {other!r}")
            if param.places is not None and not 0 <= param.places <= 6:
                raise self.fail(f"{path}.places", "places must be 0..6")
        self.params[name] = param

    def choice_value(self, value: Any, path: str) -> None:
        if isinstance(value, bool) or value is None or isinstance(value, list):
            raise self.fail(path, "a choice is a string, a number or an object of those")
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (bool, list, dict)) or item is None:
                    raise self.fail(f"{path}.{key}", "an object choice holds strings and numbers")
        for sub, text in walk_strings(value, path):
            self.templates(text, sub, captures=None)

    def date(self, param: DateParam, path: str) -> None:
        ranged = param.start is not None or param.end is not None
        derived = param.from_ is not None or param.add_days is not None
        if ranged == derived:
            raise self.fail(path, "a date has either start and end, or from and add_days")
        if ranged:
            if param.start is None or param.end is None:
                raise self.fail(path, "a date range needs both start and end")
            for field in ("start", "end"):
                try:
                    parse_iso(getattr(param, field))
                except ValueError as exc:
                    raise self.fail(f"{path}.{field}", str(exc)) from None
            if days_between(param.start, param.end) < 0:
                raise self.fail(f"{path}.end", "end is before start")
            span = days_between(param.start, param.end) + 1
            if param.weekdays and not any(is_weekday(add_days(param.start, i)) for i in range(min(span, 7))):
                raise self.fail(path, "no weekday between start and end")
        else:
            source = self.params.get(param.from_ or "")
            if not isinstance(source, DateParam):
                raise self.fail(f"{path}.from", f"no earlier date parameter {param.from_!r}")
            if isinstance(param.add_days, str):
                self.templates(param.add_days, f"{path}.add_days", captures=None)

    # -- templates ----------------------------------------------------------------------
    def templates(self, text: str, path: str, captures: list[str] | None) -> None:
        """Check each placeholder of ``text``; ``captures`` are the names bound so far
        (``None`` where captured values are not allowed at all)."""
        try:
            found = refs(text)
        except TemplateError as exc:
            raise self.fail(path, str(exc)) from None
        for ref in found:
            if ref.captured:
                if captures is None:
                    raise self.fail(path, f"{{{{{ref.text}}}}}: captured values cannot be used here")
                if ref.name not in captures:
                    raise self.fail(path, f"{{{{{ref.text}}}}}: no capture {ref.name!r} is bound before this point")
                continue
            if ref.name in BUILTINS:
                if ref.path:
                    raise self.fail(path, f"{{{{{ref.text}}}}}: {ref.name!r} has no fields")
                continue
            param = self.params.get(ref.name)
            if param is None:
                raise self.fail(path, f"{{{{{ref.text}}}}}: no parameter {ref.name!r} (defined before this point)")
            self.ref_path(param, ref, path)

    def ref_path(self, param: Any, ref: Any, path: str) -> None:
        if not ref.path:
            return
        head = ref.path[0]
        if isinstance(param, ChoiceParam) and param.choices and isinstance(param.choices[0], dict):
            if head not in param.choices[0]:
                raise self.fail(path, f"{{{{{ref.text}}}}}: the choices of {ref.name!r} have no field {head!r}")
        elif isinstance(param, WebTaskParam):
            from cwgym.webtasks import generate

            if head not in generate(param.task, 0):
                raise self.fail(path, f"{{{{{ref.text}}}}}: a {param.task} task has no field {head!r}")
        elif isinstance(param, SampleParam):
            if not head.isdigit() or int(head) >= param.k:
                raise self.fail(path, f"{{{{{ref.text}}}}}: {ref.name!r} has items 0..{param.k - 1}")
            items = param.choices or []
            if len(ref.path) > 1 and not (items and isinstance(items[0], dict) and ref.path[1] in items[0]):
                raise self.fail(path, f"{{{{{ref.text}}}}}: the items of {ref.name!r} have no field {ref.path[1]!r}")
        else:
            raise self.fail(path, f"{{{{{ref.text}}}}}: {ref.name!r} has no fields")

    def value(self, value: Any, path: str, captures: list[str] | None) -> None:
        for sub, text in walk_strings(value, path):
            self.templates(text, sub, captures)

    # -- setup --------------------------------------------------------------------------
    def setup(self, entry: Any, path: str) -> None:
        if entry.service is not None:
            others = [entry.path, entry.content is not None, entry.lines is not None, entry.dir, entry.mode, entry.if_absent]
            if entry.state is None or any(others):
                raise self.fail(path, "a service setup entry has service and state, and no file fields")
            if not entry.service.strip():
                raise self.fail(f"{path}.service", "the service id is empty")
            self.value(entry.state, f"{path}.state", captures=None)
            return
        if entry.state is not None:
            raise self.fail(f"{path}.state", "state belongs to a service setup entry (name the service)")
        given = [entry.content is not None, entry.lines is not None, entry.dir]
        if sum(given) != 1:
            raise self.fail(path, "a setup entry has exactly one of content, lines or dir: true")
        if not entry.path.strip():
            raise self.fail(f"{path}.path", "the path is empty")
        if entry.mode is not None and not is_octal_mode(entry.mode):
            raise self.fail(f"{path}.mode", f"a mode is octal text such as \"0644\", got {entry.mode!r}")
        self.value(msgspec.to_builtins(entry), path, captures=None)

    # -- phases -------------------------------------------------------------------------
    def phase(self, phase: Any, path: str, bound: list[str]) -> None:
        if not phase.label.strip():
            raise self.fail(f"{path}.label", "the label is empty")
        if not (phase.gui or phase.tool or phase.capture) and phase.writes:
            raise self.fail(path, "a phase has gestures, tool calls or captures")
        for field in ("role", "session", "machine"):
            value = getattr(phase, field)
            if value is not None and not value.strip():
                raise self.fail(f"{path}.{field}", f"the {field} is empty")
        for index, gesture in enumerate(phase.gui):
            self.gesture(gesture, f"{path}.gui[{index}]", bound)
        for index, call in enumerate(phase.tool):
            self.tool(call, f"{path}.tool[{index}]", bound)
        for index, capture in enumerate(phase.capture):
            cpath = f"{path}.capture[{index}]"
            if not _IDENT.match(capture.name):
                raise self.fail(f"{cpath}.name", f"a capture name is letters, digits, _ and -, got {capture.name!r}")
            if capture.name in bound:
                raise self.fail(f"{cpath}.name", f"capture {capture.name!r} is bound twice")
            source = capture.from_
            given = [source.state is not None, source.file is not None, source.command is not None]
            if sum(given) != 1:
                raise self.fail(f"{cpath}.from", "a capture reads from exactly one of state, file or command")
            if source.state is not None:
                self.pointer(source.state.pointer, f"{cpath}.from.state.pointer")
                for key in source.state.where:
                    self.pointer(key, f"{cpath}.from.state.where")
                if source.state.value is not None:
                    self.pointer(source.state.value, f"{cpath}.from.state.value")
            if capture.pattern is None and source.state is None:
                raise self.fail(f"{cpath}.pattern", "a file or command capture needs a pattern with {{?}}")
            if capture.pattern is not None and capture.pattern.count("{{?}}") != 1:
                raise self.fail(f"{cpath}.pattern", "a pattern holds exactly one {{?}}")
            self.value(msgspec.to_builtins(capture), cpath, list(bound))
            bound.append(capture.name)

    def gesture(self, gesture: Gesture, path: str, bound: list[str]) -> None:
        if isinstance(gesture, (Click, DoubleClick, RightClick)):
            self.target(gesture.target, f"{path}.target")
        elif isinstance(gesture, Drag):
            self.target(gesture.from_, f"{path}.from")
            if gesture.to is not None:
                self.target(gesture.to, f"{path}.to")
                if gesture.dx or gesture.dy:
                    raise self.fail(path, "a drag ends on a target or at an offset dx/dy, not both")
            elif gesture.dx == 0 and gesture.dy == 0:
                raise self.fail(path, "a drag ends on a target (to) or at an offset (dx, dy)")
        elif isinstance(gesture, Scroll):
            if gesture.target is not None:
                self.target(gesture.target, f"{path}.target")
            if gesture.dx == 0 and gesture.dy == 0:
                raise self.fail(path, "a scroll moves by dx or dy")
        elif isinstance(gesture, Key):
            if gesture.repeat < 1:
                raise self.fail(f"{path}.repeat", "repeat must be at least 1")
            problem = key_problem(gesture.key)
            if problem:
                raise self.fail(f"{path}.key", problem)
        elif isinstance(gesture, Type) and gesture.text == "":
            raise self.fail(f"{path}.text", "there is nothing to type")
        self.value(msgspec.to_builtins(gesture), path, list(bound))

    def target(self, target: Target, path: str) -> None:
        if all(getattr(target, f) is None for f in ("role", "label", "text", "interaction")):
            raise self.fail(path, "a target matches on at least one of role, label, text or interaction")
        for field in ("role", "label", "text", "interaction", "app"):
            value = getattr(target, field)
            if value is not None and not value:
                raise self.fail(f"{path}.{field}", f"the {field} is empty")

    def tool(self, call: ToolCall, path: str, bound: list[str]) -> None:
        if not call.family:
            raise self.fail(f"{path}.family", "the family is empty")
        ops = TOOL_OPS.get(call.family)
        if ops is not None:
            if call.op not in ops:
                raise self.fail(f"{path}.op", f"unknown {call.family} operation {call.op!r} (known: {', '.join(ops)})")
            for field in ops[call.op]:
                if not isinstance(call.payload.get(field), str):
                    raise self.fail(f"{path}.payload", f"{call.family} {call.op} needs a string {field!r}")
        elif not call.op:
            raise self.fail(f"{path}.op", "the op is empty")
        self.value(msgspec.to_builtins(call), path, list(bound))

    # -- checks -------------------------------------------------------------------------
    def check(self, check: Check, path: str, bound: list[str]) -> None:
        """The rules of the check's kind, then its placeholders (captures bound so far allowed)."""
        first = next(problems_of(check), None)
        if first is not None:
            raise self.fail(f"{path}.{first[0]}", first[1])
        self.value(msgspec.to_builtins(check.spec()), f"{path}.{check.kind()}", list(bound))

    def pointer(self, pointer: str, path: str) -> None:
        problem = pointer_problem(pointer)
        if problem:
            raise self.fail(path, problem)


def key_problem(key: str) -> str | None:
    """Why ``key`` is not a key name of ``keyboard.v1``, or ``None`` when it is one."""
    if not key:
        return "the key is empty"
    try:
        from cwgym.desktop.keys import parse_key
    except ImportError:  # pragma: no cover - the desktop layer ships with the engine
        return None
    try:
        parse_key(key)
    except (KeyError, ValueError):
        return f"{key!r} is not a key name (see cwgym.desktop.keys)"
    return None

