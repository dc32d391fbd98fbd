"""Protocol 3's promises, over real loopback sockets: a stranger gets nothing to test codes
against offline and is slowed down; a relay that records every byte sees no game; a relay that
flips, injects, replays or reorders frames changes no result. Each of these held not on
protocol 2 (HMAC proofs sent first by the host, links in the clear)."""

from __future__ import annotations

import logging
from pathlib import Path

import msgpack
import pytest
import trio
from key_vectors import render
from proxy import Proxy
from tables import CODE, Table, wait_until
from test_tables import same_as_one_process, stranger_guesses

from crownp2p.net import crypto
from crownp2p.net.frames import FrameDecoder

# ---------------------------------------------------------------------- the join code


async def test_a_stranger_gets_nothing_to_test_a_code_against_offline(rules2, monkeypatch):
    """The host's only answers to a wrong guess are its SPAKE2 message (no proof of anything)
    and the refusal; the key the host derived is bound to the stranger's guess, so even the
    right code, tried offline against the recorded bytes, reproduces nothing the host holds."""
    host_keys: list[bytes] = []
    real_pake_key = crypto.pake_key

    def spy(pake, theirs):
        key = real_pake_key(pake, theirs)
        host_keys.append(key)
        return key

    monkeypatch.setattr(crypto, "pake_key", spy)

    def entropy(n: int) -> bytes:  # the stranger's randomness, kept so it can retry offline
        return b"\x5a" * n

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            table = Table(rules2)
            table.ready = await nursery.start(table.host)
            stream = await trio.open_tcp_stream("127.0.0.1", table.ready.port)
            from test_tables import ENGINE, PACKS, PROTOCOL_VERSION

            from crownp2p.net.link import FramedStream
            from crownp2p.net.messages import make

            framed = FramedStream(stream)
            guess = crypto.pake("wrong-guess", host=False, entropy=entropy)
            await framed.send(
                make(
                    "join",
                    proto=PROTOCOL_VERSION,
                    engine=ENGINE,
                    packs=[list(p) for p in PACKS],
                    pake=guess.start(),
                )
            )
            sent_join = framed.last_body
            heard = [await framed.receive()]
            pake_body = framed.last_body
            psk = real_pake_key(guess, heard[0]["pake"])
            noise = crypto.join_noise(
                initiator=True, psk=psk, prologue=sent_join + pake_body, private=crypto.new_static()
            )
            await framed.send(make("noise", msg=bytes(noise.write_message())))
            heard.append(await framed.receive())
            await framed.aclose()
            nursery.cancel_scope.cancel()
    # the host said: its SPAKE2 message, then no; never a Noise message keyed by the code
    assert [m["t"] for m in heard] == ["pake", "error"] and heard[1]["code"] == "bad-code"
    (host_key,) = host_keys
    # offline, with the right code and the very same randomness, the stranger cannot get there
    retry = crypto.pake(CODE, host=False, entropy=entropy)
    retry.start()
    assert real_pake_key(retry, heard[0]["pake"]) != host_key
    assert psk != host_key


async def join_by_hand(port: int, *, private: bytes, claim: bytes) -> dict:
    """Join with the right code by hand, presenting ``claim`` as our static public key while
    doing our half of the handshake (``se``) with ``private``; return the host's answer."""
    from noise.backends.default.keypairs import KeyPair25519
    from test_tables import ENGINE, PACKS, PROTOCOL_VERSION

    from crownp2p.net.link import FramedStream
    from crownp2p.net.messages import make

    framed = FramedStream(await trio.open_tcp_stream("127.0.0.1", port))
    pake = crypto.pake(CODE, host=False)
    packs = [list(p) for p in PACKS]
    await framed.send(
        make("join", proto=PROTOCOL_VERSION, engine=ENGINE, packs=packs, pake=pake.start())
    )
    sent = framed.last_body
    psk = crypto.pake_key(pake, (await framed.receive())["pake"])
    noise = crypto.join_noise(
        initiator=True, psk=psk, prologue=sent + framed.last_body, private=private
    )
    ours = KeyPair25519.from_private_bytes(private)
    # message 3 carries the claimed key; the DH that proves it can only use the key we hold
    noise.noise_protocol.handshake_state.s = KeyPair25519(ours.private, ours.public, claim)
    await framed.send(make("noise", msg=bytes(noise.write_message())))
    crypto.read_handshake(noise, (await framed.receive())["msg"])
    await framed.send(make("noise", msg=bytes(noise.write_message())))
    if claim != ours.public_bytes:
        answer = await framed.receive()  # a refusal comes in the clear: the host never sealed
    else:
        framed.seal_with(noise)
        await framed.send(make("player", name="ann", listen=4009, commit=b"c" * 32))
        answer = await framed.receive()
    await framed.aclose()
    return answer


async def test_a_joiner_cannot_claim_a_static_key_it_does_not_hold(rules2) -> None:
    """Every seat learns every seat's public key from the table; knowing the code and one of
    them must not let anyone join as that key (the host knows a returning joiner by it)."""
    seat_key = crypto.new_static()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            table = Table(rules2)
            table.ready = await nursery.start(table.host)
            claim = crypto.static_public(seat_key)
            forged = await join_by_hand(table.ready.port, private=crypto.new_static(), claim=claim)
            honest = await join_by_hand(table.ready.port, private=seat_key, claim=claim)
            nursery.cancel_scope.cancel()
    assert forged["t"] == "error" and forged["code"] == "bad-key"
    assert honest["t"] == "welcome" and honest["players"] == 2  # the same path, holding the key


async def test_repeated_wrong_codes_from_one_address_are_slowed_and_logged(rules2, caplog):
    caplog.set_level(logging.WARNING, "crownp2p.net")
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            table = Table(rules2)
            table.ready = await nursery.start(table.host)
            replies = [await stranger_guesses(table.ready.port, f"guess-{i}") for i in range(6)]
            nursery.cancel_scope.cancel()
    codes = [r["code"] for r in replies]
    assert codes[:5] == ["bad-code"] * 5  # four free tries, and a fifth after which we wait
    assert codes[5] == "slow-down" and "wait" in replies[5]["text"]
    assert "127.0.0.1 was not admitted (try 5)" in caplog.text


# ---------------------------------------------------------------------- a relay that listens


class Recorder(Proxy):
    """A relay that keeps every byte it forwards, both ways."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self.seen = bytearray()

    async def _pump(self, src, dst, scope: trio.CancelScope) -> None:
        try:
            while data := await src.receive_some(65536):
                self.seen += data
                await dst.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        scope.cancel()


async def test_a_relay_that_records_every_byte_sees_no_game(rules2) -> None:
    table = Table(rules2, bot="random", seed=1)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            relay = Recorder(table.ready.port)
            await nursery.start(relay.run)
            await nursery.start(table.join, 1, relay.port)
            await wait_until(lambda: len(table.outcomes) == 2)
            nursery.cancel_scope.cancel()
    same_as_one_process(table)
    seen = bytes(relay.seen)
    assert len(seen) > 10_000  # a whole game went through
    game_words = ["decision", "seq", "hash", "prev", "commit", "reveal", "ack", "sync", "round"]
    # card names and other long words of the decisions (short ones like "b8" could turn up
    # by chance in ciphertext)
    steps = table.sessions[0].record.steps
    words = {str(w) for s in steps if s.seat >= 0 for w in s.decision}
    cards = sorted(w for w in words if len(w) >= 5 and not w.isdigit())
    names = sorted(table.sessions[0].names)
    for word in [*game_words, *cards, *names, crypto.normalize_code(CODE)]:
        assert msgpack.packb(word) not in seen, word  # as a key or a value, wherever it came
    assert len(cards) > 3, cards


def test_the_document_carries_the_key_vectors() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert render() in doc


# ---------------------------------------------------------------------- a relay that meddles


class Meddler(Proxy):
    """A relay that, once armed, does one thing to the frames from the joiner to the host."""

    def __init__(self, target_port: int, trick: str) -> None:
        super().__init__(target_port)
        self.trick = trick
        self.armed = False
        self.done = False

    async def _pump(self, src, dst, scope: trio.CancelScope) -> None:
        towards_host = src is not None and any(src is c for c, _ in self.pairs)
        decoder = FrameDecoder(limit=1 << 30)
        held: list[bytes] = []
        try:
            while data := await src.receive_some(65536):
                if not towards_host:
                    await dst.send_all(data)
                    continue
                out = []
                for body in decoder.feed(data):
                    out.extend(self._meddle(len(body).to_bytes(4, "big") + body, held))
                await dst.send_all(b"".join(out))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        scope.cancel()

    def _meddle(self, frame: bytes, held: list[bytes]) -> list[bytes]:
        if held:  # the frame we held back goes after this one: two frames swapped
            self.done = True
            return [frame, held.pop()]
        if not self.armed or self.done:
            return [frame]
        if self.trick == "swap":
            held.append(frame)
            return []
        self.done = True
        if self.trick == "flip":
            return [frame[:-1] + bytes([frame[-1] ^ 0x01])]
        if self.trick == "inject":
            return [frame, b"\x00\x00\x00\x20" + b"\xaa" * 32]
        return [frame, frame]  # replay


@pytest.mark.parametrize("trick", ["flip", "inject", "replay", "swap"])
async def test_a_relay_that_meddles_with_frames_changes_no_result(rules2, trick, caplog) -> None:
    table = Table(rules2, bot="random", seed=1)
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            relay = Meddler(table.ready.port, trick)
            await nursery.start(relay.run)

            async def arm() -> None:
                await wait_until(lambda: 0 in table.sessions and table.sessions[0].ls.applied >= 40)
                relay.armed = True

            nursery.start_soon(arm)
            await nursery.start(table.join, 1, relay.port)
            await wait_until(lambda: len(table.outcomes) == 2)
            nursery.cancel_scope.cancel()
    assert relay.done
    assert "[bad-seal]; disconnecting" in caplog.text  # caught, and the link redialled
    assert relay.connections >= 2
    same_as_one_process(table)
    outcomes = table.outcomes
    assert outcomes[0].winner == outcomes[1].winner
    assert {o.result for o in outcomes.values()} <= {"win", "loss", "draw"}
