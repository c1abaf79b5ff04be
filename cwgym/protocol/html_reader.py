"""Reading HTML into a page: :func:`parse_html` turns any HTML a browser fetches into the
:class:`~cwgym.protocol.page.Page` it lays out, and :func:`check_html` holds a page a world
ships to what that model can show.

The parser is html5lib, because it implements the WHATWG parsing algorithm itself (tokenizer
and tree construction), so malformed markup is repaired exactly as browsers repair it, and it
is pure Python with no C build, from the project whose html5lib-tests the browsers' parsers
run, used by Beautiful Soup and long vendored in pip. The only other parser on this machine is
the standard library's ``html.parser``, a tokenizer that leaves every repair to hand-written
rules (this module's old reader); lxml, html5-parser and selectolax need C builds and are not
installed.

Two readings, one result:

* **Our own pages.** A document that is exactly what :func:`~cwgym.protocol.page.to_html`
  writes for some page is read back as that page, field for field: text verbatim (spaces,
  carriage returns and all), ``<br>`` as ``"\\n"``, ``<strong>`` as emphasis, labels through
  ``<label for>``, and the model's defaults for what ``to_html`` leaves out (an option or
  checkbox without a ``value`` has ``""``). The reading is accepted only when writing it
  again gives the same document byte for byte; anything else is read the second way.
* **Any other HTML** (hand-written files a ``static`` site serves), read as a browser shows it:

  - ``h1``–``h6`` → :class:`Heading`; text in ``p``, ``div``, ``li``, ``td``, ``span`` … →
    :class:`Text`, whitespace collapsed (runs → one space, trimmed at block edges; ``<pre>``
    keeps it), ``<br>`` → ``"\\n"``; a run wholly inside ``strong``/``b``/``em`` is emphasised;
  - ``a[href]`` → :class:`Link` (its text, else its images' ``alt``, else the URL);
    ``img`` → :class:`Image`; ``ul``/``ol`` → :class:`ListBlock`; ``table`` → :class:`Table`
    (a first row of ``th`` → headers; a cell holding several elements → a one-column table
    of them; a caption, and content the parser moves out of the table, → before it);
  - ``details`` → :class:`Details` (its first ``summary`` is the summary); ``dialog open`` →
    :class:`Dialog` (``aria-label`` its title; a closed dialog shows nothing);
    ``input type=range`` → :class:`Range`; ``min``/``max``/``step`` are kept;
    ``ol data-sortable`` → :class:`SortList` (``name`` its name, ``aria-label`` its label,
    each ``li``'s text an item); ``input list=X`` takes the values of the options of the
    ``datalist id=X`` (anywhere in the document) as its suggestions;
  - ``form`` → :class:`Form` (no ``method`` → ``GET``, as HTML); ``input`` by its ``type``
    (``checkbox``, ``radio``, ``submit``/``image``/``reset``/``button`` → :class:`Button`,
    types the model lacks → ``text``), ``textarea``, ``select``/``option``, ``button``;
    a ``label`` names its ``for`` control or the control inside it, else it is text;
  - other tags (``section``, ``nav``, ``main``, ``article`` …) keep their text; an ``id``
    attribute is kept, and an element without one has ``id=""`` (:func:`assign_ids` names it).
  - ``<html lang>`` → ``lang`` (default ``"en"``); ``<title>`` → ``title``, or ``base_url``
    for an untitled page, as browsers show it. Relative URLs stay as written.

Dropped: ``<head>`` (but its title), ``script``, ``style``, ``template``, ``svg``, ``math``,
``iframe``, ``datalist`` (but as an input's suggestions), comments, ``<hr>``. Malformed markup is repaired by the standard's
tree construction: implied end tags, misnested formatting (``<b><i></b></i>``), content
misplaced in a table moved before it, stray end tags ignored; a ``<form>`` inside a form is
ignored, so the nested form's controls belong to the outer one (and its ``</form>`` ends the
outer form).

**Pages a world ships** are held to the model: :func:`check_html` raises
:class:`HtmlModelError`, naming the file, the element and its line and column, for a start
tag not in :data:`ACCEPTED_TAGS`, an attribute neither there nor in :data:`GLOBAL_ATTRIBUTES`,
a value outside :data:`ACCEPTED_VALUES`, a second ``<title>``, or a page past the limits
below. So ``<script>`` is an error (no scripts run in this world), as are ``onclick=`` and a
``javascript:`` link, ``style=`` (styles cannot be honoured), ``<video>`` or
``<input type=file>``. ``class`` is
accepted: it names an element for a stylesheet, which such a page cannot have, so it changes
nothing shown, and hand-written pages carry it everywhere.

Limits: at most :data:`MAX_ELEMENTS` elements and non-blank text pieces are read, so a page
has at most that many elements; past that, reading stops and the page ends with
``Text("… (page truncated)")``; a tag that runs on (thousands of attributes, never closed)
stops the reading the same way, before html5lib's piece-by-piece copying of it turns
quadratic. An element opened deeper than :data:`MAX_DEPTH` is closed at once, so deeper
nesting is read flat (and the parser's scope searches stay short), and at most
:data:`MAX_FORMATTING` formatting elements wait to be reopened. Time is linear in the
document. Pure: no I/O, deterministic, and no ``str`` makes :func:`parse_html` raise.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator
from functools import lru_cache, partial

from html5lib._tokenizer import HTMLTokenizer
from html5lib.constants import (
    EOF,
    digits,
    hexDigits,
    namespaces,
    replacementCharacters,
    tableInsertModeElements,
    tokenTypes,
)
from html5lib.html5parser import HTMLParser
from html5lib.treebuilders.base import ActiveFormattingElements, Marker, TreeBuilder

from cwgym.protocol.page import (
    Button,
    Checkbox,
    Details,
    Dialog,
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
    Range,
    Select,
    SortList,
    Table,
    Text,
    TextArea,
    to_html,
)

__all__ = [
    "ACCEPTED_TAGS",
    "ACCEPTED_VALUES",
    "GLOBAL_ATTRIBUTES",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MAX_FORMATTING",
    "TRUNCATED",
    "HtmlModelError",
    "check_html",
    "parse_html",
]

# -- what a page a world ships may use ------------------------------------------------------

#: Attributes every accepted tag may carry: they name or describe an element and change
#: nothing the model shows (``style`` is not here: styles cannot be honoured).
GLOBAL_ATTRIBUTES = frozenset({"id", "class", "lang", "title", "aria-label"})

_NONE: frozenset[str] = frozenset()

#: The tags a shipped page may use, each with the attributes it may carry besides the global
#: ones: the document's frame, the model's elements, and structure that carries no meaning
#: in the model (its text is read, its boundaries break text runs).
ACCEPTED_TAGS: dict[str, frozenset[str]] = {
    # the document
    "html": _NONE, "head": _NONE, "body": _NONE, "title": _NONE, "meta": frozenset({"charset"}),
    # the model's elements
    **{f"h{level}": _NONE for level in range(1, 7)},
    "p": _NONE, "br": _NONE, "strong": _NONE, "b": _NONE, "em": _NONE,
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt", "width", "height"}),
    "ul": _NONE, "ol": frozenset({"data-sortable", "name"}), "li": _NONE,
    "table": _NONE, "caption": _NONE, "thead": _NONE, "tbody": _NONE, "tfoot": _NONE, "tr": _NONE,
    "th": _NONE, "td": _NONE,
    "form": frozenset({"action", "method"}),
    "input": frozenset({"type", "name", "value", "placeholder", "required", "checked", "min", "max", "step",
                        "list"}),
    "textarea": frozenset({"name", "rows"}),
    "select": frozenset({"name"}),
    "option": frozenset({"value", "label", "selected"}),
    "button": frozenset({"type", "name", "value"}),
    "label": frozenset({"for"}),
    "details": frozenset({"open"}), "summary": _NONE, "dialog": frozenset({"open"}), "datalist": _NONE,
    # structure without meaning in the model
    "section": _NONE, "nav": _NONE, "main": _NONE, "article": _NONE, "aside": _NONE, "header": _NONE,
    "footer": _NONE, "div": _NONE, "span": _NONE, "hr": _NONE, "pre": _NONE, "code": _NONE, "i": _NONE,
    "small": _NONE, "abbr": _NONE, "kbd": _NONE, "samp": _NONE, "blockquote": _NONE, "figure": _NONE,
    "figcaption": _NONE, "dl": _NONE, "dt": _NONE, "dd": _NONE, "fieldset": _NONE, "legend": _NONE,
}

#: Where the model represents only some values of an accepted attribute: those values
#: (compared trimmed and in lower case). ``reset``, ``button`` and ``image`` inputs do what
#: the model's buttons cannot (``button`` needs a script); ``tel``, ``file`` … have no control.
ACCEPTED_VALUES: dict[tuple[str, str], frozenset[str]] = {
    ("input", "type"): frozenset({"text", "password", "email", "number", "search", "hidden", "date", "url",
                                  "time", "color", "range", "checkbox", "radio", "submit"}),
    ("button", "type"): frozenset({"submit"}),
    ("form", "method"): frozenset({"get", "post"}),
    ("meta", "charset"): frozenset({"utf-8"}),
}

#: Why a refused tag or attribute cannot be honoured, where the bare refusal would not say.
_WHY = {
    "script": "no scripts run in this world",
    "noscript": "no scripts run in this world, so there is nothing for it to stand in for",
    "style": "styles cannot be honoured",
    "link": "a linked stylesheet or icon cannot be honoured",
    "hidden": "the page model shows every element",
}

#: Elements and (not blank) text pieces read at most; the rest of the document is cut off.
MAX_ELEMENTS = 100_000
#: Open elements at most; one opened deeper is closed at once, so its content is its parent's.
MAX_DEPTH = 100
#: Formatting elements (``b``, ``a`` …) kept for reopening after a block closes them; past
#: this the oldest is forgotten (the standard keeps three of each kind, with no overall limit).
MAX_FORMATTING = 24
#: The text that ends a truncated page.
TRUNCATED = "… (page truncated)"


class HtmlModelError(ValueError):
    """A shipped page uses markup the page model cannot represent. ``where`` names the file,
    ``tag`` and ``element_id`` the element (``""`` without an id; no tag when the page as a
    whole is too large), ``line`` and ``column`` (from 1) where its start tag begins, and
    ``problem`` what is wrong with it."""

    def __init__(self, where: str, line: int, column: int, tag: str, element_id: str, problem: str) -> None:
        self.where, self.line, self.column = where, line, column
        self.tag, self.element_id, self.problem = tag, element_id, problem
        element = f'<{tag} id="{element_id}">: ' if element_id else f"<{tag}>: " if tag else ""
        super().__init__(f"{where}: line {line}, column {column}: {element}{problem}")


def parse_html(html: str, base_url: str) -> Page:
    """The page ``html`` shows (``base_url`` titles it when it has no title); see the module."""
    document = None
    if html.startswith(_MODEL_PREFIX):
        source, stand_ins = _model_source(html)
        document = _read_tree(source)
        page = _model_page(document, html, stand_ins)
        if page is not None:
            return page
        if source != html:  # the tree read is not the document's own
            document = None
    return _browser_page(document or _read_tree(html), base_url)


def check_html(html: str, where: str) -> None:
    """Check that ``html``, a page a world ships at ``where``, uses only what the page model
    can show (see the module).

    Raises:
        HtmlModelError: the first element that does not fit, with its file, tag, id and place.
    """
    problem = _check(html)
    if problem is not None:
        raise HtmlModelError(where, *problem)


# -- the tree: html5lib's parser building our nodes ---------------------------------------------


_HTML = namespaces["html"]
_WHITESPACE = " \t\n\r\f"
_START, _END, _COMMENT, _DOCTYPE, _PARSE_ERROR = (
    tokenTypes[kind] for kind in ("StartTag", "EndTag", "Comment", "Doctype", "ParseError"))
_TEXT_TOKENS = frozenset({tokenTypes["Characters"], tokenTypes["SpaceCharacters"]})
_FIRST_NEWLINE_DROPPED = frozenset({"pre", "listing", "textarea"})
#: What reading tags may cost per character of the document (see _Tokenizer._building)
#: before reading stops: ordinary pages cost under 15, a tag with ten thousand attributes
#: tens of millions in all. The floor lets a small document be as odd as it likes.
_WORK_PER_CHARACTER, _WORK_FLOOR = 64, 1_000_000
#: Elements whose content the tokenizer reads as text: closing one early would leave the
#: tokenizer reading the rest of the document as its text.
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"})


class _Truncated(Exception):
    """The element budget ran out: reading stops here."""


class _Budget:
    """How many more elements and text pieces may be read."""

    __slots__ = ("left",)

    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _Truncated


class _Text:
    """A text piece being read: its parts, joined once parsing ends (appending to a
    ``str`` again and again would copy it each time)."""

    __slots__ = ("counted", "parts")

    def __init__(self, data: str) -> None:
        self.parts = [data]
        self.counted = False


class _Node:
    """One element: its tag, attributes and children (nodes and text). The camelCase
    methods and ``nameTuple`` are the node interface html5lib's tree construction drives."""

    __slots__ = ("attributes", "budget", "children", "label", "name", "nameTuple", "namespace", "parent", "suggestions",
                 "used")

    def __init__(self, name: str, namespace: str | None, budget: _Budget, attributes: dict | None = None) -> None:
        self.name = name
        self.namespace = namespace  # None for HTML
        self.nameTuple = (namespace or _HTML, name)
        self.attributes: dict = attributes if attributes is not None else {}
        self.budget = budget
        self.parent: _Node | None = None
        self.children: list = []  # _Node and _Text while parsing, _Node and str after
        self.label: str | None = None  # a control: the text of the label that names it
        self.used = False  # a label: it names a control
        self.suggestions: tuple[str, ...] = ()  # an input with a ``list``: its datalist's values

    def appendChild(self, node: _Node) -> None:
        self.children.append(node)
        node.parent = self

    def insertBefore(self, node: _Node, refNode: _Node) -> None:
        self.children.insert(self._index(refNode), node)
        node.parent = self

    def removeChild(self, node: _Node) -> None:
        del self.children[self._index(node)]
        node.parent = None

    def insertText(self, data: str, insertBefore: _Node | None = None) -> None:
        children = self.children
        index = len(children) if insertBefore is None else self._index(insertBefore)
        text = children[index - 1] if index else None
        if isinstance(text, _Text):
            text.parts.append(data)
        else:
            text = _Text(data)
            children.insert(index, text)
        if not text.counted and data.strip(_WHITESPACE):
            text.counted = True
            self.budget.spend()

    def cloneNode(self) -> _Node:
        self.budget.spend()
        return _Node(self.name, self.namespace, self.budget, dict(self.attributes))

    def hasContent(self) -> bool:
        return bool(self.children)

    def reparentChildren(self, newParent: _Node) -> None:
        for child in self.children:
            if isinstance(child, _Node):
                child.parent = newParent
        newParent.children.extend(self.children)  # adjacent text pieces are joined at the end
        self.children = []

    def _index(self, node: _Node) -> int:
        """Where ``node`` is among the children, searched from the end, where the parser's
        nodes nearly always are."""
        children = self.children
        for index in range(len(children) - 1, -1, -1):
            if children[index] is node:
                return index
        raise ValueError(f"<{node.name}> is not a child of <{self.name}>")


class _Formatting(ActiveFormattingElements):
    """The formatting elements waiting to be reopened, at most :data:`MAX_FORMATTING`
    after the last marker: reopening them all, for every piece of text, is where the
    standard's algorithm turns quadratic on hostile input."""

    def append(self, node: _Node | None) -> None:
        super().append(node)
        if node is Marker:
            return
        start = len(self)
        while start and self[start - 1] is not Marker:
            start -= 1
        if len(self) - start > MAX_FORMATTING:
            del self[start]


class _TreeBuilder(TreeBuilder):
    """html5lib's tree construction building :class:`_Node` trees within the budget;
    comments and the doctype are not kept, and the first HTML ``<title>`` is remembered."""

    def __init__(self, namespaceHTMLElements: bool, budget: _Budget) -> None:
        self.budget = budget
        super().__init__(namespaceHTMLElements)

    def reset(self) -> None:
        self.title: _Node | None = None
        self.openElements = []
        self.activeFormattingElements = _Formatting()
        self.headPointer = None
        self.formPointer = None
        self.insertFromTable = False
        self.document = _Node("#document", None, self.budget)

    def createElement(self, token: dict) -> _Node:
        self.budget.spend()
        element = _Node(token["name"], token.get("namespace"), self.budget, token["data"])
        if element.name == "title" and element.namespace is None and self.title is None:
            self.title = element
        return element

    def insertElementNormal(self, token: dict) -> _Node:
        element = self.createElement(token)
        self.openElements[-1].appendChild(element)
        self.openElements.append(element)
        return element

    def insertElementTable(self, token: dict) -> _Node:
        if self.openElements[-1].name not in tableInsertModeElements:
            return self.insertElementNormal(token)
        element = self.createElement(token)
        parent, before = self.getTableMisnestedNodePosition()
        if before is None:
            parent.appendChild(element)
        else:
            parent.insertBefore(element, before)
        self.openElements.append(element)
        return element

    def insertComment(self, token: dict, parent: _Node | None = None) -> None:
        pass

    def insertDoctype(self, token: dict) -> None:
        pass


class _Tokenizer(HTMLTokenizer):
    """html5lib's tokenizer, with three repairs and our limits. Repairs: a number character
    reference too long to be a code point is U+FFFD without converting it (Python refuses
    decimal strings past 4300 digits); the newline after ``<pre>`` or ``<textarea>`` is
    dropped in every insertion mode, as the standard says (html5lib drops it in body only);
    a comment's text is not gathered (comments are not kept, and gathering one with a ``+=``
    per dash is quadratic). Limits: an element opened deeper than :data:`MAX_DEPTH` is
    closed at once, and a tag that runs on (each piece of it is appended by copying all of
    it so far) stops the reading once that passes :data:`_WORK_PER_CHARACTER` per character
    of the document. When a shipped page is checked, each start tag goes to the check first,
    and where it begins is kept for the check's verdict."""

    def __init__(self, stream: str, parser: _Parser) -> None:
        super().__init__(stream, parser=parser)
        self.allowance = _WORK_PER_CHARACTER * len(stream) + _WORK_FLOOR
        self.stream.reportCharacterErrors = None  # parse errors are not reported (see _Parser)
        self.tag_at: tuple[str, int, int, int] | None = None

    def tagOpenState(self) -> bool:
        if self.parser.check is not None:  # where this tag begins, worked out only if it is refused
            stream = self.stream
            self.tag_at = (stream.chunk, stream.chunkOffset - 1, stream.prevNumLines, stream.prevNumCols)
        return super().tagOpenState()

    def consumeNumberEntity(self, isHex: bool) -> str:
        allowed, number, c = (hexDigits if isHex else digits), [], self.stream.char()
        while c is not EOF and c in allowed:
            if len(number) <= 8 and (number or c != "0"):  # nine significant digits are past any code point
                number.append(c)
            c = self.stream.char()
        value = int("".join(number), 16 if isHex else 10) if number else 0
        if c != ";":
            self.stream.unget(c)
        if value in replacementCharacters:
            return replacementCharacters[value]
        return "\uFFFD" if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF else chr(value)

    def position(self) -> tuple[int, int]:
        """The line and column (from 1) of the ``<`` of the last tag read."""
        if self.tag_at is None:
            return 1, 1
        chunk, offset, lines, columns = self.tag_at
        newline = chunk.rfind("\n", 0, offset)
        column = columns + offset if newline < 0 else offset - newline - 1
        return lines + chunk.count("\n", 0, offset) + 1, column + 1

    def _tokens(self) -> Iterator[dict]:
        """html5lib's token loop, metered."""
        queue = self.tokenQueue = deque()
        work = 0
        while self.state():
            ended = False
            while queue:
                token = queue.popleft()
                if token["type"] != _PARSE_ERROR:  # parse errors are not reported (see _Parser)
                    ended = True
                    yield token
            if not ended:
                work += self._building()
                if work > self.allowance:
                    raise _Truncated

    def _building(self) -> int:
        """What the last step of reading a token cost, at most: html5lib appends each piece
        of a name or value by copying it so far, and checks each new attribute against all
        the tag's others. A comment's text is dropped here instead (comments are not kept)."""
        cost = len(getattr(self, "temporaryBuffer", ""))  # a possible end tag in raw text
        token = self.currentToken
        if token is None:
            return cost
        kind = token["type"]
        if kind == _COMMENT:
            token["data"] = ""
        elif kind in (_START, _END):
            attributes = token["data"]
            cost += len(token["name"]) + len(attributes)
            if type(attributes) is list and attributes:
                cost += len(attributes[-1][0]) + len(attributes[-1][1])
        elif kind == _DOCTYPE:
            cost += sum(len(token.get(key) or "") for key in ("name", "publicId", "systemId"))
        return cost

    def __iter__(self) -> Iterator[dict]:
        check, tree, in_body = self.parser.check, self.parser.tree, self.parser.phases["inBody"]
        fresh: _Node | None = None  # a pre or text area just opened: its first newline is dropped
        for token in self._tokens():
            kind = token["type"]
            if fresh is not None and kind in _TEXT_TOKENS:
                if token["data"][:1] == "\n" and tree.openElements[-1] is fresh and not fresh.children:
                    token["data"] = token["data"][1:]
                fresh = None
                if not token["data"]:
                    continue
            fresh = None
            if kind != _START:
                yield token
                continue
            if check is not None:
                check.start_tag(token, self)
            yield token  # the parser has read it when this resumes
            top = tree.openElements[-1]
            if top.name in _FIRST_NEWLINE_DROPPED and top.name == token["name"]:
                in_body.processSpaceCharacters = in_body.processSpaceCharactersNonPre  # html5lib's own drop
                fresh = top
            if len(tree.openElements) > MAX_DEPTH:
                name = top.name.lower()
                if name == token["name"].lower() and name not in _RAW_TEXT:
                    if check is not None:
                        check.fail(self, token, f"nesting deeper than {MAX_DEPTH} elements is read flat")
                    yield {"type": _END, "name": name, "data": {}, "selfClosing": False}


class _Parser(HTMLParser):
    """html5lib's parser with our tree builder and tokenizer, and no parse-error
    bookkeeping: a browser repairs silently, and html5lib locates every error it records by
    scanning the text around it."""

    def __init__(self, budget: _Budget, check: _Check | None = None) -> None:
        self.check = check
        super().__init__(tree=partial(_TreeBuilder, budget=budget), namespaceHTMLElements=False)

    def _parse(self, stream: str, innerHTML: bool = False, container: str = "div", scripting: bool = False, **kwargs) -> None:
        self.innerHTMLMode, self.container, self.scripting = innerHTML, container, scripting
        self.tokenizer = _Tokenizer(stream, self)
        self.reset()
        self.mainLoop()

    def parseError(self, errorcode: str = "", datavars: dict | None = None) -> None:
        pass


class _Document:
    """What a parse gave: the root, the first title's text, ``<html lang>``, and whether the
    budget cut the document off."""

    def __init__(self, root: _Node, title: str | None, lang: str | None, truncated: bool) -> None:
        self.root, self.title, self.lang, self.truncated = root, title, lang, truncated


def _read_tree(html: str, check: _Check | None = None) -> _Document:
    budget = _Budget(MAX_ELEMENTS)
    parser = _Parser(budget, check)
    truncated = False
    try:
        parser.parse(html)
    except _Truncated:
        if check is not None:
            check.fail(parser.tokenizer, None, f"the page has more than {MAX_ELEMENTS} elements and text pieces, "
                                               "and a browser reads no further")
        truncated = True
    tree: _TreeBuilder = parser.tree  # type: ignore[assignment]
    root = tree.document
    _join_text(root)
    root_element = next((c for c in root.children if isinstance(c, _Node) and c.name == "html"), None)
    lang = root_element.attributes.get("lang") if root_element is not None else None
    title = "".join(c for c in tree.title.children if isinstance(c, str)) if tree.title is not None else None
    return _Document(root, title, lang, truncated)


def _join_text(root: _Node) -> None:
    """Replace every node's :class:`_Text` pieces by strings, adjacent ones joined."""
    stack = [root]
    while stack:
        node = stack.pop()
        children: list = []
        parts: list[str] = []
        for child in node.children:
            if isinstance(child, _Text):
                parts.extend(child.parts)
                continue
            if parts:
                children.append("".join(parts))
                parts = []
            children.append(child)
            stack.append(child)
        if parts:
            children.append("".join(parts))
        node.children = children


# -- checking a shipped page -------------------------------------------------------------------


class _Check:
    """The strict reading's judge: each start tag as the tokenizer reads it."""

    def __init__(self) -> None:
        self.titles = 0

    def start_tag(self, token: dict, tokenizer: _Tokenizer) -> None:
        name, attributes = token["name"], token["data"]
        allowed = ACCEPTED_TAGS.get(name)
        if allowed is None:
            why = _WHY.get(name)
            self.fail(tokenizer, token, f"the page model has no <{name}>" + (f" ({why})" if why else ""))
        if name == "title":
            self.titles += 1
            if self.titles > 1:
                self.fail(tokenizer, token, "a page has one title; a browser shows only the first")
        for attribute, value in attributes.items():
            if attribute not in allowed and attribute not in GLOBAL_ATTRIBUTES:
                why = "no scripts run in this world" if attribute.startswith("on") else _WHY.get(attribute)
                self.fail(tokenizer, token, f"the page model has no {attribute}= on <{name}>" + (f" ({why})" if why else ""))
            if attribute in _URL_ATTRIBUTES and _runs_script(value):
                self.fail(tokenizer, token, f"{attribute}={value!r} runs a script (no scripts run in this world)")
            values = ACCEPTED_VALUES.get((name, attribute))
            if values is not None and value.strip(_WHITESPACE).lower() not in values:
                self.fail(tokenizer, token, f"{attribute}={value!r} is not one the page model has "
                                            f"({', '.join(sorted(values))})")

    @staticmethod
    def fail(tokenizer: _Tokenizer, token: dict | None, problem: str) -> None:
        line, column = tokenizer.position()
        tag = token["name"] if token is not None else ""
        element_id = token["data"].get("id", "") if token is not None else ""
        raise _Refused(line, column, tag, element_id, problem)


_URL_ATTRIBUTES = frozenset({"href", "src", "action"})
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def _runs_script(url: str) -> bool:
    """Whether ``url`` is a ``javascript:`` URL as browsers read one: C0 controls and spaces
    trimmed, tabs and newlines anywhere ignored, any case."""
    scheme = url.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")[:11]
    return scheme.lower() == "javascript:"


class _Refused(Exception):
    """The check's verdict, raised out of the parser: (line, column, tag, id, problem)."""


@lru_cache(maxsize=256)
def _check(html: str) -> tuple[int, int, str, str, str] | None:
    """The first problem with ``html`` as a shipped page, or ``None`` (pages repeat across
    the worlds a run builds, so verdicts are kept by content)."""
    try:
        _read_tree(html, _Check())
    except _Refused as refused:
        return refused.args  # type: ignore[return-value]
    return None


# -- our own pages, read exactly -------------------------------------------------------------

_MODEL_PREFIX = '<!DOCTYPE html>\n<html lang="'
_TEXTAREA = re.compile(r"<textarea\b[^>]*>")


class _NotModel(Exception):
    """The document is not one ``to_html`` writes."""


def _model_source(html: str) -> tuple[str, dict[int, str]]:
    """``html`` as the model reading parses it, and the characters to put back after.

    Our pages write text as it is, and the parser changes it in three ways: a carriage
    return becomes a newline, NUL is dropped, and a text area's first newline is dropped
    (as in browsers). So each CR and NUL is replaced by a character the document lacks, and a
    newline is added after each ``<textarea …>`` for the parser to drop. Writing the reading
    again and comparing with ``html`` makes any slip a refusal, never a wrong page."""
    stand_ins: dict[int, str] = {}
    source = html
    if "\r" in html or "\0" in html:
        present = set(html)
        spare = (chr(code) for code in range(0xE000, 0x110000) if chr(code) not in present)
        for original in ("\r", "\0"):
            if original in html:
                stand_in = next(spare)
                source = source.replace(original, stand_in)
                stand_ins[ord(stand_in)] = original
    if "<textarea" in source:
        source = _TEXTAREA.sub(lambda match: match.group() + "\n", source)
    return source, stand_ins


def _model_page(document: _Document, html: str, stand_ins: dict[int, str]) -> Page | None:
    """The page ``html`` is ``to_html`` of, read from its ``document``, or ``None`` when it
    is not one."""
    if document.truncated:
        return None
    if stand_ins:
        _restore(document.root, stand_ins)
    try:
        elements = _model_elements(_model_body(document.root).children)
    except _NotModel:
        return None
    title = (document.title or "").translate(stand_ins)
    lang = document.lang.translate(stand_ins) if document.lang is not None else "en"
    page = Page(title=title, elements=elements, lang=lang)
    return page if to_html(page) == html else None


def _restore(root: _Node, stand_ins: dict[int, str]) -> None:
    """Put the replaced characters back in every text and attribute value."""
    stack = [root]
    while stack:
        node = stack.pop()
        node.attributes = {k: v.translate(stand_ins) for k, v in node.attributes.items()}
        node.children = [c.translate(stand_ins) if isinstance(c, str) else c for c in node.children]
        stack.extend(c for c in node.children if isinstance(c, _Node))


def _model_body(root: _Node) -> _Node:
    html = _only(root.children, "html")
    nodes = [c for c in html.children if isinstance(c, _Node)]
    if [n.name for n in nodes] != ["head", "body"]:
        raise _NotModel
    return nodes[1]


def _only(children: list, name: str) -> _Node:
    nodes = [c for c in children if not (isinstance(c, str) and not c.strip(" \n"))]
    if len(nodes) != 1 or not isinstance(nodes[0], _Node) or nodes[0].name != name:
        raise _NotModel
    return nodes[0]


def _model_elements(children: list) -> tuple[Element, ...]:
    nodes = [c for c in children if not (isinstance(c, str) and not c.strip(" \n"))]
    out: list[Element] = []
    index = 0
    while index < len(nodes):
        node = _model_node(nodes[index])
        index += 1
        label = ""
        if node.name == "label":  # before its input, text area or select
            label, node = _model_text(node), _model_labelled(node, nodes, index)
            index += 1
        elif node.name == "input" and node.attributes.get("type") in ("checkbox", "radio"):  # after
            label = _model_text(_model_labelled(node, nodes, index))
            index += 1
        suggestions: tuple[str, ...] = ()
        if node.name == "input" and "list" in node.attributes:  # its datalist follows it
            if index >= len(nodes):
                raise _NotModel
            suggestions = _model_datalist(_model_node(nodes[index]), node.attributes["list"])
            index += 1
        out.append(_model_element(node, label, suggestions))
    return tuple(out)


def _model_datalist(node: _Node, list_id: str) -> tuple[str, ...]:
    """The suggestions of the datalist ``list_id`` an input of ours names."""
    if node.name != "datalist" or node.attributes.get("id") != list_id:
        raise _NotModel
    options = _model_children(node, "option")
    if not options or any(o.children or "value" not in o.attributes for o in options):
        raise _NotModel
    return tuple(o.attributes["value"] for o in options)


def _model_node(item: _Node | str) -> _Node:
    if isinstance(item, str):
        raise _NotModel
    return item


def _model_labelled(node: _Node, nodes: list, index: int) -> _Node:
    """The node at ``index``, which must pair with ``node``: one is a label ``for`` the other."""
    if index >= len(nodes):
        raise _NotModel
    other = _model_node(nodes[index])
    label, control = (node, other) if node.name == "label" else (other, node)
    if label.name != "label" or control.name not in ("input", "textarea", "select") or "id" not in control.attributes:
        raise _NotModel
    if label.attributes.get("for") != control.attributes["id"]:
        raise _NotModel
    return other


def _model_text(node: _Node) -> str:
    if not all(isinstance(c, str) for c in node.children):
        raise _NotModel
    return "".join(node.children)


def _model_lines(children: list) -> str:
    parts = []
    for child in children:
        if isinstance(child, str):
            parts.append(child)
        elif child.name == "br":
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


def _model_single(children: list) -> Element:
    elements = _model_elements(children)
    if len(elements) != 1:
        raise _NotModel
    return elements[0]


def _model_element(node: _Node, label: str, suggestions: tuple[str, ...] = ()) -> Element:
    tag, attrs = node.name, node.attributes
    eid, name = attrs.get("id", ""), attrs.get("name", "")
    if tag in _HEADINGS:
        return Heading(id=eid, text=_model_text(node), level=_HEADINGS[tag])
    if tag == "p":
        bold = len(node.children) == 1 and isinstance(node.children[0], _Node) and node.children[0].name == "strong"
        inner = node.children[0].children if bold else node.children
        return Text(id=eid, text=_model_lines(inner), emphasis=bold)
    if tag == "a":
        return Link(id=eid, text=_model_text(node), url=attrs.get("href", ""))
    if tag == "img":
        return Image(id=eid, src=attrs.get("src", ""), alt=attrs.get("alt", ""),
                     width=_model_int(attrs.get("width"), 0), height=_model_int(attrs.get("height"), 0))
    if tag == "ol" and "data-sortable" in attrs:
        return SortList(id=eid, name=name, items=tuple(_model_text(li) for li in _model_children(node, "li")),
                        label=attrs.get("aria-label", ""))
    if tag in ("ul", "ol"):
        items = [_model_single(li.children) for li in _model_children(node, "li")]
        return ListBlock(id=eid, items=tuple(items), ordered=tag == "ol")
    if tag == "table":
        return _model_table(node)
    if tag == "input":
        return _model_input(node, label, suggestions)
    if tag == "textarea":
        return TextArea(id=eid, name=name, label=label, value=_model_text(node), rows=_model_int(attrs.get("rows"), 4))
    if tag == "select":
        options = [Option(value=o.attributes.get("value", ""), label=_model_text(o)) for o in _model_children(node, "option")]
        chosen = [o.attributes.get("value", "") for o in _model_children(node, "option") if "selected" in o.attributes]
        return Select(id=eid, name=name, options=tuple(options), label=label, value=chosen[0] if chosen else "")
    if tag == "button":
        return Button(id=eid, text=_model_text(node), name=name, value=attrs.get("value", ""))
    if tag == "details":
        summary, *rest = [c for c in node.children if not (isinstance(c, str) and not c.strip(" \n"))] or [None]
        if not isinstance(summary, _Node) or summary.name != "summary":
            raise _NotModel
        return Details(id=eid, summary=_model_text(summary), children=_model_elements(rest), open="open" in attrs)
    if tag == "dialog":
        return Dialog(id=eid, title=attrs.get("aria-label", ""), children=_model_elements(node.children))
    if tag == "form":
        method = attrs.get("method", "").upper()
        if method not in ("GET", "POST"):
            raise _NotModel
        return Form(id=eid, action=attrs.get("action", ""), children=_model_elements(node.children), method=method)  # type: ignore[arg-type]
    raise _NotModel


def _model_children(node: _Node, tag: str) -> list[_Node]:
    children = [_model_node(c) for c in node.children if not (isinstance(c, str) and not c.strip(" \n"))]
    if any(c.name != tag for c in children):
        raise _NotModel
    return children


def _model_table(node: _Node) -> Table:
    """A table of ours: its rows are in the ``<tbody>`` the parser adds (none when empty)."""
    if any(not (isinstance(c, str) and not c.strip(" \n")) for c in node.children):
        rows = _model_children(_only(node.children, "tbody"), "tr")
    else:
        rows = []
    headers: tuple[str, ...] = ()
    if rows and rows[0].children and all(isinstance(c, _Node) and c.name == "th" for c in rows[0].children):
        headers = tuple(_model_text(th) for th in rows[0].children)
        rows = rows[1:]
    cells = tuple(tuple(_model_single(td.children) for td in _model_children(tr, "td")) for tr in rows)
    return Table(id=node.attributes.get("id", ""), headers=headers, rows=cells)


def _model_input(node: _Node, label: str, suggestions: tuple[str, ...] = ()) -> Element:
    attrs = node.attributes
    eid, name, kind, value = attrs.get("id", ""), attrs.get("name", ""), attrs.get("type", ""), attrs.get("value", "")
    if kind == "checkbox":
        return Checkbox(id=eid, name=name, label=label, value=value, checked="checked" in attrs)
    if kind == "radio":
        return Radio(id=eid, name=name, value=value, label=label, checked="checked" in attrs)
    steps = {k: attrs.get(k, "") for k in ("min", "max", "step")}
    if kind == "range":
        return Range(id=eid, name=name, label=label, value=value, **steps)
    if kind not in _INPUT_TYPES:
        raise _NotModel
    return Input(id=eid, name=name, label=label, value=value, placeholder=attrs.get("placeholder", ""),
                 type=kind, required="required" in attrs, suggestions=suggestions, **steps)  # type: ignore[arg-type]


# -- any HTML, read as a browser shows it -----------------------------------------------------

_SPACES = re.compile(r"[ \t\n\r\f]+")
_INTEGER = re.compile(r"[ \t\n\r\f]*([+-]?\d{1,9})")
_DROPPED = frozenset({"head", "script", "style", "template", "svg", "math", "iframe", "noembed",
                      "noframes", "datalist", "title"})
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_BOLD = frozenset({"b", "strong", "em"})
_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "caption", "center", "dd",
                     "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
                     "footer", "header", "hgroup", "hr", "legend", "li", "main", "menu", "nav",
                     "noscript", "p", "search", "section", "summary", "tbody", "td", "tfoot", "th",
                     "thead", "tr"})
_INPUT_TYPES = frozenset({"text", "password", "email", "number", "search", "hidden", "date", "url", "time", "color"})
_BUTTON_INPUTS = {"submit": "Submit", "image": "Submit", "reset": "Reset", "button": ""}
_NOT_LABEL_TEXT = _DROPPED | {"select", "textarea", "button", "option", "optgroup", "label"}


def _browser_page(document: _Document, base_url: str) -> Page:
    _attach_labels(document.root)
    _attach_lists(document.root)
    elements = _block(document.root, bold=False, pre=False)
    if document.truncated:
        elements.append(Text(text=TRUNCATED))
    title = _collapse(document.title or "") or base_url
    lang = document.lang if document.lang is not None else "en"
    return Page(title=title, elements=tuple(elements), lang=lang)


def _iter_nodes(node: _Node) -> Iterator[_Node]:
    """``node`` and the nodes below it in document order, without dropped subtrees."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.children) if isinstance(c, _Node) and c.name not in _DROPPED)


def _text_of(node: _Node, skip: frozenset[str] = _DROPPED) -> str:
    """All the text below ``node`` (``<br>`` as a line break), without ``skip`` subtrees."""
    parts: list[str] = []
    stack: list[_Node | str] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
        elif current.name == "br":
            parts.append("\n")
        elif current is node or current.name not in skip:
            stack.extend(reversed(current.children))
    return "".join(parts)


def _collapse(text: str) -> str:
    """``text`` as a browser shows it: whitespace runs as one space, none at the ends."""
    return _SPACES.sub(" ", text).strip(" ")


def _integer(text: str | None, default: int) -> int:
    """The number ``text`` starts with (``"120px"`` → 120), else ``default``."""
    match = _INTEGER.match(text or "")
    return int(match.group(1)) if match else default


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
    flow = _Flow(make, node.attributes.get("id", ""), pre)
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
    tag = node.name
    if tag in _DROPPED:
        return
    if tag == "br":
        flow.line_break()
    elif tag in ("html", "body"):  # the document's frame: its content is the page's
        _walk(node, flow, bold)
    elif tag in _ATOMS and (tag != "a" or "href" in node.attributes):
        flow.add(_ATOMS[tag](node))
    elif tag == "ol" and "data-sortable" in node.attributes:
        flow.add(_sortlist(node))
    elif tag in ("ul", "ol"):
        items = _block(node, bold, flow.pre)
        flow.add(ListBlock(id=node.attributes.get("id", ""), items=tuple(items), ordered=tag == "ol"))
    elif tag == "table":
        flow.add(*_table(node, bold, flow.pre))
    elif tag == "form":
        flow.add(_form(node, bold, flow.pre))
    elif tag == "details":
        flow.add(_details(node, bold, flow.pre))
    elif tag == "dialog":  # a closed dialog shows nothing
        if "open" in node.attributes:
            flow.add(Dialog(id=node.attributes.get("id", ""), title=node.attributes.get("aria-label", "").strip(),
                            children=tuple(_block(node, bold, flow.pre))))
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
        text = " ".join(a for a in (n.attributes.get("alt", "").strip() for n in _iter_nodes(node) if n.name == "img") if a)
    href = node.attributes["href"]
    return Link(id=node.attributes.get("id", ""), text=text or href, url=href)


def _image(node: _Node) -> Image:
    attrs = node.attributes
    return Image(id=attrs.get("id", ""), src=attrs.get("src", ""), alt=attrs.get("alt", ""),
                 width=max(_integer(attrs.get("width"), 0), 0), height=max(_integer(attrs.get("height"), 0), 0))


def _input(node: _Node) -> Element:
    attrs = node.attributes
    eid, name, label = attrs.get("id", ""), attrs.get("name", ""), node.label or ""
    kind = attrs.get("type", "text").strip(_WHITESPACE).lower()
    if kind == "checkbox":
        return Checkbox(id=eid, name=name, label=label, value=attrs.get("value", "on"), checked="checked" in attrs)
    if kind == "radio":
        return Radio(id=eid, name=name, value=attrs.get("value", "on"), label=label, checked="checked" in attrs)
    if kind in _BUTTON_INPUTS:
        text = attrs.get("value") or (attrs.get("alt") if kind == "image" else "") or _BUTTON_INPUTS[kind]
        return Button(id=eid, text=text, name=name, value=attrs.get("value", ""))
    steps = {k: attrs.get(k, "") for k in ("min", "max", "step")}
    if kind == "range":
        return Range(id=eid, name=name, label=label, value=attrs.get("value", ""), **steps)
    return Input(id=eid, name=name, label="" if kind == "hidden" else label, value=attrs.get("value", ""),
                 placeholder=attrs.get("placeholder", ""), type=kind if kind in _INPUT_TYPES else "text",  # type: ignore[arg-type]
                 required="required" in attrs, suggestions=node.suggestions, **steps)


def _sortlist(node: _Node) -> SortList:
    """A reorderable list: each ``li`` child's text is an item (other content is not shown)."""
    attrs = node.attributes
    items = tuple(_collapse(_text_of(c)) for c in node.children if isinstance(c, _Node) and c.name == "li")
    return SortList(id=attrs.get("id", ""), name=attrs.get("name", ""), items=items,
                    label=_collapse(attrs.get("aria-label", "")))


def _textarea(node: _Node) -> TextArea:
    """A text area: its text as the parser read it (which drops a first newline)."""
    rows = _integer(node.attributes.get("rows"), 2)
    return TextArea(id=node.attributes.get("id", ""), name=node.attributes.get("name", ""), label=node.label or "",
                    value="".join(c for c in node.children if isinstance(c, str)), rows=rows if rows > 0 else 2)


def _select(node: _Node) -> Select:
    options: list[Option] = []
    chosen = None
    for option in (n for n in _iter_nodes(node) if n.name == "option"):
        label = _collapse(_text_of(option)) or option.attributes.get("label", "")
        value = option.attributes.get("value", label)
        options.append(Option(value=value, label=label))
        if "selected" in option.attributes:
            chosen = value
    if chosen is None:
        chosen = options[0].value if options else ""
    return Select(id=node.attributes.get("id", ""), name=node.attributes.get("name", ""), options=tuple(options),
                  label=node.label or "", value=chosen)


def _button(node: _Node) -> Button:
    return Button(id=node.attributes.get("id", ""), text=_collapse(_text_of(node)), name=node.attributes.get("name", ""),
                  value=node.attributes.get("value", ""))


_ATOMS: dict[str, Callable[[_Node], Element]] = {
    "a": _link, "img": _image, "input": _input, "textarea": _textarea, "select": _select, "button": _button,
}


def _form(node: _Node, bold: bool, pre: bool) -> Form:
    method = "POST" if node.attributes.get("method", "").strip(_WHITESPACE).upper() == "POST" else "GET"
    return Form(id=node.attributes.get("id", ""), action=node.attributes.get("action", ""),
                children=tuple(_block(node, bold, pre)), method=method)


def _details(node: _Node, bold: bool, pre: bool) -> Details:
    """A disclosure: its first ``summary`` is the line that toggles it (``Details`` when it
    has none, as browsers show), the rest its content."""
    summary = next((c for c in node.children if isinstance(c, _Node) and c.name == "summary"), None)
    rest = _Node("#details", None, _Budget(0))
    rest.children = [c for c in node.children if c is not summary]
    text = _collapse(_text_of(summary)) if summary is not None else ""
    return Details(id=node.attributes.get("id", ""), summary=text or "Details",
                   children=tuple(_block(rest, bold, pre)), open="open" in node.attributes)


def _table(node: _Node, bold: bool, pre: bool) -> list[Element]:
    """The table, after its caption and what else it holds besides rows."""
    rows: list[list[_Node]] = []
    strays = _Node("#strays", None, _Budget(0))
    _collect_rows(node, rows, strays)
    headers: tuple[str, ...] = ()
    if rows and rows[0] and all(cell.name == "th" for cell in rows[0]):
        headers = tuple(_collapse(_text_of(th)) for th in rows.pop(0))
    cells = tuple(tuple(_cell(cell, bold, pre) for cell in row) for row in rows)
    table = Table(id=node.attributes.get("id", ""), headers=headers, rows=cells)
    return [*_block(strays, bold, pre), table]


def _collect_rows(node: _Node, rows: list[list[_Node]], strays: _Node) -> None:
    """The rows of a table (through ``thead``/``tbody``/``tfoot``); everything else goes to
    ``strays``."""
    for child in node.children:
        if isinstance(child, str) or child.name not in ("tr", "tbody", "thead", "tfoot"):
            strays.children.append(child)
        elif child.name == "tr":
            rows.append([c for c in child.children if isinstance(c, _Node) and c.name in ("td", "th")])
            strays.children.extend(c for c in child.children if not (isinstance(c, _Node) and c.name in ("td", "th")))
        else:
            _collect_rows(child, rows, strays)


def _cell(node: _Node, bold: bool, pre: bool) -> Element:
    """One cell: its element, ``Text("")`` when empty, a one-column table when it holds several."""
    elements = _block(node, bold or node.name == "th", pre)
    if len(elements) == 1:
        return elements[0]
    if not elements:
        return Text(id=node.attributes.get("id", ""), text="")
    return Table(id=node.attributes.get("id", ""), rows=tuple((e,) for e in elements))


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
        if node.name == "label" and "for" in node.attributes:
            labels_for.append(node)
        elif node.name == "label":
            waiting.append(node)
            stack.append((node, True))
        elif _labelable(node) and waiting:
            _name(node, waiting.pop())
        elif _labelable(node) and node.attributes.get("id"):
            controls.setdefault(node.attributes["id"], deque()).append(node)
        stack.extend((c, False) for c in reversed(node.children) if isinstance(c, _Node) and c.name not in _DROPPED)
    for label in labels_for:
        target = _first_unlabelled(controls.get(label.attributes["for"]))
        if target is not None:
            _name(target, label)


def _attach_lists(root: _Node) -> None:
    """Give each ``input list=X`` the values of the options of the first ``datalist id=X``
    (an option's ``value``, else its text; empty ones are not offered)."""
    lists: dict[str, tuple[str, ...]] = {}
    inputs: list[_Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.name == "datalist" and node.attributes.get("id") and node.attributes["id"] not in lists:
            options = (o for o in _all_nodes(node) if o.name == "option")
            values = (o.attributes["value"] if "value" in o.attributes else _collapse(_text_of(o)) for o in options)
            lists[node.attributes["id"]] = tuple(v for v in values if v)
        elif node.name == "input" and node.attributes.get("list"):
            inputs.append(node)
        stack.extend(c for c in reversed(node.children) if isinstance(c, _Node))
    for node in inputs:
        node.suggestions = lists.get(node.attributes["list"], ())


def _all_nodes(node: _Node) -> Iterator[_Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.children) if isinstance(c, _Node))


def _name(control: _Node, label: _Node) -> None:
    control.label = _collapse(_text_of(label, _NOT_LABEL_TEXT))
    label.used = True


def _labelable(node: _Node) -> bool:
    if node.name in ("select", "textarea"):
        return True
    kind = node.attributes.get("type", "text").strip(_WHITESPACE).lower()
    return node.name == "input" and kind != "hidden" and kind not in _BUTTON_INPUTS


def _first_unlabelled(candidates: deque[_Node] | None) -> _Node | None:
    while candidates:
        if candidates[0].label is None:
            return candidates.popleft()
        candidates.popleft()
    return None
