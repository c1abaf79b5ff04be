"""Write worlds/ubuntu-apps/world.json: the Ubuntu workstation with every native application
installed and the sample files they open (pictures, songs, a database).

    python scripts/make_apps_world.py

The pictures, songs and database are made here, deterministically (Pillow, the stdlib's
``wave`` and ``sqlite3``), and stored in the world as base64 data URLs; run it again after
changing them and commit the world it writes.
"""

from __future__ import annotations

import base64
import io
import json
import sqlite3
import sys
import wave
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Every native application the world installs, besides the four built-in ones.
NATIVE = [
    "calculator",
    "calendar",
    "clock",
    "code",
    "contacts",
    "database",
    "docs",
    "mail",
    "music",
    "notes",
    "paint",
    "photos",
    "settings",
    "spreadsheet",
]


def _url(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def _picture(
    size: tuple[int, int],
    sky: tuple[int, int, int],
    sun: tuple[int, int, int],
    hill: tuple[int, int, int],
) -> bytes:
    img = Image.new("RGB", size, sky)
    draw = ImageDraw.Draw(img)
    w, h = size
    draw.ellipse((w * 0.65, h * 0.12, w * 0.85, h * 0.12 + w * 0.2), fill=sun)
    draw.polygon([(0, h), (0, h * 0.6), (w * 0.4, h * 0.45), (w, h * 0.7), (w, h)], fill=hill)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=9, optimize=False)
    return out.getvalue()


def _jpeg(size: tuple[int, int]) -> bytes:
    img = Image.new("RGB", size, (230, 225, 210))
    draw = ImageDraw.Draw(img)
    for i in range(0, size[0], 16):
        draw.rectangle((i, 0, i + 7, size[1]), fill=(180, 60 + i % 120, 40))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return out.getvalue()


def _song(seconds: int, step: int) -> bytes:
    """A quiet 8-bit mono WAV at 100 frames per second (small, with a real duration)."""
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(100)
        wav.writeframes(bytes((128 + ((i * step) % 9) - 4) for i in range(seconds * 100)))
    return out.getvalue()


def _database() -> bytes:
    con = sqlite3.connect(":memory:")
    con.executescript(
        """
        CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT, price REAL, stock INTEGER);
        INSERT INTO products (name, category, price, stock) VALUES
          ('Blue mug', 'kitchen', 8.5, 24), ('Desk lamp', 'office', 32.0, 7), ('Notebook', 'office', 3.25, 120),
          ('Tea towel', 'kitchen', 4.75, 40), ('Stapler', 'office', 11.9, 15), ('Water bottle', 'outdoor', 14.0, 31);
        CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
        INSERT INTO suppliers (name, city) VALUES ('Paper & Co', 'Leeds'), ('Northwind Goods', 'Bristol');
        """
    )
    con.commit()
    data = con.serialize()
    con.close()
    return bytes(data)


def build() -> dict:
    world = json.loads((ROOT / "worlds" / "ubuntu-workstation" / "world.json").read_text())
    world["id"] = "ubuntu-apps"
    computer = world["computers"][0]
    computer["installed_apps"] = ["terminal", "files", "editor", "browser", *NATIVE]
    files = computer["initial_files"]
    files["Pictures/beach.png"] = _url(
        "image/png", _picture((320, 200), (120, 180, 235), (250, 210, 70), (230, 205, 150))
    )
    files["Pictures/forest.png"] = _url(
        "image/png", _picture((240, 320), (200, 225, 240), (255, 240, 200), (40, 110, 60))
    )
    files["Pictures/harbour.jpg"] = _url("image/jpeg", _jpeg((256, 160)))
    files["Music/Aurora Lane - Morning Light.wav"] = _url("audio/wav", _song(185, 1))
    files["Music/Aurora Lane - Tidewater.wav"] = _url("audio/wav", _song(142, 2))
    files["Music/The Quiet Hours - Paper Boats.wav"] = _url("audio/wav", _song(203, 3))
    files["Documents/inventory.db"] = _url("application/vnd.sqlite3", _database())
    files["Documents/budget.csv"] = (
        "item,q1,q2,q3,q4\nrent,1200,1200,1200,1250\npayroll,8400,8400,8650,8650\nsoftware,310,290,335,340\ntravel,980,1420,760,1100\n"
    )
    world["metadata"]["actor_session"]["actions"] = [
        "application.v1",
        "keyboard.v1",
        "pointer.v1",
        "filesystem.v1",
        "terminal.v1",
    ]
    world["metadata"]["actor_session"]["observations"] = [
        "semantic.v1",
        "pixels.v1",
        "filesystem.v1",
        "terminal.v1",
    ]
    return world


def main() -> None:
    out = ROOT / "worlds" / "ubuntu-apps" / "world.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(build(), indent=2, ensure_ascii=False) + "\n")
    print(out)


if __name__ == "__main__":
    main()
