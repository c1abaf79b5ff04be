"""Word data for the clicking kinds: synonym groups and the names of controls."""

from __future__ import annotations

#: Groups of words that mean the same; no word is in two groups, and no two groups are
#: close in meaning, so "similar to X" picks exactly the other words of X's group.
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("big", "large", "huge"),
    ("small", "tiny", "little"),
    ("fast", "quick", "rapid"),
    ("happy", "glad", "cheerful"),
    ("sad", "unhappy", "gloomy"),
    ("angry", "mad", "furious"),
    ("smart", "clever", "wise"),
    ("begin", "start", "commence"),
    ("finish", "end", "conclude"),
    ("easy", "simple", "effortless"),
    ("hard", "difficult", "tough"),
    ("rich", "wealthy", "affluent"),
    ("cold", "chilly", "frosty"),
    ("quiet", "silent", "hushed"),
    ("loud", "noisy", "booming"),
    ("old", "ancient", "aged"),
    ("buy", "purchase", "acquire"),
    ("help", "aid", "assist"),
    ("brave", "bold", "fearless"),
    ("calm", "peaceful", "serene"),
    ("funny", "amusing", "comic"),
    ("wet", "damp", "moist"),
    ("shy", "timid", "bashful"),
    ("pretty", "lovely", "beautiful"),
    ("error", "mistake", "fault"),
    ("choose", "pick", "select"),
    ("fix", "repair", "mend"),
)

#: The controls of click-widget: (what the instruction calls it, what it submits).
WIDGETS: tuple[tuple[str, str], ...] = (
    ("button", "button"),
    ("link", "link"),
    ("checkbox", "checkbox"),
    ("radio button", "radio"),
)

#: Labels MiniWoB++'s click-test button wears, and similar ones.
TEST_LABELS: tuple[str, ...] = ("Click Me!", "Click me", "Press me", "Push", "Tap here", "Go", "OK")
