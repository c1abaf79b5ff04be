"""Hand-built scenes the render tests, the golden hashes and the timing script share.

Each scene is designed at 1280 x 800 and can be produced at any viewport: ``build(name,
width, height)`` scales every node (transform, clip, rounded clip) onto the viewport,
so the small viewports exercise fractional scale transforms and 1280 x 800 the exact
whole-pixel paths. Everything here is deterministic (no randomness, no host state).
"""

from __future__ import annotations

import msgspec

from cwgym.desktop.icons import icon as app_icon
from cwgym.scene import (
    AssetImage,
    Backdrop,
    Box,
    Image,
    Path,
    Rect,
    Region,
    RoundedBox,
    RoundedClip,
    Scene,
    SceneBuilder,
    SceneWindow,
    Semantic,
    Shadow,
    Symbol,
    Text,
    Transform,
    UiText,
    UiTextBold,
)
from cwgym.text import line_height, measure

DESIGN = (1280, 800)
VIEWPORTS = ((1280, 800), (320, 240), (84, 84))

WHITE = (255, 255, 255, 255)
BLACK = (0, 0, 0, 255)
INK = (46, 52, 54, 255)
ORANGE = (233, 84, 32, 255)
HEADER = (235, 235, 235, 255)


def label(
    b: SceneBuilder,
    text: str,
    x: int,
    y: int,
    size: int = 14,
    color=INK,
    *,
    font="sans",
    bold=False,
    key=None,
    **kw,
):
    """A one-line text node whose bounds are exactly its measured run box."""
    prim = UiTextBold(text, size, color) if bold else UiText(text, size, color, font)
    f = prim.font
    return b.paint(prim, Rect(x, y, measure(text, f, size), line_height(f, size)), key=key, **kw)


def text_line(b: SceneBuilder, text: str, x: int, y: int, size: int, color, font="mono", key=None):
    return b.paint(
        Text(text, size, color, font),
        Rect(x, y, measure(text, font, size), line_height(font, size)),
        key=key,
    )


def checker(w: int, h: int) -> bytes:
    """A w x h straight RGBA picture: 4 px checks of red/blue with a translucent corner."""
    out = bytearray()
    for y in range(h):
        for x in range(w):
            if x >= w - 4 and y >= h - 4:
                out += bytes((255, 255, 255, 128))
            elif (x // 4 + y // 4) % 2:
                out += bytes((220, 40, 40, 255))
            else:
                out += bytes((40, 80, 220, 255))
    return bytes(out)


# ---------------------------------------------------------------- the desktop

TERMINAL_LINES = [
    "ada@workstation:~$ ls -la",
    "total 48",
    "drwxr-x--- 9 ada ada 4096 Jan  5 09:12 .",
    "drwxr-xr-x 3 root root 4096 Jan  2 08:00 ..",
    "-rw-r--r-- 1 ada ada  220 Jan  2 08:00 .bash_logout",
    "-rw-r--r-- 1 ada ada 3771 Jan  2 08:00 .bashrc",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:10 Desktop",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:11 Documents",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:11 Downloads",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:11 Music",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:11 Pictures",
    "drwxr-xr-x 2 ada ada 4096 Jan  5 09:11 Videos",
    "ada@workstation:~$ cat notes.txt | grep -n todo",
    "3:todo: send the report to priya",
    "7:todo: fix the BFS ordering test",
    "ada@workstation:~$ echo $((6 * 7))",
    "42",
    "ada@workstation:~$ python3 bfs.py",
    "['a', 'b']",
    "ada@workstation:~$ ",
]

EDITOR_LINES = [
    "def shortest_path(graph, start, goal):",
    '    """Breadth-first search over sorted neighbours."""',
    "    frontier = [start]",
    "    seen = {start: None}",
    "    while frontier:",
    "        node = frontier.pop(0)",
    "        if node == goal:",
    "            break",
    "        for nxt in sorted(graph[node]):",
    "            if nxt not in seen:",
    "                seen[nxt] = node",
    "                frontier.append(nxt)",
    "    path = []",
    "    while goal is not None:",
    "        path.append(goal)",
    "        goal = seen.get(goal)",
    "    return path[::-1]",
    "",
    "print(shortest_path({'a': ['b'], 'b': []}, 'a', 'b'))",
    "",
    "# todo: a test that runs on every platform",
    "assert shortest_path({'x': []}, 'x', 'x') == ['x']",
]

DOCK = (
    "browser",
    "files",
    "terminal",
    "editor",
    "calculator",
    "calendar",
    "notes",
    "photos",
    "settings",
)
FILES = (
    ("Desktop", "3 items"),
    ("Documents", "12 items"),
    ("Downloads", "7 items"),
    ("Music", "0 items"),
    ("Pictures", "24 items"),
    ("Public", "0 items"),
    ("Templates", "0 items"),
    ("Videos", "2 items"),
    ("bfs.py", "612 bytes"),
    ("notes.txt", "1.2 kB"),
    ("report.md", "4.8 kB"),
    ("budget.csv", "2.1 kB"),
    ("photo.png", "88.4 kB"),
)
PLACES = (
    ("home", "Home"),
    ("document", "Documents"),
    ("download", "Downloads"),
    ("music", "Music"),
    ("pictures", "Pictures"),
    ("videos", "Videos"),
    ("trash", "Trash"),
)


def window_frame(
    b: SceneBuilder, wid: int, app: str, title: str, bounds: Rect, z: int, *, focused: bool
) -> None:
    """Shadow, body, header bar with title and the three controls (Yaru style)."""
    b.window(
        SceneWindow(
            wid,
            title,
            app,
            bounds,
            Rect(bounds.x, bounds.y + 46, bounds.width, bounds.height - 46),
            z=z,
            focused=focused,
        )
    )
    w, h = bounds.width, bounds.height
    b.paint(
        Shadow((0, 0, 0, 90 if focused else 60), 18, 0, 6, 0, 12),
        Rect(0, 0, w, h),
        key="shadow",
        z=-1,
    )
    b.paint(RoundedBox(WHITE, 12, (0, 0, 0, 40), 1), Rect(0, 0, w, h), key="body")
    b.paint(Box(HEADER if focused else (245, 245, 245, 255)), Rect(1, 1, w - 2, 45), key="header")
    b.paint(Box((0, 0, 0, 30)), Rect(0, 46, w, 1), key="header-line")
    tw = measure(title, "sans-bold", 14)
    b.paint(
        UiTextBold(title, 14, INK if focused else (120, 120, 120, 255)),
        Rect((w - tw) // 2, 14, tw, line_height("sans-bold", 14)),
        key="title",
    )
    for k, op in enumerate(("close", "maximize", "minimize")):
        x = w - 36 - 34 * k
        if op == "close":
            b.paint(RoundedBox((210, 210, 210, 255), 12), Rect(x, 11, 24, 24), key=("btn-bg", op))
        b.paint(
            Symbol(op, INK, 16),
            Rect(x, 11, 24, 24),
            key=op,
            interaction=f"window:{wid}:{op}",
            semantic=Semantic("button", op),
        )


def desktop_builder() -> SceneBuilder:
    """The three-window desktop (files, editor, terminal) at the design size, unfinished."""
    W, H = DESIGN
    b = SceneBuilder(W, H, background=(44, 0, 30, 255), typeface="ubuntu")
    b.paint(AssetImage("wallpaper"), Rect(0, 0, W, H), key="wallpaper")
    # desktop icons
    for k, (name, text) in enumerate(
        (
            ("folder", "Home"),
            ("trash", "Trash"),
            ("file", "report.md"),
            ("folder", "Projects"),
            ("file", "todo"),
            ("file", "holiday"),
        )
    ):
        y = 60 + k * 100
        b.paint(AssetImage(name), Rect(W - 110, y, 64, 64), key=("desk-icon", k))
        tw = measure(text, "sans", 14)
        b.paint(
            UiText(text, 14, WHITE), Rect(W - 78 - tw // 2, y + 68, tw, 17), key=("desk-label", k)
        )
    # windows
    specs = (
        (1, "files", "Home", Rect(200, 90, 760, 500)),
        (2, "editor", "bfs.py — Text Editor", Rect(330, 170, 720, 520)),
        (3, "terminal", "ada@workstation: ~", Rect(470, 250, 700, 460)),
    )
    for z, (wid, app, title, bounds) in enumerate(specs):
        focused = wid == 3
        with b.group(
            window=wid, transform=Transform.translate(bounds.x, bounds.y), z=100 * (z + 1)
        ):
            window_frame(b, wid, app, title, bounds, z, focused=focused)
            content = Rect(bounds.x + 1, bounds.y + 47, bounds.width - 2, bounds.height - 48)
            with b.group(
                clip=content,
                rounded_clip=RoundedClip(bounds.x, bounds.y, bounds.width, bounds.height, 12),
            ):
                if app == "files":
                    b.paint(
                        Box((250, 250, 250, 255)),
                        Rect(1, 47, 200, bounds.height - 48),
                        key="sidebar",
                    )
                    for k, (sym, name) in enumerate(PLACES):
                        y = 60 + 36 * k
                        if k == 0:
                            b.paint(
                                RoundedBox((225, 225, 225, 255), 6),
                                Rect(8, y - 6, 186, 32),
                                key="selected",
                            )
                        b.paint(Symbol(sym, INK, 16), Rect(20, y, 20, 20), key=("place-icon", k))
                        label(b, name, 52, y + 1, 14, key=("place", k))
                    b.paint(
                        Box(WHITE),
                        Rect(202, 47, bounds.width - 203, bounds.height - 48),
                        key="list-bg",
                    )
                    for k, head in enumerate(("Name", "Size", "Modified")):
                        label(
                            b,
                            head,
                            250 + 260 * k if k else 250,
                            58,
                            13,
                            (120, 120, 120, 255),
                            bold=True,
                            key=("head", k),
                        )
                    for k, (name, size) in enumerate(FILES):
                        y = 84 + 30 * k
                        if k % 2:
                            b.paint(
                                Box((248, 248, 248, 255)),
                                Rect(202, y - 6, bounds.width - 203, 30),
                                key=("stripe", k),
                            )
                        icon = "file" if "." in name else "folder"
                        b.paint(AssetImage(icon), Rect(216, y - 3, 24, 24), key=("file-icon", k))
                        label(b, name, 250, y, 14, key=("file-name", k))
                        label(b, size, 510, y, 14, (120, 120, 120, 255), key=("file-size", k))
                        label(
                            b,
                            f"Jan {k + 2}  09:{10 + k:02d}",
                            770,
                            y,
                            14,
                            (120, 120, 120, 255),
                            key=("file-date", k),
                        )
                        b.paint(
                            Region(),
                            Rect(202, y - 6, bounds.width - 203, 30),
                            key=("row", k),
                            interaction=f"window:{wid}:content:row:{k}",
                        )
                elif app == "editor":
                    b.paint(
                        Box(WHITE), Rect(1, 47, bounds.width - 2, bounds.height - 48), key="page"
                    )
                    b.paint(
                        Box((246, 245, 244, 255)), Rect(1, 47, 44, bounds.height - 48), key="gutter"
                    )
                    for k, line in enumerate(EDITOR_LINES):
                        y = 56 + 20 * k
                        num = str(k + 1)
                        text_line(
                            b,
                            num,
                            36 - measure(num, "mono", 14),
                            y,
                            14,
                            (150, 150, 150, 255),
                            key=("ln", k),
                        )
                        if line:
                            text_line(b, line, 54, y, 14, INK, key=("line", k))
                else:
                    b.paint(
                        Box((23, 20, 33, 255)),
                        Rect(1, 47, bounds.width - 2, bounds.height - 48),
                        key="screen",
                    )
                    for k, line in enumerate(TERMINAL_LINES):
                        colour = (
                            (138, 226, 52, 255) if line.startswith("ada@") else (222, 222, 222, 255)
                        )
                        text_line(b, line, 12, 56 + 20 * k, 15, colour, key=("line", k))
                    caret_x = 12 + measure(TERMINAL_LINES[-1], "mono", 15)
                    b.paint(
                        Box((222, 222, 222, 255)),
                        Rect(caret_x, 56 + 20 * (len(TERMINAL_LINES) - 1), 8, 17),
                        key="cursor",
                    )
    # top bar
    with b.group(z=1000):
        b.paint(Box(BLACK), Rect(0, 0, W, 32), key="topbar")
        b.cover(Rect(0, 0, W, 32))
        b.paint(RoundedBox((255, 255, 255, 255), 5), Rect(12, 11, 30, 10), key="ws-active")
        for k in range(2):
            b.paint(RoundedBox((150, 150, 150, 255), 4), Rect(48 + 14 * k, 12, 8, 8), key=("ws", k))
        clock = "Tue 5 Jan  09:41"
        tw = measure(clock, "sans-bold", 14)
        b.paint(
            UiTextBold(clock, 14, WHITE),
            Rect((W - tw) // 2, 8, tw, 17),
            key="clock",
            interaction="shell:calendar",
        )
        for k, sym in enumerate(("power", "battery", "volume", "wifi")):
            b.paint(Symbol(sym, WHITE, 16), Rect(W - 36 - 26 * k, 6, 20, 20), key=("status", sym))
    # the calendar popup under the clock
    with b.group(z=1100, transform=Transform.translate(W // 2 - 170, 40)):
        b.paint(Shadow((0, 0, 0, 120), 16, 0, 4, 0, 14), Rect(0, 0, 340, 330), key="cal-shadow")
        b.paint(RoundedBox((54, 54, 54, 255), 14), Rect(0, 0, 340, 330), key="cal-bg")
        label(b, "January 2026", 20, 18, 16, WHITE, bold=True, key="cal-month")
        b.paint(Symbol("chevron-left", WHITE, 16), Rect(260, 14, 28, 28), key="cal-prev")
        b.paint(Symbol("chevron-right", WHITE, 16), Rect(294, 14, 28, 28), key="cal-next")
        for k in range(35):
            day = k - 2
            text = str(day) if 1 <= day <= 31 else ""
            x, y = 20 + 44 * (k % 7), 60 + 50 * (k // 7)
            if day == 5:
                b.paint(RoundedBox(ORANGE, 17), Rect(x, y, 34, 34), key="cal-today")
            if text:
                tw = measure(text, "sans", 14)
                b.paint(
                    UiText(text, 14, WHITE),
                    Rect(x + 17 - tw // 2, y + 9, tw, 17),
                    key=("cal-day", k),
                )
    # dock
    with b.group(z=900):
        b.paint(Backdrop((30, 30, 30, 190), 0, 0), Rect(0, 32, 68, H - 32), key="dock")
        b.cover(Rect(0, 32, 68, H - 32))
        for k, app in enumerate(DOCK):
            y = 44 + 60 * k
            if app == "terminal":
                b.paint(
                    RoundedBox((255, 255, 255, 40), 8), Rect(6, y - 4, 56, 56), key="dock-hover"
                )
            # application icons are the desktop theme's, painted as primitives
            for part, (prim, rect) in enumerate(app_icon(app, 10, y, 48, app)):
                b.paint(
                    prim,
                    rect,
                    key=("dock", app, part),
                    interaction=f"shell:launch:{app}",
                    semantic=Semantic("button", app) if part == 0 else None,
                )
            if app in ("files", "editor", "terminal"):
                b.paint(RoundedBox(ORANGE, 2), Rect(2, y + 21, 4, 6), key=("running", app))
        b.paint(Box((255, 255, 255, 40)), Rect(10, H - 140, 48, 1), key="dock-sep")
        b.paint(AssetImage("trash"), Rect(10, H - 128, 48, 48), key=("dock", "trash"))
        b.paint(
            Symbol("app-grid", WHITE, 28),
            Rect(10, H - 64, 48, 48),
            key="show-apps",
            interaction="shell:apps",
        )
    return b


# ---------------------------------------------------------------- test cards


def primitives_builder() -> SceneBuilder:
    """All twelve primitives, each in its own cell."""
    b = SceneBuilder(*DESIGN, background=(240, 240, 240, 255))
    b.paint(Box((200, 30, 30, 255)), Rect(40, 40, 200, 120), key="box")
    b.paint(
        Box((250, 250, 250, 255), (30, 30, 200, 255), 6), Rect(280, 40, 200, 120), key="box-stroke"
    )
    b.paint(RoundedBox((30, 160, 60, 255), 24), Rect(520, 40, 200, 120), key="rbox")
    b.paint(
        RoundedBox((255, 255, 255, 255), 18, ORANGE, 4), Rect(760, 40, 200, 120), key="rbox-stroke"
    )
    label(b, "UiText: The quick brown fox", 40, 200, 16, key="ui")
    label(b, "UiTextBold: jumps over", 40, 230, 16, bold=True, key="bold")
    text_line(b, "Text mono: $ echo fi ffl ->", 40, 260, 16, INK, key="mono")
    text_line(b, "Text sans: office AVA", 40, 290, 16, INK, font="sans", key="sans")
    b.paint(AssetImage("file"), Rect(520, 200, 96, 96), key="asset")
    b.paint(AssetImage("folder", tint=(40, 90, 200, 255)), Rect(640, 200, 96, 96), key="asset-tint")
    b.paint(Shadow((0, 0, 0, 140), 20, 6, 10, 4, 16), Rect(800, 200, 200, 120), key="shadow")
    b.paint(RoundedBox(WHITE, 16), Rect(800, 200, 200, 120), key="card")
    b.paint(Image(24, 16, checker(24, 16)), Rect(40, 360, 240, 160), key="image")
    b.paint(Image(24, 16, checker(24, 16)), Rect(300, 360, 24, 16), key="image-1to1")
    b.paint(
        Path(
            (
                ("M", 0, 100),
                ("L", 60, 0),
                ("Q", 100, 60, 160, 20),
                ("C", 200, 0, 200, 120, 120, 120),
                ("Z",),
            ),
            fill=(250, 200, 40, 255),
            stroke=(60, 60, 60, 255),
            stroke_width=3,
        ),
        Rect(360, 380, 200, 120),
        key="path",
    )
    b.paint(
        Path(
            (("M", 0, 0), ("L", 100, 100), ("M", 100, 0), ("L", 0, 100)),
            stroke=(20, 20, 20, 255),
            stroke_width=5,
        ),
        Rect(600, 380, 100, 100),
        key="path-stroke",
    )
    b.paint(Symbol("search", INK), Rect(740, 380, 48, 48), key="symbol")
    b.paint(Symbol("chevron-down", ORANGE, 16), Rect(800, 380, 48, 48), key="symbol-sized")
    for k in range(8):
        b.paint(
            Box(((k * 37) % 256, 120, 255 - k * 30, 255)),
            Rect(40 + 60 * k, 560, 60, 200),
            key=("stripe", k),
        )
    b.paint(Backdrop((255, 255, 255, 90), 10, 14), Rect(80, 600, 400, 120), key="backdrop-blur")
    b.paint(Backdrop((20, 20, 20, 120), 0, 8), Rect(520, 600, 200, 120), key="backdrop-flat")
    b.paint(Region(), Rect(0, 0, 1280, 800), key="region", interaction="shell:desktop")
    return b


def transforms_builder() -> SceneBuilder:
    """Rotations, scales and shears of boxes, text, icons, paths and images."""
    b = SceneBuilder(*DESIGN, background=(250, 250, 250, 255))
    rot30 = Transform(887, 512, -512, 887, 200, 100)  # 30 degrees, in 1/1024 units
    b.paint(Box((40, 120, 200, 255)), Rect(0, 0, 200, 100), transform=rot30, key="rot-box")
    b.paint(UiText("rotated text", 20, INK), Rect(0, 120, 200, 30), transform=rot30, key="rot-text")
    b.paint(
        AssetImage("folder"),
        Rect(0, 0, 96, 96),
        transform=Transform.scale(1536, 1536, 600, 60),
        key="scaled-icon",
    )
    b.paint(
        AssetImage("file"),
        Rect(0, 0, 96, 96),
        transform=Transform.scale(700, 1400, 820, 60),
        key="squashed-icon",
    )
    b.paint(
        Symbol("settings", ORANGE),
        Rect(0, 0, 32, 32),
        transform=Transform(0, 1024, -1024, 0, 1100, 60),
        key="rot90-symbol",
    )
    b.paint(
        RoundedBox((200, 60, 60, 255), 20, BLACK, 2),
        Rect(0, 0, 240, 120),
        transform=Transform(1024, 0, 400, 1024, 100, 400),
        key="shear",
    )
    b.paint(
        Image(24, 16, checker(24, 16)),
        Rect(0, 0, 24, 16),
        transform=Transform(5000, 1200, -1200, 5000, 500, 380),
        key="rot-image",
    )
    b.paint(
        Path((("M", 0, 0), ("L", 80, 0), ("L", 40, 70), ("Z",)), fill=(30, 160, 90, 255)),
        Rect(0, 0, 80, 70),
        transform=Transform(-1024, 0, 0, -1024, 1000, 700),
        key="flip-path",
    )
    b.paint(
        Shadow((0, 0, 0, 120), 12, 0, 0, 0, 10),
        Rect(0, 0, 160, 100),
        transform=rot30.then(Transform.translate(700, 400)),
        key="rot-shadow",
    )
    b.paint(
        UiTextBold("Scaled ×2", 14, ORANGE),
        Rect(0, 0, 120, 20),
        transform=Transform.scale(2048, 2048, 100, 640),
        key="scaled-text",
    )
    return b


def clips_builder() -> SceneBuilder:
    """Clips, rounded clips, opacity groups and z-order overlaps."""
    b = SceneBuilder(*DESIGN, background=(30, 30, 40, 255))
    with b.group(clip=Rect(100, 100, 200, 150)):
        b.paint(Box((220, 60, 60, 255)), Rect(50, 50, 400, 400), key="clipped-red")
        b.paint(
            UiTextBold("CLIPPED TEXT RUNS PAST ITS CLIP", 24, WHITE),
            Rect(80, 160, 500, 30),
            key="clipped-text",
        )
    with b.group(clip=Rect(400, 100, 300, 300), rounded_clip=RoundedClip(400, 100, 300, 300, 60)):
        b.paint(Box((60, 160, 220, 255)), Rect(350, 50, 400, 400), key="rounded-blue")
        b.paint(AssetImage("folder"), Rect(450, 150, 200, 200), key="rounded-photo")
    with b.group(opacity=128):
        b.paint(Box(WHITE), Rect(800, 100, 200, 200), key="half-white")
        b.paint(AssetImage("file"), Rect(860, 160, 160, 160), key="half-icon")
    b.paint(Box((255, 200, 0, 255)), Rect(100, 400, 300, 200), z=5, key="top-yellow")
    b.paint(Box((0, 200, 100, 255)), Rect(200, 450, 300, 200), z=1, key="under-green")
    b.paint(Box((200, 0, 200, 255)), Rect(300, 500, 300, 200), key="bottom-magenta")
    with b.group(z=3, opacity=200, clip=Rect(700, 420, 400, 300)):
        b.paint(
            Shadow((0, 0, 0, 200), 24, 0, 12, 0, 20), Rect(760, 460, 280, 180), key="clipped-shadow"
        )
        b.paint(RoundedBox((240, 240, 240, 255), 20), Rect(760, 460, 280, 180), key="clipped-card")
        b.paint(
            Symbol("close", (200, 0, 0, 160)), Rect(1000, 470, 32, 32), key="translucent-symbol"
        )
    b.paint(Box((255, 255, 255, 255)), Rect(0, 0, 0, 10), key="empty")
    b.paint(Box((255, 255, 255, 255)), Rect(2000, 2000, 10, 10), key="offscreen")
    b.paint(Box((255, 0, 0, 255)), Rect(10, 10, 50, 50), opacity=0, key="invisible")
    return b


def text_builder() -> SceneBuilder:
    """Many runs of text: sizes, fonts, colours, fallback glyphs, a terminal grid."""
    b = SceneBuilder(*DESIGN, background=(255, 255, 255, 255))
    y = 20
    for size in (9, 11, 13, 16, 20, 28):
        label(
            b,
            f"Ubuntu {size}px — Sphinx of black quartz, judge my vow",
            20,
            y,
            size,
            key=("sans", size),
        )
        y += line_height("sans", size) + 4
    for size in (11, 14, 18):
        label(
            b,
            f"Bold {size}px: Waltz, bad nymph, for quick jigs vex",
            20,
            y,
            size,
            bold=True,
            key=("bold", size),
        )
        y += line_height("sans-bold", size) + 4
    label(b, "Fallback: naïve café → ✓ ★ Ωμέγα", 20, y, 18, key="fallback")
    y += 30
    b.paint(Box((23, 20, 33, 255)), Rect(20, y, 760, 20 * 12), key="term-bg")
    for k in range(12):
        line = f"{k:02d} │ " + "".join(chr(0x41 + (k * 7 + j) % 26) for j in range(60))
        text_line(
            b, line, 28, y + 4 + 19 * k, 14, (200 - k * 8, 220, 120 + k * 10, 255), key=("term", k)
        )
    for k, colour in enumerate(((200, 0, 0, 255), (0, 0, 200, 128), (0, 0, 0, 60))):
        label(b, "translucent and coloured ink", 820, 40 + 40 * k, 20, colour, key=("ink", k))
    return b


def icons_builder() -> SceneBuilder:
    """Every asset name, in colour and as a tinted symbol."""
    from cwgym.render.assets import ASSET_NAMES

    b = SceneBuilder(*DESIGN, background=(236, 236, 236, 255))
    for k, name in enumerate(ASSET_NAMES):
        x, y = 20 + 120 * (k % 10), 20 + 130 * (k // 10)
        b.paint(AssetImage(name), Rect(x, y, 64, 64), key=("icon", name))
        b.paint(Symbol(name, INK), Rect(x + 72, y, 24, 24), key=("symbol", name))
        b.paint(Symbol(name, ORANGE), Rect(x + 72, y + 30, 16, 16), key=("small", name))
        label(b, name, x, y + 70, 12, key=("name", name))
    return b


def translucent_builder() -> SceneBuilder:
    """A translucent background: frames keep straight alpha."""
    b = SceneBuilder(*DESIGN, background=(0, 0, 0, 0))
    b.paint(Box((255, 255, 255, 128)), Rect(0, 0, 640, 400), key="half-white")
    b.paint(RoundedBox((233, 84, 32, 200), 40), Rect(320, 200, 640, 400), key="orange")
    b.paint(Shadow((0, 0, 0, 160), 30, 0, 0, 0, 20), Rect(700, 100, 300, 200), key="shadow")
    label(b, "Alpha", 100, 600, 48, (20, 20, 20, 255), key="alpha")
    b.paint(AssetImage("file"), Rect(1000, 500, 200, 200), key="note")
    return b


BUILDERS = {
    "primitives": primitives_builder,
    "transforms": transforms_builder,
    "clips": clips_builder,
    "text": text_builder,
    "icons": icons_builder,
    "desktop": desktop_builder,
    "translucent": translucent_builder,
}


def scale_scene(scene: Scene, width: int, height: int) -> Scene:
    """The scene mapped onto a ``width`` x ``height`` viewport (every node scaled)."""
    if (width, height) == (scene.width, scene.height):
        return scene
    sx, sy = width * 1024 // scene.width, height * 1024 // scene.height
    scale = Transform.scale(sx, sy)
    nodes = []
    for n in scene.nodes:
        clip = None if n.clip is None else scale.map_rect(n.clip)
        rc = n.rounded_clip
        if rc is not None:
            r = scale.map_rect(rc.rect)
            rc = RoundedClip(r.x, r.y, r.width, r.height, rc.radius * min(sx, sy) // 1024)
        nodes.append(
            msgspec.structs.replace(
                n, transform=n.transform.then(scale), clip=clip, rounded_clip=rc, revision=0
            )
        )
    out = Scene(width, height, scene.background, nodes=nodes, typeface=scene.typeface)
    out.stamp()
    return out


def build(name: str, width: int = DESIGN[0], height: int = DESIGN[1]) -> Scene:
    """Scene ``name`` at a viewport, stamped."""
    return scale_scene(BUILDERS[name]().finish(), width, height)
