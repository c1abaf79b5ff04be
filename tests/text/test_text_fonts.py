"""The bundled fonts load from the package by path and never from the host."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cwgym.text
from cwgym.text import FONT_DIR, FontKey, font_chain

PACKAGE_DIR = Path(cwgym.text.__file__).resolve().parent.parent


def test_font_dir_is_inside_the_package():
    assert FONT_DIR.resolve().is_relative_to(PACKAGE_DIR)
    assert FONT_DIR.is_dir()


@pytest.mark.parametrize(
    ("key", "family", "weight"),
    [
        (FontKey.SANS, "Ubuntu", 400),
        (FontKey.SANS_BOLD, "Ubuntu", 700),
        (FontKey.MONO, "Ubuntu Mono", 400),
        (FontKey.MONO_BOLD, "Ubuntu Mono", 700),
    ],
)
def test_primary_typefaces_are_the_bundled_families(key, family, weight):
    primary = font_chain(key)[0]
    assert primary.typeface.getFamilyName() == family
    assert primary.typeface.fontStyle().weight() == weight
    assert (FONT_DIR / primary.filename).read_bytes() == primary.data


def test_fallback_chains_end_in_dejavu():
    for key in FontKey:
        families = [f.typeface.getFamilyName() for f in font_chain(key)]
        assert families[-1].startswith("DejaVu Sans"), families


def test_keys_accept_plain_strings_and_reject_unknown_ones():
    assert font_chain("sans") == font_chain(FontKey.SANS)
    with pytest.raises(ValueError, match="serif"):
        font_chain("serif")


def test_bundle_is_small_and_every_file_has_a_notice_entry():
    ttfs = sorted(FONT_DIR.glob("*.ttf"))
    assert ttfs
    assert sum(p.stat().st_size for p in FONT_DIR.iterdir()) < 3 * 1024 * 1024
    notice = (FONT_DIR / "NOTICE").read_text()
    for ttf in ttfs:
        assert re.search(rf"^{re.escape(ttf.name)}\s", notice, re.M), ttf.name
    assert (FONT_DIR / "UFL-1.0.txt").read_text().startswith("-")
    assert "Bitstream Vera" in (FONT_DIR / "DejaVu-LICENSE.txt").read_text()
    used = {name for key in FontKey for name in cwgym.text.fonts.FONT_CHAINS[key]}
    assert used == {p.name for p in ttfs}


_NO_HOST_FONTS = r"""
import skia

def refuse(*args, **kwargs):
    raise AssertionError("host font lookup")

for name in ("RefDefault", "New_Custom_Directory"):
    setattr(skia.FontMgr, name, staticmethod(refuse))
for name in ("matchFamily", "matchFamilyStyle", "matchFamilyStyleCharacter",
             "legacyMakeTypeface", "makeFromFile", "createStyleSet"):
    setattr(skia.FontMgr, name, refuse)
for name in ("MakeFromFile", "MakeFromName", "MakeDefault", "MakeFromData"):
    setattr(skia.Typeface, name, staticmethod(refuse))

from cwgym.text import FontKey, draw_text, font_chain, measure, wrap

surface = skia.Surface(200, 40)
for key in FontKey:
    assert measure("Files → ✓", key, 13) > 0
    draw_text(surface.getCanvas(), 2, 20, "Files → ✓", key, 13, (0, 0, 0, 255))
    assert all(f.typeface is not None for f in font_chain(key))
wrap("a few words to wrap", "sans", 12, 40)
print("ok")
"""


def test_nothing_touches_the_host_font_manager(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_DIR.parent)}
    result = subprocess.run(
        [sys.executable, "-c", _NO_HOST_FONTS],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
