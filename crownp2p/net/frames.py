"""Frames: a 4-byte big-endian length, then a body: one msgpack map in the clear (the first
messages of a handshake), or, once a link is sealed, the Noise ciphertext of one.

:class:`FrameDecoder` is sans-I/O: feed it bytes as they arrive (one at a time is fine) and it
hands back every complete body. It refuses a frame longer than the limit as soon as the length
prefix is in, before reading the body. :func:`decode_body` refuses anything that is not a single
msgpack map with string keys.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack  # type: ignore[import-untyped]

from .errors import ProtocolError

MAX_FRAME = 65535  # Noise's largest message: a sealed body, its 16-byte tag included
MAX_MESSAGE = MAX_FRAME - 16  # so a msgpack map is at most this long, sealed or not
_HEADER = struct.Struct(">I")


def encode_body(message: dict[str, Any]) -> bytes:
    body: bytes = msgpack.packb(message, use_bin_type=True)
    if len(body) > MAX_MESSAGE:
        raise ValueError(f"a {len(body)}-byte message is over the {MAX_MESSAGE}-byte limit")
    return body


def frame(body: bytes) -> bytes:
    """A body with its length in front."""
    return _HEADER.pack(len(body)) + body


def encode_frame(message: dict[str, Any]) -> bytes:
    """A message as a frame in the clear."""
    return frame(encode_body(message))


def decode_body(body: bytes) -> dict[str, Any]:
    """One frame's body to a dict, strictly: one msgpack map with string keys, nothing after."""
    try:
        message = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
        )
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError) as err:
        # ValueError covers bad UTF-8 and non-string map keys.
        raise ProtocolError(
            "bad-frame", f"a frame is not one msgpack map ({type(err).__name__})", fatal=True
        ) from None
    except Exception as err:  # msgpack raises a few others (e.g. TypeError) on odd input
        raise ProtocolError(
            "bad-frame", f"a frame cannot be decoded ({type(err).__name__})", fatal=True
        ) from None
    if not isinstance(message, dict):
        raise ProtocolError(
            "bad-frame", f"a frame holds a msgpack {type(message).__name__}, not a map", fatal=True
        )
    return message


class FrameDecoder:
    def __init__(self, limit: int = MAX_FRAME) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._need: int | None = None  # body length, once the header is in

    def feed(self, data: bytes) -> list[bytes]:
        """Add bytes; return the body of every frame now complete, in order."""
        self._buffer += data
        bodies = []
        while True:
            if self._need is None:
                if len(self._buffer) < _HEADER.size:
                    break
                (self._need,) = _HEADER.unpack_from(self._buffer)
                del self._buffer[: _HEADER.size]
                if self._need > self.limit:
                    raise ProtocolError(
                        "oversized",
                        f"a frame of {self._need} bytes is over the {self.limit}-byte limit",
                        fatal=True,
                    )
            if len(self._buffer) < self._need:
                break
            bodies.append(bytes(self._buffer[: self._need]))
            del self._buffer[: self._need]
            self._need = None
        return bodies

    @property
    def mid_frame(self) -> bool:
        """Whether a frame has started but not finished (a close now truncates it)."""
        return bool(self._buffer) or self._need is not None
