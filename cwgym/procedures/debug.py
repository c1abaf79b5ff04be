"""Looking at a procedure run the way its author needs to: every step with the control it
hit, and on a miss (or a failed check) what the acting session had on screen.

:func:`debug` is what ``cwgym procedure debug`` prints; :func:`format_screen` turns a
:func:`~cwgym.procedures.targets.screen_dump` into text.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import msgspec

from cwgym.procedures.checks import CHECK_KINDS
from cwgym.procedures.demonstration import Demonstration, Step
from cwgym.procedures.targets import screen_dump

if TYPE_CHECKING:
    from cwgym.environment.world import World

#: How much of a typed text or a command a step line shows.
SHOWN = 72


def _clip(text: str, width: int = SHOWN) -> str:
    shown = text if len(text) <= width else text[: width - 1] + "…"
    return repr(shown)


def _shows_values(kind: str) -> bool:
    entry = CHECK_KINDS.get(kind)
    return entry is not None and entry.shows_values


def describe_action(action: dict[str, Any]) -> str:
    """``click (34, 187)``, ``key Ctrl+s``, ``type 'cat notes.txt'``, ``terminal.v1 execute '…'``."""
    family, op, payload = action["family"], action["op"], action.get("payload") or {}
    if family == "pointer.v1":
        button = " button 2" if payload.get("button") == 2 else ""
        if op == "wheel":
            return f"wheel ({payload['x']}, {payload['y']}) by ({payload.get('delta_x', 0)}, {payload.get('delta_y', 0)})"
        return f"{op}{button} ({payload.get('x')}, {payload.get('y')})"
    if family == "keyboard.v1":
        return f"key {payload['key']}" if op == "key" else f"type {_clip(payload.get('text', ''))}"
    if family == "terminal.v1":
        return f"terminal.v1 execute {_clip(payload.get('command', ''))}"
    if family == "filesystem.v1":
        subject = payload.get("path") or f"{payload.get('from')} -> {payload.get('to')}"
        return f"filesystem.v1 {op} {subject}"
    return f"{family} {op}"


def describe_control(target: dict[str, Any] | None) -> str:
    """``button 'Terminal' shell:launch:terminal [shell]``."""
    if not target:
        return ""
    app = f" [{target['app']}]" if target.get("app") else ""
    return f"{target.get('role') or '-'} {target.get('name')!r} {target.get('interaction')}{app}"


def format_step(step: Step) -> str:
    line = f"  {step.index:>4}  {describe_action(step.action)}"
    if step.target:
        line += f"  ->  {describe_control(step.target)}"
    if step.exit_code not in (None, 0):
        line += f"  [exit {step.exit_code}]"
    if not step.success:
        error = step.error or {}
        line += f"  FAILED{' (' + str(error.get('code')) + ')' if error.get('code') else ''}"
    return line


def format_screen(screen: dict[str, Any], *, text: bool = False) -> list[str]:
    """The windows, controls (and with ``text`` the painted text) of a screen dump."""
    out = [f"screen {screen['viewport'][0]}x{screen['viewport'][1]}, focus {screen.get('focus')}"]
    out.append("windows (bottom to top):")
    if not screen["windows"]:
        out.append("  (none)")
    for w in screen["windows"]:
        flags = " focused" if w.get("focused") else ""
        flags += " minimized" if w.get("minimized") else ""
        out.append(f"  window {w['id']} {w['app']} {w['title']!r} at {tuple(w['bounds'])}{flags}")
    out.append("controls:")
    for c in screen["controls"]:
        where = tuple(c["reachable"]) if c.get("reachable") else "unreachable"
        value = f" value={_clip(c['value'], 40)}" if c.get("value") else ""
        disabled = " disabled" if c.get("enabled") is False else ""
        app = f" [{c['app']}]" if c.get("app") else ""
        out.append(f"  {c['role'] or '-':<10} {c['name']!r:<28} {c['interaction']}{app} {tuple(c['bounds'])} click {where}{value}{disabled}")
    if text:
        out.append("painted text:")
        for run in screen.get("text", []):
            window = f"window {run['window']}" if run.get("window") is not None else "shell"
            out.append(f"  {window:<9} {tuple(run['bounds'])} {run['text']!r}")
    return out


def report(demo: Demonstration, *, text: bool = False, world: World | None = None, phases: list[str] | None = None,
           width: int = 1280, height: int = 800) -> list[str]:
    """Every step by phase, the failure with the screen, the captures and the verdict."""
    out: list[str] = []
    labels = phases if phases is not None else list(dict.fromkeys(s.phase for s in demo.steps))
    by_phase: dict[int, list[Step]] = {}
    for step in demo.steps:
        by_phase.setdefault(step.phase_index, []).append(step)
    reached = demo.failure.phase_index if demo.failure is not None else len(labels) - 1
    for index, label in enumerate(labels):
        if index > reached:
            break
        out.append(f"phase {index + 1}/{len(labels)}: {label}")
        steps = by_phase.get(index, [])
        if not steps:
            out.append("        (no actions in this mode)")
        out.extend(format_step(s) for s in steps)
    if demo.captures:
        out.append("captures: " + ", ".join(f"{k}={v!r}" for k, v in demo.captures.items()))
    if demo.failure is not None:
        f = demo.failure
        out.append(f"STOPPED in phase {f.phase_index + 1} ({f.phase}): {f.reason}")
        if f.screen is not None:
            out.append(f"what session {f.session} had on screen:")
            out.extend("  " + line for line in format_screen(f.screen, text=text))
    v = demo.verification
    passed = sum(1 for c in v.checks if c.passed)
    out.append(f"verification: {'passed' if v.passed else 'FAILED'} ({passed}/{len(v.checks)} checks)")
    for c in v.failures():
        out.append(f"  x {c.kind} {c.subject}: {c.reason}")
        if c.expected is not None and _shows_values(c.kind):
            out.append(f"      expected {_clip(str(c.expected), 200)}")
            out.append(f"      found    {_clip(str(c.found), 200)}")
    if not v.passed and demo.failure is None and world is not None:
        session = last_gui_session(demo)
        if session is not None:
            out.append(f"what session {session} has on screen now:")
            screen = screen_dump(world.scene(session, width, height), text=text)
            out.extend("  " + line for line in format_screen(screen, text=text))
    out.append(f"completed: {'yes' if demo.completed else 'no'}; counts: {msgspec.json.encode(demo.counts).decode()}")
    out.append(f"state hash: {demo.state_hash}")
    return out


def last_gui_session(demo: Demonstration) -> str | None:
    """The session that acted last on screen (the failure's when a gesture missed)."""
    if demo.failure is not None and demo.failure.session:
        return demo.failure.session
    for step in reversed(demo.steps):
        if step.kind == "gui":
            return step.session_id
    gui = [s.id for s in demo.sessions if "pointer.v1" in s.config.get("actions", [])]
    return gui[-1] if gui else None


def save_png(world: World, session_id: str, path: str | Path, width: int, height: int) -> None:
    """The session's screen as a PNG file."""
    from cwgym.render import render_scene, to_png

    scene = world.scene(session_id, width, height)
    Path(path).write_bytes(to_png(render_scene(scene), width, height))


def debug(
    procedure: str,
    seed: int,
    *,
    mode: str = "gui",
    upto: int | None = None,
    text: bool = False,
    png: str | None = None,
    width: int = 1280,
    height: int = 800,
    typing: str = "text",
    out: TextIO | None = None,
) -> int:
    """Run one procedure for one seed in a fresh world and print what happened.

    ``upto`` runs only the first ``upto`` phases (numbered from 1 as printed). Returns 0
    when the run completed and verified (or, with ``upto``, completed those phases), 1
    otherwise.
    """
    from cwgym.environment.world import World
    from cwgym.procedures.project import project
    from cwgym.procedures.stage import coerce_procedure, stage
    from cwgym.resources import load_world

    out = out or sys.stdout
    parsed = coerce_procedure(procedure)
    world = World(load_world(parsed.world), seed=0)
    instance = stage(world, parsed, seed)
    labels = [p.label for p in instance.phases]
    if upto is not None:
        if upto < 1:
            raise ValueError("--upto counts phases from 1")
        instance = msgspec.structs.replace(instance, phases=instance.phases[:upto])
        labels = labels[:upto]
    options = {"mode": mode, "width": width, "height": height, "typing": typing}
    demo = project(world, instance, options)
    head = f"{instance.id} seed {seed}: {mode} mode, {width}x{height}, typing {typing}"
    if upto is not None:
        head += f", phases 1..{len(labels)} of {len(parsed.phases)}"
    lines = [head, f"instruction: {instance.instruction}", ""]
    lines += report(demo, text=text, world=world, phases=labels, width=width, height=height)
    if png:
        session = last_gui_session(demo)
        if session is None:
            lines.append(f"no screen to save: {mode} mode acted through no desktop session")
        else:
            save_png(world, session, png, width, height)
            lines.append(f"saved the screen of {session} to {png}")
    print("\n".join(lines), file=out)
    if upto is not None:
        return 0 if demo.completed else 1
    return 0 if demo.completed and demo.verification.passed else 1
