"""Element rows sent as changes: the receiver rebuilds exactly what the sender had."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from cwgym.rl.env import ComputerEnv
from cwgym.rl.row_changes import RowsReceiver, RowsSender
from cwgym.rl.specs import entry


def _row(i: int, label: str = "x", x: int = 0) -> dict:
    return {"id": f"c{i}", "role": "button", "label": label, "bounds": {"x": x, "y": i, "width": 10, "height": 10},
            "enabled": True, "focused": False}


def _sent(sender: RowsSender, receiver: RowsReceiver, infos: list) -> list:
    """One message through a pickle, as between processes."""
    return receiver.unpack(pickle.loads(pickle.dumps(sender.pack(infos))))


def _same(got: list, want: list) -> bool:
    """Equal infos, their action masks compared as arrays."""
    def plain(info: dict) -> dict:
        return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in info.items()}
    return [plain(i) for i in got] == [plain(i) for i in want]


def test_rows_of_a_real_rollout_arrive_as_they_were_sent():
    """Random valid clicks on an easy task: every step's infos, rebuilt, equal the originals,
    and the rows that did not change travel as indices (far fewer bytes than whole rows)."""
    env = ComputerEnv(max_episode_steps=20, **entry("cwgym/easy-new-folder-v1").kwargs)
    sender, receiver = RowsSender(1), RowsReceiver(1)
    _, info = env.reset(seed=3)
    assert _same(_sent(sender, receiver, [copy.deepcopy(info)]), [info])
    rng = np.random.default_rng(0)
    whole = packed = 0
    for step in range(60):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset(seed=step)
        message = sender.pack([copy.deepcopy(info)])
        whole += len(pickle.dumps([info]))
        packed += len(pickle.dumps(message))
        assert _same(receiver.unpack(pickle.loads(pickle.dumps(message))), [info])
    assert packed < whole / 2


def test_changed_added_removed_and_unchanged_rows():
    sender, receiver = RowsSender(3), RowsReceiver(3)
    first = [{"elements": [_row(0), _row(1), _row(2)], "step": 0}, {"step": 0}, None]
    assert _sent(sender, receiver, copy.deepcopy(first)) == first
    second = [
        {"elements": [_row(0), _row(1, "changed"), _row(2), _row(3)], "step": 1},  # one changed, one added
        {"elements": [_row(5)], "step": 1},  # first rows of this world: sent whole
        None,
    ]
    assert _sent(sender, receiver, copy.deepcopy(second)) == second
    third = [{"elements": [_row(0)], "step": 2}, {"elements": [_row(5)], "step": 2}, {"step": 2}]  # fewer; the same
    assert _sent(sender, receiver, copy.deepcopy(third)) == third
    fourth = [{"elements": [], "step": 3}, {"elements": [_row(5, x=4)], "step": 3}, {"elements": [_row(9)], "step": 3}]
    assert _sent(sender, receiver, copy.deepcopy(fourth)) == fourth


def test_the_sender_keeps_its_infos_as_they_were():
    sender = RowsSender(1)
    sender.pack([{"elements": [_row(0)]}])
    infos = [{"elements": [_row(0), _row(1)]}]
    kept = copy.deepcopy(infos)
    number, base, packed, changed = sender.pack(infos)
    assert infos == kept and changed == [0] and base == 1 and number == 2
    assert packed[0]["elements"] == [0, _row(1)]


def test_every_row_handed_out_is_the_callers_own():
    """Changing a row (or its bounds) the receiver handed out changes nothing it rebuilds later."""
    sender, receiver = RowsSender(1), RowsReceiver(1)
    out = _sent(sender, receiver, [{"elements": [_row(0), _row(1)]}])
    out[0]["elements"][0]["label"] = "mutated"
    out[0]["elements"][1]["bounds"]["x"] = 999
    again = _sent(sender, receiver, [{"elements": [_row(0), _row(1)]}])
    assert again == [{"elements": [_row(0), _row(1)]}]
    assert again[0]["elements"][0] is not out[0]["elements"][0]


def test_a_receiver_that_forgot_refuses_changes_and_accepts_whole_rows():
    sender, receiver = RowsSender(1), RowsReceiver(1)
    _sent(sender, receiver, [{"elements": [_row(0)]}])
    receiver.forget()
    with pytest.raises(RuntimeError, match="out of step"):
        _sent(sender, receiver, [{"elements": [_row(0)]}])
    fresh = RowsSender(1)  # a restarted sender sends whole rows, which any receiver takes
    assert _sent(fresh, receiver, [{"elements": [_row(1)]}]) == [{"elements": [_row(1)]}]
    assert _sent(fresh, receiver, [{"elements": [_row(1), _row(2)]}]) == [{"elements": [_row(1), _row(2)]}]


def test_a_skipped_message_is_refused():
    sender, receiver = RowsSender(1), RowsReceiver(1)
    _sent(sender, receiver, [{"elements": [_row(0)]}])
    sender.pack([{"elements": [_row(1)]}])  # lost on the way
    with pytest.raises(RuntimeError, match="out of step"):
        _sent(sender, receiver, [{"elements": [_row(2)]}])


def test_rows_shifted_by_a_new_one_travel_as_indices():
    """A window opening puts its rows before others: those are found by their control id."""
    sender, receiver = RowsSender(1), RowsReceiver(1)
    _sent(sender, receiver, [{"elements": [_row(0), _row(1), _row(2)]}])
    infos = [{"elements": [_row(0), _row(7), _row(1), _row(2, "relabelled")]}]
    message = sender.pack(copy.deepcopy(infos))
    assert message[2][0]["elements"] == [0, _row(7), 1, _row(2, "relabelled")]
    assert receiver.unpack(pickle.loads(pickle.dumps(message))) == infos
