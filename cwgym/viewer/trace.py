"""An episode's trace: what the page shows at each position, as plain JSON.

Position 0 is the screen after reset; position ``k`` is the screen after the ``k``-th
action, shown with that action (its envelopes, outcome, effect tags and reward), the
pointer it used and the control it hit (on the screen it was chosen from), the verifier's
checks after it (those that flipped are marked), the state hash after it and the element
table of the screen. Element tables are stored once per distinct screen (``tables``, by
scene digest) since most actions leave most screens alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cwgym.viewer.screen import element_rows, hit_element, pointer_of

if TYPE_CHECKING:
    from cwgym.scene import Scene
    from cwgym.viewer.frames import FrameWriter

__all__ = ["TraceBuilder", "effect_tags"]


def effect_tags(outcomes: list[dict[str, Any]]) -> list[str]:
    """The effect tags of a step's outcomes (``changed``), in first-seen order."""
    tags: list[str] = []
    for outcome in outcomes:
        effect = outcome.get("effect") if isinstance(outcome, dict) else None
        for tag in (effect or {}).get("changed") or ():
            if tag not in tags:
                tags.append(tag)
    return tags


@dataclass
class TraceBuilder:
    """Collects positions as a replay makes them; :meth:`trace` is the page's JSON."""

    header: dict[str, Any]
    frames: FrameWriter
    width: int
    height: int
    positions: list[dict[str, Any]] = field(default_factory=list)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    divergence: str | None = None
    _scene: Scene | None = None
    _rows: list[dict[str, Any]] = field(default_factory=list)
    _checks: list[bool] | None = None
    _return: float = 0.0

    def diverged(self, text: str) -> None:
        """Record the first divergence (later ones follow from it)."""
        if self.divergence is None:
            self.divergence = text

    def add(self, scene: Scene, state_hash: str, verification: dict[str, Any], *, action: Any = None,
            envelopes: list[dict[str, Any]] | None = None, outcome: dict[str, Any] | None = None,
            outcomes: list[dict[str, Any]] | None = None, reward: float | None = None, **extra: Any) -> dict[str, Any]:
        """Add the position reached: ``scene`` after the action, with what the action was and did."""
        k = len(self.positions)
        envelopes = envelopes or []
        point = pointer_of(envelopes, self.width, self.height)
        hit = hit_element(self._scene, self._rows, point) if self._scene is not None else None
        digest = str(scene.digest)
        if digest not in self.tables:
            self.tables[digest] = element_rows(scene)
        checks = [dict(c) for c in verification.get("checks") or ()]
        before = self._checks
        for index, check in enumerate(checks):
            check["flipped"] = before is not None and index < len(before) and before[index] != bool(check.get("passed"))
        self._checks = [bool(c.get("passed")) for c in checks]
        if reward is not None:
            self._return += reward
        position = {
            "k": k,
            "action": action,
            "envelopes": envelopes,
            "outcome": outcome,
            "outcomes": outcomes or [],
            "effects": effect_tags(outcomes or []),
            "reward": reward,
            "return": round(self._return, 6) if self.header.get("format") == "eval" else None,
            "passed": bool(verification.get("passed")),
            "score": verification.get("score"),
            "checks": checks,
            "hash": state_hash,
            "scene": digest,
            "pointer": point,
            "hit": hit,
            "frame": self.frames.frame(k, scene, self.width, self.height),
            **extra,
        }
        self.positions.append(position)
        self._scene, self._rows = scene, self.tables[digest]
        return position

    def trace(self) -> dict[str, Any]:
        return {
            **self.header,
            "viewport": [self.width, self.height],
            "frames": self.frames.mode,
            "divergence": self.divergence,
            "verified": self.divergence is None,
            "positions": self.positions,
            "tables": self.tables,
        }
