"""A language-model agent: any ``complete(prompt) -> str`` turned into a cwgym agent.

The agent writes one prompt per step (:class:`PromptBuilder`): the task, how to act, what
the screen or the terminal shows now, and the last actions with how the env took them.
It reads one JSON action out of the model's reply (:func:`parse_action`); when a reply
holds none, it asks again with the parser's message, up to ``retries`` times, and then
sends the reply as it is (the env refuses it as ``malformed_action``, and the next prompt
says so). It keeps no state but a short history, so one instance plays one episode at a
time and ``reset`` starts the next.

It works with the ``llm`` preset (``gym.make(id, preset="llm")``: the accessibility tree
as text with element ids, JSON-text actions where ``{"click": k}`` and
``{"fill": k, "text": ...}`` name elements), with any env whose observations are text,
and behind ``cwgym eval`` (it has the ``reset``/``act`` methods the evaluator calls).
No network is involved: ``complete`` is whatever callable you pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ActionParseError", "EpisodeResult", "LLMAgent", "PromptBuilder", "parse_action", "run_episode"]

SCREEN_HELP = """\
Act on the screen with one JSON action per reply:
- {"click": K} or {"double_click": K}: click element [K] of the screen description
- {"fill": K, "text": "..."}: click element [K], select all, type the text
- {"family": "pointer.v1", "op": "click", "payload": {"x": X, "y": Y}}: click a point
  (ops: click, double_click, down, move, up, wheel with "delta_y"; "button": 2 is the right button)
- {"family": "keyboard.v1", "op": "type", "payload": {"text": "..."}}: type into the focused field
- {"family": "keyboard.v1", "op": "key", "payload": {"key": "Enter"}}: a key or chord (Ctrl+s, Alt+F4, Tab, ...)
- a list of these, sent in order, or {"done": true} when the task is complete."""

TERMINAL_HELP = """\
Act in the terminal with one JSON action per reply:
- {"family": "terminal.v1", "op": "execute", "payload": {"command": "..."}}: run a shell command
- {"done": true} when the task is complete."""

REPLY_FORMAT = "Reply with your reasoning, if any, then exactly one action in a ```json code block."


class ActionParseError(ValueError):
    """A reply that holds no JSON action; the message says what was found instead."""


_FENCE = re.compile(r"```(?:json)?\s*\n?(.*?)```", re.S | re.I)


def parse_action(reply: str) -> str:
    """The action in ``reply`` as compact JSON text.

    The first fenced code block that parses as a JSON object or list wins; without one,
    the first ``{...}`` or ``[...]`` in the text that does.

    Raises:
        ActionParseError: no such JSON in the reply (the message quotes what failed).
    """
    if not isinstance(reply, str) or not reply.strip():
        raise ActionParseError("the reply is empty; answer with one JSON action in a ```json block")
    problems = []
    for block in _FENCE.findall(reply):
        try:
            return _action(json.loads(block))
        except (ValueError, ActionParseError) as exc:
            problems.append(f"the code block {block.strip()[:60]!r} is not a JSON action ({exc})")
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", reply):
        try:
            value, _ = decoder.raw_decode(reply, match.start())
            return _action(value)
        except (ValueError, ActionParseError):
            continue
    if problems:
        raise ActionParseError("; ".join(problems))
    raise ActionParseError(f"no JSON object or list in the reply (it begins {reply.strip()[:60]!r})")


def _action(value: Any) -> str:
    if isinstance(value, dict) or (isinstance(value, list) and value and all(isinstance(v, dict) for v in value)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    raise ActionParseError(f"an action is a JSON object or a list of objects, not {type(value).__name__}")


@dataclass
class Turn:
    """One past step as the prompt retells it."""

    action: str
    outcome: str


@dataclass
class PromptBuilder:
    """The prompt of one step: task, how to act, the observation, the recent history."""

    instruction: str
    mode: str = "screen"  # "screen" or "terminal": which actions the prompt explains
    max_steps: int | None = None
    history: int = 4

    def build(self, observation: dict[str, Any], turns: list[Turn], step: int, problem: str | None = None) -> str:
        parts = ["You are operating a computer to complete a task.", f"Task: {self.instruction}", ""]
        parts.append(TERMINAL_HELP if self.mode == "terminal" else SCREEN_HELP)
        parts.append("")
        for key, title in (("a11y", "The screen (elements numbered [K])"), ("terminal", "The terminal's last output")):
            text = observation.get(key)
            if isinstance(text, str):
                parts += [f"{title}:", text or "(nothing yet)", ""]
        if turns:
            parts.append("Your last actions and what happened:")
            parts += [f"- {t.action} -> {t.outcome}" for t in turns[-self.history:]]
            parts.append("")
        limit = f" of {self.max_steps}" if self.max_steps else ""
        parts.append(f"This is step {step + 1}{limit}.")
        if problem:
            parts.append(f"Your previous reply could not be used: {problem}")
        parts.append(REPLY_FORMAT)
        return "\n".join(parts)


def describe_outcome(info: dict[str, Any]) -> str:
    """How the env took the last action, in a few words (from ``info["outcome"]``)."""
    outcome = info.get("outcome") or {}
    status = outcome.get("status", "unknown")
    if status == "refused":
        return f"refused ({outcome.get('reason')})"
    text = status + (f" ({', '.join(outcome['errors'])})" if outcome.get("errors") else "")
    values = [o.get("value") for o in info.get("outcomes") or () if isinstance(o.get("value"), dict)]
    exits = [v["exit_code"] for v in values if "exit_code" in v]
    return text + (f", exit status {exits[-1]}" if exits else "")


class LLMAgent:
    """A cwgym agent that asks ``complete(prompt) -> str`` for every action.

    Args:
        complete: the model: a prompt in, a reply out.
        mode: ``"screen"`` or ``"terminal"``: which actions the prompt explains; ``None``
            picks ``terminal`` for observations with a ``terminal`` entry and no ``a11y``.
        retries: how many times a reply without a JSON action is asked again.
        history: how many past steps each prompt retells.
    """

    def __init__(self, complete: Callable[[str], str], mode: str | None = None, retries: int = 2, history: int = 4) -> None:
        if mode not in (None, "screen", "terminal"):
            raise ValueError(f"mode must be 'screen', 'terminal' or None, got {mode!r}")
        self.complete = complete
        self.mode = mode
        self.retries = retries
        self.history = history
        self.builder: PromptBuilder | None = None
        self.turns: list[Turn] = []
        self.transcript: list[dict[str, str]] = []
        self.steps = 0
        self.pending: str | None = None

    def reset(self, task: dict[str, Any], observation: dict[str, Any], info: dict[str, Any]) -> None:
        """Start an episode: ``task`` has the ``instruction`` (else ``info`` does)."""
        instruction = task.get("instruction") or info.get("instruction") or ""
        mode = self.mode or ("terminal" if "terminal" in observation and "a11y" not in observation else "screen")
        self.builder = PromptBuilder(instruction, mode, task.get("max_episode_steps"), self.history)
        self.turns, self.transcript, self.steps, self.pending = [], [], 0, None

    def act(self, observation: dict[str, Any], reward: float, info: dict[str, Any]) -> str:
        """The next action, as JSON text; ``info`` is the last step's (the reset's at first)."""
        if self.builder is None:
            raise RuntimeError("call reset before act")
        if self.pending is not None:
            self.turns.append(Turn(self.pending, describe_outcome(info)))
        problem = None
        for _ in range(self.retries + 1):
            prompt = self.builder.build(observation, self.turns, self.steps, problem)
            reply = self.complete(prompt)
            self.transcript.append({"prompt": prompt, "reply": reply})
            try:
                action = parse_action(reply)
                break
            except ActionParseError as exc:
                problem = str(exc)
        else:
            action = reply if isinstance(reply, str) else ""  # the env refuses it, and the next prompt says so
        self.pending = action
        self.steps += 1
        return action


@dataclass
class EpisodeResult:
    """One episode of :func:`run_episode`."""

    steps: int
    reward: float
    passed: bool
    transcript: list[dict[str, str]] = field(default_factory=list)


def run_episode(env: Any, agent: LLMAgent, seed: int | None = None) -> EpisodeResult:
    """Play one episode of ``env`` (a ``gym.make`` env) with ``agent``."""
    observation, info = env.reset(seed=seed)
    task = {"instruction": info.get("instruction", ""),
            "max_episode_steps": env.spec.max_episode_steps if getattr(env, "spec", None) else None}
    agent.reset(task, observation, info)
    total, reward, steps = 0.0, 0.0, 0
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, reward, info))
        total += float(reward)
        steps += 1
        if terminated or truncated:
            passed = bool((info.get("verification") or {}).get("passed"))
            return EpisodeResult(steps, total, passed, list(agent.transcript))
