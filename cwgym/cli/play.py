"""``cwgym play``: play a task yourself in a window, and keep the episode as a demonstration.

    cwgym play cwgym/easy-new-folder-v1 --seed 3 --out play/episodes.jsonl

The env runs with the ``screen`` interface (pointer and keyboard envelopes) and its frames
are shown through pygame (``pip install 'cwgym[human]'``). Your input becomes actions:

* a left or right click is ``pointer.v1 click`` (button 0 or 2), a second click within
  0.4 s on the same spot ``double_click``, and a press moved before its release a
  ``down``/``move``/``up`` drag, sent as one step;
* the wheel is ``pointer.v1 wheel`` (the env's ``wheel_delta`` a notch);
* text is ``keyboard.v1 type`` (what one frame's typing produced, in one step); Enter, Tab,
  Escape, Backspace, the arrows, Home, End, Page Up/Down, Delete, Insert, F1-F12 and any
  chord with Ctrl, Alt or Meta are ``keyboard.v1 key``.

The episode ends when the task's verifier passes, at the env's step limit, or when you
close the window. It is then appended to ``--out`` as one ``episodes.jsonl`` line, in the
format of ``cwgym dataset`` with ``"kind": "human"``, and replayed at once in a fresh world
(:func:`cwgym.procedures.replay.replay_episode`): the line records whether the replay
reached the same state and what the verifier says there. The host clock is read only to
tell a double click, outside the simulation; the recorded steps are plain envelopes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import msgspec
import numpy as np

from cwgym.cli.common import UserError, non_negative, require_env

__all__ = ["KEY_NAMES", "Player", "Window", "save"]

DOUBLE_CLICK_MS = 400
DOUBLE_CLICK_PX = 4
DRAG_PX = 3


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", help="play a task in a window and save the episode (needs the human extra)",
                            description="Play a task with mouse and keyboard; the episode is saved as a human "
                                        "demonstration and replayed to check it.")
    parser.add_argument("env", metavar="ID", help="a registered env id, e.g. cwgym/easy-new-folder-v1")
    parser.add_argument("--seed", type=non_negative, default=0, help="the instance seed")
    parser.add_argument("--scale", type=float, default=1.0, help="window pixels per screen pixel")
    parser.add_argument("--out", default="play/episodes.jsonl", metavar="FILE", help="the JSON-lines file the episode is appended to")
    parser.set_defaults(run=run)


class Player:
    """One episode of ``env_id`` played through envelopes, recorded step by step."""

    def __init__(self, env_id: str, seed: int) -> None:
        self.env = gym.make(env_id, render_mode="rgb_array", interface="screen", preset="text")
        self.env_id = env_id
        self.seed = seed
        _, info = self.env.reset(seed=seed)
        core = self.env.unwrapped
        self.episode = core.episode
        self.width, self.height = core.config.viewport
        self.wheel_delta = core.config.wheel_delta
        self.instruction = info["instruction"]
        self.steps: list[dict[str, Any]] = []
        self.done = False
        self.passed = False

    def frame(self) -> np.ndarray:
        """The screen now, ``(height, width, 3)``."""
        return self.env.render()

    def pointer(self, op: str, x: int, y: int, **extra: Any) -> dict[str, Any]:
        payload = {"x": int(x), "y": int(y), "width": self.width, "height": self.height, **extra}
        return {"family": "pointer.v1", "op": op, "payload": payload}

    @staticmethod
    def key(chord: str) -> dict[str, Any]:
        return {"family": "keyboard.v1", "op": "key", "payload": {"key": chord}}

    @staticmethod
    def type(text: str) -> dict[str, Any]:
        return {"family": "keyboard.v1", "op": "type", "payload": {"text": text}}

    def send(self, envelopes: list[dict[str, Any]]) -> None:
        """One env step carrying ``envelopes``, recorded as one step per envelope."""
        if self.done or not envelopes:
            return
        episode = self.episode
        scene = str(episode.world.scene(episode.actor.id, self.width, self.height).digest)
        _, _, terminated, truncated, info = self.env.step(json.dumps(envelopes))
        outcomes = info.get("outcomes") or []
        machine = self.env.unwrapped.machine
        for i, envelope in enumerate(envelopes):
            outcome = outcomes[i] if i < len(outcomes) else {"success": False}
            self.steps.append({
                "index": len(self.steps), "phase": "human", "phase_index": 0, "role": "human", "session": "agent",
                "session_id": episode.actor.id, "kind": "gui", "action": {**envelope, "machine": machine},
                "success": bool(outcome.get("success")), **({"error": outcome["error"]} if outcome.get("error") else {}),
                **({"point": [envelope["payload"]["x"], envelope["payload"]["y"]]} if envelope["family"] == "pointer.v1" else {}),
                "scene": scene,
            })
        self.passed = bool(info["verification"].get("passed"))
        self.done = bool(terminated or truncated)

    def record(self) -> dict[str, Any]:
        """The episode as an ``episodes.jsonl`` line, checked by replaying it."""
        from cwgym.procedures.replay import replay_episode

        core = self.env.unwrapped
        episode = self.episode
        grant = msgspec.to_builtins(episode.blueprint.grant)
        record: dict[str, Any] = {
            "id": f"{episode.blueprint.procedure.id}-s{self.seed}-human",
            "procedure": episode.blueprint.procedure.id, "domain": episode.blueprint.procedure.domain,
            "env": self.env_id, "seed": self.seed, "world": core.world_name, "world_seed": core.config.world_seed,
            "kind": "human", "corruption": None, "instruction": self.instruction, "mode": "gui", "typing": "text",
            "viewport": [self.width, self.height],
            "sessions": [{"id": episode.actor.id, "role": "human", "session": "agent", "config": grant,
                          "machine": core.machine}],
            "steps": self.steps, "completed": self.passed, "failure": None,
            "state_hash": episode.world.state_hash(),
        }
        replayed = replay_episode(record)
        v = replayed.verification
        record["verdict"] = {"passed": v.passed, "score": round(v.score, 4),
                             "failed": [{"kind": c.kind, "subject": c.subject, "reason": c.reason} for c in v.failures()]}
        record["replay_matches"] = replayed.matches
        return record

    def close(self) -> None:
        self.env.close()


#: pygame key constants' names (``pygame.key.name``) -> ``keyboard.v1`` key names.
KEY_NAMES = {
    "return": "Enter", "enter": "Enter", "tab": "Tab", "escape": "Escape", "backspace": "Backspace",
    "delete": "Delete", "insert": "Insert", "home": "Home", "end": "End", "page up": "PageUp",
    "page down": "PageDown", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "space": "Space", **{f"f{n}": f"F{n}" for n in range(1, 13)},
}


class Window:
    """The pygame window a person plays ``player`` in; :meth:`pump` handles one frame."""

    def __init__(self, player: Player, scale: float = 1.0) -> None:
        import pygame

        self.pg = pygame
        self.player = player
        self.scale = scale
        self.pressed: tuple[int, int, int] | None = None  # (button, x, y) of a press in progress
        self.dragged = False
        self.last_click: tuple[int, int, int, int] | None = None  # (button, x, y, ms)
        self.closed = False
        pygame.init()
        size = (max(1, round(player.width * scale)), max(1, round(player.height * scale)))
        self.surface = pygame.display.set_mode(size)
        pygame.display.set_caption(f"cwgym play: {player.instruction}")
        pygame.key.start_text_input()
        self.draw()

    def at(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window position as a screen point of the env's viewport."""
        return int(pos[0] / self.scale), int(pos[1] / self.scale)

    def draw(self) -> None:
        pg = self.pg
        frame = self.player.frame()
        image = pg.surfarray.make_surface(np.ascontiguousarray(frame.swapaxes(0, 1)))
        if self.scale != 1.0:
            image = pg.transform.smoothscale(image, self.surface.get_size())
        self.surface.blit(image, (0, 0))
        pg.display.flip()

    def pump(self) -> bool:
        """Turn the pending input into steps and repaint; False once the episode is over."""
        pg, player = self.pg, self.player
        typed: list[str] = []
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self.closed = True
            elif event.type == pg.TEXTINPUT:
                typed.append(event.text)
            elif event.type == pg.KEYDOWN:
                chord = self.chord(event)
                if chord is not None:
                    self.flush(typed)
                    player.send([player.key(chord)])
            elif event.type == pg.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
                self.flush(typed)
                self.pressed, self.dragged = (event.button, *self.at(event.pos)), False
            elif event.type == pg.MOUSEMOTION and self.pressed is not None:
                x, y = self.at(event.pos)
                self.dragged |= max(abs(x - self.pressed[1]), abs(y - self.pressed[2])) >= DRAG_PX
            elif event.type == pg.MOUSEBUTTONUP and self.pressed is not None and event.button == self.pressed[0]:
                self.release(event)
            elif event.type == pg.MOUSEWHEEL and event.y:
                self.flush(typed)
                x, y = self.at(pg.mouse.get_pos())
                player.send([player.pointer("wheel", x, y, delta_y=-event.y * player.wheel_delta)])
        self.flush(typed)
        if not (self.closed or player.done):
            self.draw()
        return not (self.closed or player.done)

    def flush(self, typed: list[str]) -> None:
        if typed:
            self.player.send([self.player.type("".join(typed))])
            typed.clear()

    def release(self, event: Any) -> None:
        player = self.player
        button, x0, y0 = self.pressed
        self.pressed = None
        extra = {"button": {2: 1, 3: 2}[button]} if button != 1 else {}  # the left button is the default, 0
        x, y = self.at(event.pos)
        if self.dragged:
            player.send([player.pointer("down", x0, y0, **extra), player.pointer("move", x, y), player.pointer("up", x, y)])
            self.last_click = None
            return
        now = self.pg.time.get_ticks()  # host time, outside the simulation: only to tell a double click
        last = self.last_click
        double = (last is not None and last[0] == button and now - last[3] <= DOUBLE_CLICK_MS
                  and max(abs(x - last[1]), abs(y - last[2])) <= DOUBLE_CLICK_PX)
        player.send([player.pointer("double_click" if double else "click", x, y, **extra)])
        self.last_click = None if double else (button, x, y, now)

    def chord(self, event: Any) -> str | None:
        """The ``keyboard.v1`` key a key press is, or None when the text input carries it."""
        pg = self.pg
        name = pg.key.name(event.key)
        mods = [m for flag, m in ((pg.KMOD_CTRL, "Ctrl"), (pg.KMOD_ALT, "Alt"), (pg.KMOD_META | pg.KMOD_GUI, "Meta"))
                if event.mod & flag]
        if name in KEY_NAMES and (name != "space" or mods):
            if event.mod & pg.KMOD_SHIFT:
                mods.append("Shift")
            return "+".join([*mods, KEY_NAMES[name]])
        if mods and len(name) == 1:
            if event.mod & pg.KMOD_SHIFT:
                mods.append("Shift")
            return "+".join([*mods, name])
        return None

    def close(self) -> None:
        self.pg.display.quit()
        self.pg.quit()


def run(args: argparse.Namespace) -> int:
    try:
        import pygame  # noqa: F401
    except ImportError:
        raise UserError("needs pygame for its window: pip install 'cwgym[human]'") from None
    if args.scale <= 0:
        raise UserError(f"--scale must be positive, got {args.scale}")
    import cwgym.rl  # noqa: F401  (registers the ids)

    player = Player(require_env(args.env), args.seed)
    print(f"{args.env} (seed {args.seed}): {player.instruction}", file=sys.stderr)
    window = Window(player, args.scale)
    try:
        while window.pump():
            window.pg.time.wait(15)
    finally:
        window.close()
    record = player.record()
    player.close()
    print(save(record, Path(args.out)))
    return 0


def save(record: dict[str, Any], out: Path) -> str:
    """Append ``record`` to the JSON-lines file ``out``; returns the line to print."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as lines:
        lines.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    verdict = "passed" if record["verdict"]["passed"] else "not passed"
    replay = "matches" if record["replay_matches"] else "DIFFERS"
    return f"{len(record['steps'])} steps, {verdict}; replay {replay}; appended to {out}"
