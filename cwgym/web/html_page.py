"""Reading HTML back into a page: :func:`parse_html` turns any HTML a browser fetches into the
:class:`~cwgym.protocol.page.Page` it lays out.

Two readings, one result:

* **Our own pages.** A document that is exactly what :func:`~cwgym.protocol.page.to_html`
  writes for some page is read back as that page, field for field: text verbatim (spaces and
  all), ``<br>`` as ``"\\n"``, ``<strong>`` as emphasis, labels through ``<label for>``, and the
  model's defaults for what ``to_html`` leaves out (an option or checkbox without a ``value``
  has ``""``). The reading is accepted only when writing it again gives the same document
  byte for byte; anything else is read the second way.
* **Any other HTML** (hand-written files a ``static`` site serves), read as a browser shows it:

  - ``h1``–``h6`` → :class:`Heading`; text in ``p``, ``div``, ``li``, ``td``, ``span`` … →
    :class:`Text`, whitespace collapsed (runs → one space, trimmed at block edges; ``<pre>``
    keeps it), ``<br>`` → ``"\\n"``; a run wholly inside ``strong``/``b``/``em`` is emphasised;
  - ``a[href]`` → :class:`Link` (its text, else its images' ``alt``, else the URL);
    ``img`` → :class:`Image`; ``ul``/``ol`` → :class:`ListBlock`; ``table`` → :class:`Table`
    (a first row of ``th`` → headers; a cell holding several elements → a one-column table
    of them; a caption and stray content → before the table);
  - ``form`` → :class:`Form` (no ``method`` → ``GET``, as HTML); ``input`` by its ``type``
    (``checkbox``, ``radio``, ``submit``/``image``/``reset``/``button`` → :class:`Button`,
    types the model lacks → ``text``), ``textarea``, ``select``/``option``, ``button``;
    a ``label`` names its ``for`` control or the control inside it, else it is text;
  - other tags (``section``, ``nav``, ``main``, ``article`` …) keep their text; an ``id``
    attribute is kept, and an element without one has ``id=""`` (:func:`assign_ids` names it).
  - ``<html lang>`` → ``lang`` (default ``"en"``); ``<title>`` → ``title``, or ``base_url``
    for an untitled page, as browsers show it. Relative URLs stay as written.

Dropped: ``<head>`` (but its title), ``script``, ``style``, ``template``, ``svg``, ``math``,
``iframe``, ``datalist``, comments, ``<hr>``. Malformed markup is repaired as HTML parsers do:
implied end tags (``p``, ``li``, ``dd``, ``tr``, ``td``, ``option``, ``a`` …), stray end tags
ignored, end tags scoped by tables; a ``<form>`` inside a form is ignored, so the nested form's
controls belong to the outer one (and its ``</form>`` ends the outer form, as in HTML).

Limits: at most :data:`MAX_ELEMENTS` tags and non-blank text pieces are read, so a page has at
most that many elements; past that, reading stops and the page ends with
``Text("… (page truncated)")``. Nesting deeper than :data:`MAX_DEPTH` is read flat. Time is
linear in the document: the standard library's parser (as in Python 3.11) rescans to the end
for each construct that never closes, so those are neutralised first (:func:`_defuse`). Pure:
no I/O, deterministic, and no ``str`` makes it raise.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Callable, Iterator
from html.parser import HTMLParser

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Image,
    Input,
    Link,
    ListBlock,
    Option,
    Page,
    Radio,
    Select,
    Table,
    Text,
    TextArea,
    to_html,
)

__all__ = ["MAX_DEPTH", "MAX_ELEMENTS", "TRUNCATED", "parse_html"]

#: Tags and (not blank) text pieces read at most; the rest of the document is cut off.
MAX_ELEMENTS = 100_000
#: Open elements at most; deeper ones are read into their ancestor at this depth.
MAX_DEPTH = 100
#: The text that ends a truncated page.
TRUNCATED = "… (page truncated)"

_MODEL_PREFIX = '<!DOCTYPE html>\n<html lang="'
_WHITESPACE = " \t\n\r\f"
_SPACES = re.compile(r"[ \t\n\r\f]+")
_INTEGER = re.compile(r"[ \t\n\r\f]*([+-]?\d{1,9})")
_COMMENT_CLOSE_REVERSED = re.compile(r">\s*--")  # the parser's ``--\s*>``, read backwards

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr", "keygen"})
_HEAD_CONTENT = frozenset({"base", "link", "meta", "noscript", "script", "style", "template", "title"})
_DROPPED = frozenset({"head", "script", "style", "template", "svg", "math", "iframe", "noembed",
                      "noframes", "datalist", "title"})
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_BOLD = frozenset({"b", "strong", "em"})
_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
                     "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
                     "footer", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav",
                     "noscript", "p", "search", "section", "summary", "tbody", "td", "tfoot", "th",
                     "thead", "tr"})
_CLOSES_P = frozenset({"address", "article", "aside", "blockquote", "center", "details", "dialog",
                       "dir", "div", "dl", "dd", "dt", "fieldset", "figcaption", "figure", "footer",
                       "form", "header", "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre",
                       "search", "section", "summary", "table", "ul", *_HEADINGS})
_SCOPE = frozenset({"applet", "caption", "marquee", "object", "table", "td", "template", "th"})
_TABLE_SCOPE = frozenset({"table", "template"})
_INPUT_TYPES = frozenset({"text", "password", "email", "number", "search", "hidden", "date", "url"})
_BUTTON_INPUTS = {"submit": "Submit", "image": "Submit", "reset": "Reset", "button": ""}
_NOT_LABEL_TEXT = _DROPPED | {"select", "textarea", "button", "option", "optgroup", "label"}


def parse_html(html: str, base_url: str) -> Page:
    """The page ``html`` shows (``base_url`` titles it when it has no title); see the module."""
    document = _read_tree(html)
    if not document.truncated and html.startswith(_MODEL_PREFIX):
        page = _model_page(document)
        if page is not None and to_html(page) == html:
            return page
    return _browser_page(document, base_url)


# -- the tree -----------------------------------------------------------------------------


class _Node:
    """One element of the document: its tag, attributes and children (nodes and text)."""

    __slots__ = ("attrs", "children", "label", "tag", "used")

    def __init__(self, tag: str, attrs: dict[str, str]):
        self.tag = tag
        self.attrs = attrs
        self.children: list[_Node | str] = []
        self.label: str | None = None  # a control: the text of the label that names it
        self.used = False  # a label: it names a control


class _Document:
    def __init__(self, root: _Node, title: str | None, lang: str | None, truncated: bool):
        self.root, self.title, self.lang, self.truncated = root, title, lang, truncated


class _Truncated(Exception):
    """The element budget ran out: reading stops here."""


def _read_tree(html: str) -> _Document:
    builder = _TreeBuilder()
    truncated = False
    try:
        builder.feed(_defuse(html))
        builder.close()
    except _Truncated:
        truncated = True
    except AssertionError:  # the parser's own "cannot happen" checks: keep what was read
        pass
    return _Document(builder.root, builder.title(), builder.lang, truncated)


def _defuse(html: str) -> str:
    """``html`` with the constructs that can never close made harmless, so the parser never
    rescans to the end of the document for each one (quadratic time): ``<`` after the last
    ``>`` and ``<!--`` after the last ``-->`` become text (``&lt;``, what the parser makes of
    them in the end), and ``<![`` becomes a bogus comment, as HTML reads it."""
    html = html.replace("<![", "<!-[")
    last_gt = html.rfind(">")
    if "<" in html[last_gt + 1:]:
        html = html[:last_gt + 1] + html[last_gt + 1:].replace("<", "&lt;")
    match = _COMMENT_CLOSE_REVERSED.search(html[::-1])
    cut = max(len(html) - match.end() - 3, 0) if match else 0
    if "<!--" in html[cut:]:
        html = html[:cut] + html[cut:].replace("<!--", "&lt;!--")
    return html


class _TreeBuilder(HTMLParser):
    """Builds the element tree as an HTML parser would, within the budget and depth limits."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = _Node("#document", {})
        self.stack = [self.root]
        self.open: Counter[str] = Counter()
        self.lang: str | None = None
        self.title_parts: list[str] | None = None
        self.count = 0
        self.raw: str | None = None  # inside <title> or <textarea>: markup is text
        self.raw_parts: list[str] = []

    # the parser's events

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.raw is not None:
            self._raw_text(self.get_starttag_text() or "")
            return
        attributes = _attributes(attrs)
        if tag == "html":
            if self.lang is None and "lang" in attributes:
                self.lang = attributes["lang"]
            return
        if tag not in _HEAD_CONTENT:
            self._leave_head()
        if tag == "body" or (tag == "form" and self.open["form"]) or (tag == "head" and self.open["head"]):
            return
        if tag == "title" and not self._in_foreign():
            self._start_raw("title", [])
            return
        self._count()
        self._close_implied(tag)
        node = _Node(tag, attributes)
        self.stack[-1].children.append(node)
        if tag in _VOID:
            return
        if len(self.stack) <= MAX_DEPTH:
            self.stack.append(node)
            self.open[tag] += 1
        if tag == "textarea":
            self._start_raw("textarea", node.children)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.raw is None and self._in_foreign():  # <path/> closes itself in SVG only
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.raw is not None:
            if tag == self.raw:
                self._end_raw()
            else:
                self._raw_text(f"</{tag}>")
            return
        if tag == "br":  # </br> is read as <br>
            self.handle_starttag("br", [])
        elif tag == "head":
            self._leave_head()
        elif tag not in _VOID and self.open[tag]:
            self._pop_nearest(tag, _end_scope(tag))

    def handle_data(self, data: str) -> None:
        if self.raw is not None:
            self._raw_text(data)
            return
        if self.stack[-1].tag == "head":
            if not data.strip(_WHITESPACE):
                return
            self._leave_head()
        if data.strip(_WHITESPACE):  # blank text between tags costs no element
            self._count()
        self.stack[-1].children.append(data)

    def title(self) -> str | None:
        """The first ``<title>``'s text (an unclosed one runs to the end, as in browsers)."""
        if self.title_parts is None and self.raw == "title":
            return "".join(self.raw_parts)
        return None if self.title_parts is None else "".join(self.title_parts)

    # helpers

    def _count(self) -> None:
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise _Truncated

    def _start_raw(self, tag: str, parts: list) -> None:
        self.raw, self.raw_parts = tag, parts

    def _raw_text(self, text: str) -> None:
        self._count()
        self.raw_parts.append(text)

    def _end_raw(self) -> None:
        if self.raw == "title":
            if self.title_parts is None:
                self.title_parts = self.raw_parts
        elif self.open["textarea"]:
            self._pop_nearest("textarea", _SCOPE)
        self.raw, self.raw_parts = None, []

    def _in_foreign(self) -> bool:
        return bool(self.open["svg"] or self.open["math"])

    def _leave_head(self) -> None:
        if self.open["head"]:
            self._pop_nearest("head", frozenset())

    def _close_implied(self, tag: str) -> None:
        """Close what a start ``tag`` ends in HTML: an open ``p`` before a block, the previous
        ``li``, ``dd``/``dt``, cell, row, ``option``, ``a`` or ``button``, a ``select`` before
        another control."""
        if tag in _CLOSES_P and self.open["p"]:
            self._close_within({"p"}, _SCOPE | {"button"})
        if tag == "li":
            self._close_within({"li"}, _SCOPE | {"ul", "ol"})
        elif tag in ("dd", "dt"):
            self._close_within({"dd", "dt"}, _SCOPE | {"dl"})
        elif tag in ("td", "th"):
            self._close_within({"td", "th"}, {"table", "tr", "template"})
        elif tag == "tr":
            self._close_within({"tr", "td", "th"}, _TABLE_SCOPE)
        elif tag in ("tbody", "thead", "tfoot"):
            self._close_within({"tbody", "thead", "tfoot", "tr", "td", "th"}, _TABLE_SCOPE)
        elif tag == "option":
            self._close_within({"option"}, {"select", "optgroup", "datalist"})
        elif tag == "optgroup":
            self._close_within({"option", "optgroup"}, {"select"})
        elif tag in ("a", "button"):
            self._close_within({tag}, _SCOPE)
        elif tag in ("select", "input", "textarea"):
            self._close_within({"select"}, _SCOPE)
        elif tag in _HEADINGS and self.stack[-1].tag in _HEADINGS:
            self._pop_from(len(self.stack) - 1)

    def _close_within(self, tags: set[str], boundaries: frozenset[str] | set[str]) -> None:
        """Pop the outermost open element named in ``tags`` above the nearest boundary."""
        if not any(self.open[t] for t in tags):
            return
        found = 0
        for index in range(len(self.stack) - 1, 0, -1):
            name = self.stack[index].tag
            if name in tags:
                found = index
            elif name in boundaries:
                break
        if found:
            self._pop_from(found)

    def _pop_nearest(self, tag: str, boundaries: frozenset[str]) -> None:
        """Pop the innermost open ``tag`` (an end tag), unless a boundary comes first."""
        for index in range(len(self.stack) - 1, 0, -1):
            name = self.stack[index].tag
            if name == tag:
                self._pop_from(index)
                return
            if name in boundaries:
                return

    def _pop_from(self, index: int) -> None:
        for node in self.stack[index:]:
            self.open[node.tag] -= 1
        del self.stack[index:]


def _attributes(attrs: list[tuple[str, str | None]]) -> dict[str, str]:
    """The attributes as a dict: the first of a repeated name wins, a bare one is ``""``."""
    out: dict[str, str] = {}
    for name, value in attrs:
        out.setdefault(name, value or "")
    return out


def _end_scope(tag: str) -> frozenset[str]:
    """The open elements an end ``tag`` cannot close past (HTML's scopes, simplified)."""
    if tag in ("td", "th", "tr", "tbody", "thead", "tfoot", "caption", "table"):
        return _TABLE_SCOPE if tag != "table" else frozenset({"template"})
    if tag == "li":
        return _SCOPE | {"ul", "ol"}
    return _SCOPE


def _iter_nodes(node: _Node) -> Iterator[_Node]:
    """``node`` and the nodes below it in document order, without dropped subtrees."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.children) if isinstance(c, _Node) and c.tag not in _DROPPED)


def _text_of(node: _Node, skip: frozenset[str] = _DROPPED) -> str:
    """All the text below ``node`` (``<br>`` as a line break), without ``skip`` subtrees."""
    parts: list[str] = []
    stack: list[_Node | str] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
        elif current.tag == "br":
            parts.append("\n")
        elif current is node or current.tag not in skip:
            stack.extend(reversed(current.children))
    return "".join(parts)


def _collapse(text: str) -> str:
    """``text`` as a browser shows it: whitespace runs as one space, none at the ends."""
    return _SPACES.sub(" ", text).strip(" ")


def _integer(text: str | None, default: int) -> int:
    """The number ``text`` starts with (``"120px"`` → 120), else ``default``."""
    match = _INTEGER.match(text or "")
    return int(match.group(1)) if match else default


# -- our own pages, read exactly -------------------------------------------------------------


class _NotModel(Exception):
    """The document is not one ``to_html`` writes."""


def _model_page(document: _Document) -> Page | None:
    """The page ``document`` is ``to_html`` of, or ``None`` when it is not one."""
    try:
        elements = _model_elements(document.root.children)
    except _NotModel:
        return None
    lang = document.lang if document.lang is not None else "en"
    return Page(title=document.title or "", elements=elements, lang=lang)


def _model_elements(children: list[_Node | str]) -> tuple[Element, ...]:
    nodes = [c for c in children if not (isinstance(c, str) and not c.strip(" \n"))]
    out: list[Element] = []
    index = 0
    while index < len(nodes):
        node = _model_node(nodes[index])
        index += 1
        if node.tag == "head":
            continue
        label = ""
        if node.tag == "label":  # before its input, text area or select
            label, node = _model_text(node), _model_labelled(node, nodes, index)
            index += 1
        elif node.tag == "input" and node.attrs.get("type") in ("checkbox", "radio"):  # after
            label = _model_text(_model_labelled(node, nodes, index))
            index += 1
        out.append(_model_element(node, label))
    return tuple(out)


def _model_node(item: _Node | str) -> _Node:
    if isinstance(item, str):
        raise _NotModel
    return item


def _model_labelled(node: _Node, nodes: list[_Node | str], index: int) -> _Node:
    """The node at ``index``, which must pair with ``node``: one is a label ``for`` the other."""
    if index >= len(nodes):
        raise _NotModel
    other = _model_node(nodes[index])
    label, control = (node, other) if node.tag == "label" else (other, node)
    if label.tag != "label" or control.tag not in ("input", "textarea", "select") or "id" not in control.attrs:
        raise _NotModel
    if label.attrs.get("for") != control.attrs["id"]:
        raise _NotModel
    return other


def _model_text(node: _Node) -> str:
    if not all(isinstance(c, str) for c in node.children):
        raise _NotModel
    return "".join(node.children)  # type: ignore[arg-type]


def _model_lines(children: list[_Node | str]) -> str:
    parts = []
    for child in children:
        if isinstance(child, str):
            parts.append(child)
        elif child.tag == "br":
            parts.append("\n")
        else:
            raise _NotModel
    return "".join(parts)


def _model_int(text: str | None, default: int) -> int:
    if text is None:
        return default
    if not re.fullmatch(r"-?\d{1,18}", text):
        raise _NotModel
    return int(text)


def _model_single(children: list[_Node | str]) -> Element:
    elements = _model_elements(children)
    if len(elements) != 1:
        raise _NotModel
    return elements[0]


def _model_element(node: _Node, label: str) -> Element:
    tag, attrs = node.tag, node.attrs
    eid, name = attrs.get("id", ""), attrs.get("name", "")
    if tag in _HEADINGS:
        return Heading(id=eid, text=_model_text(node), level=_HEADINGS[tag])
    if tag == "p":
        bold = len(node.children) == 1 and isinstance(node.children[0], _Node) and node.children[0].tag == "strong"
        inner = node.children[0].children if bold else node.children  # type: ignore[union-attr]
        return Text(id=eid, text=_model_lines(inner), emphasis=bold)
    if tag == "a":
        return Link(id=eid, text=_model_text(node), url=attrs.get("href", ""))
    if tag == "img":
        return Image(id=eid, src=attrs.get("src", ""), alt=attrs.get("alt", ""),
                     width=_model_int(attrs.get("width"), 0), height=_model_int(attrs.get("height"), 0))
    if tag in ("ul", "ol"):
        items = [_model_single(li.children) for li in _model_children(node, "li")]
        return ListBlock(id=eid, items=tuple(items), ordered=tag == "ol")
    if tag == "table":
        return _model_table(node)
    if tag == "input":
        return _model_input(node, label)
    if tag == "textarea":
        return TextArea(id=eid, name=name, label=label, value=_model_text(node), rows=_model_int(attrs.get("rows"), 4))
    if tag == "select":
        options = [Option(value=o.attrs.get("value", ""), label=_model_text(o)) for o in _model_children(node, "option")]
        chosen = [o.attrs.get("value", "") for o in _model_children(node, "option") if "selected" in o.attrs]
        return Select(id=eid, name=name, options=tuple(options), label=label, value=chosen[0] if chosen else "")
    if tag == "button":
        return Button(id=eid, text=_model_text(node), name=name, value=attrs.get("value", ""))
    if tag == "form":
        method = attrs.get("method", "").upper()
        if method not in ("GET", "POST"):
            raise _NotModel
        return Form(id=eid, action=attrs.get("action", ""), children=_model_elements(node.children), method=method)  # type: ignore[arg-type]
    raise _NotModel


def _model_children(node: _Node, tag: str) -> list[_Node]:
    children = [_model_node(c) for c in node.children if not (isinstance(c, str) and not c.strip(" \n"))]
    if any(c.tag != tag for c in children):
        raise _NotModel
    return children


def _model_table(node: _Node) -> Table:
    rows = _model_children(node, "tr")
    headers: tuple[str, ...] = ()
    if rows and rows[0].children and all(isinstance(c, _Node) and c.tag == "th" for c in rows[0].children):
        headers = tuple(_model_text(th) for th in rows[0].children)  # type: ignore[arg-type]
        rows = rows[1:]
    cells = tuple(tuple(_model_single(td.children) for td in _model_children(tr, "td")) for tr in rows)
    return Table(id=node.attrs.get("id", ""), headers=headers, rows=cells)


def _model_input(node: _Node, label: str) -> Element:
    attrs = node.attrs
    eid, name, kind, value = attrs.get("id", ""), attrs.get("name", ""), attrs.get("type", ""), attrs.get("value", "")
    if kind == "checkbox":
        return Checkbox(id=eid, name=name, label=label, value=value, checked="checked" in attrs)
    if kind == "radio":
        return Radio(id=eid, name=name, value=value, label=label, checked="checked" in attrs)
    if kind not in _INPUT_TYPES:
        raise _NotModel
    return Input(id=eid, name=name, label=label, value=value, placeholder=attrs.get("placeholder", ""),
                 type=kind, required="required" in attrs)  # type: ignore[arg-type]


# -- any HTML, read as a browser shows it -----------------------------------------------------


def _browser_page(document: _Document, base_url: str) -> Page:
    _attach_labels(document.root)
    elements = _block(document.root, bold=False, pre=False)
    if document.truncated:
        elements.append(Text(text=TRUNCATED))
    title = _collapse(document.title or "") or base_url
    lang = document.lang if document.lang is not None else "en"
    return Page(title=title, elements=tuple(elements), lang=lang)


_RunMaker = Callable[[str, bool, str], Element]


def _text_run(text: str, emphasis: bool, eid: str) -> Element:
    return Text(id=eid, text=text, emphasis=emphasis)


def _heading_run(level: int) -> _RunMaker:
    return lambda text, emphasis, eid: Heading(id=eid, text=text, level=level)


class _Flow:
    """One block's content in reading order: the elements so far and the text run being
    gathered (its pieces split at ``<br>``); the block's ``id`` goes to its first run."""

    __slots__ = ("all_bold", "eid", "elements", "lines", "make", "muted", "pre", "runs")

    def __init__(self, make: _RunMaker, eid: str, pre: bool):
        self.make, self.eid, self.pre = make, eid, pre
        self.elements: list[Element] = []
        self.lines: list[list[str]] = [[]]
        self.all_bold = True
        self.muted = 0  # inside a label that names a control: its text is the control's
        self.runs = 0

    def text(self, text: str, bold: bool) -> None:
        if self.muted:
            return
        self.lines[-1].append(text)
        if not bold and text.strip(_WHITESPACE):
            self.all_bold = False

    def line_break(self) -> None:
        if not self.muted:
            self.lines.append([])

    def add(self, *elements: Element) -> None:
        self.flush()
        self.elements.extend(elements)

    def flush(self) -> None:
        text = self._run_text()
        if text.strip():
            self.elements.append(self.make(text, self.all_bold, "" if self.runs else self.eid))
            self.runs += 1
        self.lines, self.all_bold = [[]], True

    def _run_text(self) -> str:
        if self.pre:
            text = "\n".join("".join(parts) for parts in self.lines)
            return text.strip("\n")
        lines = [_collapse("".join(parts)) for parts in self.lines]
        if len(lines) > 1 and not lines[-1]:
            lines.pop()  # a <br> that ends a block draws no line
        return "\n".join(lines)


def _block(node: _Node, bold: bool, pre: bool, make: _RunMaker = _text_run) -> list[Element]:
    """The elements of a block: its text runs and what its children make."""
    flow = _Flow(make, node.attrs.get("id", ""), pre)
    _walk(node, flow, bold)
    flow.flush()
    return flow.elements


def _walk(node: _Node, flow: _Flow, bold: bool) -> None:
    for child in node.children:
        if isinstance(child, str):
            flow.text(child, bold)
        else:
            _visit(child, flow, bold)


def _visit(node: _Node, flow: _Flow, bold: bool) -> None:
    tag = node.tag
    if tag in _DROPPED:
        return
    if tag == "br":
        flow.line_break()
    elif tag in _ATOMS and (tag != "a" or "href" in node.attrs):
        flow.add(_ATOMS[tag](node))
    elif tag in ("ul", "ol"):
        items = _block(node, bold, flow.pre)
        flow.add(ListBlock(id=node.attrs.get("id", ""), items=tuple(items), ordered=tag == "ol"))
    elif tag == "table":
        flow.add(*_table(node, bold, flow.pre))
    elif tag == "form":
        flow.add(_form(node, bold, flow.pre))
    elif tag in _HEADINGS:
        flow.add(*_block(node, bold, flow.pre, _heading_run(_HEADINGS[tag])))
    elif tag == "pre" or tag in _BLOCKS:
        flow.add(*_block(node, bold, flow.pre or tag == "pre"))
    elif tag == "label" and node.used:
        flow.muted += 1
        _walk(node, flow, bold)
        flow.muted -= 1
    else:  # inline and unknown tags: their content, in the same run
        _walk(node, flow, bold or tag in _BOLD)


def _link(node: _Node) -> Link:
    text = _collapse(_text_of(node))
    if not text:
        text = " ".join(a for a in (n.attrs.get("alt", "").strip() for n in _iter_nodes(node) if n.tag == "img") if a)
    href = node.attrs["href"]
    return Link(id=node.attrs.get("id", ""), text=text or href, url=href)


def _image(node: _Node) -> Image:
    attrs = node.attrs
    return Image(id=attrs.get("id", ""), src=attrs.get("src", ""), alt=attrs.get("alt", ""),
                 width=max(_integer(attrs.get("width"), 0), 0), height=max(_integer(attrs.get("height"), 0), 0))


def _input(node: _Node) -> Element:
    attrs = node.attrs
    eid, name, label = attrs.get("id", ""), attrs.get("name", ""), node.label or ""
    kind = attrs.get("type", "text").strip(_WHITESPACE).lower()
    if kind == "checkbox":
        return Checkbox(id=eid, name=name, label=label, value=attrs.get("value", "on"), checked="checked" in attrs)
    if kind == "radio":
        return Radio(id=eid, name=name, value=attrs.get("value", "on"), label=label, checked="checked" in attrs)
    if kind in _BUTTON_INPUTS:
        text = attrs.get("value") or (attrs.get("alt") if kind == "image" else "") or _BUTTON_INPUTS[kind]
        return Button(id=eid, text=text, name=name, value=attrs.get("value", ""))
    return Input(id=eid, name=name, label="" if kind == "hidden" else label, value=attrs.get("value", ""),
                 placeholder=attrs.get("placeholder", ""), type=kind if kind in _INPUT_TYPES else "text",  # type: ignore[arg-type]
                 required="required" in attrs)


def _textarea(node: _Node) -> TextArea:
    value = "".join(c for c in node.children if isinstance(c, str))
    value = value[2:] if value.startswith("\r\n") else value[1:] if value.startswith("\n") else value
    rows = _integer(node.attrs.get("rows"), 2)
    return TextArea(id=node.attrs.get("id", ""), name=node.attrs.get("name", ""), label=node.label or "",
                    value=value, rows=rows if rows > 0 else 2)


def _select(node: _Node) -> Select:
    options: list[Option] = []
    chosen = None
    for option in (n for n in _iter_nodes(node) if n.tag == "option"):
        label = _collapse(_text_of(option)) or option.attrs.get("label", "")
        value = option.attrs.get("value", label)
        options.append(Option(value=value, label=label))
        if "selected" in option.attrs:
            chosen = value
    if chosen is None:
        chosen = options[0].value if options else ""
    return Select(id=node.attrs.get("id", ""), name=node.attrs.get("name", ""), options=tuple(options),
                  label=node.label or "", value=chosen)


def _button(node: _Node) -> Button:
    return Button(id=node.attrs.get("id", ""), text=_collapse(_text_of(node)), name=node.attrs.get("name", ""),
                  value=node.attrs.get("value", ""))


_ATOMS: dict[str, Callable[[_Node], Element]] = {
    "a": _link, "img": _image, "input": _input, "textarea": _textarea, "select": _select, "button": _button,
}


def _form(node: _Node, bold: bool, pre: bool) -> Form:
    method = "POST" if node.attrs.get("method", "").strip(_WHITESPACE).upper() == "POST" else "GET"
    return Form(id=node.attrs.get("id", ""), action=node.attrs.get("action", ""),
                children=tuple(_block(node, bold, pre)), method=method)


def _table(node: _Node, bold: bool, pre: bool) -> list[Element]:
    """The table, after its caption and any stray content (where browsers put them)."""
    rows: list[list[_Node]] = []
    strays = _Node("#strays", {})
    _collect_rows(node, rows, strays)
    headers: tuple[str, ...] = ()
    if rows and rows[0] and all(cell.tag == "th" for cell in rows[0]):
        headers = tuple(_collapse(_text_of(th)) for th in rows.pop(0))
    cells = tuple(tuple(_cell(cell, bold, pre) for cell in row) for row in rows)
    table = Table(id=node.attrs.get("id", ""), headers=headers, rows=cells)
    return [*_block(strays, bold, pre), table]


def _collect_rows(node: _Node, rows: list[list[_Node]], strays: _Node) -> None:
    """The rows of a table (through ``thead``/``tbody``/``tfoot``; cells outside a ``tr``
    make a row of their own); everything else goes to ``strays``."""
    loose: list[_Node] = []
    for child in node.children:
        if isinstance(child, _Node) and child.tag in ("td", "th"):
            loose.append(child)
            continue
        if loose:
            rows.append(loose)
            loose = []
        if isinstance(child, str) or child.tag not in ("tr", "tbody", "thead", "tfoot"):
            strays.children.append(child)
        elif child.tag == "tr":
            rows.append([c for c in child.children if isinstance(c, _Node) and c.tag in ("td", "th")])
            strays.children.extend(c for c in child.children if not (isinstance(c, _Node) and c.tag in ("td", "th")))
        else:
            _collect_rows(child, rows, strays)
    if loose:
        rows.append(loose)


def _cell(node: _Node, bold: bool, pre: bool) -> Element:
    """One cell: its element, ``Text("")`` when empty, a one-column table when it holds several."""
    elements = _block(node, bold or node.tag == "th", pre)
    if len(elements) == 1:
        return elements[0]
    if not elements:
        return Text(id=node.attrs.get("id", ""), text="")
    return Table(id=node.attrs.get("id", ""), rows=tuple((e,) for e in elements))


# -- labels --------------------------------------------------------------------------------


def _attach_labels(root: _Node) -> None:
    """Give each labelled control its label's text: a label without ``for`` names the first
    control inside it, a ``label for`` the first control with that id not named yet. One
    pass, so nested labels cost no more than flat ones."""
    controls: dict[str, deque[_Node]] = {}
    labels_for: list[_Node] = []
    waiting: list[_Node] = []  # labels without ``for`` we are inside, naming nothing yet
    stack: list[tuple[_Node, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            if waiting and waiting[-1] is node:
                waiting.pop()
            continue
        if node.tag == "label" and "for" in node.attrs:
            labels_for.append(node)
        elif node.tag == "label":
            waiting.append(node)
            stack.append((node, True))
        elif _labelable(node) and waiting:
            _name(node, waiting.pop())
        elif _labelable(node) and node.attrs.get("id"):
            controls.setdefault(node.attrs["id"], deque()).append(node)
        stack.extend((c, False) for c in reversed(node.children) if isinstance(c, _Node) and c.tag not in _DROPPED)
    for label in labels_for:
        target = _first_unlabelled(controls.get(label.attrs["for"]))
        if target is not None:
            _name(target, label)


def _name(control: _Node, label: _Node) -> None:
    control.label = _collapse(_text_of(label, _NOT_LABEL_TEXT))
    label.used = True


def _labelable(node: _Node) -> bool:
    if node.tag in ("select", "textarea"):
        return True
    kind = node.attrs.get("type", "text").strip(_WHITESPACE).lower()
    return node.tag == "input" and kind != "hidden" and kind not in _BUTTON_INPUTS


def _first_unlabelled(candidates: deque[_Node] | None) -> _Node | None:
    while candidates:
        if candidates[0].label is None:
            return candidates.popleft()
        candidates.popleft()
    return None
