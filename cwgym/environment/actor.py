"""``Environment``: the actor's restricted handle on one session.

It has exactly five public attributes (``id``, ``step``, ``observe``, ``scene``,
``render``): no snapshot, inspection, hash or trajectory. What it returns is the caller's
own copy: mutating an outcome, an observation or a scene changes nothing in the world. The split keeps graders honest
(the agent cannot read what the evaluator reads) and prevents accidental leaks; it is
not a sandbox against hostile code in the same process — leaderboard agents run in
their own process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cwgym.environment.runtime import Runtime


class Environment:
    """An actor session: only its machines, action families and observation channels."""

    __slots__ = ("_id", "_runtime")

    def __init__(self, runtime: Runtime, session_id: str) -> None:
        self._runtime = runtime
        self._id = session_id

    @property
    def id(self) -> str:
        """The session id (``session-0``, ``session-1``, ...)."""
        return self._id

    def step(self, actions: list[dict]) -> dict[str, Any]:
        """Run a batch of action envelopes in order (not atomically).

        Returns ``{"observation", "outcomes", "tick", "pending"}``. A batch over the
        session's budget, or an unknown session, raises ``ValueError`` before anything runs.
        """
        runtime = self._runtime
        outcomes = runtime.step(self._id, actions)
        session = runtime.sessions.get(self._id)
        now = runtime.clock.now_us
        observation = runtime.observe(session) if session is not None else {"tick": now, "channels": {}}
        return {
            "observation": observation,  # the runtime's observe hands out values the caller owns
            # to_plain builds every dict and list afresh but ``value``, which the runtime
            # made the caller's own when the action ran (see Runtime.step)
            "outcomes": [o.to_plain() for o in outcomes],
            "tick": now,
            "pending": len(runtime.scheduler),
        }

    def observe(self) -> dict[str, Any]:
        """The granted channels now, without acting (never rasterizes)."""
        return self._runtime.observe(self._runtime.session(self._id))

    def scene(self, width: int = 1024, height: int = 768) -> dict[str, Any]:
        """The retained scene at this viewport, as plain data; needs semantic.v1 or pixels.v1."""
        # Scene.to_plain builds every dict and list afresh: the caller owns them without a copy.
        return self._runtime.visual(self._id, width, height, "scene")

    def render(self, width: int = 1024, height: int = 768) -> dict[str, Any]:
        """The frame ``{"width", "height", "rgba"}``; needs semantic.v1 or pixels.v1."""
        return self._runtime.visual(self._id, width, height, "render")

    def __repr__(self) -> str:
        return f"<Environment {self._id}>"
