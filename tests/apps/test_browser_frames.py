"""Browser pages on screen: golden frames of a few real pages, the same scene and state in
processes with different hash seeds, and the page projection agreeing with the scene.

The golden hashes live in ``tests/apps/browser_golden.json``. After an intended change to
how pages are laid out or drawn, rewrite them from the repository root with

    python tests/apps/test_browser_frames.py --update

and look at the frames it writes beside the file list before committing. Pixels depend on
the skia build, so the hashes are checked only with the skia-python version that wrote them.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import skia

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "browser_golden.json"
ROOT = HERE.parents[1]
M = "maya-ws"
#: name -> what the window shows
PAGES = {
    "wiki-on-call": "http://wiki.northwind.internal/wiki/On-call",
    "chat-login": "http://chat.northwind.internal/login",
    "search-results": "csv export",
    "unreachable": "http://nowhere.northwind.internal/",
}
VIEWPORTS = ((1280, 800), (84, 84))


def _env(address: str):
    from cwgym import EnvironmentConfig, World
    from cwgym.resources import load_world

    world = World(load_world("company"))
    config = EnvironmentConfig.desktop("maya", [M]).to_plain()
    config["actions"] = sorted({*config["actions"], "browser.v1"})
    config["observations"] = sorted({*config["observations"], "browser.v1"})
    env = world.environment(config)
    out = env.step([{"family": "browser.v1", "op": "navigate", "machine": M, "payload": {"url": address}}])
    assert out["outcomes"][0]["success"], out
    return world, env


def _png(env, width: int, height: int) -> bytes:
    frame = env.render(width, height)
    return bytes(frame["rgba"])


def frames() -> dict[str, dict[str, str]]:
    out = {}
    for name, address in sorted(PAGES.items()):
        _, env = _env(address)
        out[name] = {f"{w}x{h}": hashlib.sha256(_png(env, w, h)).hexdigest() for w, h in VIEWPORTS}
    return out


def fingerprint() -> dict:
    """What must not depend on the process: scene digests, state hash, frame hashes."""
    out = {}
    for name, address in sorted(PAGES.items()):
        world, env = _env(address)
        out[name] = {"scene": env.scene(1280, 800)["digest"], "state": world.state_hash(),
                     "frame": hashlib.sha256(_png(env, 320, 200)).hexdigest()}
    return out


def test_golden_frames_of_real_pages():
    golden = json.loads(GOLDEN.read_text())
    if skia.__version__ != golden["skia"]:
        pytest.skip(f"golden hashes were written with skia-python {golden['skia']}, this is {skia.__version__}")
    assert sorted(golden["frames"]) == sorted(PAGES)
    got = frames()
    changed = [f"{n} {v}" for n in sorted(PAGES) for v in got[n] if got[n][v] != golden["frames"][n][v]]
    assert not changed, f"frames changed: {changed}; if intended, run python tests/apps/test_browser_frames.py --update"


def test_pages_lay_out_the_same_in_processes_with_other_hash_seeds():
    here = fingerprint()
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, str(Path(__file__)), "--fingerprint"], capture_output=True, text=True,
                             env=env, cwd=ROOT, check=True, timeout=300)
        assert json.loads(out.stdout) == here, f"PYTHONHASHSEED={seed} gave another layout"


def _walk(elements):
    for e in elements:
        yield e
        yield from _walk(e.get("children", []))
        yield from _walk(e.get("items", []))
        for row in e.get("rows", []):
            if isinstance(row, list):
                yield from _walk(row)


ROLES = {"link": "link", "button": "button", "input": "textbox", "textarea": "textbox", "select": "combobox",
         "checkbox": "checkbox", "radio": "radio", "heading": "heading"}


def test_the_page_projection_and_the_scene_agree():
    """Every control and heading of the chat login page (all on screen) is in semantic.v1
    under its element id, with its role and label, and nothing else of the page is."""
    _, env = _env(PAGES["chat-login"])
    page = env.observe()["channels"]["browser.v1"][M]["page"]
    semantic = {e["id"].split(":content:el:")[1]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]
                if ":content:el:" in e["id"]}
    wanted = {e["id"]: e for e in _walk(page["elements"]) if e["kind"] in ROLES and not (e["kind"] == "input" and e.get("type") == "hidden")}
    for element_id, element in wanted.items():
        assert element_id in semantic, f"{element_id} is not on screen"
        assert semantic[element_id]["role"] == ROLES[element["kind"]], element_id
        name = element.get("label") or element.get("text") or element.get("name")
        assert semantic[element_id]["label"] == name, element_id
    projected = {e["id"] for e in _walk(page["elements"])}
    assert set(semantic) <= projected


if __name__ == "__main__":
    if "--fingerprint" in sys.argv:
        print(json.dumps(fingerprint(), sort_keys=True))
    elif "--update" in sys.argv:
        GOLDEN.write_text(json.dumps({"skia": skia.__version__, "frames": frames()}, indent=2, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
