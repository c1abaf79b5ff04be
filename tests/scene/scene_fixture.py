"""Small deterministic scenes the scene tests share (also run in subprocesses)."""

from __future__ import annotations

from cwgym.scene import (
    AssetImage,
    Box,
    Focus,
    Keyboard,
    NodeState,
    Rect,
    RoundedBox,
    SceneBuilder,
    SceneWindow,
    ScrollArea,
    Semantic,
    Shadow,
    Symbol,
    Text,
    TextBuffer,
    Transform,
    UiText,
    UiTextBold,
    wrap_text_lines,
)

WHITE = (255, 255, 255, 255)
BLACK = (0, 0, 0, 255)
GREY = (200, 200, 200, 255)


def paint_window(b: SceneBuilder, wid: int, bounds: Rect, z: int, title: str, *, focused=False):
    """A window: shadow, frame, title, three controls, a content button."""
    b.window(
        SceneWindow(
            wid,
            title,
            "files",
            bounds,
            Rect(bounds.x, bounds.y + 28, bounds.width, bounds.height - 28),
            z=z,
            focused=focused,
            document=f"/home/ada/{title}",
            tabs=[title],
        )
    )
    with b.group(
        window=wid,
        transform=Transform.translate(bounds.x, bounds.y),
        clip=bounds,
        z=100 * (z + 1),
    ):
        b.paint(
            Shadow((0, 0, 0, 60), 10, 0, 3), Rect(0, 0, bounds.width, bounds.height), key="shadow"
        )
        b.paint(RoundedBox(GREY, 6), Rect(0, 0, bounds.width, bounds.height), key="frame")
        b.paint(UiTextBold(title, 13, BLACK), Rect(8, 6, 120, 16), key="title")
        for k, op in enumerate(("close", "maximize", "minimize")):
            b.paint(
                Symbol(op, BLACK),
                Rect(bounds.width - 22 - 22 * k, 6, 16, 16),
                key=op,
                interaction=f"window:{wid}:{op}",
                semantic=Semantic("button", op.capitalize()),
            )
        b.paint(
            Box(WHITE),
            Rect(10, 40, 80, 24),
            key="ok-bg",
            interaction=f"window:{wid}:content:ok",
            semantic=Semantic("button", "OK", focusable=True),
        )
        b.paint(
            UiText("OK", 12, BLACK),
            Rect(14, 44, 40, 16),
            key="ok-label",
            interaction=f"window:{wid}:content:ok",
        )


def desktop_scene(order: str = "forward"):
    """Wallpaper, two launcher icons, two overlapping windows, a terminal buffer."""
    b = SceneBuilder(800, 600, background=(30, 30, 40, 255), typeface="ubuntu")
    b.paint(AssetImage("wallpaper"), Rect(0, 0, 800, 600), key="wallpaper")
    b.paint(
        AssetImage("terminal"),
        Rect(10, 10, 48, 48),
        key="launch-terminal",
        interaction="shell:launch:terminal",
        semantic=Semantic("button", "Terminal"),
    )
    b.paint(
        AssetImage("files"),
        Rect(10, 70, 48, 48),
        key="launch-files",
        interaction="shell:launch:files",
        semantic=Semantic("button", "Files", disabled=True),
    )
    windows = [(0, Rect(100, 80, 400, 300), 0, "Home"), (1, Rect(300, 200, 400, 300), 1, "Docs")]
    if order == "reverse":
        windows.reverse()
    for wid, bounds, z, title in windows:
        paint_window(b, wid, bounds, z, title, focused=wid == 1)
    lines = ["ada@workstation:~$ echo hello", "hello", "x" * 70]
    with b.group(
        window=1, transform=Transform.translate(300, 228), clip=Rect(300, 228, 400, 272), z=250
    ):
        for row, vl in enumerate(
            wrap_text_lines(
                lines,
                40,
                pane="window:1:terminal",
                node_id=lambda lg, off: b.id_for(("line", lg, off)),
            )
        ):
            b.paint(
                Text(vl.text, 13, BLACK, "mono"),
                Rect(6, 80 + 16 * row, 400, 16),
                key=("line", vl.line.logical, vl.line.offset),
                line=vl.line,
            )
        b.paint(
            Box(WHITE),
            Rect(6, 160, 120, 20),
            key="check",
            interaction="window:1:content:check",
            semantic=Semantic("checkbox", "Wrap"),
            state=NodeState(checked=True),
        )
    b.buffer(TextBuffer("window:1:terminal", 1, "terminal", lines, 0, 3))
    b.scroll(ScrollArea("window:1:content:pane:text", 1, Rect(300, 228, 400, 272), 0, 900))
    b.set_focus(
        Focus(
            window=1,
            interaction="window:1:content:ok",
            role="button",
            label="OK",
            keyboard=Keyboard("application", 1, "window:1:content:ok", False),
        )
    )
    return b.finish()
