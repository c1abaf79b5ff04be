"""The evaluator's side of the boundary: the agent's process, its replies, its time limit.

:class:`AgentProcess` starts :mod:`~cwgym.leaderboard.agent_host` in a fresh interpreter
(``subprocess``, a new session so the agent and anything it starts can be killed as one
process group, no descriptor inherited but the three standard ones) and exchanges frames
with it over the child's stdin and stdout, read and written without blocking. Each
exchange — the evaluator's message out, the agent's reply back — must finish within the
step timeout; a reply's length is read first and a reply longer than
:data:`~cwgym.leaderboard.wire.MAX_REPLY_BYTES` is refused unread. Every reply is decoded
by :func:`~cwgym.leaderboard.wire.decode_reply` (plain values only, never pickle) and an
action is checked against the action space before the env sees it.

The host clock is read here, and only here, to time the agent: it never reaches the
simulation, whose episodes depend on the actions alone.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cwgym.leaderboard.actions import InvalidAction, checked_action
from cwgym.leaderboard.wire import (
    HEADER,
    MAX_REPLY_BYTES,
    Ack,
    Action,
    Failure,
    Ready,
    decode_reply,
    encode,
    frame,
)

__all__ = ["DEFAULT_STEP_TIMEOUT", "LOAD_TIMEOUT", "AgentFault", "AgentLoadError", "AgentProcess"]

DEFAULT_STEP_TIMEOUT = 60.0  # seconds for one exchange: the observation out, the action back
LOAD_TIMEOUT = 300.0  # seconds to start the interpreter, import the agent and call its factory
MAX_DETAIL = 4000  # characters of an agent's traceback kept in an episode record
MAX_REASON = 300  # characters of a failure's reason (one line)


class AgentFault(Exception):
    """An exchange with the agent failed; the episode ends as a failure with ``reason``.

    ``broken`` says the process cannot be trusted to stay in step (it timed out, sent a
    frame that is not a reply, or exited) and is replaced before the next episode.
    """

    def __init__(self, reason: str, broken: bool, detail: str = "") -> None:
        reason = " ".join(reason.split())
        reason = reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 3] + "..."
        super().__init__(reason)
        self.reason = reason
        self.broken = broken
        self.detail = detail[-MAX_DETAIL:]


class AgentLoadError(RuntimeError):
    """The agent process could not be started, or its agent not loaded."""


def _package_root() -> str:
    import cwgym

    return str(Path(cwgym.__file__).resolve().parent.parent)


class AgentProcess:
    """One agent process, started from ``spec`` (``path/to/agent.py:factory`` or ``module:factory``).

    Args:
        spec: the agent's name, resolved by the child.
        step_timeout: seconds each exchange may take.
        hide: environment variables the child does not inherit (a hidden split's secret).
        launcher: a command the agent's interpreter is started through (an OS sandbox
            such as ``unshare`` or ``bwrap``); its arguments come first.

    Raises:
        AgentLoadError: the agent did not load (missing file, module or factory; the
            factory raised; no ``ready`` within :data:`LOAD_TIMEOUT`).
    """

    def __init__(self, spec: str, step_timeout: float = DEFAULT_STEP_TIMEOUT, hide: tuple[str, ...] = (), launcher: tuple[str, ...] = ()) -> None:
        self.spec = spec
        self.step_timeout = step_timeout
        self.seq = 0
        env = {k: v for k, v in os.environ.items() if k not in hide}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_package_root(), env.get("PYTHONPATH")) if p)
        try:
            self.process = subprocess.Popen(
                [*launcher, sys.executable, "-m", "cwgym.leaderboard.agent_host", spec],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            raise AgentLoadError(f"agent {spec}: cannot start {launcher[0] if launcher else sys.executable} ({exc.strerror})") from None
        self._to_agent = self.process.stdin.fileno()
        self._from_agent = self.process.stdout.fileno()
        os.set_blocking(self._to_agent, False)
        os.set_blocking(self._from_agent, False)
        try:
            reply = self._receive(time.monotonic() + LOAD_TIMEOUT, waiting="to load")
        except AgentFault as fault:
            self.kill()
            raise AgentLoadError(f"agent {spec}: {fault.reason}") from None
        if isinstance(reply, Failure):
            self.kill()
            raise AgentLoadError(f"agent {spec}: {reply.error}")
        if not isinstance(reply, Ready):
            self.kill()
            raise AgentLoadError(f"agent {spec}: sent {type(reply).__name__.lower()} before it was ready")

    # -- frames with a deadline -------------------------------------------------------------
    def _exited(self) -> AgentFault:
        try:
            status = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        return AgentFault(f"the agent process closed the channel (exit status {status})", broken=True)

    def _timeout(self, waiting: str) -> AgentFault:
        seconds = LOAD_TIMEOUT if waiting == "to load" else self.step_timeout
        return AgentFault(f"timeout: the agent took more than {seconds:g} s {waiting}; its process was killed", broken=True)

    def _read(self, size: int, deadline: float, waiting: str) -> bytes:
        parts, got = [], 0
        while got < size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_agent], [], [], left)[0]:
                raise self._timeout(waiting)
            try:
                chunk = os.read(self._from_agent, min(size - got, 1 << 20))
            except BlockingIOError:
                continue
            if not chunk:
                raise self._exited()
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def _send(self, payload: bytes, deadline: float) -> None:
        view = memoryview(frame(payload))
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self._to_agent], [], left)[1]:
                raise self._timeout("to read its observation")
            try:
                view = view[os.write(self._to_agent, view) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._exited() from None

    def _receive(self, deadline: float, waiting: str = "to answer") -> Any:
        (size,) = HEADER.unpack(self._read(HEADER.size, deadline, waiting))
        if size > MAX_REPLY_BYTES:
            raise AgentFault(f"oversized reply: {size} bytes, above the cap of {MAX_REPLY_BYTES} bytes", broken=True)
        body = self._read(size, deadline, waiting)
        try:
            return decode_reply(body)
        except Exception as exc:
            raise AgentFault(f"malformed reply: {exc}", broken=True) from None

    # -- exchanges -------------------------------------------------------------------------
    def exchange(self, message: dict[str, Any]) -> Any:
        """Send ``message`` and return the agent's reply, within the step timeout."""
        deadline = time.monotonic() + self.step_timeout
        self.seq += 1
        self._send(encode({**message, "seq": self.seq}), deadline)
        reply = self._receive(deadline)
        if getattr(reply, "seq", None) != self.seq:
            raise AgentFault(f"protocol: a reply to message {getattr(reply, 'seq', None)} came for message {self.seq}", broken=True)
        if isinstance(reply, Failure):
            raise AgentFault(f"the agent raised in {reply.stage}: {reply.error}", broken=False, detail=reply.traceback)
        return reply

    def act(self, message: dict[str, Any], space: Any) -> tuple[Any, Any]:
        """The agent's action for ``message``: ``(its JSON form, the action to step)``.

        Raises:
            AgentFault: no valid reply, or an action outside ``space``.
        """
        reply = self.exchange(message)
        if not isinstance(reply, Action):
            raise AgentFault(f"protocol: the agent sent {type(reply).__name__.lower()} where an action was due", broken=True)
        try:
            return reply.action, checked_action(space, reply.action)
        except InvalidAction as exc:
            raise AgentFault(f"invalid action: {exc}", broken=False) from None

    def end(self, message: dict[str, Any]) -> None:
        """Tell the agent the episode ended; it acknowledges."""
        reply = self.exchange(message)
        if not isinstance(reply, Ack):
            raise AgentFault(f"protocol: the agent sent {type(reply).__name__.lower()} where an acknowledgement was due", broken=True)

    # -- stopping --------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill the agent's process group at once."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._close_pipes()

    def close(self) -> None:
        """Ask the agent to stop; kill it if it has not within 5 s."""
        try:
            self._send(encode({"type": "close"}), time.monotonic() + 5)
            self.process.wait(timeout=5)
        except (AgentFault, subprocess.TimeoutExpired):
            pass
        self.kill()

    def _close_pipes(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
