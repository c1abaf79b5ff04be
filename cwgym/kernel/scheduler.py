"""Work due at a logical time, ordered by (due time, phase, insertion).

Tasks are data (a kind and a payload), never closures, so the queue snapshots, exports and
hashes like any other state. Handlers are looked up by kind when the task runs.
"""

from __future__ import annotations

import heapq
from typing import Any

import msgspec


class Task(msgspec.Struct, frozen=True, order=True):
    due_us: int
    phase: int
    seq: int
    kind: str = msgspec.field(default="")
    payload: Any = None


class Scheduler:
    __slots__ = ("next_seq", "queue")

    def __init__(self, queue: tuple[Task, ...] = (), next_seq: int = 0) -> None:
        self.queue: list[Task] = list(queue)
        heapq.heapify(self.queue)
        self.next_seq = next_seq

    def schedule(self, due_us: int, kind: str, payload: Any = None, phase: int = 0) -> Task:
        task = Task(due_us, phase, self.next_seq, kind, payload)
        self.next_seq += 1
        heapq.heappush(self.queue, task)
        return task

    def pop_due(self, now_us: int) -> Task | None:
        """The earliest task due at or before ``now_us``, removed from the queue."""
        if self.queue and self.queue[0].due_us <= now_us:
            return heapq.heappop(self.queue)
        return None

    def next_due(self) -> int | None:
        return self.queue[0].due_us if self.queue else None

    def __len__(self) -> int:
        return len(self.queue)

    def frozen(self) -> tuple[tuple[Task, ...], int]:
        return tuple(sorted(self.queue)), self.next_seq
