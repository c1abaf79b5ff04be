"""Data for the reasoning kinds: the symbols of unicode-test and the ordinals of find-word."""

from __future__ import annotations

#: Symbols for unicode-test buttons, every one drawn by the browser's fonts (DejaVu Sans
#: backs Ubuntu for them); look-alike pairs (★ ☆, ♪ ♫, ☺ ☻) make reading them a skill.
SYMBOLS = (
    "★", "☆", "♠", "♣", "♥", "♦", "☀", "☁", "☂", "☃", "♪", "♫", "✓", "✗", "✈", "☎",
    "∞", "Ω", "♞", "♜", "☺", "☻", "⚑", "⚐", "✉", "✂", "✿", "❄", "☯", "☮", "⌘", "←",
    "→", "↑", "↓", "§", "¶", "©", "®", "€", "£", "¥", "√", "≈", "≠", "±", "÷", "π",
    "♀", "♂", "☾", "⚓", "⚡", "✏", "✦", "❤",
)

#: Ordinal words for positions 1-20 ("the 3rd word").
ORDINALS = tuple(
    f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}" for n in range(1, 21)
)

#: Letters text-transform draws its strings from (no look-alikes such as l and i).
LETTERS = "abcdefghjkmnpqrstuvwxyz"

#: Names of the variables simple-algebra solves for.
VARIABLES = ("x", "y", "n", "k")
