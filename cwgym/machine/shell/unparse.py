"""Print a function definition the way bash's ``type`` and ``declare -f`` lay it out.

Bash does not keep a function's text: it reprints the parsed tree, one command a line,
four spaces an indent level, ``elif`` folded into a nested ``if``. This mirrors that
layout for the constructs of :mod:`.ast`.
"""

from __future__ import annotations

from cwgym.machine.shell import ast
from cwgym.machine.shell.errors import ShellSyntaxError
from cwgym.machine.shell.parser import parse_function

INDENT = "    "


def function_text(source: str) -> str:
    """``name () \\n{ \\n    body\\n}\\n`` for a stored definition."""
    try:
        definition = parse_function(source)
    except ShellSyntaxError:
        return source.rstrip("\n") + "\n"
    body = definition.body
    lines = [f"{definition.name} () "]
    if isinstance(body, ast.Group):
        lines.append("{ ")
        lines.extend(_list(body.body, 1))
        lines.append("}" + _redirects(body.redirects))
    else:
        lines.append("{ ")
        lines.extend(_command(body, 1))
        lines.append("}")
    return "\n".join(lines) + "\n"


class _Lines(list):
    """Rendered lines; ``heredoc`` marks those ending in a here-document body."""

    heredoc = False


def _list(node, level: int, terminated: bool = False) -> list[str]:
    """A list, one command a line; ``terminated`` ends the last one with ``;`` too, as
    bash does inside ``if``, ``for`` and ``while`` bodies."""
    if not isinstance(node, ast.ListNode):
        return _command(node, level)
    out: list[str] = []
    count = len(node.items)
    for index, (item, background) in enumerate(zip(node.items, node.background)):
        lines = _command(item, level)
        if background:
            lines[-1 if not getattr(lines, "heredoc", False) else 0] += " &"
        elif (index < count - 1 or terminated) and not getattr(lines, "heredoc", False):
            lines[-1] += ";"
        out.extend(lines)
    return out


def _inline(node) -> str:
    """A list on one line (conditions of ``if`` and ``while``)."""
    if isinstance(node, ast.ListNode):
        parts = []
        for item, background in zip(node.items, node.background):
            parts.append(" ".join(_command(item, 0)).strip() + (" &" if background else ""))
        return "; ".join(parts)
    return " ".join(_command(node, 0)).strip()


def _word(word: ast.Word) -> str:
    return word.raw


def _redirects(redirects: list[ast.Redirect]) -> str:
    out = []
    for r in redirects:
        fd = "" if r.fd is None else str(r.fd)
        if r.heredoc is not None:
            delim = r.heredoc.delimiter
            shown = f"'{delim}'" if r.heredoc.quoted else delim
            out.append(f"{fd}{r.op}{shown}")
        elif r.op in (">&", "<&") and r.target is not None:
            out.append(f"{fd}{r.op}{_word(r.target)}")
        else:
            out.append(f"{fd}{r.op} {_word(r.target) if r.target else ''}")
    return (" " + " ".join(out)) if out else ""


def _heredoc_bodies(redirects: list[ast.Redirect]) -> list[str]:
    lines: list[str] = []
    for r in redirects:
        if r.heredoc is not None:
            lines.extend(r.heredoc.body.split("\n")[:-1])
            lines.append(r.heredoc.delimiter)
            lines.append("")
    return lines


def _command(node, level: int) -> list[str]:
    pad = INDENT * level
    if isinstance(node, ast.Simple):
        words = [f"{a.name}{'+' if a.append else ''}={a.value.raw}" for a in node.assigns]
        words += [_word(w) for w in node.words]
        line = pad + " ".join(words) + _redirects(node.redirects)
        bodies = _heredoc_bodies(node.redirects)
        if bodies:
            result = _Lines([line + "\n" + "\n".join(bodies)])
            result.heredoc = True
            return result
        return [line]
    if isinstance(node, ast.Pipeline):
        text = " | ".join(_inline(c) for c in node.commands)
        return [pad + ("! " if node.negate else "") + text]
    if isinstance(node, ast.AndOr):
        text = _inline(node.items[0])
        for op, item in zip(node.ops, node.items[1:]):
            text += f" {op} {_inline(item)}"
        return [pad + text]
    if isinstance(node, ast.ListNode):
        return _list(node, level)
    if isinstance(node, ast.If):
        lines = _if(node.arms, node.orelse, level)
        lines[-1] += _redirects(node.redirects)
        return lines
    if isinstance(node, ast.While):
        word = "until" if node.until else "while"
        lines = [f"{pad}{word} {_inline(node.cond)}; do"]
        lines += _list(node.body, level + 1, True)
        lines.append(pad + "done" + _redirects(node.redirects))
        return lines
    if isinstance(node, ast.For):
        words = '"$@"' if node.words is None else " ".join(_word(w) for w in node.words)
        lines = [f"{pad}for {node.var} in {words};", pad + "do"]
        lines += _list(node.body, level + 1, True)
        lines.append(pad + "done" + _redirects(node.redirects))
        return lines
    if isinstance(node, ast.ArithFor):
        header = "; ".join(p.strip() for p in (node.init, node.cond, node.step))
        lines = [f"{pad}for (({header}))", pad + "do"]
        lines += _list(node.body, level + 1, True)
        lines.append(pad + "done" + _redirects(node.redirects))
        return lines
    if isinstance(node, ast.Case):
        lines = [f"{pad}case {_word(node.word)} in "]
        for item in node.items:
            lines.append(pad + INDENT + " | ".join(_word(p) for p in item.patterns) + ")")
            if item.body is not None and item.body.items:
                lines += _list(item.body, level + 2)
            lines.append(pad + INDENT + item.terminator)
        lines.append(pad + "esac" + _redirects(node.redirects))
        return lines
    if isinstance(node, ast.Group):
        return [pad + "{ ", *_list(node.body, level + 1), pad + "}" + _redirects(node.redirects)]
    if isinstance(node, ast.Subshell):
        inner = _list(node.body, level)
        inner[0] = pad + "( " + inner[0].lstrip()
        inner[-1] += " )" + _redirects(node.redirects)
        return inner
    if isinstance(node, ast.ArithCmd):
        return [f"{pad}(( {node.expr.strip()} )){_redirects(node.redirects)}"]
    if isinstance(node, ast.Cond):
        return [f"{pad}[[ {_cond(node.expr)} ]]{_redirects(node.redirects)}"]
    if isinstance(node, ast.FuncDef):
        return [pad + line for line in function_text(node.source).rstrip("\n").split("\n")]
    return [pad + "?"]


def _if(arms: list, orelse, level: int) -> list[str]:
    pad = INDENT * level
    cond, body = arms[0]
    lines = [f"{pad}if {_inline(cond)}; then", *_list(body, level + 1, True)]
    if len(arms) > 1:
        lines.append(pad + "else")
        nested = _if(arms[1:], orelse, level + 1)
        nested[-1] += ";"
        lines += nested
    elif orelse is not None:
        lines.append(pad + "else")
        lines += _list(orelse, level + 1, True)
    lines.append(pad + "fi")
    return lines


def _cond(node) -> str:
    if isinstance(node, ast.CondAnd):
        return f"{_cond(node.left)} && {_cond(node.right)}"
    if isinstance(node, ast.CondOr):
        return f"{_cond(node.left)} || {_cond(node.right)}"
    if isinstance(node, ast.CondNot):
        return f"! {_cond(node.expr)}"
    if isinstance(node, ast.CondUnary):
        return f"{node.op} {_word(node.operand)}"
    if isinstance(node, ast.CondBinary):
        return f"{_word(node.left)} {node.op} {_word(node.right)}"
    return _word(node.word)
