"""Composition: the desktop's state painted into a retained :class:`~cwgym.scene.Scene`.

The screen is laid out on the theme's native logical screen (1280x800 on a desktop
theme). A scene requested at another viewport is the same layout scaled by the transform
``a = width*1024/native_width``, ``d = height*1024/native_height`` (in 1/1024 units), so
a small observation shows the whole desktop; at the native size it is the identity.

The scene is assembled from *chunks* painted independently: below the windows (wallpaper,
desktop icons), one per shown window (frame and content), above the windows (bars,
dock) and the open panel. Each chunk is cached under a key made of everything it depends
on (the window's state digest, geometry, focus, stacking position, scroll offsets, the
application's ``paint_key`` — the value ``paint`` is handed — the viewport...), with its
nodes' revisions already stamped, so composing a desktop where one window changed
repaints one window, and inside it only the pieces its application paints through
:meth:`~cwgym.desktop.painter.Painter.reuse` that changed. A chunk at another viewport is
the native chunk scaled (each node scaled once, kept by id and revision), so a window is
painted once whatever the viewports it is shown at. A chunk also keeps its hit records
and its share of the ``semantic.v1`` projection, measured once.

The cache lives outside the world state and never changes a result: a miss paints
exactly what a hit would have returned. Every key is content (digests and values, never
an object's identity), so one cache serves every seat of a theme and grant in a world
and all its forks, and survives restores: worlds in the same state compose it once.
Before building the scene's keys (which asks each application for its ``paint_key`` and
the shell for its view), ``compose`` looks the scene up by the *state* it is a function
of: the viewport, the machine's digest and logical time, and the desktop's windows,
stacking, focus, panel and selected icon. The cache is bounded (least recently used
entries first out; the scaled nodes are dropped together past a bound), so its size
follows neither the number of worlds nor time.

Z layers: below 0-999, the window at stacking position ``i`` 1000*(i+1) onwards (frame
at +0..+9, content from +10, title and controls +500, resize grips +900), above 10**7,
panel 2*10**7.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.desktop.framework import App
from cwgym.desktop.painter import PIECES_KEPT, AppFocus, Painter
from cwgym.desktop.scene_cache import Chunk, SceneCache, recall, remember
from cwgym.desktop.themes.base import FrameView, ShellView
from cwgym.scene import (
    Box,
    Caret,
    Focus,
    Keyboard,
    Node,
    Rect,
    RoundedClip,
    Scene,
    SceneBuilder,
    SceneWindow,
    Transform,
    node_revision,
)
from cwgym.scene.digest import scene_digest

if TYPE_CHECKING:
    from cwgym.desktop.seatlike import SeatLike
    from cwgym.desktop.state import Window

__all__ = ["ABOVE_Z", "PANEL_Z", "Chunk", "SceneCache", "compose", "scale_for", "window_z"]

ABOVE_Z = 10_000_000
PANEL_Z = 20_000_000
NO_THEME_BACKGROUND = (32, 32, 32, 255)
NO_THEME_SCREEN = (1280, 800)
_SCALED = 1 << 15


def window_z(position: int) -> int:
    """The base z of the window at stacking ``position`` (0 is bottom-most)."""
    return 1000 * (position + 1)


def scale_for(native: tuple[int, int], width: int, height: int) -> Transform | None:
    """The transform from the native screen to a ``width`` x ``height`` viewport (None: identity)."""
    if (width, height) == native:
        return None
    return Transform.scale(width * 1024 // native[0], height * 1024 // native[1])


def _scale_rect(s: Transform | None, r: Rect) -> Rect:
    return r if s is None else s.map_rect(r)


def _scale_node(n: Node, s: Transform) -> Node:
    rc = n.rounded_clip
    if rc is not None:
        m = s.map_rect(rc.rect)
        rc = RoundedClip(m.x, m.y, m.width, m.height, rc.radius * min(s.a, s.d) // 1024)
    return msgspec.structs.replace(
        n,
        transform=n.transform.then(s),
        clip=s.map_rect(n.clip) if n.clip is not None else None,
        rounded_clip=rc,
        revision=0,
    )


def _finish(builder: SceneBuilder, focus: Any = None, focused: str | None = None) -> Chunk:
    scene = builder.scene
    nodes = sorted(scene.nodes, key=lambda n: n.z)
    for n in nodes:
        if not n.revision:  # a node reused from an earlier painting is stamped already
            n.revision = node_revision(n)
    return Chunk(nodes, list(scene.buffers), list(scene.scrolls), focus, focused)


def _scaled(chunk: Chunk, s: Transform, cache: SceneCache) -> Chunk:
    """A native chunk at another viewport (nodes, scrollers and focus mapped by ``s``):
    painting once on the native screen serves every viewport. A node already scaled for
    another chunk (the same id and revision: the same content) is taken as it is."""
    memo = cache.scaled
    if len(memo) > _SCALED:
        memo.clear()
    nodes = []
    for n in chunk.nodes:
        key = (n.id, n.revision, s)
        scaled = memo.get(key)
        if scaled is None:
            scaled = memo[key] = _scale_node(n, s)
            scaled.revision = node_revision(scaled)
        nodes.append(scaled)
    scrolls = [msgspec.structs.replace(a, bounds=s.map_rect(a.bounds)) for a in chunk.scrolls]
    return Chunk(nodes, chunk.buffers, scrolls, _scale_focus(chunk.focus, s), chunk.focused)


def _scale_focus(focus: Any, s: Transform) -> Any:
    """A chunk's focus with its caret mapped: an application's, or the panel's tuple."""
    if isinstance(focus, AppFocus):
        return dataclasses.replace(focus, caret=s.map_rect(focus.caret)) if focus.caret is not None else focus
    if isinstance(focus, tuple):
        return (focus[0], focus[1], s.map_rect(focus[2]), focus[3])
    return focus


def _window_chunk(
    seat: SeatLike, win: Window, position: int, focused: bool, paint_key: Any, s: Transform | None, w: int, h: int,
    dark: bool = False,
) -> Chunk:
    theme = seat.theme
    app = seat.apps.get(win.app)
    key = ("win", win.meta(), win.state_digest, focused, position, paint_key, dark, w, h)
    hit = seat.cache.chunk(key)
    if hit is not None:
        return hit
    if s is not None:
        native = _window_chunk(seat, win, position, focused, paint_key, None, *theme.screen, dark)
        return seat.cache.keep(key, _scaled(native, s, seat.cache))
    bounds = Rect(win.x, win.y, win.width, win.height)
    content = theme.content_rect(bounds, win.maximized)
    b = SceneBuilder(w, h)
    app_focus: AppFocus | None = None
    with b.group(window=win.id, z=window_z(position)):
        _frame(seat, b, FrameView(win.id, win.title, win.app, bounds, focused, win.maximized, dark))
        palette = theme.palette_for(dark)
        with b.group(clip=content, z=10):
            b.paint(Box(palette["window"]), content, key="content-bg")
        if app is not None and content.width > 0 and content.height > 0:
            with b.group(transform=Transform.translate(content.x, content.y), clip=content, z=10):
                painter = Painter(b, win.id, content, palette, win.scroll, seat.cache.pieces)
                app.paint(painter, win.state, paint_key)
                app_focus = painter.app_focus
    focused_target = app_focus.target if focused and app_focus is not None else None
    return seat.cache.keep(key, _finish(b, app_focus, focused_target))


def _frame(seat: SeatLike, b: SceneBuilder, view: FrameView) -> None:
    """The window's decoration: painted once per look (title, bounds, focus, dark style, in
    its window's group) and then reused, nodes and all, while only the content changes."""
    key = ("frame", seat.theme.name, view, b.context())
    pieces = seat.cache.pieces
    hit = pieces.get(key)
    if hit is not None:
        pieces.move_to_end(key)
        b.extend(hit[0])
        return
    start = len(b.scene.nodes)
    seat.theme.paint_frame(b, view)
    pieces[key] = (b.scene.nodes[start:], 0)
    if len(pieces) > PIECES_KEPT:
        pieces.popitem(last=False)


def _shell_chunk(seat: SeatLike, layer: str, view: ShellView, panel_key: Any, s: Transform | None, w: int, h: int) -> Chunk:
    theme = seat.theme
    if layer == "below":
        key = ("below", theme.name, view.shell, view.icons, view.selected_icon, w, h)
    elif layer == "above":
        key = ("above", theme.name, view.clock, view.dock, view.status, panel_key[:1], w, h)
    else:
        key = ("panel", theme.name, panel_key, view.grid, view.switcher, view.context, view.status, view.notices,
               view.month, w, h)
    hit = seat.cache.chunk(key)
    if hit is not None:
        return hit
    if s is not None:
        native = _shell_chunk(seat, layer, view, panel_key, None, *theme.screen)
        return seat.cache.keep(key, _scaled(native, s, seat.cache))
    b = SceneBuilder(w, h)
    focus = None
    if layer == "below":
        theme.paint_below(b, view)
    elif layer == "above":
        with b.group(z=ABOVE_Z):
            theme.paint_above(b, view)
    else:
        with b.group(z=PANEL_Z):
            focus = theme.paint_panel(b, view)
    return seat.cache.keep(key, _finish(b, focus, focus[0] if focus is not None else None))


def _focus(seat: SeatLike, panel: dict | None, panel_focus: Any, win_chunks: dict[int, Chunk]) -> Focus:
    desk = seat.desk
    if panel is not None:
        kind = panel.get("kind")
        if kind == "launcher" and panel_focus is not None:
            target, node, caret, search = panel_focus
            return Focus(
                node=node,
                interaction=target,
                role="searchbox",
                label="Type to search",
                value=search,
                caret=Caret(caret, 0, len(search), len(search)),
                keyboard=Keyboard("panel", None, target, True),
            )
        return Focus(keyboard=Keyboard("panel", None, f"shell:{kind}", False))
    win = desk.windows.get(desk.focused) if desk.focused is not None else None
    if win is None or win.minimized:
        return Focus()
    app = seat.apps.get(win.app)
    route = app.keyboard_route if app is not None else "window"
    chunk = win_chunks.get(win.id)
    af = chunk.focus if chunk is not None else None
    if af is None:
        return Focus(window=win.id, keyboard=Keyboard(route, win.id, None, False))
    caret = Caret(af.caret, af.line, af.column, af.offset) if af.caret is not None else None
    return Focus(
        window=win.id,
        node=af.node,
        interaction=af.target,
        role=af.role,
        label=af.label,
        value=af.value,
        caret=caret,
        keyboard=Keyboard(route, win.id, af.target, af.text_entry),
    )


def compose(seat: SeatLike, width: int, height: int) -> Scene:
    """The scene of ``seat``'s desktop at ``width`` x ``height`` (stamped; cached by content)."""
    theme = seat.theme
    if theme is None:
        return _bare(width, height)
    state = _state_key(seat, width, height)
    scene = recall(seat.cache.states, state)
    if scene is None:
        scene = remember(seat.cache.states, state, _compose(seat, width, height, state[2:]))
    return scene


def _state_key(seat: SeatLike, width: int, height: int) -> tuple:
    """Everything ``_compose`` reads, for a cache of one theme and grant: the viewport, the
    machine's files, clipboard and minute (the top bar's clock and the file manager's dates
    show no finer time), and the desktop's windows, stacking, focus, panel and selected
    icon (not the pointer press or viewport, which paint nothing). What an application
    paints may depend on these and its own state only (see ``App.paint_key``): processes
    and the shell's variables paint nothing, so a command that only prints leaves the
    screen's key as it was and the screen is not composed again."""
    machine = seat.machine
    windows, stack, focused, _, panel, selected, _, _ = seat.desk.frozen()
    minute = machine.clock.now_us // 60_000_000
    return (width, height, machine.fs.digest(), machine.clipboard, minute, windows, stack, focused, panel, selected)


def _layout(seat: SeatLike, state: tuple) -> tuple:
    """What a scene's keys are built from at any viewport — the shell's view, the panel's
    key, the applications' paint keys and the windows' tabs — kept by the viewport-free
    part of the state key: a desktop looked at at two viewports (the semantic view at the
    native size, the agent's observation at its own) asks the shell and the applications
    once."""
    layout = recall(seat.cache.layouts, state)
    if layout is not None:
        return layout
    desk = seat.desk
    panel_key = (desk.panel.get("kind"), msgspec.msgpack.encode(desk.panel)) if desk.panel else (None,)
    paint_keys = seat.paint_keys(desk.visible_stack() if seat.shell else [])
    tabs = [_tabs(seat.apps.get(desk.windows[wid].app), desk.windows[wid]) for wid in desk.stack] if seat.shell else []
    return remember(seat.cache.layouts, state, (_shell_view(seat, state, panel_key), panel_key, paint_keys, tabs))


def _shell_view(seat: SeatLike, state: tuple, panel_key: tuple) -> ShellView:
    """The shell's view, kept by the state without the windows' contents: the shell shows
    windows' applications and titles (the dock, the switcher), never what is in them, so
    a page that changed (or another task's page after a reset) asks the shell again only
    when the files, the minute, the windows' frames, focus, panel or icons did."""
    fs_digest, clipboard, minute, windows, stack, focused, panel, selected = state
    key = (fs_digest, clipboard, minute, tuple(meta for meta, _ in windows), stack, focused, panel, selected)
    view = recall(seat.cache.shells, key)
    if view is not None:
        return view
    view = seat.shell_view()
    if view.panel is not None:  # the kept view holds its own copy, whatever becomes of the desk's panel
        view = dataclasses.replace(view, panel=msgspec.msgpack.decode(panel_key[1]))
    return remember(seat.cache.shells, key, view)


def _compose(seat: SeatLike, width: int, height: int, state: tuple) -> Scene:
    theme = seat.theme
    view, panel_key, paint_keys, tabs = _layout(seat, state)
    desk = seat.desk
    visible = desk.visible_stack() if seat.shell else []
    scene_key = (
        tuple(tabs),
        width,
        height,
        view.key(),
        panel_key,
        tuple((w.meta(), w.state_digest) for w in visible),
        tuple(desk.windows[i].meta() for i in desk.stack),  # minimized ones are listed too
        tuple(paint_keys),
        desk.focused,
    )
    cached = recall(seat.cache.scenes, scene_key)
    if cached is not None:
        return cached
    s = scale_for(theme.screen, width, height)
    chunks = [_shell_chunk(seat, "below", view, panel_key, s, width, height)]
    win_chunks: dict[int, Chunk] = {}
    positions = {wid: i for i, wid in enumerate(desk.stack)}
    for win, paint_key in zip(visible, paint_keys):
        chunk = _window_chunk(
            seat, win, positions[win.id], desk.focused == win.id, paint_key, s, width, height, bool(view.setting("dark_style"))
        )
        win_chunks[win.id] = chunk
        chunks.append(chunk)
    panel_focus = None
    if seat.shell:
        chunks.append(_shell_chunk(seat, "above", view, panel_key, s, width, height))
        if desk.panel is not None:
            panel_chunk = _shell_chunk(seat, "panel", view, panel_key, s, width, height)
            panel_focus = panel_chunk.focus
            chunks.append(panel_chunk)
    scene = Scene(width, height, theme.background, typeface=theme.typeface)
    for chunk in chunks:
        scene.extend(chunk.nodes)
        scene.buffers.extend(chunk.buffers)
        scene.scrolls.extend(chunk.scrolls)
    if seat.shell:
        for wid, (titles, active) in zip(desk.stack, tabs):
            win = desk.windows[wid]
            bounds = Rect(win.x, win.y, win.width, win.height)
            content = theme.content_rect(bounds, win.maximized)
            scene.windows.append(
                SceneWindow(
                    win.id,
                    win.title,
                    win.app,
                    _scale_rect(s, bounds),
                    _scale_rect(s, content),
                    z=positions[wid],
                    focused=desk.focused == wid,
                    minimized=win.minimized,
                    maximized=win.maximized,
                    document=win.document,
                    tabs=list(titles),
                    active_tab=active,
                )
            )
        scene.covers.extend(_scale_rect(s, r) for r in theme.covers())
    scene.focus = _focus(seat, desk.panel, panel_focus, win_chunks) if seat.shell else Focus()
    _stamp(scene)
    scene.composed_of(chunks)
    remember(seat.cache.parts, scene.digest, chunks)
    return remember(seat.cache.scenes, scene_key, scene)


def _tabs(app: App | None, win: Window) -> tuple[tuple[str, ...], int]:
    """The window's tab titles and selected tab, from its application's hooks."""
    if app is None or type(app).tabs is App.tabs:
        return (), 0
    state = win.state
    titles = tuple(str(t) for t in app.tabs(state))
    return titles, (app.active_tab(state) if titles else 0)


def _stamp(scene: Scene) -> None:
    """What ``Scene.stamp`` does, reusing the revisions chunks already carry."""
    scene.update_occlusion()
    scene.buffers.sort(key=lambda b: b.handle)
    scene.scrolls.sort(key=lambda a: a.target)
    painted = scene.painted()
    for n in painted:
        if not n.revision:
            n.revision = node_revision(n)
    scene.digest = scene_digest(
        scene.width,
        scene.height,
        scene.revision,
        scene.background,
        scene.typeface,
        painted,
        scene.windows,
        scene.focus,
        scene.buffers,
        scene.scrolls,
    )


def _bare(width: int, height: int) -> Scene:
    """A machine with no desktop theme: an empty dark screen."""
    b = SceneBuilder(width, height, NO_THEME_BACKGROUND)
    b.paint(Box(NO_THEME_BACKGROUND), Rect(0, 0, width, height), key="wallpaper")
    return b.finish()
