"""``cwgym demo``: build a world, play a short scripted episode as an actor, show what happened.

The episode runs twice, in two independent worlds, to show that a run is a pure function
of its inputs: both end on the same state hash.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cwgym.cli.common import UserError, world_definition
from cwgym.environment import World
from cwgym.protocol import EnvironmentConfig
from cwgym.resources import DEFAULT_WORLD

MACHINE = "workstation"


def episode(machine: str) -> list[dict[str, Any]]:
    """The scripted actions: a little shell work, a file written, one refused action."""

    def sh(command: str) -> dict[str, Any]:
        return {"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}

    return [
        sh("pwd"),
        sh("ls Documents"),
        sh("grep travel Documents/expenses.csv | cut -d, -f3 | paste -sd+"),
        {
            "family": "filesystem.v1",
            "op": "write",
            "machine": machine,
            "payload": {"path": "summary.txt", "content": "travel: 1376.20\n"},
        },
        sh("cat summary.txt && wc -l Documents/*.csv"),
        sh("sleep 2; date"),
        {"family": "terminal.v1", "op": "execute", "machine": "elsewhere", "payload": {"command": "id"}},
    ]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="run a short scripted episode and print it",
                            description="Play a short scripted episode as an actor, replay it in a second world, "
                                        "then click through the desktop as a person would.")
    parser.add_argument("--world", default=DEFAULT_WORLD, help="world name (`cwgym worlds`) or path to a world.json")
    parser.add_argument("--seed", type=int, default=7, help="the world's seed")
    parser.add_argument("--png", metavar="FILE", help="also save the final screen of the desktop part to this PNG")
    parser.set_defaults(run=run)


def desktop_part(definition: dict, seed: int, png: str | None) -> None:
    """A person at the desktop: find the Terminal launcher on screen, click it, type a command."""
    world = World(definition, seed=seed)
    machine = world.definition()["computers"][0]["id"]
    env = world.environment(
        {"actor": "ada", "machines": [machine], "actions": ["application.v1", "keyboard.v1", "pointer.v1"],
         "observations": ["semantic.v1", "pixels.v1", "terminal.v1"]}
    )
    scene = world.scene(env.id, 1280, 800)
    launchers = scene.find("shell:launch:terminal")
    if not launchers:
        print("\n(no desktop on this world's first machine; skipping the desktop part)")
        return
    x, y = scene.reachable_point(launchers[0].id)
    print(f"\ndesktop: the Terminal launcher is at ({x}, {y}) on a 1280x800 screen; clicking it")
    steps = [
        {"family": "pointer.v1", "op": "click", "machine": machine, "payload": {"x": x, "y": y}},
        {"family": "keyboard.v1", "op": "type", "machine": machine, "payload": {"text": "wc -l Documents/*.csv"}},
        {"family": "keyboard.v1", "op": "key", "machine": machine, "payload": {"key": "Enter"}},
    ]
    for action in steps:
        outcome = env.step([action])["outcomes"][0]
        what = action["payload"].get("text") or action["payload"].get("key") or action["op"]
        print(f"  {action['family']:<12} {what!s:<24} effect: {','.join(outcome['effect']['changed']) or '-'}")
    plain = env.scene(1280, 800)
    for buffer in plain.get("buffers", []):
        for line in buffer["lines"][-3:]:
            print(f"  screen| {line}")
    if png:
        from cwgym.render import to_png

        frame = env.render(1280, 800)
        with open(png, "wb") as handle:
            handle.write(to_png(frame["rgba"], 1280, 800))
        print(f"  saved the screen to {png}")


def _describe(action: dict[str, Any], outcome: dict[str, Any]) -> str:
    payload = action.get("payload", {})
    what = payload.get("command") or f"{action['op']} {payload.get('path', '')}".strip()
    head = f"{action['family']:<14} {what}"
    if not outcome["success"]:
        error = outcome["error"]
        return f"{head}\n    refused: {error['code']} / {error.get('reason', '-')}: {error['message']}"
    lines = [head]
    value = outcome["value"]
    if isinstance(value, dict) and "exit_code" in value:
        lines.append(f"    exit {value['exit_code']}")
        for stream in ("stdout", "stderr"):
            for line in value[stream].splitlines()[:6]:
                lines.append(f"    {stream[3:]}| {line}")
    tags = ",".join(outcome["effect"]["changed"]) or "nothing visible"
    lines.append(f"    effect: {tags}")
    return "\n".join(lines)


def play(definition: dict, seed: int, *, verbose: bool) -> str:
    world = World(definition, seed=seed)
    machine = world.definition()["computers"][0]["id"]
    env = world.environment(EnvironmentConfig.terminal("ada", [machine]))
    if verbose:
        print(f"world {definition['id']!r}, seed {seed}, session {env.id} on {machine}")
        print(f"initial state hash {world.state_hash()}\n")
    start = world.snapshot()
    for action in episode(machine):
        result = env.step([action])
        if verbose:
            print(f"[tick {result['tick']:>9} us] {_describe(action, result['outcomes'][0])}")
    final = world.state_hash()
    if verbose:
        branch = world.fork(start)
        print(f"\nfinal state hash   {final}")
        print(f"journal entries    {len(world.trajectory())}")
        print(f"fork of the start  {branch.state_hash()} (unchanged: it never ran the episode)")
    return final


def run(args: argparse.Namespace) -> int:
    if args.png and not Path(args.png).resolve().parent.is_dir():
        raise UserError(f"--png {args.png}: no folder {Path(args.png).parent} to write it in")
    definition = world_definition(args.world)
    first = play(definition, args.seed, verbose=True)
    second = play(definition, args.seed, verbose=False)
    verdict = "identical" if first == second else "DIFFERENT"
    print(f"replayed in a new world: {second} ({verdict})")
    desktop_part(definition, args.seed, args.png)
    return 0 if first == second else 1
