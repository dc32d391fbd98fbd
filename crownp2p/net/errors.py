"""The network layer's own exceptions: everything trio or the socket layer raises is translated
into one of these at the module boundary, so callers handle one family with user-ready text."""

from __future__ import annotations


class NetError(Exception):
    """A network problem with a one-sentence message for the user."""


class ConnectionLost(NetError):
    """The other end closed the connection, or it broke."""


class PeerTimeout(NetError):
    """A peer did not answer in time."""


class HandshakeError(NetError):
    """A peer could not be admitted (versions, packs, join code, table full …)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class ProtocolError(NetError):
    """A peer sent something the protocol does not allow.

    ``code`` is the named reason carried by the error frame (docs/protocol.md lists them);
    ``fatal`` says whether the stream can no longer be trusted (bad framing), so the link must
    be closed.
    """

    def __init__(self, code: str, text: str, *, fatal: bool = False) -> None:
        super().__init__(text)
        self.code = code
        self.fatal = fatal
