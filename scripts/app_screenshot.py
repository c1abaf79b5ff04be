"""Screenshot one application, for its page in docs/apps/.

    python scripts/app_screenshot.py calculator
    python scripts/app_screenshot.py photos --argument /home/ada/Pictures/beach.png
    python scripts/app_screenshot.py spreadsheet --argument /home/ada/Documents/budget.csv --then steps.json
    python scripts/app_screenshot.py mail --world company --machine maya-ws --actor maya \\
        --then '[{"family": "application.v1", "op": "shell", "payload": {"target": "window:{window}:content:message:1"}}]'

Launches the application on a bundled world (``ubuntu-apps`` by default; maximized unless
``--windowed``), runs the optional actions (a JSON list of ``{"family", "op", "payload"}``,
in a file or written out; ``"{window}"`` in a payload string is the launched window's id),
and writes a 1280x800 PNG (default ``docs/images/apps/<id>.png``). The picture is a pure
function of the engine, the world and the actions.
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


def _act(env, machine: str, family: str, op: str, payload: dict) -> dict:
    outcome = env.step([{"family": family, "op": op, "machine": machine, "payload": payload}])["outcomes"][0]
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
    parser.add_argument("--argument", default=None, help="what the application is launched with (a path)")
    parser.add_argument("--then", default=None, help="actions to run after launching: a JSON file, or the JSON list itself")
    parser.add_argument("--windowed", action="store_true", help="leave the window at its default size")
    parser.add_argument("--world", default="ubuntu-apps", help="the bundled world (default ubuntu-apps)")
    parser.add_argument("--machine", default="workstation", help="the machine whose screen is taken")
    parser.add_argument("--actor", default="ada", help="the user acting on it")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    world = World(load_world(args.world), seed=0)
    machine = args.machine
    env = world.environment(
        {
            "actor": args.actor,
            "machines": [machine],
            "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
            "observations": ["semantic.v1", "pixels.v1"],
        }
    )
    payload = {"kind": args.app} | ({"argument": args.argument} if args.argument else {})
    window = _act(env, machine, "application.v1", "launch", payload)["value"]["window"]
    if not args.windowed:
        _act(env, machine, "application.v1", "maximize", {})
    then = args.then or "[]"
    steps = json.loads(then if then.lstrip().startswith("[") else Path(then).read_text())
    for step in steps:
        _act(env, machine, step["family"], step["op"], _fill(step.get("payload", {}), window))
    frame = env.render(1280, 800)
    out = args.out or ROOT / "docs" / "images" / "apps" / f"{args.app}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(to_png(frame["rgba"], 1280, 800))
    print(out)


if __name__ == "__main__":
    main()
