"""Finding a table on the LAN (net/discovery.py): the beacon's bytes, a listener's bounded list,
two tables heard over the loopback broadcast address, one closing, and beacons that lie."""

from __future__ import annotations

import functools
import json
import logging
import socket
from pathlib import Path

import msgpack
import pytest
import trio
from tables import CODE, PACKS, Table, wait_until

from crownp2p.net import discovery
from crownp2p.net.discovery import (
    MAGIC,
    MAX_TABLES,
    Announcement,
    BadBeacon,
    Goodbye,
    Tables,
    decode,
    encode,
    hear,
)
from crownp2p.net.messages import PROTOCOL_VERSION
from crownp2p.net.seating import Announced
from crownp2p.shell import cli, net_commands

ANN = Announcement("ann's table", "ann", "10.0.0.5", 41000, "standard", 2, 1)
LOG = "crownp2p.net"


def datagram(fields: dict, version: int = 1) -> bytes:
    return MAGIC + bytes([version]) + msgpack.packb(fields, use_bin_type=True)


def test_a_beacon_reads_back_as_it_was_sent() -> None:
    data = encode(ANN)
    assert data.startswith(b"CRWN\x01") and len(data) <= discovery.MAX_BEACON
    assert decode(data, "10.0.0.5") == ANN
    assert decode(encode(Goodbye("10.0.0.5", 41000)), "10.0.0.5") == Goodbye("10.0.0.5", 41000)


GOOD = {"t": "table", **ANN.to_json()}


@pytest.mark.parametrize(
    "data, source, kind",
    [
        (b"hello there", "10.0.0.5", "garbage"),
        (b"CRWN", "10.0.0.5", "garbage"),
        (b"CRWN\x01\xc1", "10.0.0.5", "garbage"),
        (datagram(GOOD, version=2), "10.0.0.5", "version"),
        (datagram(GOOD) + b"x" * 600, "10.0.0.5", "size"),
        (datagram(GOOD), "10.0.0.66", "spoofed"),
        (datagram(GOOD), "127.0.0.1", "spoofed"),
        (datagram({**GOOD, "taken": 5, "seats": 2}), "10.0.0.5", "absurd"),
        (datagram({**GOOD, "proto": PROTOCOL_VERSION + 1}), "10.0.0.5", "protocol"),
        (datagram({**GOOD, "port": 0}), "10.0.0.5", "garbage"),
        (datagram({**GOOD, "address": "10.0.0.500"}), "10.0.0.5", "garbage"),
        (datagram({**GOOD, "name": "x" * 41}), "10.0.0.5", "garbage"),
        (datagram({**GOOD, "code": "abcd-efgh"}), "10.0.0.5", "garbage"),
        (datagram({k: v for k, v in GOOD.items() if k != "host"}), "10.0.0.5", "garbage"),
        (datagram([1, 2]), "10.0.0.5", "garbage"),
    ],
)
def test_a_bad_beacon_is_ignored_with_one_log_line(caplog, data, source, kind) -> None:
    with pytest.raises(BadBeacon) as caught:
        decode(data, source)
    assert caught.value.kind == kind
    tables = Tables()
    with caplog.at_level(logging.WARNING, logger=LOG):
        tables.heard(data, source, 0.0)
        tables.heard(data, source, 0.1)  # the same again: no second line
    assert tables.current(0.2) == []
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and lines[0].startswith(f"ignored a beacon from {source}: ")


def test_tables_expire_say_goodbye_and_stay_bounded(caplog) -> None:
    tables = Tables(expiry=4.0)
    other = Announcement("bob's den", "bob", "10.0.0.6", 41001, "team", 4, 3)
    tables.heard(encode(ANN), "10.0.0.5", 0.0)
    tables.heard(encode(other), "10.0.0.6", 1.0)
    assert tables.current(2.0) == [ANN, other]
    tables.heard(encode(Goodbye("10.0.0.6", 41001)), "10.0.0.6", 2.5)
    assert tables.current(2.5) == [ANN]
    assert tables.current(4.5) == []  # not heard for longer than the expiry
    # a flood of tables (and of garbage) keeps the list and the log bounded
    with caplog.at_level(logging.WARNING, logger=LOG):
        for n in range(5000):
            address = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
            table = Announcement(f"t{n}", "x", address, 1000 + n, "standard", 2, 1)
            tables.heard(encode(table), address, 10.0)
            tables.heard(b"junk", address, 10.0)
    heard = tables.current(10.0)
    assert len(heard) == MAX_TABLES and {t.name for t in heard} >= {"t4999"}
    assert len(caplog.records) == discovery.MAX_WARNINGS


def test_a_table_on_loopback_announces_only_there() -> None:
    assert discovery.target("127.0.0.1", 5) == ("127.255.255.255", 5)
    assert discovery.target("192.168.1.20", 5) == ("255.255.255.255", 5)


# ====================================================================== over loopback


async def listening(nursery: trio.Nursery, tables: Tables) -> int:
    return await nursery.start(functools.partial(hear, tables, port=0, bind="127.255.255.255"))


async def test_two_hosts_are_heard_and_a_closed_one_disappears(rules2, caplog) -> None:
    tables = Tables(expiry=30.0)  # so only the goodbye can take a table off the list
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            port = await listening(nursery, tables)
            first, second = Table(rules2), Table(rules2)
            second_scope = trio.CancelScope()

            async def host_second(task_status=trio.TASK_STATUS_IGNORED) -> None:
                with second_scope:
                    await second.host(
                        task_status=task_status, announced=Announced("second", port, 0.05)
                    )

            one = await nursery.start(
                functools.partial(first.host, announced=Announced("first", port, 0.05))
            )
            two = await nursery.start(host_second)
            await wait_until(lambda: len(tables.current(trio.current_time())) == 2, 0.01)
            heard = tables.current(trio.current_time())
            assert [(t.name, t.host, t.port) for t in heard] == [
                ("first", "host", one.port),
                ("second", "host", two.port),
            ]
            assert all(
                (t.address, t.variant, t.seats, t.taken, t.proto)
                == ("127.0.0.1", "standard", 2, 1, PROTOCOL_VERSION)
                for t in heard
            )
            second_scope.cancel()  # the second table closes: it says goodbye
            await wait_until(lambda: len(tables.current(trio.current_time())) == 1, 0.01)
            assert tables.current(trio.current_time())[0].name == "first"
            # a beacon that lies about where it comes from, and garbage: one line each
            with (
                caplog.at_level(logging.WARNING, logger=LOG),
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as liar,
            ):
                liar.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
                spoofed = Announcement("fake", "eve", "10.1.2.3", 4000, "standard", 2, 1)
                for data in (encode(spoofed), b"\x00" * 40):
                    liar.sendto(data, ("127.255.255.255", port))
                await wait_until(lambda: len(caplog.records) >= 2, 0.01)
            assert [t.name for t in tables.current(trio.current_time())] == ["first"]
            nursery.cancel_scope.cancel()
    lines = [r.getMessage() for r in caplog.records if "ignored a beacon" in r.getMessage()]
    assert any("names 10.1.2.3 but came from 127.0.0.1" in line for line in lines)
    assert any("not a crownp2p beacon" in line for line in lines)


async def test_a_seated_table_says_goodbye(rules2) -> None:
    tables = Tables(expiry=30.0)
    table = Table(rules2, max_turns=1)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await listening(nursery, tables)
            ready = await nursery.start(
                functools.partial(table.host, announced=Announced("t", port, 0.05))
            )
            await wait_until(lambda: tables.current(trio.current_time()) != [], 0.01)
            await nursery.start(table.join, 1, ready.port)
            await wait_until(lambda: tables.current(trio.current_time()) == [], 0.01)
            nursery.cancel_scope.cancel()


async def test_a_host_without_announcement_is_not_heard(rules2) -> None:
    tables = Tables()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await listening(nursery, tables)
            await nursery.start(Table(rules2).host)  # announced=None, as `--no-announce`
            loud = await nursery.start(
                functools.partial(Table(rules2).host, announced=Announced("loud", port, 0.05))
            )
            await wait_until(lambda: tables.current(trio.current_time()) != [], 0.01)
            await trio.sleep(0.3)
            assert [t.port for t in tables.current(trio.current_time())] == [loud.port]
            nursery.cancel_scope.cancel()


# ====================================================================== the commands


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def command(*argv: str) -> int:
    """``crownp2p ARGV`` in a worker thread (its own trio run), while this run hosts tables."""
    return await trio.to_thread.run_sync(cli.main, list(argv))


async def test_join_without_an_address_reaches_the_one_table(rules2, capsys, monkeypatch) -> None:
    monkeypatch.setattr(net_commands, "packs", lambda: PACKS)  # the host's, without the packs
    beacon = free_udp_port()
    table = Table(rules2, max_turns=2)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(
                functools.partial(table.host, announced=Announced("ann's den", beacon, 0.2))
            )
            status = await command(
                "join", "--bot", "random", "--beacon-port", str(beacon), "--code", CODE
            )
            if status != 1:  # the game did not take place: do not wait for the host's end
                nursery.cancel_scope.cancel()
    out, err = capsys.readouterr()
    assert status == 1, err  # unfinished: the host's turn limit
    assert "joining ann's den: host at 127.0.0.1:" in out and "turn limit" in out
    (hosts,) = table.outcomes.values()  # the same game at both ends
    assert f"final hash {hosts.final_hash[:16]}" in out


async def test_tables_hears_the_announced_hosts_only_and_join_asks_which(rules2, capsys) -> None:
    beacon = free_udp_port()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            for name in ("ann's table", "den"):
                await nursery.start(
                    functools.partial(Table(rules2).host, announced=Announced(name, beacon, 0.2))
                )
            await nursery.start(Table(rules2).host)  # as `host --no-announce`
            status = await command("tables", "--json", "--beacon-port", str(beacon), "--wait", "1")
            out, _ = capsys.readouterr()
            assert status == 0
            assert [t["name"] for t in json.loads(out)] == ["ann's table", "den"]
            status = await command(
                "join", "--bot", "random", "--beacon-port", str(beacon), "--wait", "1"
            )
            _, err = capsys.readouterr()
            assert status == 2
            assert "2 tables are open (\"ann's table\", 'den'): choose one with --table" in err
            nursery.cancel_scope.cancel()


def test_host_announces_unless_told_not_to() -> None:
    parse = cli.build_parser().parse_args
    assert net_commands._announced(parse(["host", "--no-announce"])) is None
    assert net_commands._announced(parse(["host", "--name", "ann"])) == Announced(
        "ann's table", discovery.BEACON_PORT
    )
    assert net_commands._announced(parse(["host", "--table", "den"])).table == "den"


def test_no_table_heard_is_one_sentence(capsys) -> None:
    beacon = free_udp_port()
    status = cli.main(["tables", "--beacon-port", str(beacon), "--wait", "0.3"])
    out, _ = capsys.readouterr()
    assert status == 1 and out.startswith("no table announced itself within 0.3 s")
    argv = ["join", "--bot", "random", "--beacon-port", str(beacon), "--wait", "0.3"]
    assert cli.main([*argv, "--table", "den"]) == 2
    assert capsys.readouterr().err == "crownp2p join: no table called 'den' announced itself\n"
    assert cli.main(argv) == 2
    assert "give the table's join code" not in capsys.readouterr().err


def test_the_protocol_page_gives_the_beacons_exact_bytes() -> None:
    page = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    section = page.split("## Finding a table", 1)[1].split("\n## ", 1)[0]
    table = Announcement("ann's table", "ann", "192.168.1.20", 41000, "standard", 2, 1)
    beacon = section.split("```\n", 2)[1]
    bye = section.split("and its `bye` these 41: `", 1)[1].split("`", 1)[0]
    assert bytes.fromhex(beacon) == encode(table)
    assert bytes.fromhex(bye) == encode(Goodbye("192.168.1.20", 41000))


def test_a_person_picks_one_of_several_tables(monkeypatch, capsys) -> None:
    from crownp2p.shell import lan_tables

    heard = [ANN, Announcement("den", "bob", "10.0.0.6", 41001, "standard", 2, 1)]
    answers = iter(["3", "two", "2"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert lan_tables._pick(heard) == heard[1]
    out = capsys.readouterr().out
    assert out.startswith("1. ann's table: ann at 10.0.0.5:41000, standard, 1 of 2 seats taken\n")
    assert out.count("type a number from 1 to 2") == 2


def test_a_name_too_long_for_the_beacon_is_said_before_the_table_opens(capsys) -> None:
    status = cli.main(["host", "--bot", "random", "--bind", "127.0.0.1", "--table", "x" * 41])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""  # nothing listened, nothing was announced
    assert err.startswith("crownp2p host: the table cannot be announced: ")
    assert "41 characters, not 1..40" in err
