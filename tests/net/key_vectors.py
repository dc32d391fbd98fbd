"""Test vectors for the key schedule (protocol 3 and after) (docs/protocol.md, "Test vectors").

Run ``python tests/net/key_vectors.py`` to print the block the document carries;
tests/net/test_secure.py checks the document still says exactly this. Every input is fixed:
the code, the SPAKE2 randomness, the Noise ephemeral and static keys, the game id.
"""

from __future__ import annotations

import warnings

from crownp2p.net import crypto, draw
from crownp2p.net.frames import encode_body, encode_frame, frame
from crownp2p.net.messages import make

CODE = "k7m2q-xv9te"
GAME_ID = bytes(range(16))


def _fixed(byte: int):
    """SPAKE2's randomness, fixed: ``n`` bytes of ``byte``."""
    return lambda n: bytes([byte]) * n


def _key(byte: int) -> bytes:
    return bytes([byte]) * 32


def vectors() -> list[tuple[str, bytes]]:
    with warnings.catch_warnings():  # noiseprotocol warns that fixed ephemerals are for tests
        warnings.simplefilter("ignore", UserWarning)
        return _vectors()


def _vectors() -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = [("code (normalized)", crypto.normalize_code(CODE).encode())]
    # ---- the join link: SPAKE2, then Noise XNpsk0 keyed by its key, proving the joiner's static
    joiner = crypto.pake(CODE, host=False, entropy=_fixed(0x11))
    host = crypto.pake(CODE, host=True, entropy=_fixed(0x22))
    pake_a, pake_b = joiner.start(), host.start()
    psk = crypto.pake_key(joiner, pake_b)
    assert psk == crypto.pake_key(host, pake_a)
    join = encode_body(
        make(
            "join",
            proto=4,
            engine="0.1.0/state1/shuffle1",
            packs=[["crownp2p", "0.1.0"]],
            pake=pake_a,
        )
    )
    reply = encode_body(make("pake", pake=pake_b))
    out += [
        ("SPAKE2 joiner message (pake in join)", pake_a),
        ("SPAKE2 host message (pake in pake)", pake_b),
        ("SPAKE2 key = Noise psk", psk),
        ("join body", join),
        ("pake body", reply),
    ]
    j = crypto.join_noise(
        initiator=True, psk=psk, prologue=join + reply, private=_key(0x55), ephemeral=_key(0x33)
    )
    h = crypto.join_noise(initiator=False, psk=psk, prologue=join + reply, ephemeral=_key(0x44))
    m1 = bytes(j.write_message())
    crypto.read_handshake(h, m1)
    m2 = bytes(h.write_message())
    crypto.read_handshake(j, m2)
    m3 = bytes(j.write_message())
    assert crypto.read_static_handshake(h, m3) == crypto.static_public(_key(0x55))
    joiner_commit = draw.commitment(crypto.static_public(_key(0x55)), _key(0x99))
    player = encode_body(make("player", name="ann", listen=4001, commit=joiner_commit))
    out += [
        ("joiner static private", _key(0x55)),
        ("joiner ephemeral private", _key(0x33)),
        ("host ephemeral private", _key(0x44)),
        ("XNpsk0 message 1 (msg in noise)", m1),
        ("XNpsk0 message 2 (msg in noise)", m2),
        ("XNpsk0 message 3 (msg in noise)", m3),
        ("player body", player),
        ("first sealed frame (joiner to host)", frame(crypto.seal(j, player))),
    ]
    assert crypto.unseal(h, out[-1][1][4:]) == player
    # ---- a seat-to-seat link: Noise KK with both static keys from the table
    statics = [crypto.static_public(_key(0x66)), crypto.static_public(_key(0x55))]
    digest = crypto.table_digest(GAME_ID, statics)
    peer = encode_body(
        make(
            "peer",
            proto=4,
            engine="0.1.0/state1/shuffle1",
            packs=[["crownp2p", "0.1.0"]],
            game_id=GAME_ID,
            seat=1,
        )
    )
    dial = crypto.peer_noise(
        initiator=True,
        private=_key(0x55),
        remote=statics[0],
        prologue=peer + digest,
        ephemeral=_key(0x77),
    )
    accept = crypto.peer_noise(
        initiator=False,
        private=_key(0x66),
        remote=statics[1],
        prologue=peer + digest,
        ephemeral=_key(0x88),
    )
    k1 = bytes(dial.write_message())
    crypto.read_handshake(accept, k1)
    k2 = bytes(accept.write_message())
    crypto.read_handshake(dial, k2)
    sync = encode_body(make("sync", seq=0, hash="0" * 64))
    out += [
        ("game_id", GAME_ID),
        ("seat 0 static private", _key(0x66)),
        ("seat 1 static private", _key(0x55)),
        ("statics (seat 0, seat 1)", b"".join(statics)),
        ("table digest", digest),
        ("peer body (seat 1 dials seat 0)", peer),
        ("seat 1 ephemeral private", _key(0x77)),
        ("seat 0 ephemeral private", _key(0x88)),
        ("KK message 1", k1),
        ("KK message 2", k2),
        ("sync body", sync),
        ("first sealed frame (seat 0 to seat 1)", frame(crypto.seal(accept, sync))),
    ]
    assert crypto.unseal(dial, out[-1][1][4:]) == sync
    # ---- the seating draw between the host (key 0x66) and the joiner (key 0x55)
    nonces = {statics[0]: _key(0xAA), statics[1]: _key(0x99)}
    commits = sorted((key, draw.commitment(key, nonce)) for key, nonce in nonces.items())
    drawn = draw.Draw(tuple(commits), tuple(nonces[key] for key, _ in commits))
    out += [
        ("host draw nonce", _key(0xAA)),
        ("joiner draw nonce", _key(0x99)),
        ("draw commitments (key, commitment), by key", b"".join(k + c for k, c in commits)),
        ("draw seed", drawn.seed),
        ("static keys in seat order (two seats)", b"".join(drawn.seats((0, 1)))),
    ]
    assert encode_frame(make("sync", seq=0, hash="0" * 64))[4:] == sync
    return out


def block(pairs: list[tuple[str, bytes]]) -> str:
    """Vectors as the documents show them: a name, then hex in 64-digit lines."""
    lines = []
    for name, value in pairs:
        lines.append(f"{name}:")
        text = value.hex()
        lines.extend("    " + text[i : i + 64] for i in range(0, len(text), 64))
    return "\n".join(lines)


def render() -> str:
    """The vectors of docs/protocol.md."""
    return block(vectors())


if __name__ == "__main__":
    print(render())
