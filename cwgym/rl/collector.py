"""Python's garbage collector where cwgym sets it: while training, and while a vector env
reads its workers' replies.

A training process holds hundreds of thousands of long-lived objects (torch, the model, the
envs' templates) and allocates thousands of short-lived containers a step (element rows,
infos, scene pieces), most of them freed by reference counting as soon as the step ends.
With the collector's defaults, a young-generation collection runs every 700 net
allocations and walks whatever young objects are alive at that moment (the repaint caches'
newest entries among them), and every so often a full collection walks everything.
:func:`training_collector` moves what was built before training out of the collector's
walks (``gc.freeze()``) and lets the young generation grow to :data:`YOUNG_THRESHOLD`
before it is collected, then gives both back. Nothing is freed later than reference
counting frees it; only cycles wait longer.

:func:`collector_paused` is for reading a worker's reply: unpickling it makes thousands of
new dicts and lists (a tree, no cycles), and every 700 of them would start a collection.

    from cwgym.rl.collector import training_collector

    with training_collector():
        model.learn(100_000)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG_THRESHOLD", "collector_paused", "training_collector"]

#: Net allocations of tracked objects between young-generation collections while training
#: (the interpreter's default is 700).
YOUNG_THRESHOLD = 10_000


@contextmanager
def training_collector(young_threshold: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Within the block, objects that existed before it are out of the collector's walks and
    young-generation collections run every ``young_threshold`` net allocations; on leaving,
    the frozen objects and the previous thresholds are given back.

    Raises:
        ValueError: ``young_threshold`` is not a positive integer.
    """
    if isinstance(young_threshold, bool) or not isinstance(young_threshold, int) or young_threshold < 1:
        raise ValueError(f"training_collector: young_threshold must be a positive integer, got {young_threshold!r}")
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young_threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collections within the block (the collector is left as it was found on leaving):
    for reading a reply that is a tree of new containers, which holds no cycle to find."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
