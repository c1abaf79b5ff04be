"""Frames as numpy arrays without copies, and deterministic PNG files."""

from __future__ import annotations

import io

import numpy as np
import pytest
import render_scenes
from PIL import Image

from cwgym.render import frame_array, render_scene, to_png


def test_frame_array_is_a_view_of_the_bytes():
    scene = render_scenes.build("desktop", 84, 84)
    rgba = render_scene(scene)
    four = frame_array(rgba, 84, 84)
    three = frame_array(rgba, 84, 84, channels=3)
    assert four.shape == (84, 84, 4) and three.shape == (84, 84, 3)
    assert four.dtype == np.uint8 and three.dtype == np.uint8
    backing = np.frombuffer(rgba, dtype=np.uint8)
    assert np.shares_memory(four, backing) and np.shares_memory(three, backing)
    assert four.base is not None and not four.flags.owndata and not three.flags.owndata
    assert not four.flags.writeable  # bytes are immutable
    assert four.tobytes() == rgba
    assert (three == four[:, :, :3]).all()
    assert three.strides == (84 * 4, 4, 1)


def test_frame_array_checks_its_arguments():
    with pytest.raises(ValueError, match="channels"):
        frame_array(b"\x00" * 16, 2, 2, channels=2)
    with pytest.raises(ValueError, match="16 bytes"):
        frame_array(b"\x00" * 15, 2, 2)


@pytest.mark.parametrize("name", ["desktop", "translucent"])
def test_png_round_trips_through_pillow(name):
    scene = render_scenes.build(name, 320, 240)
    rgba = render_scene(scene)
    png = to_png(rgba, 320, 240)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.mode == "RGBA" and image.size == (320, 240)
    assert image.tobytes() == rgba
    assert to_png(rgba, 320, 240) == png  # the same bytes every time


def test_png_refuses_a_frame_of_the_wrong_size():
    with pytest.raises(ValueError, match="bytes"):
        to_png(b"\x00" * 10, 2, 2)
