"""Appending hashes each entry's body exactly as :func:`chain_of` does, so a journal built
entry by entry verifies, and so does one continued from a snapshot's head."""

from __future__ import annotations

from cwgym.kernel.journal import GENESIS, Journal, chain_of, verify_chain


def test_appended_chains_are_chain_of_the_body():
    journal = Journal()
    previous = GENESIS
    for i, (machine, actor, data) in enumerate([
        ("w", "ada", {"command": "echo hi", "nested": {"b": [1, 2], "a": None}}),
        (None, None, None),
        ("w", None, ["x", 1.5, True]),
    ]):
        entry = journal.append(10 * i, "event", machine, actor, data)
        assert entry.chain == chain_of(previous, entry.body())
        previous = entry.chain
    assert verify_chain(journal.entries()) is None and journal.chain == previous


def test_a_journal_continued_from_a_head_keeps_the_chain():
    journal = Journal()
    journal.append(0, "a", None, None, {"n": 1})
    continued = Journal(journal.head)
    continued.append(1, "b", "m", "u", {"n": 2})
    journal.append(1, "c", None, None, {})
    assert verify_chain(continued.entries()) is None and len(continued) == 2
    assert [e.kind for e in journal.entries()] == ["a", "c"]  # the first journal never saw "b"
