"""Web task kinds: MiniWoB++-style single-page skills, served by the ``tasks`` service.

A task kind is a small class that draws one seeded task (:meth:`TaskKind.generate`: its
instruction and every value the expert and the verifier need, as plain JSON), lays out its
page in the page model (:meth:`TaskKind.page`), and, for a page with more than one state
(tabs, a pager, a search box), answers the page's own requests (:meth:`TaskKind.act`).
A task is a pure function of its kind and seed: the procedure that stages it draws it with
:func:`generate` to fill its instruction, gestures and checks, and the ``tasks`` service
draws the same task again to serve its page, so the world's state holds only the kind and
the seed.

Kinds live in the modules of :mod:`cwgym.webtasks.kinds`, one module per family, each
registering its kinds in :data:`TASK_KINDS`; adding a kind is adding a class there::

    @register
    class ClickButton(TaskKind):
        name = "click-button"
        family = "clicking"
        miniwob = "click-button"
        title = "Click a button"
        variation = "labels and order of 3-6 buttons"

        def generate(self, r):
            words = r.sample(WORDS, r.randint(3, 6))
            return {"instruction": f'Click on the "{words[0]}" button.', "answer": words[0], ...}

What the page submits is what the service records and the verifier reads: a page's forms
post to :data:`SUBMIT` (the one answer a task page takes) or :data:`ACT` (a change of the
page's view, such as the open tab, handled by :meth:`TaskKind.act`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from cwgym.kernel.registry import Registry
from cwgym.kernel.rng import splitmix64, stream_seed
from cwgym.protocol.page import Element
from cwgym.protocol.plain import clone

__all__ = [
    "ACT",
    "SUBMIT",
    "TASK_KINDS",
    "TaskInputError",
    "TaskKind",
    "TaskRandom",
    "generate",
    "kind_of",
    "register",
]

#: Where a task page sends its answer (recorded once; later answers are refused).
SUBMIT = "/submit"
#: Where a task page sends a change of view (a tab, a page of results, a search).
ACT = "/act"
#: The families a kind belongs to, in the order the docs list them.
FAMILIES = ("clicking", "typing", "forms", "navigation", "messaging", "reasoning", "widgets")

T = TypeVar("T")


class TaskInputError(ValueError):
    """A page request the task cannot take (answered ``400`` with this message)."""


class TaskRandom:
    """The random draws of one task: SplitMix64 from ``(kind, seed)``, so a task is the
    same on every platform and never touches the world's own streams."""

    __slots__ = ("_state",)

    def __init__(self, kind: str, seed: int) -> None:
        self._state = stream_seed(seed, f"webtask:{kind}")

    def u64(self) -> int:
        self._state, out = splitmix64(self._state)
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.u64()
            if value < limit:
                return value % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot sample {k} of {len(pool)} items")
        return [pool.pop(self.below(len(pool))) for _ in range(k)]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self.sample(items, len(items))

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator


class TaskKind:
    """One kind of web task; subclasses set the class attributes and the methods."""

    #: the kind's name (``click-button``): its procedure is ``web-<name>``
    name: ClassVar[str] = ""
    #: one of :data:`FAMILIES`
    family: ClassVar[str] = ""
    #: the MiniWoB++ task it is modelled on
    miniwob: ClassVar[str] = ""
    #: a short title (the page's title too)
    title: ClassVar[str] = ""
    #: what varies from seed to seed, in a few words (for the docs)
    variation: ClassVar[str] = ""

    def generate(self, r: TaskRandom) -> dict[str, Any]:
        """The task of these draws: plain JSON with an ``instruction`` and the values the
        procedure's gestures and checks name (``{{task.answer}}``)."""
        raise NotImplementedError

    def page(self, task: dict[str, Any], view: dict[str, Any]) -> list[Element]:
        """The page's elements for ``task`` in ``view`` (``{}`` at first)."""
        raise NotImplementedError

    def act(self, task: dict[str, Any], view: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        """The view after a request to :data:`ACT` with ``form``; raise
        :class:`TaskInputError` for one the page would never send."""
        raise TaskInputError(f"the {self.name} page has nothing to change")

    def initial_view(self, task: dict[str, Any]) -> dict[str, Any]:
        """The view a fresh page starts in."""
        return {}


#: Every task kind, by name (the modules of :mod:`cwgym.webtasks.kinds` register them).
TASK_KINDS: Registry[TaskKind] = Registry("web task kind", "cwgym.webtasks.kinds")


def register(cls: type[TaskKind]) -> type[TaskKind]:
    """Class decorator: register one instance of ``cls`` under its ``name``."""
    if not cls.name or cls.family not in FAMILIES or not cls.miniwob or not cls.title:
        raise ValueError(f"{cls.__name__}: a task kind needs name, family (one of {FAMILIES}), miniwob and title")
    TASK_KINDS.register(cls.name, cls())
    return cls


def kind_of(name: str) -> TaskKind:
    """The kind called ``name``; ``ValueError`` naming the known ones otherwise."""
    kind = TASK_KINDS.get(name)
    if kind is None:
        raise ValueError(f"no web task kind {name!r} (known: {', '.join(TASK_KINDS.names())})")
    return kind


def generate(name: str, seed: int) -> dict[str, Any]:
    """The task of kind ``name`` for ``seed``, with its ``kind`` and ``seed`` (a fresh copy)."""
    return clone(_generate(name, seed))


@lru_cache(maxsize=4096)
def _generate(name: str, seed: int) -> dict[str, Any]:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a task seed is a non-negative int, got {seed!r}")
    task = kind_of(name).generate(TaskRandom(name, seed))
    if not isinstance(task, dict) or not isinstance(task.get("instruction"), str) or not task["instruction"].strip():
        raise ValueError(f"web task kind {name!r} generated no instruction for seed {seed}")
    return {**task, "kind": name, "seed": seed}
