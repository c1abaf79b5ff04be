"""The agent's process: load the agent, then answer the evaluator's messages.

    python -m cwgym.leaderboard.agent_host AGENT

``cwgym eval`` starts this module in a fresh interpreter, in its own working directory,
and talks to it over the process's stdin and stdout (frames of :mod:`~cwgym.leaderboard.wire`).
The host keeps private duplicates of those two descriptors, then points descriptor 0 at
``/dev/null`` and descriptor 1 at stderr, so what the agent prints shows on stderr and
cannot break a frame.

``AGENT`` is ``path/to/agent.py:factory`` (the file is loaded as a module, its directory
put first on ``sys.path`` as for a script) or ``module:factory`` (imported with the working
directory on ``sys.path``). The factory is called with no arguments and returns the agent:
an object with ``reset(task, observation, info)``, ``act(observation, reward, info)`` and,
optionally, ``end(observation, reward, terminated, truncated, info)``. The host builds the
task's spaces from their descriptions (:func:`~cwgym.leaderboard.space_codec.build_space`),
so ``task["action_space"]`` is a Gymnasium space, and sends each action back as JSON data
(:func:`~cwgym.leaderboard.actions.to_json`). An exception of the agent is reported to the
evaluator (which fails that episode) and the host waits for the next message.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from cwgym.leaderboard.actions import to_json
from cwgym.leaderboard.space_codec import build_space
from cwgym.leaderboard.wire import decode_message, encode, read_frame, write_frame

__all__ = ["AgentSpecError", "load_agent", "main", "split_spec"]

MAX_TRACEBACK = 8000


class AgentSpecError(ValueError):
    """An agent cannot be loaded from its ``file.py:factory`` or ``module:factory`` name."""


def split_spec(spec: str) -> tuple[str, str, bool]:
    """``(file or module, factory, is_file)`` of an agent name.

    Raises:
        AgentSpecError: not ``path/to/agent.py:factory`` or ``module:factory``.
    """
    target, sep, factory = spec.rpartition(":")
    if not sep or not target or not factory.isidentifier():
        raise AgentSpecError(f"an agent is named path/to/agent.py:factory or module:factory, got {spec!r}")
    return target, factory, target.endswith(".py") or "/" in target or os.sep in target


def _module_from_file(target: str) -> Any:
    path = Path(target).resolve()
    if not path.is_file():
        raise AgentSpecError(f"no agent file {target}")
    sys.path.insert(0, str(path.parent))
    name = path.stem if path.stem.isidentifier() and path.stem not in sys.modules else "_cwgym_agent"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AgentSpecError(f"{target} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_agent(spec: str) -> Any:
    """The agent ``spec`` names, made by calling its factory with no arguments.

    Raises:
        AgentSpecError: the file, module or factory is missing, or the factory does not
            return an agent. (Exceptions the agent's own code raises pass through.)
    """
    target, factory_name, is_file = split_spec(spec)
    if is_file:
        module = _module_from_file(target)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name is not None and target.startswith(exc.name) and target[len(exc.name) : len(exc.name) + 1] in ("", "."):
                raise AgentSpecError(f"no module {target!r} on the path (run from the directory that holds it, or name its file)") from None
            raise
    factory = getattr(module, factory_name, None)
    if not callable(factory):
        raise AgentSpecError(f"{target} has no factory {factory_name!r}")
    agent = factory()
    missing = [m for m in ("reset", "act") if not callable(getattr(agent, m, None))]
    if missing:
        raise AgentSpecError(f"{spec} returned a {type(agent).__name__}, which has no {' or '.join(missing)} method")
    return agent


def _task(task: dict[str, Any]) -> dict[str, Any]:
    task = dict(task)
    for key in ("action_space", "observation_space"):
        task[key] = build_space(task[key])
    return task


def answer(agent: Any, message: dict[str, Any]) -> dict[str, Any]:
    """The reply to one evaluator message (the agent's exceptions propagate)."""
    kind, seq = message["type"], message["seq"]
    if kind == "reset":
        agent.reset(_task(message["task"]), message["observation"], message["info"])
        return {"type": "action", "seq": seq, "action": to_json(agent.act(message["observation"], 0.0, message["info"]))}
    if kind == "step":
        return {"type": "action", "seq": seq, "action": to_json(agent.act(message["observation"], message["reward"], message["info"]))}
    if kind == "end":
        end = getattr(agent, "end", None)
        if end is not None:
            end(message["observation"], message["reward"], message["terminated"], message["truncated"], message["info"])
        return {"type": "ok", "seq": seq}
    raise ValueError(f"unknown message type {kind!r}")


def _failure(seq: int, stage: str, exc: BaseException) -> dict[str, Any]:
    text = "".join(traceback.format_exception(exc))
    error = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    return {"type": "error", "seq": seq, "stage": stage, "error": error, "traceback": text[-MAX_TRACEBACK:]}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m cwgym.leaderboard.agent_host AGENT (started by cwgym eval)", file=sys.stderr)
        return 2
    inp, out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        agent = load_agent(args[0])
    except Exception as exc:
        write_frame(out, encode(_failure(0, "load", exc)))
        return 1
    write_frame(out, encode({"type": "ready"}))
    while True:
        try:
            message = decode_message(read_frame(inp))
        except EOFError:
            return 0
        if message.get("type") == "close":
            return 0
        try:
            reply = encode(answer(agent, message))
        except Exception as exc:
            reply = encode(_failure(message.get("seq", -1), str(message.get("type")), exc))
        write_frame(out, reply)


if __name__ == "__main__":
    sys.exit(main())
