"""Scheduler order and the hash-chained journal."""

from __future__ import annotations

import msgspec

from cwgym.kernel import Journal, Scheduler, verify_chain


def test_scheduler_orders_by_due_then_phase_then_insertion():
    s = Scheduler()
    s.schedule(10, "late")
    s.schedule(5, "b", phase=1)
    s.schedule(5, "a", phase=0)
    s.schedule(5, "c", phase=1)
    order = []
    while (task := s.pop_due(100)) is not None:
        order.append(task.kind)
    assert order == ["a", "b", "c", "late"]


def test_scheduler_holds_work_until_due():
    s = Scheduler()
    s.schedule(10, "x")
    assert s.pop_due(9) is None
    assert s.next_due() == 10


def _journal(n=4) -> Journal:
    j = Journal()
    for i in range(n):
        j.append(i * 10, "agent.action", "m", "ada", {"i": i})
    return j


def test_journal_chain_verifies():
    entries = _journal().entries()
    assert [e.sequence for e in entries] == [0, 1, 2, 3]
    assert verify_chain(entries) is None


def test_tampering_is_detected_at_the_edited_entry():
    entries = _journal().entries()
    entries[2] = msgspec.structs.replace(entries[2], data={"i": 99})
    assert verify_chain(entries) == 2
    dropped = _journal().entries()
    del dropped[1]
    assert verify_chain(dropped) == 1


def test_journal_snapshots_share_history():
    j = _journal(2)
    head = j.head
    j.append(99, "later", None, None, {})
    assert len(Journal(head).entries()) == 2
    assert len(j.entries()) == 3
