"""Regenerate the screenshots in docs/images/ from the default world.

    python scripts/screenshots.py

Each picture is a pure function of the engine, the world and the actions below, so running
this again after a change shows exactly what the change did to the screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cwgym import World  # noqa: E402
from cwgym.render import to_png  # noqa: E402
from cwgym.resources import load_world  # noqa: E402

M = "workstation"
OUT = ROOT / "docs" / "images"


def _session():
    world = World(load_world("ubuntu-workstation"), seed=0)
    env = world.environment(
        {"actor": "ada", "machines": [M], "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
         "observations": ["semantic.v1", "pixels.v1"]}
    )
    return world, env


def act(env, family: str, op: str, **payload) -> None:
    outcome = env.step([{"family": family, "op": op, "machine": M, "payload": payload}])["outcomes"][0]
    if not outcome["success"]:
        raise SystemExit(f"{family} {op} {payload} failed: {outcome['error']}")


def shoot(env, name: str) -> None:
    frame = env.render(1280, 800)
    (OUT / f"{name}.png").write_bytes(to_png(frame["rgba"], 1280, 800))
    print(OUT / f"{name}.png")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    _, env = _session()
    shoot(env, "desktop-empty")
    act(env, "application.v1", "launcher")
    shoot(env, "desktop-launcher")
    _, env = _session()
    act(env, "application.v1", "launch", kind="files", argument="/home/ada/Documents")
    act(env, "application.v1", "launch", kind="editor", argument="/home/ada/Documents/report.md")
    act(env, "application.v1", "launch", kind="terminal")
    act(env, "keyboard.v1", "type", text="grep -c travel Documents/expenses.csv")
    act(env, "keyboard.v1", "key", key="Enter")
    shoot(env, "desktop-apps")


if __name__ == "__main__":
    main()
