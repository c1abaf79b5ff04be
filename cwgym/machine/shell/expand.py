"""Word expansion: tilde, parameters, command substitution, arithmetic, field splitting,
pathname expansion and quote removal, in bash's order.

An expanded word is built as fields of segments ``(text, active)``: ``active`` text came
from unquoted places, so its glob characters still count. Pathname expansion then turns a
field with active glob characters into the sorted names it matches (C locale order), or
leaves it literal when nothing matches.
"""

from __future__ import annotations

from cwgym.machine.filesystem import FsError
from cwgym.machine.shell import arith, ast, braces, pattern
from cwgym.machine.shell.chars import is_digits
from cwgym.machine.shell.errors import ExpansionError
from cwgym.machine.shell.view import ShellView

DEFAULT_IFS = " \t\n"
_REFUSED_FORMS = {
    "array": "arrays",
    "names": "variable name listings",
    "transform": "parameter transformations",
}
IFS_WHITESPACE = frozenset(" \t\n")


class Fields:
    """Accumulates fields of ``(text, active)`` segments while a word expands."""

    __slots__ = ("cur", "fields")

    def __init__(self) -> None:
        self.fields: list[list[tuple[str, bool]]] = []
        self.cur: list[tuple[str, bool]] | None = None

    def add(self, text: str, active: bool) -> None:
        if self.cur is None:
            self.cur = []
        self.cur.append((text, active))

    def force(self) -> None:
        if self.cur is None:
            self.cur = []

    def delimit(self) -> None:
        if self.cur is not None:
            self.fields.append(self.cur)
            self.cur = None

    def split_in(self, value: str, ifs: str) -> None:
        """Add an unquoted expansion's value, splitting it on ``ifs``."""
        if not ifs:
            if value:
                self.add(value, True)
            return
        white = "".join(c for c in ifs if c in IFS_WHITESPACE)
        n = len(value)
        i = 0
        start = 0
        while i < n:
            c = value[i]
            if c not in ifs:
                i += 1
                continue
            if i > start:
                self.add(value[start:i], True)
            j = i
            while j < n and value[j] in white:
                j += 1
            hard = False
            if j < n and value[j] in ifs and value[j] not in white:
                hard = True
                j += 1
                while j < n and value[j] in white:
                    j += 1
            if hard:
                self.force()
            self.delimit()
            i = start = j
        if start < n:
            self.add(value[start:], True)


class Expander:
    """Expands words for one shell."""

    def __init__(self, shell: ShellView) -> None:
        self.shell = shell

    # -- entry points --------------------------------------------------------------------
    def words(self, words: list[ast.Word]) -> list[str]:
        """Full expansion of command words: split and globbed."""
        out: list[str] = []
        for word in words:
            parts = word.parts
            if len(parts) == 1:
                kind = type(parts[0])
                if kind is ast.Quoted:
                    out.append(parts[0].text)
                    continue
                if kind is ast.Lit:
                    text = parts[0].text
                    if "{" not in text and not pattern.has_glob(text):
                        out.append(text)
                        continue
            for variant in braces.expand(word):
                out.extend(self.word(variant))
        return out

    def word(self, word: ast.Word, *, glob: bool = True) -> list[str]:
        parts = word.parts
        if len(parts) == 1 and type(parts[0]) in (ast.Lit, ast.Quoted):
            text = parts[0].text
            if type(parts[0]) is ast.Quoted or not pattern.has_glob(text):
                return [text]
        fields = Fields()
        self._parts(word.parts, fields, "word")
        fields.delimit()
        out: list[str] = []
        noglob = self.shell.options.get("noglob") or not glob
        for segments in fields.fields:
            if not noglob and any(active and pattern.has_glob(t) for t, active in segments):
                pat = "".join(t if active else pattern.escape(t) for t, active in segments)
                matches = self.glob(pat)
                if matches:
                    out.extend(matches)
                    continue
                out.append(pattern.unescape(pat))
            else:
                out.append("".join(t for t, _ in segments))
        return out

    def string(self, word: ast.Word) -> str:
        """Expansion without splitting or globbing (assignments, here-strings, [[ ]])."""
        return "".join(self._string_parts(word.parts))

    def pattern(self, word: ast.Word) -> str:
        """Expansion to a pattern string: quoted characters escaped, the rest active."""
        out: list[str] = []
        for part in word.parts:
            if isinstance(part, ast.Lit):
                out.append(part.text)
            elif isinstance(part, ast.Quoted | ast.Tilde):
                out.append(pattern.escape(self._one(part, quoted=True)))
            elif isinstance(part, ast.DQ):
                out.append(pattern.escape("".join(self._string_parts(part.parts, quoted=True))))
            else:
                out.append(self._one(part, quoted=False))
        return "".join(out)

    def heredoc(self, text: str) -> str:
        from cwgym.machine.shell.lexer import read_parts

        parts, _ = read_parts(text, 0, "heredoc")
        return "".join(self._string_parts(parts, quoted=True))

    def arith_text(self, text: str) -> str:
        """The text of an arithmetic expression after its own expansions."""
        if "$" not in text and "`" not in text and "\\" not in text and '"' not in text:
            return text
        from cwgym.machine.shell.lexer import read_parts

        parts, _ = read_parts(text, 0, "heredoc")
        return "".join(self._string_parts(parts, quoted=True)).replace('"', "")

    def arithmetic(self, text: str) -> int:
        return arith.evaluate(self.arith_text(text), self.shell.arith_vars())

    # -- parts ---------------------------------------------------------------------------
    def _string_parts(self, parts: list, quoted: bool = False) -> list[str]:
        out: list[str] = []
        for part in parts:
            if isinstance(part, ast.DQ):
                out.extend(self._string_parts(part.parts, quoted=True))
            else:
                out.append(self._one(part, quoted=quoted))
        return out

    def _one(self, part, *, quoted: bool) -> str:
        """One part as a single string (``$@`` joined by spaces)."""
        if isinstance(part, ast.Lit | ast.Quoted):
            return part.text
        if isinstance(part, ast.Tilde):
            return self.tilde(part.user)
        if isinstance(part, ast.Param):
            value = self.param(part, quoted=quoted)
            if isinstance(value, list):
                if part.name == "*":
                    return self._star_join(value)
                return " ".join(value)
            if isinstance(value, Fields):
                return "".join(t for field in value.fields for t, _ in field)
            return value
        if isinstance(part, ast.CmdSub):
            return self.shell.command_substitution(part)
        if isinstance(part, ast.Arith):
            return str(self.arithmetic(part.expr))
        if isinstance(part, ast.DQ):
            return "".join(self._string_parts(part.parts, quoted=True))
        raise ExpansionError("bad word part")  # pragma: no cover

    def _star_join(self, values: list[str]) -> str:
        ifs = self.shell.get_var("IFS")
        sep = " " if ifs is None else ifs[:1]
        return sep.join(values)

    def _ifs(self) -> str:
        ifs = self.shell.get_var("IFS")
        return DEFAULT_IFS if ifs is None else ifs

    def _parts(self, parts: list, fields: Fields, mode: str) -> None:
        """Expand ``parts`` into ``fields``; mode ``word``, ``arg`` (``${x:-arg}``) or ``dq``."""
        for part in parts:
            if isinstance(part, ast.Lit):
                if mode == "dq":
                    fields.add(part.text, False)
                elif mode == "arg":
                    fields.split_in(part.text, self._ifs())
                else:
                    fields.add(part.text, True)
            elif isinstance(part, ast.Quoted):
                fields.add(part.text, False)
            elif isinstance(part, ast.Tilde):
                fields.add(self.tilde(part.user), False)
            elif isinstance(part, ast.DQ):
                inner = part.parts
                if (
                    len(inner) == 1
                    and isinstance(inner[0], ast.Param)
                    and inner[0].name == "@"
                    and inner[0].op == ""
                    and not self.shell.positional
                ):
                    continue
                fields.force()
                self._parts(inner, fields, "dq")
            elif isinstance(part, ast.Param):
                quoted = mode == "dq"
                value = self.param(part, quoted=quoted, fields=fields, mode=mode)
                if value is None:
                    continue
                if isinstance(value, list):
                    self._positional_into(part.name, value, fields, quoted)
                elif quoted:
                    fields.add(value, False)
                else:
                    fields.split_in(value, self._ifs())
            elif isinstance(part, ast.CmdSub | ast.Arith):
                value = self._one(part, quoted=True)
                if mode == "dq":
                    fields.add(value, False)
                else:
                    fields.split_in(value, self._ifs())

    def _positional_into(self, name: str, values: list[str], fields: Fields, quoted: bool) -> None:
        if quoted and name == "*":
            fields.add(self._star_join(values), False)
            return
        for index, value in enumerate(values):
            if index:
                fields.delimit()
            if quoted:
                fields.add(value, False)
            else:
                fields.split_in(value, self._ifs())

    # -- tilde ---------------------------------------------------------------------------
    def tilde(self, user: str) -> str:
        shell = self.shell
        if user == "":
            home = shell.get_var("HOME")
            return home if home is not None else shell.machine.home
        if user == "+":
            return shell.get_var("PWD") or shell.cwd
        if user == "-":
            old = shell.get_var("OLDPWD")
            return old if old is not None else "~-"
        for entry in shell.machine.users:
            if entry.name == user:
                return entry.home
        return "~" + user

    # -- parameters ----------------------------------------------------------------------
    def lookup(self, name: str, part: ast.Param | None = None):
        """A parameter's value: a string, a list (``$@``/``$*``), or None when unset."""
        shell = self.shell
        if name in ("@", "*"):
            return list(shell.positional)
        if is_digits(name):
            index = int(name)
            if index == 0:
                return shell.arg0
            return shell.positional[index - 1] if index <= len(shell.positional) else None
        return shell.get_var(name)

    def _unbound(self, name: str) -> None:
        if self.shell.options.get("nounset") and name not in ("@", "*"):
            raise ExpansionError(f"{name}: unbound variable", 127)

    def param(
        self, part: ast.Param, *, quoted: bool, fields: Fields | None = None, mode: str = "word"
    ):
        """Expand one parameter. Returns a string, a list for ``$@``, or None when the
        result was written straight into ``fields`` (a ``${x:-word}`` alternative)."""
        op = part.op
        name = part.name
        if op == "bad":
            raise ExpansionError(f"{part.text}: bad substitution")
        if op in _REFUSED_FORMS:
            raise ExpansionError(
                f"{part.text}: {_REFUSED_FORMS[op]} are not supported by this shell", 2
            )
        if op == "len":
            value = self.lookup(name)
            if isinstance(value, list):
                return str(len(value))
            if value is None:
                self._unbound(name)
                value = ""
            return str(len(value))
        if op == "indirect":
            target = self.lookup(name)
            if target is None:
                self._unbound(name)
                return "" if not isinstance(target, list) else []
            if isinstance(target, list):
                target = " ".join(target)
            if not (is_digits(target) or target in "@*#?-$!" or _valid_name(target)):
                raise ExpansionError(f"{target}: invalid indirect expansion")
            value = self.lookup(target)
            return "" if value is None else value
        value = self.lookup(name)
        is_set = value is not None
        if isinstance(value, list):
            empty = not value or (len(value) == 1 and value[0] == "") if name == "*" else not value
            is_set = bool(value)
        else:
            empty = not value
        if op in ("-", ":-", "+", ":+", "=", ":=", "?", ":?"):
            colon = op.startswith(":")
            missing = (not is_set) or (colon and empty)
            base = op.lstrip(":")
            if base == "-":
                if missing:
                    return self._alternative(part.arg, quoted, fields, mode)
            elif base == "+":
                if not missing:
                    return self._alternative(part.arg, quoted, fields, mode)
                return ""
            elif base == "=":
                if missing:
                    if not _valid_name(name):
                        raise ExpansionError(f"${name}: cannot assign in this way")
                    new = self.string(part.arg) if part.arg else ""
                    self.shell.set_var(name, new)
                    return new
            elif base == "?" and missing:
                message = self.string(part.arg) if part.arg and part.arg.parts else ""
                if not message:
                    message = "parameter null or not set" if colon else "parameter not set"
                raise ExpansionError(f"{name}: {message}", 127)
            if value is None:
                return ""
            return value
        if value is None:
            self._unbound(name)
            value = ""
        if op == "":
            return value
        if op == ":" and isinstance(value, list):
            return self._slice_positional(part)
        items = value if isinstance(value, list) else [value]
        results = [self._operate(op, part, item) for item in items]
        if isinstance(value, list):
            return results
        return results[0]

    def _slice_positional(self, part: ast.Param) -> list[str]:
        """``${@:offset:length}``: offset 0 is ``$0``, negative counts from the end."""
        values = [self.shell.arg0, *self.shell.positional]
        offset = self.arithmetic(self.string(part.arg)) if part.arg else 0  # type: ignore[arg-type]
        if offset < 0:
            offset += len(values)
            if offset < 1:
                return []
        chosen = values[offset:]
        if part.arg2 is not None:
            length = self.arithmetic(self.string(part.arg2))
            if length < 0:
                raise ExpansionError(f"{length}: substring expression < 0")
            chosen = chosen[:length]
        return chosen

    def _alternative(self, arg: ast.Word | None, quoted: bool, fields: Fields | None, mode: str):
        if arg is None:
            return ""
        if fields is None:
            return self.string(arg)
        self._parts(arg.parts, fields, "dq" if quoted else "arg")
        return None

    def _operate(self, op: str, part: ast.Param, value: str) -> str:
        if op in ("#", "##"):
            return pattern.strip_prefix(value, self.pattern(part.arg), op == "##")  # type: ignore[arg-type]
        if op in ("%", "%%"):
            return pattern.strip_suffix(value, self.pattern(part.arg), op == "%%")  # type: ignore[arg-type]
        if op in ("/", "//", "/#", "/%"):
            pat = self.pattern(part.arg)  # type: ignore[arg-type]
            repl = self.string(part.arg2) if part.arg2 is not None else ""
            return pattern.replace(value, pat, repl, op)
        if op in ("^", "^^", ",", ",,"):
            pat = self.pattern(part.arg) if part.arg and part.arg.parts else "?"
            upper = op.startswith("^")
            chars = list(value)
            for index, ch in enumerate(chars):
                if pattern.match(pat, ch):
                    chars[index] = ch.upper() if upper else ch.lower()
                if len(op) == 1:
                    break
            return "".join(chars)
        if op == ":":
            offset = self.arithmetic(self.string(part.arg)) if part.arg else 0  # type: ignore[arg-type]
            n = len(value)
            if offset < 0:
                offset = max(0, n + offset) if n + offset >= 0 else n + 1
            if offset > n:
                return ""
            if part.arg2 is None:
                return value[offset:]
            length = self.arithmetic(self.string(part.arg2))
            if length < 0:
                end = n + length
                if end < offset:
                    raise ExpansionError(f"{length}: substring expression < 0")
                return value[offset:end]
            return value[offset : offset + length]
        raise ExpansionError(f"{part.text}: bad substitution")  # pragma: no cover

    # -- pathname expansion --------------------------------------------------------------
    def glob(self, pat: str) -> list[str]:
        """Names matching pattern string ``pat``, sorted; hidden names need a literal dot."""
        shell = self.shell
        fs = shell.machine.user_fs()
        cwd = shell.cwd
        components = pat.split("/")
        trailing = len(components) > 1 and components[-1] == ""
        if trailing:
            components = components[:-1]
        candidates = [""]
        if components and components[0] == "":
            candidates = ["/"]
            components = components[1:]
        for index, comp in enumerate(components):
            last = index == len(components) - 1
            found: list[str] = []
            for cand in candidates:
                prefix = cand if cand == "" or cand.endswith("/") else cand + "/"
                where = cand or "."
                if comp == "":
                    found.append(prefix)
                    continue
                if not pattern.has_glob(comp):
                    shown = prefix + pattern.unescape(comp)
                    if fs.exists(shown, cwd, follow=False) if last else fs.is_dir(shown, cwd):
                        found.append(shown)
                    continue
                try:
                    names = fs.listdir(where, cwd)
                except FsError:
                    continue
                regex = pattern.compile_pattern(comp)
                explicit_dot = comp.startswith((".", "\\."))
                for name in names:
                    if name in (".", "..") or (name.startswith(".") and not explicit_dot):
                        continue
                    if regex.fullmatch(name) is None:
                        continue
                    shown = prefix + name
                    if not last and not fs.is_dir(shown, cwd):
                        continue
                    found.append(shown)
            candidates = found
            if not candidates:
                return []
        if trailing:
            candidates = [c + "/" for c in candidates if fs.is_dir(c, cwd)]
        return sorted(candidates)


def _valid_name(text: str) -> bool:
    from cwgym.machine.shell.lexer import is_name

    return is_name(text)
