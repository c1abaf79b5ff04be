"""Golden frame hashes of the hand-built scenes at three viewports (including 84 x 84).

The hashes live in ``tests/render/golden.json``. After an intended change to how
anything is drawn, regenerate them from the repository root with

    python -m tests.render.update_golden

and review the diff. Pixels depend on the skia build, so the hashes are checked only
with the skia-python version that wrote them (recorded in the file).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import render_scenes
import skia

from cwgym.render import render_scene

GOLDEN = json.loads((Path(__file__).resolve().parent / "golden.json").read_text())


def test_the_golden_file_covers_every_scene_and_viewport():
    assert sorted(GOLDEN["frames"]) == sorted(render_scenes.BUILDERS)
    assert len(GOLDEN["frames"]) >= 6
    for views in GOLDEN["frames"].values():
        assert sorted(views) == sorted(f"{w}x{h}" for w, h in render_scenes.VIEWPORTS)
    assert "84x84" in next(iter(GOLDEN["frames"].values()))


@pytest.mark.parametrize("name", sorted(render_scenes.BUILDERS))
@pytest.mark.parametrize(("width", "height"), render_scenes.VIEWPORTS)
def test_golden_frame_hashes(name, width, height):
    if skia.__version__ != GOLDEN["skia"]:
        pytest.skip(
            f"golden hashes were written with skia-python {GOLDEN['skia']}, this is {skia.__version__}"
        )
    digest = hashlib.sha256(render_scene(render_scenes.build(name, width, height))).hexdigest()
    assert digest == GOLDEN["frames"][name][f"{width}x{height}"], (
        f"{name} at {width}x{height} changed; if intended, run python -m tests.render.update_golden"
    )
