"""Frames and the MessagePack codec of the evaluator boundary.

Why MessagePack (through msgspec) and not JSON: observations are numpy arrays (an 84x84x3
frame is 21 KB, a 1280x800 one 3 MB) and MessagePack carries their bytes as they are,
where JSON needs base64 (a third larger, and another pass) or nested lists (several times
larger and slow to build). And msgspec decodes into builtins only — dict, list, str, int,
float, bool, None, bytes — never into an object the message names, as pickle does: a
reply can be wrong, never executable.

A frame is a 4-byte big-endian length followed by that many bytes of MessagePack. A numpy
array travels as the extension type :data:`ARRAY_EXT` whose data is the MessagePack of
``[dtype, shape, raw C-order bytes]``; only bool, integer and float dtypes cross, and only
from the evaluator to the agent: the evaluator refuses any extension type in a reply. It
reads a reply's length before its body and refuses one above :data:`MAX_REPLY_BYTES`
unread. Each message of the evaluator carries a sequence number ``seq`` that its reply
repeats, so a reply is never taken for the answer to another message.
"""

from __future__ import annotations

import os
import struct
from typing import Any

import msgspec
import numpy as np

__all__ = [
    "ARRAY_EXT",
    "HEADER",
    "MAX_REPLY_BYTES",
    "Ack",
    "Action",
    "Failure",
    "Ready",
    "Reply",
    "decode_message",
    "decode_reply",
    "encode",
    "frame",
    "read_frame",
    "write_frame",
]

MAX_REPLY_BYTES = 1 << 20  # 1 MiB: an agent's reply (an action) is far smaller
ARRAY_EXT = 1
HEADER = struct.Struct(">I")
ARRAY_KINDS = "biuf"


class Ready(msgspec.Struct, tag="ready", tag_field="type"):
    """The agent is loaded and waits for its first episode."""


class Action(msgspec.Struct, tag="action", tag_field="type"):
    """The agent's action, as JSON data (checked against the action space by the evaluator)."""

    seq: int
    action: Any


class Ack(msgspec.Struct, tag="ok", tag_field="type"):
    """The agent took note of the end of an episode."""

    seq: int


class Failure(msgspec.Struct, tag="error", tag_field="type"):
    """The agent (or loading it) raised; ``stage`` is ``load`` or the message it answered."""

    seq: int
    stage: str
    error: str
    traceback: str = ""


Reply = Ready | Action | Ack | Failure


def _enc_hook(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in ARRAY_KINDS:
            raise TypeError(f"a {value.dtype} array cannot cross the evaluator boundary")
        body = msgspec.msgpack.encode([value.dtype.str, list(value.shape), np.ascontiguousarray(value).tobytes()])
        return msgspec.msgpack.Ext(ARRAY_EXT, body)
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not plain data and never crosses the evaluator boundary")


def _array(code: int, data: memoryview) -> np.ndarray:
    if code != ARRAY_EXT:
        raise ValueError(f"unknown MessagePack extension type {code}")
    dtype, shape, raw = msgspec.msgpack.decode(data)
    dtype = np.dtype(dtype)
    if dtype.kind not in ARRAY_KINDS:
        raise ValueError(f"a {dtype} array cannot cross the evaluator boundary")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def _no_ext(code: int, data: memoryview) -> Any:
    raise ValueError(f"a reply holds a MessagePack extension (type {code}); replies are plain JSON data")


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc_hook)
_MESSAGES = msgspec.msgpack.Decoder(ext_hook=_array)
_REPLIES = msgspec.msgpack.Decoder(Reply, ext_hook=_no_ext)


def encode(value: Any) -> bytes:
    """``value`` (plain data and numpy arrays) as MessagePack; ``TypeError`` on anything else."""
    return _ENCODER.encode(value)


def decode_message(data: bytes) -> Any:
    """An evaluator's message, arrays decoded (the agent side)."""
    return _MESSAGES.decode(data)


def decode_reply(data: bytes) -> Reply:
    """An agent's reply (the evaluator side): one of the four reply kinds, no extension types.

    Raises:
        msgspec.DecodeError, msgspec.ValidationError, ValueError: the bytes are not a reply.
    """
    return _REPLIES.decode(data)


def frame(payload: bytes) -> bytes:
    """``payload`` with its length in front."""
    if len(payload) >= 1 << 32:
        raise ValueError(f"a message of {len(payload)} bytes is too long for a frame")
    return HEADER.pack(len(payload)) + payload


# -- blocking frames, the agent side -----------------------------------------------------------
def _read_exact(fd: int, size: int) -> bytes:
    parts, got = [], 0
    while got < size:
        chunk = os.read(fd, min(size - got, 1 << 20))
        if not chunk:
            raise EOFError("the evaluator closed the channel")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def read_frame(fd: int) -> bytes:
    """The next frame's payload from blocking ``fd``; ``EOFError`` when the channel closed."""
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size))
    return _read_exact(fd, size)


def write_frame(fd: int, payload: bytes) -> None:
    """Write ``payload`` as one frame to blocking ``fd``."""
    view = memoryview(frame(payload))
    while view:
        view = view[os.write(fd, view) :]
