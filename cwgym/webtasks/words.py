"""Word pools the task kinds draw from: short, common, unambiguous English words."""

from __future__ import annotations

#: Short words for labels, buttons, links and text to type (MiniWoB++ draws similar ones).
WORDS = (
    "able", "acid", "aged", "also", "area", "army", "away", "baby", "back", "ball", "band", "bank",
    "base", "bath", "bear", "beat", "bell", "belt", "best", "bird", "blue", "boat", "body", "bone",
    "book", "boom", "born", "boss", "both", "bowl", "bulk", "burn", "bush", "busy", "cake", "call",
    "calm", "came", "camp", "card", "care", "case", "cash", "cast", "cell", "chat", "chip", "city",
    "club", "coal", "coat", "code", "cold", "cook", "cool", "cope", "copy", "corn", "cost", "crew",
    "crop", "dark", "data", "date", "dawn", "deal", "dear", "deep", "deny", "desk", "dial", "diet",
    "disk", "door", "down", "draw", "drop", "drum", "dual", "duck", "dust", "duty", "each", "earn",
    "ease", "east", "easy", "edge", "else", "even", "ever", "exit", "face", "fact", "fail", "fair",
    "fall", "farm", "fast", "fear", "feel", "file", "fill", "film", "find", "fine", "fire", "firm",
    "fish", "five", "flat", "flow", "food", "foot", "form", "fort", "four", "free", "from", "fuel",
    "full", "fund", "gain", "game", "gate", "gave", "gear", "gift", "girl", "give", "glad", "goal",
    "gold", "golf", "good", "gray", "grew", "grow", "hair", "half", "hall", "hand", "hang", "hard",
    "harm", "head", "hear", "heat", "held", "help", "here", "hero", "high", "hill", "hire", "hold",
    "hole", "home", "hope", "host", "hour", "huge", "idea", "inch", "iron", "item", "jazz", "join",
    "joke", "jump", "jury", "just", "keen", "keep", "kept", "kick", "kind", "king", "knee", "knew",
    "lack", "lady", "lake", "land", "lane", "last", "late", "lead", "leaf", "left", "lend", "less",
    "life", "lift", "like", "line", "link", "list", "live", "load", "loan", "lock", "long", "look",
    "lord", "lose", "loss", "loud", "love", "luck", "made", "mail", "main", "make", "male", "many",
    "mark", "mass", "meal", "meat", "meet", "menu", "mild", "milk", "mill", "mind", "mine", "miss",
    "mode", "mood", "moon", "more", "most", "move", "much", "must", "name", "navy", "near", "neck",
    "need", "news", "next", "nice", "nine", "none", "nose", "note", "okay", "once", "only", "onto",
    "open", "oral", "over", "pace", "pack", "page", "paid", "pain", "pair", "palm", "park", "part",
    "pass", "past", "path", "peak", "pick", "pink", "pipe", "plan", "play", "plot", "plus", "poem",
    "poet", "pole", "pool", "poor", "port", "post", "pull", "pure", "push", "quit", "race", "rail",
    "rain", "rank", "rare", "rate", "read", "real", "rear", "rely", "rent", "rest", "rice", "rich",
    "ride", "ring", "rise", "risk", "road", "rock", "role", "roll", "roof", "room", "root", "rose",
    "rule", "rush", "safe", "said", "sake", "sale", "salt", "same", "sand", "save", "seat", "seed",
    "seek", "seem", "seen", "self", "sell", "send", "ship", "shop", "shot", "show", "shut", "sick",
    "side", "sign", "site", "size", "skin", "slip", "slow", "snow", "soft", "soil", "sold", "sole",
    "song", "soon", "sort", "soul", "spot", "star", "stay", "step", "stop", "such", "suit", "sure",
    "take", "tale", "talk", "tall", "tank", "tape", "task", "team", "tech", "tell", "tend", "term",
    "test", "text", "than", "that", "them", "then", "they", "thin", "this", "thus", "tide", "tied",
    "tiny", "told", "toll", "tone", "tool", "tour", "town", "tree", "trip", "true", "tune", "turn",
    "twin", "type", "unit", "upon", "used", "user", "vary", "vast", "very", "vice", "view", "vote",
    "wage", "wait", "wake", "walk", "wall", "want", "ward", "warm", "wash", "wave", "ways", "weak",
    "wear", "week", "well", "went", "were", "west", "what", "when", "whom", "wide", "wife", "wild",
    "will", "wind", "wine", "wing", "wire", "wise", "wish", "with", "wood", "word", "wore", "work",
    "yard", "yeah", "year", "your", "zero", "zone",
)

#: Given names and surnames for people on task pages (inboxes, phone books, social feeds).
FIRST_NAMES = (
    "Ada", "Alan", "Amara", "Ben", "Carla", "Chen", "Dana", "Diego", "Elena", "Emeka", "Farah", "Felix",
    "Grace", "Hana", "Ivan", "Jade", "Jonas", "Kai", "Lena", "Liam", "Maya", "Mira", "Nadia", "Noah",
    "Olga", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Sara", "Theo", "Uma", "Vera", "Wes", "Yara", "Zoe",
)
LAST_NAMES = (
    "Abbott", "Baker", "Castro", "Dalton", "Evans", "Fischer", "Garcia", "Hughes", "Ibsen", "Jensen",
    "Kowalski", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Quist", "Rossi", "Silva", "Tanaka",
    "Usman", "Varga", "Weber", "Xu", "Young", "Zhang",
)

#: Named colours with their hex values (the colour picker's palette uses the same names).
COLOURS = (
    ("red", "#ff0000"), ("green", "#008000"), ("blue", "#0000ff"), ("yellow", "#ffff00"),
    ("orange", "#ffa500"), ("purple", "#800080"), ("pink", "#ffc0cb"), ("brown", "#a52a2a"),
    ("black", "#000000"), ("white", "#ffffff"), ("gray", "#808080"), ("cyan", "#00ffff"),
)
