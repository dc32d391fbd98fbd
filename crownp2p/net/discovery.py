"""Finding a table on the LAN: the host's beacon, and the tables a listener hears.

A host that announces sends one small UDP datagram a second to the broadcast address (and to
the loopback broadcast address, for players on the same machine): the table's name, the host's
name, where to connect, the variant, the seats taken and the protocol. It says goodbye when its
table is seated or closed. A listener keeps what it hears in a bounded list whose entries expire,
so a flood of beacons costs a fixed amount of memory, and ignores a beacon it cannot trust with
one log line. docs/protocol.md ("Finding a table") gives the exact bytes.

A broadcast beacon rather than mDNS/DNS-SD (``zeroconf``): it needs no dependency, its bytes
are ours to bound and parse strictly, it stays inside the subnet a game night shares, and it
works on the loopback interface (127.255.255.255), so tests hear it without a network
namespace. The beacon only saves typing: the join code still decides who sits.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

import trio

from .errors import NetError, ProtocolError
from .frames import decode_body, encode_body
from .messages import MAX_SEATS, PROTOCOL_VERSION, Check, integer, make, pattern, text, validate

log = logging.getLogger("crownp2p.net")

BEACON_PORT = 41930  # UDP; `--beacon-port` changes it
MAGIC = b"CRWN"
BEACON_VERSION = 1
MAX_BEACON = 512  # bytes of a datagram, magic and version included
INTERVAL = 1.0  # seconds between two beacons of a table
EXPIRY = 4.0  # a table not heard for this long is gone
MAX_TABLES = 64  # tables a listener keeps; past this the stalest gives way
MAX_WARNINGS = 64  # log lines a listener writes about beacons it ignores
LOOPBACK_BROADCAST = "127.255.255.255"
_IPV4 = re.compile(r"(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\Z")
_ADDRESS: Check = pattern(_IPV4, "an IPv4 address")
_PORT: Check = integer(1, 65535)

SCHEMAS: dict[str, dict[str, Check]] = {
    "table": {
        "name": text(40, min_len=1),
        "host": text(32, min_len=1),
        "address": _ADDRESS,
        "port": _PORT,
        "variant": text(40, min_len=1),
        "seats": integer(2, MAX_SEATS),
        "taken": integer(1, MAX_SEATS),
        "proto": integer(1, 1 << 16),
    },
    "bye": {"address": _ADDRESS, "port": _PORT},
}


@dataclass(frozen=True)
class Announcement:
    """What a table says of itself: nothing derived from its join code."""

    name: str
    host: str
    address: str
    port: int
    variant: str
    seats: int
    taken: int
    proto: int = PROTOCOL_VERSION

    @property
    def where(self) -> str:
        return f"{self.address}:{self.port}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Goodbye:
    address: str
    port: int


class BadBeacon(ValueError):
    """Why a datagram is ignored: ``kind`` names the reason (one log line per source and kind),
    the message says it in a sentence."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind = kind


# ====================================================================== bytes


def encode(message: Announcement | Goodbye) -> bytes:
    """A beacon's datagram: the magic, the beacon version, one msgpack map."""
    kind = "table" if isinstance(message, Announcement) else "bye"
    body = encode_body(make(kind, SCHEMAS, **asdict(message)))
    datagram = MAGIC + bytes([BEACON_VERSION]) + body
    if len(datagram) > MAX_BEACON:
        raise ValueError(f"a {len(datagram)}-byte beacon is over the {MAX_BEACON}-byte limit")
    return datagram


def decode(datagram: bytes, source: str) -> Announcement | Goodbye:
    """A datagram heard from ``source`` (an IP address), strictly; BadBeacon otherwise."""
    if len(datagram) > MAX_BEACON:
        raise BadBeacon("size", f"a {len(datagram)}-byte datagram is over {MAX_BEACON} bytes")
    if not datagram.startswith(MAGIC) or len(datagram) < len(MAGIC) + 1:
        raise BadBeacon("garbage", "it is not a crownp2p beacon")
    version = datagram[len(MAGIC)]
    if version != BEACON_VERSION:
        raise BadBeacon("version", f"it is beacon version {version}; we read {BEACON_VERSION}")
    try:
        message = validate(decode_body(datagram[len(MAGIC) + 1 :]), SCHEMAS)
    except ProtocolError as err:
        raise BadBeacon("garbage", str(err).replace("frame", "beacon")) from None
    fields = {k: v for k, v in message.items() if k != "t"}
    if fields["address"] != source:
        # A table announces from the address it names, so a beacon cannot send players to
        # some other machine.
        raise BadBeacon("spoofed", f"it names {fields['address']} but came from {source}")
    if message["t"] == "bye":
        return Goodbye(**fields)
    table = Announcement(**fields)
    if table.taken > table.seats:
        raise BadBeacon("absurd", f"it has {table.taken} of {table.seats} seats taken")
    if table.proto != PROTOCOL_VERSION:
        raise BadBeacon(
            "protocol", f"its table speaks protocol {table.proto}; we speak {PROTOCOL_VERSION}"
        )
    return table


# ====================================================================== the listener's list


class Tables:
    """The tables heard, without I/O: fed datagrams and the time, bounded in size."""

    def __init__(self, expiry: float = EXPIRY, limit: int = MAX_TABLES) -> None:
        self.expiry = expiry
        self.limit = limit
        self._heard: dict[tuple[str, int], tuple[Announcement, float]] = {}
        self._warned: set[tuple[str, str]] = set()

    def heard(self, datagram: bytes, source: str, now: float) -> None:
        try:
            message = decode(datagram, source)
        except BadBeacon as err:
            self._warn(source, err)
            return
        where = (message.address, message.port)
        if isinstance(message, Goodbye):
            self._heard.pop(where, None)
            return
        self._heard.pop(where, None)  # re-inserted last: the dict stays in order of hearing
        self._heard[where] = (message, now)
        while len(self._heard) > self.limit:
            del self._heard[next(iter(self._heard))]

    def current(self, now: float) -> list[Announcement]:
        """The tables heard within the expiry, by name then address."""
        for where, (_, at) in list(self._heard.items()):
            if now - at > self.expiry:
                del self._heard[where]
        return sorted((t for t, _ in self._heard.values()), key=lambda t: (t.name, t.where))

    def _warn(self, source: str, err: BadBeacon) -> None:
        if (source, err.kind) in self._warned or len(self._warned) >= MAX_WARNINGS:
            return
        self._warned.add((source, err.kind))
        log.warning("ignored a beacon from %s: %s", source, err)


# ====================================================================== the services


def _udp_socket() -> trio.socket.SocketType:
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # several listeners per machine
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    return sock


async def hear(
    tables: Tables,
    *,
    port: int = BEACON_PORT,
    bind: str = "",
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Feed ``tables`` every beacon heard on UDP ``port`` until cancelled; reports the port."""
    sock = _udp_socket()
    with sock:
        try:
            await sock.bind((bind, port))
        except OSError as err:
            raise NetError(
                f"cannot listen for tables on UDP port {port}: {err.strerror or err}"
            ) from None
        task_status.started(sock.getsockname()[1])
        while True:
            datagram, (source, _) = await sock.recvfrom(MAX_BEACON + 1)
            tables.heard(datagram, source, trio.current_time())


async def listen(seconds: float, *, port: int = BEACON_PORT, bind: str = "") -> list[Announcement]:
    """The tables heard within ``seconds``."""
    tables = Tables()
    async with trio.open_nursery() as nursery:
        await nursery.start(functools.partial(hear, tables, port=port, bind=bind))
        await trio.sleep(seconds)
        nursery.cancel_scope.cancel()
    return tables.current(trio.current_time())


def target(address: str, port: int = BEACON_PORT) -> tuple[str, int]:
    """Where a table at ``address`` announces itself: a table on the loopback interface only
    there, any other to the LAN (Linux hands a broadcast to this machine's listeners too)."""
    loopback = ipaddress.ip_address(address).is_loopback
    return (LOOPBACK_BROADCAST if loopback else "255.255.255.255", port)


async def announce(
    table: Announcement,
    taken: Callable[[], int | None],
    port: int = BEACON_PORT,
    interval: float = INTERVAL,
) -> None:
    """Announce ``table`` on UDP ``port`` every ``interval`` seconds with the seats ``taken()``
    says, until it says None (the table is seated) or we are cancelled (it closed); then say
    goodbye. It is sent from the address it names, as listeners require."""
    to = target(table.address, port)
    sock = _udp_socket()
    failed = False

    async def send(datagram: bytes) -> None:
        nonlocal failed
        try:
            await sock.sendto(datagram, to)
        except OSError as err:  # no network: the table is still open by its address
            if not failed:
                failed = True
                log.info("cannot announce the table: %s", err.strerror or err)

    with sock:
        try:
            await sock.bind((table.address, 0))
        except OSError as err:
            log.info("cannot announce the table from %s: %s", table.address, err.strerror)
            return
        try:
            while (seats := taken()) is not None:
                await send(encode(replace(table, taken=seats)))
                await trio.sleep(interval)
        finally:
            with trio.CancelScope(shield=True):
                await send(encode(Goodbye(table.address, table.port)))
