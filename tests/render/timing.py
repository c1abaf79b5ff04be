"""Render timings of the hand-built desktop (not a test: timings never go into tests).

Run from the repository root: ``python -m tests.render.timing``. Prints p50 and p95 in
milliseconds over many runs of each case.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec
import render_scenes

from cwgym.render import Renderer, frame_array, render_scene
from cwgym.scene import Scene, Text


def keystrokes(width: int, height: int, count: int) -> list[Scene]:
    """The desktop with the terminal's prompt line growing by one character per scene."""
    base = render_scenes.desktop_builder().finish()
    prompt = next(
        n
        for n in base.nodes
        if isinstance(n.primitive, Text) and n.primitive.text == render_scenes.TERMINAL_LINES[-1]
    )
    scenes = []
    for k in range(count):
        text = prompt.primitive.text + "ls -la /tmp"[: k % 12]
        nodes = [
            msgspec.structs.replace(
                n, primitive=msgspec.structs.replace(n.primitive, text=text), revision=0
            )
            if n.id == prompt.id
            else msgspec.structs.replace(n, revision=0)
            for n in base.nodes
        ]
        scene = Scene(base.width, base.height, base.background, nodes=nodes)
        scene.stamp()
        scenes.append(render_scenes.scale_scene(scene, width, height))
    return scenes


def measure(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    runs = 200
    print(f"desktop scene: {len(render_scenes.build('desktop').nodes)} nodes")
    for w, h in render_scenes.VIEWPORTS:
        scene = render_scenes.build("desktop", w, h)
        render_scene(scene)
        p50, p95 = measure(lambda s=scene: render_scene(s), runs)
        print(f"{w}x{h} render_scene (full frame)      p50 {p50:7.3f} ms  p95 {p95:7.3f} ms")
        scenes = keystrokes(w, h, 24)
        renderer = Renderer()
        renderer.render(scenes[0])
        it = iter(range(10**9))
        p50, p95 = measure(
            lambda r=renderer, ss=scenes, it=it: r.render(ss[1 + next(it) % 23]), runs
        )
        print(f"{w}x{h} Renderer after a keystroke      p50 {p50:7.3f} ms  p95 {p95:7.3f} ms")
        p50, p95 = measure(lambda r=renderer, s=scenes[5]: r.render(s), runs)
        print(f"{w}x{h} Renderer, unchanged scene       p50 {p50:7.3f} ms  p95 {p95:7.3f} ms")
        frame = renderer.render(scenes[5])
        p50, p95 = measure(lambda f=frame, w=w, h=h: frame_array(f, w, h, 3), runs)
        print(f"{w}x{h} frame_array (RGB view)          p50 {p50:7.3f} ms  p95 {p95:7.3f} ms")


if __name__ == "__main__":
    main()
