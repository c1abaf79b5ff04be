"""A hostile test agent: every episode it makes one attack on the evaluator, in :data:`ATTACKS` order.

``CWGYM_HOSTILE_DIR`` is a directory it keeps its notes in: ``counter`` (which attack is
next, since a killed process loses its memory), ``snoop.json`` (what a search of its own
process found) and the marker file a successful unpickling would create.

* ``pickle_frame`` — writes a frame of pickle bytes (whose ``__reduce__`` creates the
  marker) straight onto the channel it finds in its host's stack frame;
* ``pickle_action`` — rebinds its host's ``to_json`` (through the host's frame) so the
  same pickle bytes go out as the action of a well-formed reply;
* ``huge`` — answers with a 2 MiB action, above the reply cap;
* ``snoop`` — walks ``gc.get_objects()``, ``sys.modules`` and every frame of its process
  for a World, an Environment, an env, an episode or the verifier's state, writes what it
  found, then plays honestly;
* ``hang`` — never answers;
* ``raise`` — raises;
* ``exit`` — exits its process;
* ``honest`` — plays uniformly at random.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

ATTACKS = ("pickle_frame", "pickle_action", "huge", "snoop", "hang", "raise", "exit", "honest")
OWNER_TYPES = {"World", "Environment", "Episode", "Blueprint", "ComputerEnv", "Machine", "Session", "Verification", "AgentProcess"}
MARKER = "unpickled-by-the-evaluator"


class Payload:
    """Unpickling this runs ``__reduce__``'s call: it creates the marker file."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


def payload(marker: Path) -> bytes:
    """The pickle bytes the agent sends (the test unpickles them itself to show they work)."""
    return pickle.dumps(Payload(str(marker)))


def _host_frame(name: str) -> Any:
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == name:
            return frame
        frame = frame.f_back
    raise LookupError(f"no {name} frame in the stack")


def _snoop() -> dict[str, Any]:
    found = set()
    for obj in gc.get_objects():
        kind = type(obj)
        if kind.__name__ in OWNER_TYPES and kind.__module__.startswith("cwgym"):
            found.add(f"{kind.__module__}.{kind.__name__}")
    frames = 0
    for top in sys._current_frames().values():
        frame = top
        while frame is not None:
            frames += 1
            for value in frame.f_locals.values():
                kind = type(value)
                if kind.__name__ in OWNER_TYPES and kind.__module__.startswith("cwgym"):
                    found.add(f"frame local {kind.__module__}.{kind.__name__}")
                if isinstance(value, dict) and ("verification" in value or "seed" in value):
                    found.add(f"frame local dict with {sorted(value)[:8]}")
            frame = frame.f_back
    modules = []
    for name, module in list(sys.modules.items()):
        for attr, value in list(vars(module).items()) if module is not None else ():
            kind = type(value)
            if kind.__name__ in OWNER_TYPES and kind.__module__.startswith("cwgym"):
                modules.append(f"{name}.{attr}")
    from cwgym.environment import World

    worlds = sum(isinstance(o, World) for o in gc.get_objects())
    return {"owner_objects": sorted(found), "module_globals": modules, "worlds": worlds, "frames_walked": frames, "objects": len(gc.get_objects())}


class HostileAgent:
    def __init__(self) -> None:
        self.notes = Path(os.environ["CWGYM_HOSTILE_DIR"])
        self.space: Any = None
        self.attack = "honest"

    def _next_attack(self) -> str:
        counter = self.notes / "counter"
        n = int(counter.read_text()) if counter.exists() else 0
        counter.write_text(str(n + 1))
        return ATTACKS[n % len(ATTACKS)]

    def reset(self, task: dict, observation: Any, info: dict) -> None:
        self.space = task["action_space"]
        self.space.seed(0)
        self.attack = self._next_attack()
        if self.attack == "pickle_action":  # before act: the host looks to_json up before calling act
            host = _host_frame("answer").f_globals  # the host module's globals (it runs as __main__)
            original = host["to_json"]
            host["to_json"] = lambda value: (host.__setitem__("to_json", original), value)[1]  # once

    def act(self, observation: Any, reward: float, info: dict) -> Any:
        attack, self.attack = self.attack, "honest"
        if attack == "pickle_frame":
            body = payload(self.notes / MARKER)
            os.write(_host_frame("main").f_locals["out"], len(body).to_bytes(4, "big") + body)
        elif attack == "pickle_action":
            return payload(self.notes / MARKER)
        elif attack == "huge":
            return "x" * (2 << 20)
        elif attack == "snoop":
            (self.notes / "snoop.json").write_text(json.dumps(_snoop()))
        elif attack == "hang":
            time.sleep(3600)
        elif attack == "raise":
            raise RuntimeError("the hostile agent gives up")
        elif attack == "exit":
            os._exit(3)
        return self.space.sample()


def make_agent() -> HostileAgent:
    return HostileAgent()
