"""Action codecs: an action from the env's action space, turned into action envelopes.

Every interface ends in the same envelopes ``Environment.step`` takes, sent through the
agent's own session, so the world checks the grant and hit-tests pointer actions exactly
as for any actor. A choice the interface cannot carry out (malformed JSON, a family the
interface does not accept, an empty element row, a vocabulary slot past the end) is a
*refused* action: nothing is sent, the step still counts, and ``info["outcome"]`` says
why (:data:`REFUSALS`).

========================  =====================================  ==================================
interface                 space                                  an action
========================  =====================================  ==================================
``envelopes``             ``Text`` (JSON)                        one envelope, a list of them, or
                                                                 ``{"done": true}`` (alone or last)
``screen``                ``Text`` (JSON)                        ``envelopes`` accepting only
                                                                 ``pointer.v1`` and ``keyboard.v1``
``pointer``               ``MultiDiscrete([ops, cols, rows])``   an operation at a cell's centre
``pointer-box``           ``Box(0, 1, (3,))``                    ``[op, x, y]``: operation
                                                                 ``floor(op * ops)``, the point as
                                                                 fractions of the viewport
``click-element``         ``Discrete(K)``                        a click where hit testing reaches
                                                                 element row ``k``'s control
``double-click-element``  ``Discrete(K)``                        a double click there
``keys``                  ``Discrete(len(keys))``                one key of the key set
``type-token``            ``Discrete(vocabulary)``               types slot ``k`` of the vocabulary
``shell-tokens``          ``MultiDiscrete([1 + S + V] * L)``     a ``terminal.v1`` command of up to
                                                                 ``L`` words: 0 none, then the
                                                                 :data:`SHELL_WORDS`, then the
                                                                 vocabulary's slots
``done``                  ``Discrete(1)``                        declares the task done
``a+b+...``               ``Discrete(sum)`` (``combine: flat``)  index ranges in the order named;
                          or ``OneOf`` (``combine: oneof``)      ``(part, action of that part)``
========================  =====================================  ==================================

Pointer operations: ``click``, ``double_click``, ``right_click``, ``down``, ``up``, ``move``,
``wheel_up`` and ``wheel_down`` (a wheel of ``wheel_delta`` pixels). In a flat combination
the pointer grid is one index per (operation, column, row), operation-major.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
import numpy as np
from gymnasium import spaces

from cwgym.desktop.keys import parse_key
from cwgym.rl.text import CHARSET

if TYPE_CHECKING:
    from cwgym.rl.config import TaskConfig
    from cwgym.rl.elements import ElementTable

__all__ = [
    "DEFAULT_KEYS",
    "INTERFACES",
    "POINTER_OPS",
    "REFUSALS",
    "SHELL_WORDS",
    "ActionCodec",
    "DecodeContext",
    "Decoded",
    "build_codec",
]

POINTER_OPS = ("click", "double_click", "right_click", "down", "up", "move", "wheel_up", "wheel_down")
#: The default key set of the ``keys`` interface.
DEFAULT_KEYS = (
    "Enter", "Escape", "Tab", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown", "ArrowLeft",
    "ArrowRight", "Home", "End", "PageUp", "PageDown", "F2", "Ctrl+a", "Ctrl+c", "Ctrl+v", "Ctrl+x",
    "Ctrl+z", "Ctrl+s", "Ctrl+Shift+s", "Ctrl+w", "Ctrl+End", "Ctrl+l", "Shift+End", "Alt+Up",
    "Meta", "Meta+Up", "Alt+F4",
)
#: Why an action was refused before anything was sent.
REFUSALS = (
    "malformed_action",
    "action_family_not_granted",
    "action_budget_exceeded",
    "empty_element",
    "unreachable_element",
    "not_in_vocabulary",
)
INTERFACES = (
    "envelopes", "screen", "pointer", "pointer-box", "click-element", "double-click-element", "keys", "type-token",
    "shell-tokens", "done",
)
#: The words ``shell-tokens`` offers besides the instruction's: the commands and operators
#: the terminal tasks' experts use, and the paths they start from.
SHELL_WORDS = (
    "ls", "cat", "cd", "pwd", "mkdir", "-p", "touch", "cp", "-r", "mv", "rm", "echo", "printf", "grep", "-i", "-c",
    "sort", "uniq", "wc", "-l", "head", "tail", "cut", "-d", "-f", "awk", "sed", "tr", "find", "-name", "chmod",
    "+x", "date", "tee", "|", ">", ">>", "<", "&&", ";", "~", "~/", "/", ".", "..", "*", "-",
)
SCREEN_FAMILIES = ("pointer.v1", "keyboard.v1")
#: The items of a JSON-text action that name an element row instead of a point.
ELEMENT_FORMS = frozenset({"click", "double_click", "fill"})
MAX_ACTION_CHARS = 16384


class Decoded(NamedTuple):
    """What an action comes to: envelopes to send, a declared end, or a refusal."""

    envelopes: list[dict]
    done: bool = False
    refusal: str | None = None


def refused(reason: str) -> Decoded:
    return Decoded([], False, reason)


class DecodeContext:
    """What decoding needs from the episode: machine, viewport, element table, vocabulary,
    and ``locate(id)``: where a click reaches a control on the screen now (or ``None``)."""

    __slots__ = ("budget", "height", "locate", "machine", "table", "vocabulary", "width")

    def __init__(self, machine: str, width: int, height: int, budget: int) -> None:
        self.machine = machine
        self.width = width
        self.height = height
        self.budget = budget
        self.table: ElementTable | None = None
        self.vocabulary: list[str] = [" "]
        self.locate: Callable[[str], tuple[int, int] | None] | None = None


class ActionCodec:
    """One interface: its space, the families it sends, and decoding.

    ``size`` is the number of choices when the interface is a ``Discrete``-able one (it can
    join a flat combination), else ``None``.
    """

    families: tuple[str, ...] = ()
    needs_table = False
    needs_vocabulary = False
    space: spaces.Space
    size: int | None = None

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        return self.decode_index(_index(action, self.size), ctx) if self.size is not None else refused("malformed_action")

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:  # pragma: no cover - overridden
        raise NotImplementedError


def _index(action: Any, size: int | None) -> int | None:
    try:
        value = int(np.asarray(action).reshape(()))
    except (TypeError, ValueError):
        return None
    return value if size is not None and 0 <= value < size else None


def _pointer(op: str, x: int, y: int, ctx: DecodeContext, wheel_delta: int) -> dict:
    payload: dict[str, Any] = {"x": int(x), "y": int(y), "width": ctx.width, "height": ctx.height}
    name = op
    if op == "right_click":
        name, payload["button"] = "click", 2
    elif op in ("wheel_up", "wheel_down"):
        name, payload["delta_y"] = "wheel", -wheel_delta if op == "wheel_up" else wheel_delta
    return {"family": "pointer.v1", "op": name, "machine": ctx.machine, "payload": payload}


class EnvelopeCodec(ActionCodec):
    """JSON text: one envelope, a list of envelopes, or ``{"done": true}`` (alone or last).

    Where the env observes element ids (``a11y``, ``marks`` or ``elements``: the rows of
    the element table), an item may also name an element instead of a point:
    ``{"click": k}``, ``{"double_click": k}`` (a pointer action where hit testing reaches
    row ``k``'s control) and ``{"fill": k, "text": "..."}`` (click it, select all with
    ``Ctrl+a``, type the text). They expand to ordinary pointer and keyboard envelopes
    before anything is sent, and need ``pointer.v1`` (and ``keyboard.v1`` for ``fill``)
    among the interface's families.
    """

    def __init__(self, families: Sequence[str], max_chars: int = MAX_ACTION_CHARS) -> None:
        self.families = tuple(families)
        self.space = spaces.Text(max_length=max_chars, min_length=0, charset=CHARSET)

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        if isinstance(action, bytes):
            action = action.decode("utf-8", "replace")
        if not isinstance(action, str):
            return refused("malformed_action")
        try:
            value = msgspec.json.decode(action)
        except msgspec.DecodeError:
            return refused("malformed_action")
        items = value if isinstance(value, list) else [value]
        done = False
        if items and items[-1] == {"done": True}:
            done = True
            items = items[:-1]
        if not items and not done:
            return refused("malformed_action")
        if len(items) > ctx.budget:
            return refused("action_budget_exceeded")
        envelopes = []
        for item in items:
            if isinstance(item, dict) and ELEMENT_FORMS & set(item):
                expanded = self._element_form(item, ctx)
                if isinstance(expanded, Decoded):
                    return expanded
                envelopes += expanded
                continue
            if not isinstance(item, dict) or not isinstance(item.get("family"), str) or not isinstance(item.get("op"), str):
                return refused("malformed_action")
            payload = item.get("payload", {})
            machine = item.get("machine", ctx.machine)
            if not isinstance(payload, dict) or not isinstance(machine, str) or set(item) - {"family", "op", "payload", "machine"}:
                return refused("malformed_action")
            if item["family"] not in self.families:
                return refused("action_family_not_granted")
            envelopes.append({"family": item["family"], "op": item["op"], "machine": machine, "payload": payload})
        if len(envelopes) > ctx.budget:  # element forms expand to several envelopes
            return refused("action_budget_exceeded")
        return Decoded(envelopes, done)

    def _element_form(self, item: dict, ctx: DecodeContext) -> list[dict] | Decoded:
        """``{"click": k}``, ``{"double_click": k}`` or ``{"fill": k, "text": t}`` as envelopes."""
        forms = ELEMENT_FORMS & set(item)
        if len(forms) != 1:
            return refused("malformed_action")
        (form,) = forms
        index = item[form]
        if set(item) != ({form, "text"} if form == "fill" else {form}) or isinstance(index, bool) or not isinstance(index, int):
            return refused("malformed_action")
        if form == "fill" and not isinstance(item.get("text"), str):
            return refused("malformed_action")
        needed = ("pointer.v1", "keyboard.v1") if form == "fill" else ("pointer.v1",)
        if any(f not in self.families for f in needed):
            return refused("action_family_not_granted")
        table = ctx.table
        if table is None or not 0 <= index < len(table.rows):
            return refused("empty_element")
        point = ctx.locate(table.rows[index]["id"]) if ctx.locate is not None else None
        if point is None:
            return refused("unreachable_element")
        click = _pointer("double_click" if form == "double_click" else "click", point[0], point[1], ctx, 0)
        if form != "fill":
            return [click]
        keyboard = [("key", {"key": "Ctrl+a"}), ("type", {"text": item["text"]})]
        return [click, *({"family": "keyboard.v1", "op": op, "machine": ctx.machine, "payload": p} for op, p in keyboard)]


class PointerGridCodec(ActionCodec):
    """``MultiDiscrete([ops, columns, rows])``: an operation at the centre of a grid cell."""

    families = ("pointer.v1",)

    def __init__(self, ops: Sequence[str], grid: Sequence[int], wheel_delta: int) -> None:
        self.ops = tuple(ops)
        self.columns, self.rows = int(grid[0]), int(grid[1])
        self.wheel_delta = wheel_delta
        self.space = spaces.MultiDiscrete([len(self.ops), self.columns, self.rows])
        self.size = len(self.ops) * self.columns * self.rows

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        try:
            op, column, row = (int(v) for v in np.asarray(action).reshape(3))
        except (TypeError, ValueError):
            return refused("malformed_action")
        if not (0 <= op < len(self.ops) and 0 <= column < self.columns and 0 <= row < self.rows):
            return refused("malformed_action")
        return self._at(op, column, row, ctx)

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        if index is None:
            return refused("malformed_action")
        op, rest = divmod(index, self.columns * self.rows)
        column, row = divmod(rest, self.rows)
        return self._at(op, column, row, ctx)

    def _at(self, op: int, column: int, row: int, ctx: DecodeContext) -> Decoded:
        x = (2 * column + 1) * ctx.width // (2 * self.columns)
        y = (2 * row + 1) * ctx.height // (2 * self.rows)
        return Decoded([_pointer(self.ops[op], x, y, ctx, self.wheel_delta)])


class PointerBoxCodec(ActionCodec):
    """``Box(0, 1, (3,))``: ``[operation, x, y]`` in fractions of the op list and viewport."""

    families = ("pointer.v1",)

    def __init__(self, ops: Sequence[str], wheel_delta: int) -> None:
        self.ops = tuple(ops)
        self.wheel_delta = wheel_delta
        self.space = spaces.Box(0.0, 1.0, (3,), dtype=np.float32)

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        try:
            values = np.asarray(action, dtype=np.float64).reshape(3)
        except (TypeError, ValueError):
            return refused("malformed_action")
        if not np.all(np.isfinite(values)):
            return refused("malformed_action")
        v = np.clip(values, 0.0, 1.0)
        op = min(int(v[0] * len(self.ops)), len(self.ops) - 1)
        x = min(int(v[1] * ctx.width), ctx.width - 1)
        y = min(int(v[2] * ctx.height), ctx.height - 1)
        return Decoded([_pointer(self.ops[op], x, y, ctx, self.wheel_delta)])


class ClickElementCodec(ActionCodec):
    """``Discrete(K)``: a pointer click (or double click) at element row ``k``'s reachable point.

    The point is the one hit testing says a click reaches the control at, so the click
    goes through the same pointer path as any other: never to a hidden target id.
    """

    families = ("pointer.v1",)
    needs_table = True

    def __init__(self, rows: int, op: str = "click") -> None:
        self.space = spaces.Discrete(rows)
        self.size = rows
        self.op = op

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        if index is None:
            return refused("malformed_action")
        table = ctx.table
        if table is None or index >= len(table.rows):
            return refused("empty_element")
        point = ctx.locate(table.rows[index]["id"]) if ctx.locate is not None else None
        if point is None:
            return refused("unreachable_element")
        return Decoded([_pointer(self.op, point[0], point[1], ctx, 0)])


class KeysCodec(ActionCodec):
    """``Discrete(len(keys))``: one ``keyboard.v1 key`` from the key set."""

    families = ("keyboard.v1",)

    def __init__(self, keys: Sequence[str]) -> None:
        for key in keys:
            try:
                parse_key(key)
            except KeyError:
                raise ValueError(f"keys: {key!r} is not a key name (see cwgym.desktop.keys)") from None
        self.keys = tuple(keys)
        self.space = spaces.Discrete(len(self.keys))
        self.size = len(self.keys)

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        if index is None:
            return refused("malformed_action")
        return Decoded([{"family": "keyboard.v1", "op": "key", "machine": ctx.machine, "payload": {"key": self.keys[index]}}])


class TypeTokenCodec(ActionCodec):
    """``Discrete(V)``: ``keyboard.v1 type`` of vocabulary slot ``k`` (see :func:`cwgym.rl.text.vocabulary`)."""

    families = ("keyboard.v1",)
    needs_vocabulary = True

    def __init__(self, size: int) -> None:
        self.space = spaces.Discrete(size)
        self.size = size

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        if index is None:
            return refused("malformed_action")
        if index >= len(ctx.vocabulary) or not ctx.vocabulary[index]:
            return refused("not_in_vocabulary")
        return Decoded([{"family": "keyboard.v1", "op": "type", "machine": ctx.machine, "payload": {"text": ctx.vocabulary[index]}}])


class ShellTokensCodec(ActionCodec):
    """``MultiDiscrete([1 + S + V] * L)``: one ``terminal.v1 execute`` of the words chosen.

    Each of the ``L`` slots picks nothing (0), a :data:`SHELL_WORDS` word, or a slot of the
    instruction's vocabulary; the words chosen, in order, joined by spaces, are the command.
    A fixed-size discrete space for terminal tasks, where the text interface's commands are
    free text: the ``sb3`` preset's action space for them.
    """

    families = ("terminal.v1",)
    needs_vocabulary = True

    def __init__(self, length: int, vocabulary: int) -> None:
        self.choices = 1 + len(SHELL_WORDS) + vocabulary
        self.space = spaces.MultiDiscrete([self.choices] * length)

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        try:
            indices = [int(i) for i in np.asarray(action).reshape(-1)]
        except (TypeError, ValueError):
            return refused("malformed_action")
        if len(indices) != len(self.space.nvec) or any(not 0 <= i < self.choices for i in indices):
            return refused("malformed_action")
        words = []
        for index in indices:
            if index == 0:
                continue
            if index <= len(SHELL_WORDS):
                words.append(SHELL_WORDS[index - 1])
                continue
            slot = index - 1 - len(SHELL_WORDS)
            if slot >= len(ctx.vocabulary):
                return refused("not_in_vocabulary")
            if ctx.vocabulary[slot].strip():
                words.append(ctx.vocabulary[slot])
        if not words:
            return refused("malformed_action")
        command = " ".join(words)
        return Decoded([{"family": "terminal.v1", "op": "execute", "machine": ctx.machine, "payload": {"command": command}}])


class DoneCodec(ActionCodec):
    """``Discrete(1)``: declare the task done (the episode ends with the verifier's reward)."""

    def __init__(self) -> None:
        self.space = spaces.Discrete(1)
        self.size = 1

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        return Decoded([], True) if index == 0 else refused("malformed_action")


class FlatCodec(ActionCodec):
    """Several discrete interfaces as one ``Discrete``: index ranges in the order named."""

    def __init__(self, parts: Sequence[ActionCodec]) -> None:
        self.parts = tuple(parts)
        self.offsets = []
        total = 0
        for part in self.parts:
            self.offsets.append(total)
            total += part.size or 0
        self.families = tuple(dict.fromkeys(f for p in self.parts for f in p.families))
        self.needs_table = any(p.needs_table for p in self.parts)
        self.needs_vocabulary = any(p.needs_vocabulary for p in self.parts)
        self.space = spaces.Discrete(total)
        self.size = total

    def decode_index(self, index: int | None, ctx: DecodeContext) -> Decoded:
        if index is None:
            return refused("malformed_action")
        for part, offset in zip(reversed(self.parts), reversed(self.offsets)):
            if index >= offset:
                return part.decode_index(index - offset, ctx)
        return refused("malformed_action")  # pragma: no cover


class OneOfCodec(ActionCodec):
    """Several interfaces as ``OneOf``: an action is ``(part, action of that part)``."""

    def __init__(self, parts: Sequence[ActionCodec]) -> None:
        self.parts = tuple(parts)
        self.families = tuple(dict.fromkeys(f for p in self.parts for f in p.families))
        self.needs_table = any(p.needs_table for p in self.parts)
        self.needs_vocabulary = any(p.needs_vocabulary for p in self.parts)
        self.space = spaces.OneOf([p.space for p in self.parts])

    def decode(self, action: Any, ctx: DecodeContext) -> Decoded:
        try:
            which, inner = action
            which = int(which)
        except (TypeError, ValueError):
            return refused("malformed_action")
        if not 0 <= which < len(self.parts):
            return refused("malformed_action")
        return self.parts[which].decode(inner, ctx)


def build_codec(config: TaskConfig) -> ActionCodec:
    """The codec of ``config.interface``, checked against the grant.

    Raises:
        ValueError: an unknown interface, a family it needs that is not granted, a
            ``flat`` combination with a part that is not discrete, or a bad key set.
    """
    names = config.interface.split("+")
    parts = [_part(name, config) for name in names]
    codec = parts[0] if len(parts) == 1 else (OneOfCodec(parts) if config.combine == "oneof" else _flat(parts, config))
    missing = [f for f in codec.families if f not in config.actions]
    if missing:
        raise ValueError(f"interface {config.interface!r} sends {', '.join(missing)}, which the grant does not give")
    if codec.needs_table and "semantic.v1" not in config.observations:
        raise ValueError(f"interface {config.interface!r} clicks element rows, which needs the semantic.v1 channel granted")
    return codec


def _flat(parts: list[ActionCodec], config: TaskConfig) -> ActionCodec:
    for name, part in zip(config.interface.split("+"), parts):
        if part.size is None:
            raise ValueError(f"interface {name!r} cannot join a flat combination; use combine: oneof")
    return FlatCodec(parts)


def _part(name: str, config: TaskConfig) -> ActionCodec:
    ops = tuple(config.pointer_ops) if config.pointer_ops is not None else POINTER_OPS
    unknown_ops = [op for op in ops if op not in POINTER_OPS]
    if unknown_ops or not ops:
        raise ValueError(f"pointer_ops must be some of {', '.join(POINTER_OPS)}, got {list(ops)}")
    if name == "envelopes":
        families = config.families if config.families is not None else config.actions
        return EnvelopeCodec(families)
    if name == "screen":
        return EnvelopeCodec(SCREEN_FAMILIES)
    if name == "pointer":
        return PointerGridCodec(ops, config.grid, config.wheel_delta)
    if name == "pointer-box":
        return PointerBoxCodec(ops, config.wheel_delta)
    if name == "click-element":
        return ClickElementCodec(config.elements)
    if name == "double-click-element":
        return ClickElementCodec(config.elements, "double_click")
    if name == "keys":
        return KeysCodec(config.keys if config.keys is not None else DEFAULT_KEYS)
    if name == "type-token":
        return TypeTokenCodec(config.vocabulary + len(config.characters))
    if name == "shell-tokens":
        return ShellTokensCodec(config.command_tokens, config.vocabulary)
    if name == "done":
        return DoneCodec()
    raise ValueError(f"unknown action interface {name!r}; known: {', '.join(INTERFACES)} (combine them with '+')")
