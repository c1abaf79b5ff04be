"""``cwgym play`` headless (SDL's dummy video driver): a person's clicks, typing and keys
become envelopes, the episode is saved in the dataset format, and its replay verifies."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

pygame = pytest.importorskip("pygame", reason="pygame is not installed (the human extra)")

from cwgym.cli import main  # noqa: E402
from cwgym.cli.play import Player, Window, save  # noqa: E402
from cwgym.procedures.replay import replay_episode  # noqa: E402
from cwgym.rl.expert import expert_demonstration  # noqa: E402

ENV = "cwgym/easy-new-folder-v1"
PYGAME_KEYS = {"Enter": pygame.K_RETURN, "Escape": pygame.K_ESCAPE, "Tab": pygame.K_TAB}


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def _events_of(action: dict) -> list:
    """What a person does to send ``action``: the pygame events of that gesture."""
    payload = action["payload"]
    if action["family"] == "pointer.v1":
        press = [pygame.event.Event(kind, button=1, pos=(payload["x"], payload["y"]))
                 for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)]
        return press * (2 if action["op"] == "double_click" else 1)
    if action["op"] == "type":
        return [pygame.event.Event(pygame.TEXTINPUT, text=payload["text"])]
    return [pygame.event.Event(pygame.KEYDOWN, key=PYGAME_KEYS[payload["key"]], mod=0, unicode="", scancode=0)]


def test_playing_the_experts_gestures_solves_the_task_and_the_recording_replays(tmp_path):
    gestures = [step.action for step in expert_demonstration(gym.make(ENV, interface="screen", preset="text"), 3).steps]
    player = Player(ENV, 3)
    window = Window(player)
    try:
        for action in gestures:
            for event in _events_of(action):
                pygame.event.post(event)
            running = window.pump()
    finally:
        window.close()
    assert not running and player.done and player.passed
    assert [s["action"] for s in player.steps] == gestures
    record = player.record()
    assert record["kind"] == "human" and record["verdict"]["passed"] and record["replay_matches"]
    line = save(record, tmp_path / "play" / "episodes.jsonl")
    assert line.startswith(f"{len(gestures)} steps, passed; replay matches")
    saved = json.loads((tmp_path / "play" / "episodes.jsonl").read_text())
    assert replay_episode(saved).verified


def test_a_drag_is_one_step_and_chords_keep_their_modifiers():
    player = Player(ENV, 0)
    window = Window(player)
    try:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(600, 10)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(640, 60), rel=(40, 50), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(640, 60)))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_LCTRL, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
        window.pump()
    finally:
        window.close()
        player.close()
    ops = [(s["action"]["family"], s["action"]["op"]) for s in player.steps]
    assert ops[:4] == [("pointer.v1", "down"), ("pointer.v1", "move"), ("pointer.v1", "up"), ("keyboard.v1", "key")]
    assert player.steps[3]["action"]["payload"] == {"key": "Ctrl+a"}
    assert ops[4] == ("pointer.v1", "wheel") and player.steps[4]["action"]["payload"]["delta_y"] < 0


def test_play_refuses_an_unknown_id_and_a_bad_scale_in_one_line(capsys):
    assert main(["play", "cwgym/no-such-task-v0"]) == 2
    assert main(["play", ENV, "--scale", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "no-such-task" in err[0] and "--scale" in err[1]
