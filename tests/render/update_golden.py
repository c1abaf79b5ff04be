"""Rewrite ``tests/render/golden.json`` from the current renderer.

Run from the repository root: ``python -m tests.render.update_golden``. Review the
change: a new hash means every frame of that scene changed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import render_scenes  # noqa: E402
import skia  # noqa: E402

from cwgym.render import render_scene  # noqa: E402

GOLDEN = HERE / "golden.json"


def compute() -> dict:
    """``{"skia": version, "frames": {scene: {"WxH": sha256}}}`` for every test scene and viewport."""
    frames = {
        name: {
            f"{w}x{h}": hashlib.sha256(render_scene(render_scenes.build(name, w, h))).hexdigest()
            for w, h in render_scenes.VIEWPORTS
        }
        for name in sorted(render_scenes.BUILDERS)
    }
    return {"skia": skia.__version__, "frames": frames}


def main() -> None:
    GOLDEN.write_text(json.dumps(compute(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
