"""vCard reading and writing for the Contacts application (a helper module, not an application).

:func:`parse` reads a ``.vcf`` file's bytes: any number of ``BEGIN:VCARD`` … ``END:VCARD``
blocks (versions 2.1, 3.0 and 4.0 are accepted), CRLF or LF line ends, folded lines (a
line that starts with a space or a tab continues the one before), property groups
(``item1.EMAIL``), parameters (``TEL;TYPE=CELL``, quoted values), and the text escapes
``\\n \\, \\; \\\\``. It understands ``FN``, ``N``, ``EMAIL``, ``TEL``, ``ORG``, ``NOTE``
and ``CATEGORIES`` (a contact is a favourite when its categories hold
:data:`FAVORITES`); every other property line is kept as it was written, and so are the
second and later ``EMAIL`` and ``TEL`` lines. A file that breaks these rules raises
:class:`VCardError` naming the (1-based) line.

:func:`serialize` writes one card as vCard 3.0 with CRLF line ends, folding lines longer
than 75 octets.
"""

from __future__ import annotations

import functools
import re

__all__ = ["FAVORITES", "Card", "VCardError", "card_lines", "parse", "serialize"]

#: The category that marks a favourite contact.
FAVORITES = "Favorites"
_NAME = re.compile(r"^[A-Za-z0-9-]+$")
_VERSIONS = ("2.1", "3.0", "4.0")
#: The most bytes of a contacts file read.
MAX_FILE = 256 * 1024


class VCardError(ValueError):
    """A malformed vCard file: ``line`` (1-based, 0 for the whole file) and the problem."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        self.problem = problem
        super().__init__(f"line {line}: {problem}" if line else problem)


class Card:
    """One contact as read from a file.

    Attributes:
        fn: the display name; ``n``: the five ``N`` components (family, given, additional,
        prefixes, suffixes); ``email``, ``tel``, ``org``, ``note``: the first of each
        ("" when absent); ``email_params``, ``tel_params``: the parameters written with
        them (``;TYPE=CELL``); ``categories``: other categories; ``favorite``; ``extra``:
        the raw (folded) lines of every property kept as written; ``first``, ``last``:
        the 0-based physical lines of ``BEGIN`` and ``END``.
    """

    __slots__ = (
        "categories",
        "email",
        "email_params",
        "extra",
        "favorite",
        "first",
        "fn",
        "last",
        "n",
        "note",
        "org",
        "tel",
        "tel_params",
    )

    def __init__(self) -> None:
        self.fn = ""
        self.n: list[str] = ["", "", "", "", ""]
        self.email = ""
        self.tel = ""
        self.org = ""
        self.note = ""
        self.email_params = ""
        self.tel_params = ""
        self.categories: list[str] = []
        self.favorite = False
        self.extra: list[str] = []
        self.first = 0
        self.last = 0

    def fields(self) -> dict[str, str]:
        return {
            "name": self.fn,
            "email": self.email,
            "phone": self.tel,
            "org": self.org,
            "note": self.note,
        }


def _split_unescaped(value: str, sep: str) -> list[str]:
    out, cur, i = [], [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            cur.append(value[i : i + 2])
            i += 2
            continue
        if ch == sep:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur))
    return out


def unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append("\n" if nxt in "nN" else nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def escape(value: str) -> str:
    return (
        value.replace("\\", "\\\\")
        .replace("\r\n", "\n")
        .replace("\n", "\\n")
        .replace(",", "\\,")
        .replace(";", "\\;")
    )


def _split_property(line: str) -> tuple[str, str, str] | None:
    """``(name, params, value)`` of a content line (params with their leading ``;``)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            head, value = line[:i], line[i + 1 :]
            name, _, params = head.partition(";")
            if "." in name:
                name = name.rsplit(".", 1)[1]
            return name.upper(), (";" + params if params else ""), value
    return None


def _logical(lines: list[str]) -> list[tuple[int, int, str]]:
    """Unfolded lines: ``(first physical line, last physical line, text)``."""
    out: list[tuple[int, int, str]] = []
    for i, raw in enumerate(lines):
        if raw[:1] in (" ", "\t") and out and out[-1][2]:
            first, _last, text = out[-1]
            out[-1] = (first, i, text + raw[1:])
        else:
            out.append((i, i, raw))
    return out


@functools.lru_cache(maxsize=256)
def parse(data: bytes) -> tuple[Card, ...]:
    """The cards of a ``.vcf`` file; raises :class:`VCardError`."""
    if len(data) > MAX_FILE:
        raise VCardError(0, f"the file is larger than {MAX_FILE // 1024} KB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise VCardError(line, "it is not UTF-8 text") from None
    physical = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    cards: list[Card] = []
    card: Card | None = None
    for first, last, line in _logical(physical):
        number = first + 1
        if not line.strip():
            continue
        if card is None:
            if line.strip().upper() != "BEGIN:VCARD":
                raise VCardError(number, f"expected BEGIN:VCARD, found “{line.strip()[:40]}”")
            card = Card()
            card.first = first
            continue
        parts = _split_property(line)
        if parts is None:
            raise VCardError(number, f"a property line needs a “:” (“{line.strip()[:40]}”)")
        name, params, value = parts
        if not _NAME.match(name):
            raise VCardError(number, f"“{name[:40]}” is not a property name")
        if name == "BEGIN":
            raise VCardError(number, "BEGIN inside a vCard (a missing END:VCARD?)")
        if name == "END":
            if value.strip().upper() != "VCARD":
                raise VCardError(number, f"END:{value.strip()[:20]} does not close a vCard")
            if not card.fn:
                family, given, additional, prefix, suffix = card.n
                card.fn = " ".join(p for p in (prefix, given, additional, family, suffix) if p)
            if not card.fn.strip():
                raise VCardError(card.first + 1, "the vCard has no name (FN or N)")
            card.last = last
            cards.append(card)
            card = None
            continue
        raw = physical[first : last + 1]
        if name == "VERSION":
            if value.strip() not in _VERSIONS:
                raise VCardError(number, f"unknown vCard version “{value.strip()[:20]}”")
        elif name == "FN":
            card.fn = unescape(value).strip()
        elif name == "N":
            comps = [unescape(c).strip() for c in _split_unescaped(value, ";")]
            card.n = [*comps, "", "", "", "", ""][:5]
        elif name == "EMAIL" and not card.email:
            card.email, card.email_params = unescape(value).strip(), params
        elif name == "TEL" and not card.tel:
            card.tel, card.tel_params = unescape(value).strip(), params
        elif name == "ORG" and not card.org:
            card.org = ", ".join(
                c for c in (unescape(c).strip() for c in _split_unescaped(value, ";")) if c
            )
        elif name == "NOTE" and not card.note:
            card.note = unescape(value)
        elif name == "CATEGORIES":
            for c in _split_unescaped(value, ","):
                c = unescape(c).strip()
                if c.casefold() == FAVORITES.casefold():
                    card.favorite = True
                elif c and c not in card.categories:
                    card.categories.append(c)
        else:
            card.extra.extend(raw)
    if card is not None:
        end = max(i for i, line in enumerate(physical) if line.strip()) + 1
        raise VCardError(end, f"the vCard begun at line {card.first + 1} has no END:VCARD")
    if not cards:
        raise VCardError(0, "it holds no vCard")
    return tuple(cards)


def _fold(line: str) -> list[str]:
    """A content line folded at 75 octets (continuations start with a space)."""
    out, cur, size = [], [], 0
    limit = 75
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append("".join(cur))
            cur, size, limit = [], 0, 74
        cur.append(ch)
        size += n
    out.append("".join(cur))
    return [out[0], *(" " + s for s in out[1:])]


def split_name(name: str, old: Card | None) -> list[str]:
    """The ``N`` components for a display name: the old ones when the name did not change,
    else the last word as the family name and the rest as given names."""
    if old is not None and old.fn == name and any(old.n):
        return list(old.n)
    words = name.split()
    if len(words) < 2:
        return [name, "", "", "", ""]
    return [words[-1], " ".join(words[:-1]), "", "", ""]


def card_lines(fields: dict[str, str], favorite: bool, old: Card | None = None) -> list[str]:
    """The content lines of a card (unfolded), vCard 3.0."""
    name = fields["name"].strip()
    lines = ["BEGIN:VCARD", "VERSION:3.0", f"FN:{escape(name)}"]
    lines.append("N:" + ";".join(escape(c) for c in split_name(name, old)))
    email, tel = fields["email"].strip(), fields["phone"].strip()
    if email:
        params = old.email_params if old is not None and old.email_params else ";TYPE=INTERNET"
        lines.append(f"EMAIL{params}:{escape(email)}")
    if tel:
        params = old.tel_params if old is not None and old.tel_params else ";TYPE=CELL"
        lines.append(f"TEL{params}:{escape(tel)}")
    if fields["org"].strip():
        lines.append(f"ORG:{escape(fields['org'].strip())}")
    if fields["note"].strip():
        lines.append(f"NOTE:{escape(fields['note'].rstrip())}")
    categories = list(old.categories) if old is not None else []
    if favorite:
        categories.append(FAVORITES)
    if categories:
        lines.append("CATEGORIES:" + ",".join(escape(c) for c in categories))
    return lines


def serialize(fields: dict[str, str], favorite: bool, old: Card | None = None) -> str:
    """One card as vCard 3.0 text (CRLF, folded), with ``old``'s other properties kept."""
    out: list[str] = []
    lines = card_lines(fields, favorite, old)
    for line in lines:
        out.extend(_fold(line))
    if old is not None:
        out.extend(old.extra)
    out.append("END:VCARD")
    return "".join(f"{line}\r\n" for line in out)
