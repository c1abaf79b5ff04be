"""The paragraph model of the ``docs`` application (a helper module, not an application).

**The model.** A document is a list of paragraphs; a paragraph is the JSON-like dict
``{"style": STYLE, "runs": [[text, fmt], ...]}`` where ``STYLE`` is one of
:data:`STYLES` and ``fmt`` a bit set (:data:`BOLD` = 1, :data:`ITALIC` = 2). Runs are
kept normalised: no empty run, no two neighbours with the same format (an empty
paragraph has no runs). A position is ``[paragraph, offset]``, the offset counting
characters of the paragraph's text. Paragraph text holds no line break.

**Markdown** (:func:`to_markdown`, :func:`from_markdown`). Written: ``# `` / ``## `` /
``### `` headings, ``- `` bulleted and ``1. `` numbered items (numbered in their run),
``**bold**``, ``*italic*``, ``***both***``; blocks are separated by one blank line except
consecutive items of one list, which are on consecutive lines; ``\\``, ``*`` and ``_`` are
escaped with a backslash everywhere, and a paragraph that would start like a block marker
(``#``, ``-``, ``+``, ``>``, ``=``, ``1.``) has that character escaped. What Markdown cannot
hold is dropped on writing: empty paragraphs, spaces at the start and end of a paragraph,
and the formatting of spaces next to a format change (they take the format the words on
both sides share, so delimiters hug words). Reading a file this module wrote gives back
exactly the document written, so writing it again gives the same bytes.

Reading any other Markdown is lenient: ATX headings (``####`` and deeper become Heading 3,
closing ``#`` dropped), setext headings (``===`` / ``---`` under a line), ``-``, ``*``,
``+`` bullets and ``1.`` / ``1)`` numbers (indentation and nesting are flattened; a line
under an item continues it), blank-line-separated paragraphs whose lines are joined with a
space, ``**``/``__`` bold and ``*``/``_`` italic (an underscore inside a word is a letter;
a delimiter with no partner stays a literal character), backslash escapes. Kept as plain
text: block quotes (the ``>`` is dropped), fenced code (one paragraph per line, no inline
formatting; indented code reads as a paragraph), inline code, links, images, HTML and tables (as written).
Thematic breaks (``---``, ``***``, ``___``) are dropped.

**The native format** ``.cwdoc`` (:func:`to_cwdoc`, :func:`from_cwdoc`) is JSON::

    {"format": "cwdoc", "version": 1,
     "paragraphs": [{"style": "h1", "runs": [{"text": "Title"}]},
                    {"style": "body", "runs": [{"text": "bold", "bold": true}, {"text": " and "},
                                               {"text": "italic", "italic": true}]}]}

It keeps everything the model holds (empty paragraphs, spaces, formats).

**Layout** (:func:`layout`) wraps a paragraph at a width in pixels with the bundled
proportional fonts and is memoised by content, so typing re-lays out one paragraph.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from cwgym.text import line_height, measure, shape

__all__ = [
    "BOLD",
    "ITALIC",
    "STYLES",
    "STYLE_NAMES",
    "BadFile",
    "ParaLayout",
    "from_cwdoc",
    "from_markdown",
    "layout",
    "to_cwdoc",
    "to_markdown",
]

BOLD = 1
ITALIC = 2
#: Paragraph styles, in the order the style menu lists them.
STYLES = ("body", "h1", "h2", "h3", "bullet", "number")
#: What the style box shows for each style (Writer's names).
STYLE_NAMES = {
    "body": "Body Text",
    "h1": "Heading 1",
    "h2": "Heading 2",
    "h3": "Heading 3",
    "bullet": "List Bullet",
    "number": "List Number",
}
LISTS = ("bullet", "number")
HEADINGS = ("h1", "h2", "h3")
NATIVE = "cwdoc"
NATIVE_VERSION = 1


class BadFile(Exception):
    """A file that is not a document of the expected format (the message says why)."""


# -- paragraphs ----------------------------------------------------------------------------


def para(style: str = "body", runs: list | None = None) -> dict:
    return {"style": style, "runs": normalize(runs or [])}


def text_of(p: dict) -> str:
    return "".join(r[0] for r in p["runs"])


def length(p: dict) -> int:
    return sum(len(r[0]) for r in p["runs"])


def normalize(runs: list) -> list:
    out: list = []
    for text, fmt in runs:
        if not text:
            continue
        if out and out[-1][1] == fmt:
            out[-1] = [out[-1][0] + text, fmt]
        else:
            out.append([text, fmt])
    return out


def slice_runs(runs: list, start: int, end: int) -> list:
    """The runs of ``text[start:end]``."""
    out = []
    pos = 0
    for text, fmt in runs:
        n = len(text)
        a, b = max(start, pos), min(end, pos + n)
        if a < b:
            out.append([text[a - pos : b - pos], fmt])
        pos += n
        if pos >= end:
            break
    return out


def fmt_at(p: dict, offset: int) -> int:
    """The format typing at ``offset`` takes: the character before's (after's at the start)."""
    pos = 0
    runs = p["runs"]
    for text, fmt in runs:
        pos += len(text)
        if offset <= pos and (offset > pos - len(text) or offset == 0):
            return fmt
    return runs[-1][1] if runs else 0


def fmts(runs: list) -> list[int]:
    """One format per character."""
    out: list[int] = []
    for text, fmt in runs:
        out.extend([fmt] * len(text))
    return out


def set_format(runs: list, start: int, end: int, flag: int, on: bool) -> list:
    """``runs`` with ``flag`` set (or cleared) on ``[start, end)``."""
    out = []
    pos = 0
    for text, fmt in runs:
        n = len(text)
        for a, b, inside in (
            (pos, max(pos, min(start, pos + n)), False),
            (max(pos, start), min(pos + n, end), True),
            (max(pos, min(end, pos + n)), pos + n, False),
        ):
            if a < b:
                f = (fmt | flag if on else fmt & ~flag) if inside else fmt
                out.append([text[a - pos : b - pos], f])
        pos += n
    return normalize(out)


def all_have(runs: list, start: int, end: int, flag: int) -> bool:
    """Whether every character of ``[start, end)`` has ``flag``."""
    return all(fmt & flag for _t, fmt in slice_runs(runs, start, end))


def plain(doc: list) -> str:
    return "\n".join(text_of(p) for p in doc)


def words(text: str) -> int:
    return len(text.split())


def copy_doc(doc: list) -> list:
    return [{"style": p["style"], "runs": [list(r) for r in p["runs"]]} for p in doc]


def fragment(doc: list, start: list, end: list) -> list:
    """The paragraphs between two positions (``start`` before ``end``), as a new list."""
    (p0, o0), (p1, o1) = start, end
    if p0 == p1:
        return [{"style": doc[p0]["style"], "runs": slice_runs(doc[p0]["runs"], o0, o1)}]
    out = [{"style": doc[p0]["style"], "runs": slice_runs(doc[p0]["runs"], o0, length(doc[p0]))}]
    out.extend(copy_doc(doc[p0 + 1 : p1]))
    out.append({"style": doc[p1]["style"], "runs": slice_runs(doc[p1]["runs"], 0, o1)})
    return out


def splice(doc: list, start: list, end: list, frag: list) -> tuple[int, int, list, list]:
    """What replacing ``[start, end)`` by ``frag`` (paragraphs) changes, without changing
    ``doc``: ``(first, count, new paragraphs, caret after)``. The first fragment
    paragraph joins the start paragraph (which keeps its style); the last one's style
    carries the end paragraph's tail."""
    (p0, o0), (p1, o1) = start, end
    head = slice_runs(doc[p0]["runs"], 0, o0)
    tail = slice_runs(doc[p1]["runs"], o1, length(doc[p1]))
    style = doc[p0]["style"]
    if len(frag) <= 1:
        mid = frag[0]["runs"] if frag else []
        new = [{"style": style, "runs": normalize(head + [list(r) for r in mid] + tail)}]
        caret = [p0, o0 + sum(len(r[0]) for r in mid)]
    else:
        new = [{"style": style, "runs": normalize(head + [list(r) for r in frag[0]["runs"]])}]
        new.extend(copy_doc(frag[1:-1]))
        last = frag[-1]
        new.append(
            {"style": last["style"], "runs": normalize([list(r) for r in last["runs"]] + tail)}
        )
        caret = [p0 + len(frag) - 1, sum(len(r[0]) for r in last["runs"])]
    return p0, p1 - p0 + 1, new, caret


def insert_runs(p: dict, offset: int, text: str, fmt: int) -> list:
    runs = p["runs"]
    return normalize(
        [*slice_runs(runs, 0, offset), [text, fmt], *slice_runs(runs, offset, length(p))]
    )


# -- Markdown ------------------------------------------------------------------------------

_MD_PREFIX = {"h1": "# ", "h2": "## ", "h3": "### ", "bullet": "- "}
_LINE_START = re.compile(r"^(?:[#>+=`~-]|\d+[.)])")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


def _inline_md(runs: list, hashes: bool = False) -> str:
    """The Markdown of one paragraph's runs (delimiters next to words, see the module)."""
    text = "".join(r[0] for r in runs)
    lead = len(text) - len(text.lstrip())
    trail = len(text.rstrip())
    if lead >= trail:
        return ""
    text = text[lead:trail]
    flags = fmts(runs)[lead:trail]
    # spaces take the flags the words on both sides share
    n = len(text)
    i = 0
    while i < n:
        if text[i].isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            shared = flags[i - 1] & flags[j] if i > 0 and j < n else 0
            for k in range(i, j):
                flags[k] = shared
            i = j
        else:
            i += 1
    out: list[str] = []
    cur = 0
    for k in range(n + 1):
        want = flags[k] if k < n else 0
        if want != cur:
            b0, i0 = bool(cur & BOLD), bool(cur & ITALIC)
            b1, i1 = bool(want & BOLD), bool(want & ITALIC)
            if i0 and not i1:
                out.append("*")
            if b0 != b1:
                out.append("**")
            if i1 and not i0:
                out.append("*")
            cur = want
        if k < n:
            out.append("\\#" if hashes and text[k] == "#" else _escape(text[k]))
    body = "".join(out)
    if _LINE_START.match(body):
        m = _LINE_START.match(body)
        s = m.group(0)
        body = (s[:-1] + "\\" + s[-1] + body[len(s) :]) if s[0].isdigit() else "\\" + body
    return body


def to_markdown(doc: list) -> str:
    """The Markdown text of ``doc`` (see the module docstring)."""
    blocks: list[list[str]] = []
    prev = None
    number = 0
    for p in doc:
        body = _inline_md(p["runs"], p["style"] in HEADINGS)
        if not body:
            continue  # Markdown has no empty paragraph
        style = p["style"]
        if style == "number":
            number = number + 1 if prev == "number" else 1
            line = f"{number}. {body}"
        else:
            line = _MD_PREFIX.get(style, "") + body
        if style in LISTS and prev == style:
            blocks[-1].append(line)
        else:
            blocks.append([line])
        prev = style
    return "\n\n".join("\n".join(b) for b in blocks) + ("\n" if blocks else "")


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_BULLET = re.compile(r"^[ \t]*[-*+][ \t]+(.*)$|^[ \t]*[-*+]$")
_NUMBER = re.compile(r"^[ \t]*\d{1,9}[.)][ \t]+(.*)$|^[ \t]*\d{1,9}[.)]$")
_THEMATIC = re.compile(r"^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _inline_parse(text: str) -> list:
    """Runs from Markdown inline text: escapes, ``*``/``_`` delimiters (see the module)."""
    tokens: list[tuple[str, str]] = []  # ("t", text) or ("d", delimiter run)
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in _PUNCT:
            buf.append(text[i + 1])
            i += 2
            continue
        if ch in "*_":
            j = i
            while j < n and text[j] == ch:
                j += 1
            before = text[i - 1] if i > 0 else " "
            after = text[j] if j < n else " "
            literal = before.isspace() and after.isspace()
            if ch == "_" and before.isalnum() and after.isalnum():
                literal = True
            if literal or j - i > 4:
                buf.append(text[i:j])
            else:
                if buf:
                    tokens.append(("t", "".join(buf)))
                    buf = []
                tokens.append(("d", text[i:j]))
            i = j
            continue
        buf.append(ch)
        i += 1
    if buf:
        tokens.append(("t", "".join(buf)))
    # toggle formats; delimiters after the last point with no format open stay literal
    states = []
    cur = 0
    last_zero = 0
    for k, (kind, value) in enumerate(tokens):
        if kind == "d":
            cur = _toggle(cur, len(value))
            if cur == 0:
                last_zero = k + 1
        states.append(cur)
    runs: list = []
    cur = 0
    for k, (kind, value) in enumerate(tokens):
        if kind == "t":
            runs.append([value, cur])
        elif k < last_zero:
            cur = states[k]
        else:
            runs.append([value, cur])
    return normalize(runs)


def _toggle(cur: int, n: int) -> int:
    if n == 1:
        return cur ^ ITALIC
    if n == 2:
        return cur ^ BOLD
    if n == 3:
        return cur ^ BOLD ^ ITALIC  # "**" + "*" or "*" + "**"
    return cur ^ BOLD  # four (other writers): close italic, toggle bold, reopen italic


def from_markdown(text: str) -> list:
    """A document from Markdown text (lenient, see the module docstring)."""
    doc: list = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    open_para: dict | None = None  # the paragraph lines may still join (body or list item)
    buffer: list[str] = []
    fence: str | None = None

    def flush() -> None:
        nonlocal open_para, buffer
        if open_para is not None:
            open_para["runs"] = _inline_parse(" ".join(s.strip() for s in buffer))
            doc.append(open_para)
        open_para, buffer = None, []

    for raw in lines:
        line = raw.replace("\t", "    ")
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            else:
                doc.append(para("body", [[line, 0]]))
            continue
        m = _FENCE.match(line)
        if m:
            flush()
            fence = m.group(1)[:3]
            continue
        if not line.strip():
            flush()
            continue
        stripped = line.strip()
        if open_para is not None and open_para["style"] == "body" and _SETEXT.match(line):
            open_para["style"] = "h1" if stripped.startswith("=") else "h2"
            flush()
            continue
        if _THEMATIC.match(line):
            flush()
            continue
        m = _ATX.match(line)
        if m:
            flush()
            level = min(3, len(m.group(1)))
            doc.append(para(f"h{level}", _inline_parse((m.group(2) or "").strip())))
            continue
        m = _BULLET.match(line) or _NUMBER.match(line)
        if m:
            flush()
            open_para = {"style": "bullet" if _BULLET.match(line) else "number", "runs": []}
            buffer = [m.group(1) or ""]
            continue
        while stripped.startswith(">"):
            stripped = stripped[1:].strip()
        if open_para is None:
            open_para = {"style": "body", "runs": []}
        buffer.append(stripped)
    flush()
    return doc


# -- the native format ---------------------------------------------------------------------


def to_cwdoc(doc: list) -> str:
    paragraphs = []
    for p in doc:
        runs = []
        for text, fmt in p["runs"]:
            run: dict[str, Any] = {"text": text}
            if fmt & BOLD:
                run["bold"] = True
            if fmt & ITALIC:
                run["italic"] = True
            runs.append(run)
        paragraphs.append({"style": p["style"], "runs": runs})
    return (
        json.dumps(
            {"format": NATIVE, "version": NATIVE_VERSION, "paragraphs": paragraphs},
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    )


def from_cwdoc(text: str) -> list:
    """A document from ``.cwdoc`` text; :class:`BadFile` names what is wrong."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadFile(f"it is not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != NATIVE:
        raise BadFile(f'it is not a .{NATIVE} document (no "format": "{NATIVE}")')
    if data.get("version") != NATIVE_VERSION:
        raise BadFile(f"version {data.get('version')!r} is not supported (only {NATIVE_VERSION})")
    paragraphs = data.get("paragraphs")
    if not isinstance(paragraphs, list):
        raise BadFile('"paragraphs" must be a list')
    doc = []
    for i, p in enumerate(paragraphs):
        if (
            not isinstance(p, dict)
            or p.get("style", "body") not in STYLES
            or not isinstance(p.get("runs", []), list)
        ):
            raise BadFile(f"paragraph {i + 1} is malformed")
        runs = []
        for r in p.get("runs", []):
            if not isinstance(r, dict) or not isinstance(r.get("text"), str):
                raise BadFile(f"a run of paragraph {i + 1} is malformed")
            text = "".join(
                " " if ch in "\r\n\t" else ch
                for ch in r["text"]
                if ch.isprintable() or ch in "\r\n\t"
            )
            runs.append(
                [
                    text,
                    (BOLD if r.get("bold") is True else 0)
                    | (ITALIC if r.get("italic") is True else 0),
                ]
            )
        doc.append(para(p.get("style", "body"), runs))
    return doc


# -- layout --------------------------------------------------------------------------------

#: (size px, bold face, space before, space after, indent) per style.
STYLE_BOX = {
    "body": (15, False, 0, 10, 0),
    "h1": (28, True, 18, 10, 0),
    "h2": (22, True, 14, 8, 0),
    "h3": (18, True, 12, 6, 0),
    "bullet": (15, False, 0, 4, 32),
    "number": (15, False, 0, 4, 32),
}


def font_of(style: str, fmt: int) -> str:
    return "sans-bold" if (STYLE_BOX[style][1] or fmt & BOLD) else "sans"


class ParaLayout:
    """One paragraph wrapped at a width.

    ``lines`` are ``(start, end, y, height, segments)`` with ``y`` from the paragraph's top
    (after its space before) and ``segments`` ``(start, end, x, font, fmt, text)`` runs of
    one format on that line, ``x`` from the text's left edge (after the indent).
    """

    __slots__ = ("height", "indent", "lines", "size", "space_before", "text")

    def __init__(self, style: str, runs: tuple, width: int) -> None:
        size, _bold, before, after, indent = STYLE_BOX[style]
        self.size = size
        self.indent = indent
        self.space_before = before
        text = "".join(t for t, _f in runs)
        self.text = text
        avail = max(20, width - indent)
        bounds = []  # run boundaries: (start, end, fmt)
        pos = 0
        for t, f in runs:
            bounds.append((pos, pos + len(t), f))
            pos += len(t)
        lh = line_height("sans-bold" if STYLE_BOX[style][1] else "sans", size) + (
            4 if size < 20 else 6
        )

        def width_of(a: int, b: int) -> int:
            w = 0
            for s, e, f in bounds:
                x0, x1 = max(a, s), min(b, e)
                if x0 < x1:
                    w += measure(text[x0:x1], font_of(style, f), size)
            return w

        breaks: list[tuple[int, int]] = []
        line_start = 0
        x = 0
        for m in re.finditer(r"\S+\s*|\s+", text):
            s, e = m.span()
            core = len(m.group(0).rstrip()) + s
            w_fit = width_of(s, core)
            if x + w_fit <= avail or (s == line_start and w_fit <= avail):
                x += width_of(s, e)
                continue
            if s > line_start:
                breaks.append((line_start, s))
                line_start, x = s, 0
                if w_fit <= avail:
                    x = width_of(s, e)
                    continue
            # a word wider than the line: break it by characters
            a = s
            while width_of(a, core) > avail:
                lo, hi = a + 1, core
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if width_of(a, mid) <= avail:
                        lo = mid
                    else:
                        hi = mid - 1
                breaks.append((a, lo))
                a = lo
            line_start, x = a, width_of(a, e)
        breaks.append((line_start, len(text)))
        lines = []
        y = 0
        for a, b in breaks:
            segs = []
            x = 0
            for s, e, f in bounds:
                x0, x1 = max(a, s), min(b, e)
                if x0 < x1:
                    piece = text[x0:x1]
                    font = font_of(style, f)
                    segs.append((x0, x1, x, font, f, piece))
                    x += measure(piece, font, size)
            if not segs:
                segs.append((a, a, 0, font_of(style, 0), 0, ""))
            lines.append((a, b, y, lh, tuple(segs)))
            y += lh
        self.lines = tuple(lines)
        self.height = before + y + after

    def line_of(self, offset: int) -> int:
        """The line the caret at ``offset`` is drawn on (a wrap point belongs to the next)."""
        for i, (a, b, _y, _h, _s) in enumerate(self.lines):
            if (offset < b or i == len(self.lines) - 1) and offset >= a:
                return i
        return len(self.lines) - 1

    def x_of(self, offset: int, line: int | None = None) -> int:
        """The caret's x (from the text's left edge, after the indent) at ``offset``."""
        i = self.line_of(offset) if line is None else line
        segs = self.lines[i][4]
        for s, e, x, font, _f, piece in segs:
            if s <= offset <= e:
                return x + (shape(piece, font, self.size).caret_x(offset - s) if piece else 0)
        s, e, x, font, _f, piece = segs[-1]
        return x + (measure(piece, font, self.size) if piece else 0)

    def offset_at(self, line: int, x: int) -> int:
        """The offset nearest to ``x`` on ``line``."""
        line = max(0, min(line, len(self.lines) - 1))
        a, b, _y, _h, segs = self.lines[line]
        last = line == len(self.lines) - 1
        hi = b if last or b == a else b - 1
        for s, e, sx, font, _f, piece in segs:
            w = measure(piece, font, self.size) if piece else 0
            if x < sx + w or (s, e) == (segs[-1][0], segs[-1][1]):
                if not piece:
                    return min(s, hi)
                return min(hi, s + shape(piece, font, self.size).index_at(x - sx))
        return hi


@functools.lru_cache(maxsize=8192)
def _layout(style: str, runs: tuple, width: int) -> ParaLayout:
    return ParaLayout(style, runs, width)


def layout(p: dict, width: int) -> ParaLayout:
    """The paragraph ``p`` wrapped at ``width`` px (memoised by content)."""
    return _layout(p["style"], tuple((t, f) for t, f in p["runs"]), width)
