"""Screenshot one application on the ``ubuntu-apps`` world, for its page in docs/apps/.

    python scripts/app_screenshot.py calculator
    python scripts/app_screenshot.py photos --argument /home/ada/Pictures/beach.png
    python scripts/app_screenshot.py spreadsheet --argument /home/ada/Documents/budget.csv --then steps.json

Launches the application (maximized unless ``--windowed``), runs the optional actions (a
JSON list of ``{"family", "op", "payload"}``; ``"{window}"`` in a payload string is the
launched window's id), and writes a 1280x800 PNG (default ``docs/images/apps/<id>.png``).
The picture is a pure function of the engine, the world and the actions.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cwgym import World  # noqa: E402
from cwgym.render import to_png  # noqa: E402
from cwgym.resources import load_world  # noqa: E402

M = "workstation"


def _act(env, family: str, op: str, payload: dict) -> dict:
    outcome = env.step([{"family": family, "op": op, "machine": M, "payload": payload}])[
        "outcomes"
    ][0]
    if not outcome["success"]:
        raise SystemExit(f"{family} {op} {payload} failed: {outcome['error']}")
    return outcome


def _fill(value, window: int):
    if isinstance(value, str):
        return value.replace("{window}", str(window))
    if isinstance(value, dict):
        return {k: _fill(v, window) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, window) for v in value]
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("app")
    parser.add_argument(
        "--argument", default=None, help="what the application is launched with (a path)"
    )
    parser.add_argument(
        "--then", type=Path, default=None, help="a JSON file of actions to run after launching"
    )
    parser.add_argument(
        "--windowed", action="store_true", help="leave the window at its default size"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    world = World(load_world("ubuntu-apps"), seed=0)
    env = world.environment(
        {
            "actor": "ada",
            "machines": [M],
            "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
            "observations": ["semantic.v1", "pixels.v1"],
        }
    )
    payload = {"kind": args.app} | ({"argument": args.argument} if args.argument else {})
    window = _act(env, "application.v1", "launch", payload)["value"]["window"]
    if not args.windowed:
        _act(env, "application.v1", "maximize", {})
    for step in json.loads(args.then.read_text()) if args.then else []:
        _act(env, step["family"], step["op"], _fill(step.get("payload", {}), window))
    frame = env.render(1280, 800)
    out = args.out or ROOT / "docs" / "images" / "apps" / f"{args.app}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(to_png(frame["rgba"], 1280, 800))
    print(out)


if __name__ == "__main__":
    main()
