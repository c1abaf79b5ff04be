"""Measurements and drawn bytes are identical across processes and hash seeds."""

import json
import os
import subprocess
import sys
from pathlib import Path

import cwgym.text

REPO_ROOT = Path(cwgym.text.__file__).resolve().parent.parent.parent

_SCRIPT = r"""
import hashlib, json
import numpy as np
import skia
from cwgym.text import FontKey, draw_text, ellipsize, line_height, measure, shape, wrap

texts = ["Hello, World", "AVA Wave office fi", "→ ✓ ★ naïve", "ls -la /tmp │ ┌─┐", "中 e\u0301"]
out = {"measure": [], "wrap": [], "ellipsize": [], "xs": []}
info = skia.ImageInfo.Make(320, 200, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
surface = skia.Surface.MakeRaster(info)
canvas = surface.getCanvas()
canvas.clear(skia.ColorWHITE)
y = 14
for key in FontKey:
    for size in (11, 14):
        for text in texts:
            out["measure"].append(measure(text, key, size))
            out["xs"].append(list(shape(text, key, size).xs))
            out["ellipsize"].append(ellipsize(text, key, size, 60))
        out["wrap"].append(wrap(" ".join(texts), key, size, 90))
    draw_text(canvas, 3, y, " ".join(texts), key, 14, (0, 0, 0, 255))
    y += line_height(key, 14)
pixels = np.zeros((200, 320, 4), dtype=np.uint8)
assert surface.readPixels(info, pixels, info.minRowBytes(), 0, 0)
out["pixels"] = hashlib.sha256(pixels.tobytes()).hexdigest()
print(json.dumps(out, sort_keys=True))
"""


def _run(seed):
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_two_processes_with_different_hash_seeds_agree():
    first = _run("1")
    second = _run("4242")
    assert first == second
    assert len(first["pixels"]) == 64 and all(m > 0 for m in first["measure"])
