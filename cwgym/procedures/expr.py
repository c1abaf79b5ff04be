"""The ``expr`` parameter kind: exact decimal arithmetic on earlier parameters."""

from __future__ import annotations

import ast
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

_FUNCTIONS = {"min": min, "max": max}


class ExprError(ValueError):
    """An expression that is not arithmetic on parameters, or names something unknown."""


def names_in(expr: str) -> list[str]:
    """The parameter names an expression reads; ``ExprError`` when it is not arithmetic."""
    tree = _parse(expr)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in _FUNCTIONS and node.id not in found:
            found.append(node.id)
    return found


def _parse(expr: str) -> ast.Expression:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"not an expression: {expr!r} ({exc.msg})") from None
    for node in ast.walk(tree):
        allowed = (
            ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant, ast.Attribute,
            ast.Call, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd,
        )
        if not isinstance(node, allowed):
            raise ExprError(f"{expr!r}: only + - * / ( ), numbers, parameters, min() and max() are allowed")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            raise ExprError(f"{expr!r}: only min() and max() may be called")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, (int, float))):
            raise ExprError(f"{expr!r}: constants must be numbers")
    return tree


def _decimal(value: Any, what: str) -> Decimal:
    if isinstance(value, bool):
        raise ExprError(f"{what} is not a number")
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise ExprError(f"{what} is not a number: {value!r}") from None


def evaluate(expr: str, params: dict[str, Any], places: int | None = None) -> int | str:
    """The value of ``expr``: text with ``places`` decimals, or an int when whole and unplaced."""
    tree = _parse(expr)

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return _decimal(node.value, "constant")
        if isinstance(node, ast.Name):
            if node.id not in params:
                raise ExprError(f"{expr!r}: no parameter {node.id!r}")
            return _decimal(params[node.id], node.id)
        if isinstance(node, ast.Attribute):
            base = node.value
            if not isinstance(base, ast.Name) or base.id not in params or not isinstance(params[base.id], dict):
                raise ExprError(f"{expr!r}: {ast.unparse(node)} names no object parameter's field")
            if node.attr not in params[base.id]:
                raise ExprError(f"{expr!r}: {base.id!r} has no field {node.attr!r}")
            return _decimal(params[base.id][node.attr], ast.unparse(node))
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp):
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if right == 0:
                raise ExprError(f"{expr!r}: division by zero")
            return left / right
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Name)
            return _FUNCTIONS[node.func.id](*(ev(a) for a in node.args))
        raise ExprError(f"{expr!r}: unsupported")  # pragma: no cover - _parse rejects it

    value = ev(tree)
    if places is not None:
        return str(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    if value == value.to_integral_value():
        return int(value)
    return str(value.normalize())
