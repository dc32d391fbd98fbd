"""The seating draw: the seats (so who moves first and, at four seats, who partners whom) come
from a commit-reveal round between every peer, the host as one of them (docs/protocol.md, "The
seating draw")."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
import trio
from tables import CODE, PACKS, Table, offer_table, wait_until

from crownp2p.net import crypto, draw
from crownp2p.net.errors import NetError
from crownp2p.net.events import Seated
from crownp2p.net.handshake import join_dial
from crownp2p.net.link import FramedStream
from crownp2p.net.messages import make
from crownp2p.shell.cli import main
from crownp2p.shell.lobby_screen import seating_line


async def seat_everyone(table: Table, **host_options) -> list[Seated]:
    """Run the join phase of ``table`` until every peer has heard where it sits; the events,
    the host's first."""
    heard: list[Seated] = []

    def hear(event) -> None:
        if isinstance(event, Seated):
            heard.append(event)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(partial(table.host, on_event=hear, **host_options))
            for order in range(1, table.players):
                await nursery.start(partial(table.join, order, table.ready.port, on_event=hear))
            await wait_until(lambda: len(heard) == table.players)
            nursery.cancel_scope.cancel()
    return heard


def who_sits_where(heard: list[Seated]) -> tuple[str, ...]:
    (names,) = {event.names for event in heard}  # every peer heard the same seats
    assert sorted(event.seat for event in heard) == list(range(len(names)))
    assert {event.host for event in heard} == {names.index("host")}
    return names


# ---------------------------------------------------------------------- the draw itself


def two_peer_draw(nonces: dict[str, bytes]) -> tuple[draw.Draw, dict[bytes, str]]:
    keys = {name: crypto.static_public(crypto.new_static()) for name in nonces}
    commits = sorted((keys[n], draw.commitment(keys[n], nonce)) for n, nonce in nonces.items())
    by_key = {keys[n]: nonce for n, nonce in nonces.items()}
    drawn = draw.Draw(tuple(commits), tuple(by_key[k] for k, _ in commits))
    return drawn, {key: name for name, key in keys.items()}


def test_a_fixed_test_seed_fixes_the_seats_whatever_the_keys() -> None:
    """The keys are fresh each time; the nonces (fixed by the test seed and the names) alone
    decide: test seed 3 puts the host second, test seed 1 first."""
    for seed, host_seat in ((3, 1), (1, 0)):
        for _ in range(5):
            nonces = {n: draw.new_nonce(seed, n) for n in ("host", "player")}
            drawn, names = two_peer_draw(nonces)
            assert [names[k] for k in drawn.seats((0, 1))].index("host") == host_seat


def test_a_nonce_that_does_not_open_is_named() -> None:
    drawn, names = two_peer_draw({"ann": b"a" * 32, "bob": b"b" * 32})
    assert drawn.fault(names, (0, 1)) is None
    bobs = [k for k, n in names.items() if n == "bob"][0]
    forged = tuple(
        b"x" * 32 if k == bobs else n for k, n in zip(drawn.statics, drawn.nonces, strict=True)
    )
    wrong = draw.Draw(drawn.commits, forged).fault(names, (0, 1))
    assert wrong == "the seating draw: bob's nonce does not open its commitment"


# ---------------------------------------------------------------------- over sockets


async def test_over_many_seeds_either_peer_moves_first(rules2) -> None:
    first = set()
    for seed in range(1, 7):
        heard = await seat_everyone(Table(rules2, seed=seed))
        first.add(who_sits_where(heard)[0])
    assert first == {"host", "joiner1"}  # the host is not always first


async def test_the_seats_are_those_the_draw_gives(rules4) -> None:
    table = Table(rules4, seed=3)
    names = who_sits_where(await seat_everyone(table))
    # test seed 3 fixes every nonce, so the seats whatever the keys
    assert names == ("joiner1", "joiner2", "host", "joiner3")
    for session in table.sessions.values():
        info = session.info
        assert draw.seats_fault(info.draw, info.statics, info.names, (0, 1, 0, 1)) is None
        assert info.draw.seats((0, 1, 0, 1)) == info.statics
        assert info.host == 2
    # one rule for the mesh: every joiner dials the host, of two joiners the higher the lower
    dialled = {seat: session.info.dialled for seat, session in table.sessions.items()}
    assert dialled == {0: [2], 1: [0, 2], 2: [], 3: [0, 1, 2]}


async def test_host_teams_fixes_the_partners_and_the_draw_the_rest(rules4) -> None:
    firsts, sides = set(), set()
    for seed in range(1, 7):
        heard = await seat_everyone(Table(rules4, seed=seed), teams="joiner2")
        names = who_sits_where(heard)
        host, partner = names.index("host"), names.index("joiner2")
        assert (host - partner) % 2 == 0  # the same side: seats 0 and 2, or 1 and 3
        firsts.add(names[0])
        sides.add(host % 2)
        ours = next(e for e in heard if e.seat == host)
        assert "your partner is joiner2" in seating_line(ours)
    assert sides == {0, 1}  # either pair may be the first side


async def test_host_teams_names_a_player_at_the_table(rules2, rules4) -> None:
    with pytest.raises(NetError, match="--teams is for a table of two sides of two"):
        await Table(rules2).host(teams="ann")
    said: list[str] = []
    try:
        await seat_everyone(Table(rules4), teams="nobody")
    except* NetError as group:
        said = [str(err) for err in group.exceptions]
    assert "--teams names nobody, but no player at the table is called nobody" in said


def test_the_seating_line_says_who_sits_where_and_who_goes_first() -> None:
    four = Seated(2, ("ann", "bob", "cid", "dee"), (0, 1, 0, 1), 1, sealed=True)
    assert seating_line(four) == (
        "you are seat 2 of 4, blue; ann (blue) moves first; your partner is ann; "
        "sealed decks: no one sees a card the rules hide"
    )
    two = Seated(0, ("ann", "bob"), (0, 1), 1)  # (a host's --open-decks: each player is told)
    assert seating_line(two) == (
        "you are seat 0 of 2, blue; you move first; "
        "open decks: every peer's program holds every card, only screens hide them"
    )


# ---------------------------------------------------------------------- a rogue host


def flip(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


@pytest.mark.parametrize("change", ["omit", "alter"])
async def test_a_draw_without_our_commitment_as_we_sent_it_is_refused(rules2, change) -> None:
    def rogue(commits, joiner):
        if change == "omit":  # another key in its place
            other = crypto.static_public(crypto.new_static())
            return sorted([c for c in commits if c[0] != joiner] + [[other, b"c" * 32]])
        return [[k, flip(c)] if k == joiner else [k, c] for k, c in commits]

    said, reply = await offer_table(rules2, draw=rogue)
    assert "the host's seating draw does not carry our commitment as we sent it" in said
    assert reply["t"] == "error" and reply["code"] == "draw"


@pytest.mark.parametrize(
    "tamper, why",
    [
        (
            lambda t: t | {"seat": t["host"], "host": t["seat"], "statics": t["statics"][::-1]},
            "the seats do not follow from the seating draw",
        ),
        (
            lambda t: (
                t
                | {
                    "nonces": [
                        flip(n) if k != t["statics"][t["seat"]] else n
                        for (k, _), n in zip(t["commits"], t["nonces"], strict=True)
                    ]
                }
            ),
            "the seating draw: host's nonce does not open its commitment",
        ),
        (
            lambda t: (
                t
                | {
                    "commits": [
                        [k, flip(c)] if k != t["statics"][t["seat"]] else [k, c]
                        for k, c in t["commits"]
                    ]
                }
            ),
            "the table's seating draw is not the one we answered",
        ),
        (
            lambda t: t | {"teams": [t["statics"]]},  # one team of both
            "the seating draw's teams do not fill the sides",
        ),
    ],
    ids=["seats", "nonce", "commitment", "teams"],
)
async def test_a_table_whose_draw_does_not_hold_is_refused_by_name(rules2, tamper, why) -> None:
    said, reply = await offer_table(rules2, tamper=tamper)
    assert why in said and "the table cannot be played here" in said
    assert reply["t"] == "error" and reply["code"] == "draw"


async def test_the_host_refuses_an_opening_that_does_not_open_and_frees_the_place(rules2):
    table = Table(rules2)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            framed = FramedStream(await trio.open_tcp_stream("127.0.0.1", table.ready.port))
            await join_dial(
                framed,
                code=CODE,
                name="cheat",
                packs=PACKS,
                listen_port=0,
                commit=draw.commitment(b"k" * 32, b"n" * 32),  # not its key: cannot open
                timeout=2,
            )
            while (sent := await framed.receive())["t"] == "lobby":  # who is in, as it changes
                pass
            assert sent["t"] == "draw"
            await framed.send(make("opening", nonce=b"n" * 32))
            refusal = await framed.receive()
            assert refusal["t"] == "error" and refusal["code"] == "draw"
            await framed.aclose()
            await nursery.start(table.join, 1, table.ready.port)  # the place is free again
            await wait_until(lambda: len(table.outcomes) == 2)
    assert sorted(table.sessions[0].names) == ["host", "joiner1"]


# ---------------------------------------------------------------------- the record


@pytest.fixture(scope="module")
def record(tmp_path_factory, rules2) -> Path:
    path = tmp_path_factory.mktemp("draw") / "host.jsonl"
    table = Table(rules2, seed=3, max_turns=4)
    table.records = {0: path}
    trio.run(table.play)
    return path


def forged(record: Path, tmp_path: Path, change) -> Path:
    lines = record.read_text().splitlines()
    head = json.loads(lines[0])
    change(head["meta"])
    out = tmp_path / "forged.jsonl"
    out.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    return out


def verify_out(path: Path, capsys) -> tuple[int, str]:
    status = main(["verify", str(path)])
    return status, capsys.readouterr().out.strip()


def test_verify_checks_the_seating_draw(record, tmp_path, capsys) -> None:
    status, said = verify_out(record, capsys)
    assert status == 0
    assert said.endswith("and the seats by the seating draw.")

    def nonce(meta) -> None:
        names = dict(zip(meta["statics"], meta["players"], strict=True))
        static = meta["draw"]["commits"][0][0]
        meta["draw"]["nonces"][0] = "00" * 32
        meta["forged"] = names[static]

    path = forged(record, tmp_path, nonce)
    who = json.loads(path.read_text().splitlines()[0])["meta"]["forged"]
    status, out = verify_out(path, capsys)
    assert (status, out) == (1, f"the seating draw: {who}'s nonce does not open its commitment")

    def swap(meta) -> None:
        meta["statics"].reverse()
        meta["players"].reverse()

    status, out = verify_out(forged(record, tmp_path, swap), capsys)
    assert (status, out) == (1, "the seats do not follow from the seating draw")

    status, out = verify_out(forged(record, tmp_path, lambda meta: meta.pop("draw")), capsys)
    assert (status, out) == (1, "the record does not hold the seating draw")
