"""Test vectors for the sealed decks' derivations (docs/sealed-decks.md, "Test vectors").

Run ``python tests/net/sealed_vectors.py`` to print the block the document carries;
tests/net/test_sealed_deck.py checks the document still says exactly this. Every input is
fixed: the game id, two seats' shuffle seeds, a deck of four card instances (0 to 3).
"""

from __future__ import annotations

from key_vectors import block

from crownp2p.net import sealed_deck as sealed

GAME_ID = bytes(range(16))
SEEDS = {0: bytes([0xA3]) * 32, 1: bytes([0xB2]) * 32}
CARDS = 4


def vectors() -> list[tuple[str, bytes]]:
    start = [sealed.card_point(GAME_ID, i) for i in range(CARDS)]
    mine = {s: sealed.ShuffleSecrets.derive(GAME_ID, 1, s, SEEDS[s], CARDS) for s in SEEDS}
    out: list[tuple[str, bytes]] = [("game_id", GAME_ID)]
    out += [(f"card point of instance {i}", point) for i, point in enumerate(start)]
    for s, seed in SEEDS.items():
        m = mine[s]
        out += [
            (f"seat {s} shuffle seed (shuffle 1)", seed),
            (f"seat {s} commitment", sealed.commitment(GAME_ID, 1, s, seed)),
            (f"seat {s} pass key", m.pass_key),
            (f"seat {s} order (one byte a position)", bytes(m.order)),
            (f"seat {s} position keys 0-3", b"".join(m.position_keys)),
        ]
    for stage, s, deck in sealed.honest_passes(start, list(SEEDS), mine):
        out.append((f"after seat {s}'s {stage} pass (4 points)", b"".join(deck)))
    table = sealed.card_table(GAME_ID, range(CARDS))
    keys = [mine[s].position_keys[0] for s in SEEDS]
    opened = sealed.open_card(deck[0], keys, table)
    assert opened is not None
    out.append(("the instance at position 0 (one byte)", bytes([opened])))
    return out


def render() -> str:
    return block(vectors())


if __name__ == "__main__":
    print(render())
