"""cwgym.rl.collector: the collector's setting while training, given back on leaving."""

from __future__ import annotations

import gc
import weakref

import pytest

from cwgym.rl.collector import YOUNG_THRESHOLD, training_collector


def test_the_setup_is_frozen_and_the_young_threshold_raised_inside_the_block():
    before = gc.get_threshold()
    built = [object() for _ in range(3)]  # noqa: F841  (exists before the block)
    with training_collector():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_everything_is_given_back_when_the_block_raises():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError, match="inside"), training_collector(5_000):
        assert gc.get_threshold()[0] == 5_000
        raise RuntimeError("inside")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_cycle_made_inside_the_block_is_still_collected():
    class Loop:
        pass

    with training_collector():
        loop = Loop()
        loop.me = loop
        gone = weakref.ref(loop)
        del loop
        assert gone() is not None  # a cycle: reference counting alone does not free it
        gc.collect()
        assert gone() is None


@pytest.mark.parametrize("bad", [0, -1, 1.5, "700", True, None])
def test_a_threshold_that_is_not_a_positive_integer_is_refused(bad):
    before = gc.get_threshold()
    with pytest.raises(ValueError, match="young_threshold must be a positive integer"), training_collector(bad):
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_no_collection_runs_while_paused_and_the_collector_is_left_as_found():
    from cwgym.rl.collector import collector_paused

    ran = []
    gc.callbacks.append(lambda phase, info: ran.append(phase))
    try:
        with collector_paused():
            assert not gc.isenabled()
            kept = [[[] for _ in range(3)] for _ in range(5_000)]  # far past a young collection's threshold
            assert ran == [] and len(kept) == 5_000
        assert gc.isenabled()
        gc.disable()
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller's disabled collector stays disabled
    finally:
        gc.enable()
        gc.callbacks.pop()
