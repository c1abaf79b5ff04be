"""The determinism corpus: fixed episodes whose state hashes, scene digests, observations
and frames are recorded in ``corpus.json``.

Refactors must leave every value identical; a deliberate behaviour change regenerates the
file (``python tests/determinism/corpus.py --write``) and says why in its commit. Each
episode is a pure function of (engine, definition, seed, actions), so the values are the
same in any process.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import cwgym.rl  # noqa: F401  (registers the envs)
from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world
from cwgym.rl.expert import expert_rollout
from cwgym.rl.specs import env_ids

GOLDEN = Path(__file__).with_name("corpus.json")

#: every registered env is played by its expert on this instance
EXPERT_SEED = 5
#: the frames the scripted sessions render (small: the golden-frame tests cover full size)
FRAME = (320, 200)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def observation_digest(observation: Any) -> str:
    """A digest of a Gymnasium observation: arrays by dtype, shape and bytes; text as UTF-8."""
    h = hashlib.sha256()

    def feed(value: Any) -> None:
        if isinstance(value, dict):
            for key in sorted(value):
                h.update(f"<{key}>".encode())
                feed(value[key])
        elif isinstance(value, (tuple, list)):
            for item in value:
                feed(item)
        elif isinstance(value, np.ndarray):
            h.update(f"{value.dtype}{value.shape}".encode())
            h.update(np.ascontiguousarray(value).tobytes())
        else:
            h.update(repr(value).encode())

    feed(observation)
    return h.hexdigest()[:24]


def _world_of(env: gym.Env) -> World:
    return env.unwrapped.episode.world


def expert_episode(env_id: str) -> dict[str, Any]:
    env = gym.make(env_id)
    transitions = expert_rollout(env, EXPERT_SEED)
    out = {
        "steps": [
            [observation_digest(t.observation), round(float(t.reward), 9), bool(t.terminated), bool(t.truncated)]
            for t in transitions
        ],
        "state_hash": _world_of(env).state_hash(),
    }
    env.close()
    return out


def _act(family: str, op: str, machine: str, **payload: Any) -> dict:
    return {"family": family, "op": op, "machine": machine, "payload": payload}


def _outcome(outcome: dict) -> dict:
    """An outcome without ``effect.state`` (its digest covers what the actor may observe,
    which the boundary work is allowed to narrow)."""
    out = dict(outcome)
    if out.get("effect"):
        out["effect"] = {k: v for k, v in out["effect"].items() if k != "state"}
    return out


def _digest(value: Any) -> str:
    return _sha(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())


def desktop_session() -> dict[str, Any]:
    """A person at the workstation: terminal, files and editor through keyboard and pointer,
    with a snapshot, a fork and an export round trip on the way."""
    m = "workstation"
    world = World(load_world("ubuntu-workstation"), seed=11)
    env = world.environment(EnvironmentConfig.desktop("ada", [m]))
    shell = world.environment(EnvironmentConfig.terminal("ada", [m]))
    script = [
        [_act("application.v1", "launch", m, kind="terminal")],
        [_act("keyboard.v1", "type", m, text="mkdir -p work && printf 'b\\na\\n' | sort > work/x.txt && ls -l work\n")],
        [_act("application.v1", "launch", m, kind="files")],
        [_act("pointer.v1", "click", m, x=400, y=300)],
        [_act("keyboard.v1", "key", m, key="ctrl+l"), _act("keyboard.v1", "type", m, text="/home/ada/work\n")],
        [_act("application.v1", "launch", m, kind="editor", argument="/home/ada/work/x.txt")],
        [_act("keyboard.v1", "key", m, key="End"), _act("keyboard.v1", "type", m, text="\nc")],
        [_act("keyboard.v1", "key", m, key="ctrl+s")],
        [_act("pointer.v1", "down", m, x=600, y=120), _act("pointer.v1", "move", m, x=500, y=200),
         _act("pointer.v1", "up", m, x=500, y=200)],
        [_act("keyboard.v1", "key", m, key="Meta")],
        [_act("keyboard.v1", "type", m, text="term")],
        [_act("keyboard.v1", "key", m, key="Escape")],
        [_act("pointer.v1", "wheel", m, x=640, y=400, delta_y=120)],
    ]
    steps = []
    snap = None
    for index, batch in enumerate(script):
        out = env.step(batch)
        scene = env.scene(*FRAME)
        frame = env.render(*FRAME)["rgba"]
        steps.append({
            "outcomes": _digest([_outcome(o) for o in out["outcomes"]]),
            "observation": _digest(out["observation"]),
            "scene": scene["digest"],
            "frame": _sha(bytes(frame)),
            "state_hash": world.state_hash(),
        })
        if index == 5:
            snap = world.snapshot()
    commands = ["cat work/x.txt", "date", "ls -la /home/ada | head -5", "find work -type f | sort",
                "awk '{print NR\": \"$0}' work/x.txt", "sed -n 2p work/x.txt; echo $?"]
    terminal = [_digest(_outcome(shell.step([_act("terminal.v1", "execute", m, command=c)])["outcomes"][0]))
                for c in commands]
    fork = world.fork(snap)
    exported = World(load_world("ubuntu-workstation"), seed=11)
    exported.import_snapshot(world.export_snapshot())
    return {
        "steps": steps,
        "terminal": terminal,
        "state_hash": world.state_hash(),
        "fork_state_hash": fork.state_hash(),
        "fork_scene": fork.session(env.id).scene(*FRAME)["digest"],
        "imported_state_hash": exported.state_hash(),
    }


def office_session() -> dict[str, Any]:
    """Several machines of the small office: shells on each, a topology edit, a restore."""
    definition = load_world("small-office")
    world = World(definition, seed=3)
    machines = [c["id"] for c in definition["computers"]]
    env = world.environment(EnvironmentConfig.terminal("ops", machines))
    rows = []
    for m in machines:
        for command in ("hostname; whoami; pwd", "echo $((6*7)) > answer && cat answer", "ls -l | wc -l"):
            out = env.step([_act("terminal.v1", "execute", m, command=command)])
            rows.append([_digest(_outcome(out["outcomes"][0])), world.state_hash()])
    before = world.snapshot()
    extra = dict(definition["computers"][0])
    extra.update(id="temp-laptop", address="10.20.0.250")
    world.add_computer(extra, {"id": "temp-laptop", "address": "10.20.0.250"},
                       [{"from": "temp-laptop", "to": "fileserver", "latency_us": 300}])
    added = world.state_hash()
    world.remove_computer("temp-laptop")
    removed = world.state_hash()
    world.restore(before)
    return {"rows": rows, "added": added, "removed": removed, "restored": world.state_hash()}


def build() -> dict[str, Any]:
    return {
        "experts": {env_id: expert_episode(env_id) for env_id in sorted(env_ids())},
        "desktop": desktop_session(),
        "office": office_session(),
    }


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/determinism/corpus.py --write")
    GOLDEN.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
