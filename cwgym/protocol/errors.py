"""Error codes, the closed reason vocabulary, and the fixed messages an actor may see.

A refusal never carries text composed from world state: the message is picked from the
tables below by reason (or by code when there is no reason), so an error cannot leak a
path, a machine id or another actor's state.
"""

from __future__ import annotations

import msgspec

DENIED = "denied"
NOT_FOUND = "not_found"
INVALID = "invalid"
ACTION_FAILED = "action_failed"

#: The four error classes, each with its own fixed message for errors without a reason.
CODES: dict[str, str] = {
    DENIED: "action is not permitted",
    NOT_FOUND: "requested resource not found",
    INVALID: "invalid action",
    ACTION_FAILED: "action failed",
}

ACTION_FAMILY_NOT_GRANTED = "action_family_not_granted"
MACHINE_NOT_GRANTED = "machine_not_granted"
BROWSER_FAMILY_REQUIRED = "browser_family_required"
APPLICATION_FAMILY_REQUIRED = "application_family_required"
PIXELS_NOT_GRANTED = "pixels_not_granted"
VISUAL_OBSERVATION_NOT_GRANTED = "visual_observation_not_granted"
UNKNOWN_SESSION = "unknown_session"
ACTION_BUDGET_EXCEEDED = "action_budget_exceeded"
APPLICATION_NOT_INSTALLED = "application_not_installed"
UNSUPPORTED_OPERATION = "unsupported_operation"
NO_DESKTOP_SHELL = "no_desktop_shell"
UNKNOWN_SHELL_TARGET = "unknown_shell_target"

#: reason -> (code, fixed message). This is the whole vocabulary.
REASONS: dict[str, tuple[str, str]] = {
    ACTION_FAMILY_NOT_GRANTED: (DENIED, "the session was not granted this action family"),
    MACHINE_NOT_GRANTED: (DENIED, "the session was not granted this machine"),
    BROWSER_FAMILY_REQUIRED: (DENIED, "this action also requires the browser.v1 action family"),
    APPLICATION_FAMILY_REQUIRED: (
        DENIED,
        "this action also requires the application.v1 action family",
    ),
    PIXELS_NOT_GRANTED: (DENIED, "this action requires the pixels.v1 observation channel"),
    VISUAL_OBSERVATION_NOT_GRANTED: (
        DENIED,
        "this requires the semantic.v1 or pixels.v1 observation channel",
    ),
    UNKNOWN_SESSION: (DENIED, "unknown actor session"),
    ACTION_BUDGET_EXCEEDED: (DENIED, "the batch is larger than this session's action budget"),
    APPLICATION_NOT_INSTALLED: (
        NOT_FOUND,
        "this machine does not have that application installed",
    ),
    UNSUPPORTED_OPERATION: (INVALID, "this action family does not support that operation"),
    NO_DESKTOP_SHELL: (INVALID, "this machine has no desktop shell to drive"),
    UNKNOWN_SHELL_TARGET: (INVALID, "no control on this shell answers to that target"),
}


class SimError(msgspec.Struct, frozen=True, omit_defaults=True):
    """The error of a refused or failed action: a code, a fixed message, maybe a reason."""

    code: str
    message: str
    reason: str | None = None

    def to_plain(self) -> dict:
        """The error as the plain dict an outcome carries (``reason`` left out when absent)."""
        out = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def _build_errors() -> tuple[dict[str, SimError], dict[str, SimError]]:
    by_code = {code: SimError(code, message) for code, message in CODES.items()}
    by_reason = {
        reason: SimError(code, message, reason) for reason, (code, message) in REASONS.items()
    }
    return by_code, by_reason


_BY_CODE, _BY_REASON = _build_errors()


def error(code: str) -> SimError:
    """The reason-less error of ``code`` with its fixed message."""
    if code not in _BY_CODE:
        # Internal codes outside the closed set (quota, io, ...) fold into action_failed.
        return _BY_CODE[ACTION_FAILED]
    return _BY_CODE[code]


def refusal(reason: str) -> SimError:
    """The error for ``reason``; its code and message come from the vocabulary table."""
    return _BY_REASON[reason]


class ActionError(Exception):
    """Raised inside a family handler to end one action with a fixed error.

    The engine turns it into the outcome's ``error``; it never crosses the actor boundary
    as an exception.
    """

    def __init__(self, code: str, reason: str | None = None, *, keep: bool = False) -> None:
        self.error = refusal(reason) if reason is not None else error(code)
        #: whether what the action did before failing stands (an ``invalid`` or ``denied``
        #: action is otherwise undone): ``browser.v1`` opens its window even for an op it
        #: does not know, as the reference engine does.
        self.keep = keep
        super().__init__(f"{self.error.code}: {self.error.message}")


class Refused(ValueError):
    """A refusal of a whole call (unknown session, batch over budget, no visual grant).

    Raised before any action runs. ``str()`` is ``"<code>: <message>"``, both fixed.
    """

    def __init__(self, reason: str) -> None:
        self.error = refusal(reason)
        super().__init__(f"{self.error.code}: {self.error.message}")


class ReplayDiverged(RuntimeError):
    """Replay of a journal reached a state hash other than the one recorded at a step."""

    def __init__(self, step: int, expected: str, actual: str) -> None:
        self.step = step
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"replay_diverged: step {step} reached state {actual[:16]}…, recorded {expected[:16]}…"
        )


class TrajectoryError(ValueError):
    """A trajectory given to replay that is not one a world could have written: ``index``
    is the entry, ``problem`` says what is wrong with it."""

    def __init__(self, index: int | None, problem: str) -> None:
        self.index = index
        self.problem = problem
        where = "trajectory" if index is None else f"trajectory[{index}]"
        super().__init__(f"invalid: {where}: {problem}")
