"""The lobby before the seating draw: every joiner hears who is in as it changes, and a host
who holds chooses its partner there and starts the draw itself (docs/protocol.md, "The
lobby")."""

from __future__ import annotations

import re
import time
from functools import partial

import trio
import trio.testing
from tables import CODE, FAST, PACKS, Table, wait_until

from crownp2p.core.setup import Setup
from crownp2p.net.errors import NetError
from crownp2p.net.events import LobbyChanged, Seated
from crownp2p.net.handshake import Player
from crownp2p.net.link import Timeouts
from crownp2p.net.lobby import Guest, Lobby


async def test_the_host_chooses_partners_in_the_lobby_and_every_peer_sees_the_same(rules4):
    table = Table(rules4, seed=5)
    lobbies: dict[int, list[LobbyChanged]] = {order: [] for order in range(4)}  # 0: the host
    seated: dict[int, Seated] = {}
    held: list[Lobby] = []

    def hear(order: int, event: object) -> None:
        if isinstance(event, LobbyChanged):
            lobbies[order].append(event)
        elif isinstance(event, Seated):
            seated[order] = event

    def last(order: int) -> LobbyChanged | None:
        return lobbies[order][-1] if lobbies[order] else None

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = partial(
                table.host, on_event=partial(hear, 0), hold=True, lobby_ready=held.append
            )
            table.ready = await nursery.start(host)
            for order in range(1, 4):
                join = partial(table.join, order, table.ready.port, on_event=partial(hear, order))
                await nursery.start(join)
            everyone = ("host", "joiner1", "joiner2", "joiner3")
            await wait_until(
                lambda: all(getattr(last(o), "names", ()) == everyone for o in lobbies)
            )
            (lobby,) = held
            await trio.sleep(0.2)  # full, but held: the draw waits for the host
            assert lobby.draw is None and not seated
            assert all(last(o).teams == () for o in lobbies)  # the draw would choose partners

            lobby.choose_partner(3, "joiner3")
            paired = ((0, 3), (1, 2))
            await wait_until(lambda: all(last(o).teams == paired for o in lobbies))
            lobby.start()
            await wait_until(lambda: len(seated) == 4)
            nursery.cancel_scope.cancel()

    (names,) = {event.names for event in seated.values()}  # every peer: the same seats
    assert sorted(event.seat for event in seated.values()) == [0, 1, 2, 3]
    assert (names.index("host") - names.index("joiner3")) % 2 == 0  # the same side
    assert (names.index("joiner1") - names.index("joiner2")) % 2 == 0
    for session in table.sessions.values():  # the transcript carries the chosen teams
        teams = {
            frozenset(session.info.names[session.info.statics.index(k)] for k in team)
            for team in session.info.draw.teams
        }
        assert teams == {frozenset({"host", "joiner3"}), frozenset({"joiner1", "joiner2"})}


async def test_a_partner_who_leaves_before_the_draw_is_no_partner(rules4):
    table = Table(rules4)
    held: list[Lobby] = []
    heard: list[LobbyChanged] = []

    def hear(event: object) -> None:
        if isinstance(event, LobbyChanged):
            heard.append(event)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = partial(table.host, on_event=hear, hold=True, lobby_ready=held.append)
            table.ready = await nursery.start(host)
            leaving = trio.CancelScope()

            async def join_then_leave(task_status=trio.TASK_STATUS_IGNORED) -> None:
                with leaving:
                    await table.join(1, table.ready.port, task_status=task_status)

            await nursery.start(join_then_leave)
            for order in (2, 3):
                await nursery.start(table.join, order, table.ready.port)
            await wait_until(lambda: len(heard[-1].names) == 4)
            (lobby,) = held
            lobby.choose_partner(1, "joiner1")
            await wait_until(lambda: heard[-1].teams == ((0, 1), (2, 3)))
            leaving.cancel()
            await wait_until(lambda: heard[-1].names == ("host", "joiner2", "joiner3"))
            assert heard[-1].teams == () and lobby.partner is None
            nursery.cancel_scope.cancel()


async def test_a_joiner_refuses_a_table_whose_partners_are_not_those_the_lobby_showed(rules4):
    table = Table(rules4, seed=5)
    held: list[Lobby] = []
    shown: dict[int, LobbyChanged] = {}
    said: list[str] = []

    def hear(order: int, event: object) -> None:
        if isinstance(event, LobbyChanged):
            shown[order] = event

    try:
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                host = partial(table.host, hold=True, lobby_ready=held.append)
                table.ready = await nursery.start(host)
                for order in range(1, 4):
                    hears = partial(hear, order)
                    await nursery.start(
                        partial(table.join, order, table.ready.port, on_event=hears)
                    )
                await wait_until(
                    lambda: len(shown) == 3 and all(e.names[3:] for e in shown.values())
                )
                (lobby,) = held
                lobby.choose_partner(3, lobby.names[3])
                await wait_until(lambda: all(e.teams for e in shown.values()))
                host_key, *guests = [lobby.host[0], *lobby.guests]
                # the host changes its mind once every joiner has seen the pairs: too late
                lobby.teams = lambda: ((host_key, guests[0]), (guests[1], guests[2]))
                lobby.start()
    except* NetError as group:
        said = [str(err) for err in group.exceptions]
    assert (
        "the table cannot be played here: the table's partners are not those its lobby showed"
        in said
    )


async def test_news_that_comes_while_the_lobby_is_being_sent_is_sent_too():
    """The host chooses a partner while a guest's task is still sending it the lobby as it
    was: the guest is then sent the new lobby as well, not left with the old one."""
    lobby = Lobby(4, Timeouts(keepalive=0.5), (b"h" * 32, b"c" * 32), None, hold=True)
    for n in (1, 2, 3):
        key = bytes([n]) * 32
        lobby.guests[key] = Guest(Player(f"joiner{n}", 1, key, key), ("127.0.0.1", 1))
    sent: list[dict] = []

    class Framed:  # a guest's link that takes a checkpoint while it sends
        async def send(self, msg: dict) -> None:
            sent.append(msg)
            if len(sent) == 1:
                lobby.choose_partner(3, "joiner3")  # news during the send
            await trio.sleep(0)

        async def receive(self) -> None:
            await trio.sleep_forever()

    framed = Framed()
    guest = lobby.guests[bytes([1]) * 32]
    guest.framed = framed
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.attend, guest, framed)
        await wait_until(lambda: len(sent) == 2)
        nursery.cancel_scope.cancel()
    # (without the news sent, the second message is the ping of a quiet line)
    assert [(m["t"], m.get("teams")) for m in sent] == [
        ("lobby", []),
        ("lobby", [[0, 3], [1, 2]]),
    ]


# ---------------------------------------------------------------------- the lobby's screen


def test_a_person_hosting_a_team_table_chooses_a_partner_in_the_lobby_and_starts(rules4):
    """run_shell with the lobby screen: the host, a person, waits in the lobby for three bots,
    types `partner joiner3` and `start`; every peer is seated with those pairs, and the table
    opens saying so. Then the person leaves (resigning)."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from crownp2p.net.deciders import LateBot
    from crownp2p.net.seating import host_game, join_game
    from crownp2p.shell.lobby_screen import LobbyScreen
    from crownp2p.shell.net_table import run_shell
    from crownp2p.shell.render import plain

    lobby = LobbyScreen(4, hosting=True, holds=True)
    seated: dict[str, Seated] = {}
    drawn: list[str] = []  # the lobby's screen as the person starts
    script = ["partner joiner3", "start"]

    def heard(name: str, event: object) -> None:
        if isinstance(event, Seated):
            seated[name] = event

    async def start(session_ready, on_event):
        def host_heard(event: object) -> None:
            heard("host", event)
            on_event(event)

        async def joiner(n: int) -> None:
            await join_game(
                rules4,
                "127.0.0.1",
                port,
                code=CODE,
                decider=LateBot("random", n),
                packs=PACKS,
                name=f"joiner{n}",
                timeouts=FAST,
                test_seed=n,
                on_event=partial(heard, f"joiner{n}"),
            )

        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                ready = await nursery.start(
                    partial(
                        host_game,
                        rules4,
                        Setup(),
                        decider=None,
                        packs=PACKS,
                        bind="127.0.0.1",
                        code=CODE,
                        timeouts=FAST,
                        test_seed=5,
                        hold=True,
                        lobby_ready=lobby.control,
                        on_event=host_heard,
                        session_ready=session_ready,
                    )
                )
                port = ready.port
                for n in (1, 2, 3):
                    nursery.start_soon(joiner, n)
                # the host's own outcome ends the table; the bots' services end with it
                return None

    with create_pipe_input() as pipe:

        def before_prompt(shell: object) -> None:
            partnered = script == ["start"] and lobby.teams  # the choice came back: start
            if shell is lobby and lobby.full and (len(script) == 2 or partnered):
                line = script.pop(0)
                if line == "start":
                    drawn.append(plain(lobby.screen(80)))
                pipe.send_text(line + "\r")
            elif shell is lobby or not shell.legal():  # waiting: empty lines do nothing
                time.sleep(0.005)
                pipe.send_text("\r")
            else:
                pipe.send_text("quit\ry\r")

        result, table = run_shell(
            start,
            on_event=lambda e: None,
            unicode=False,
            input=pipe,
            output=DummyOutput(),
            before_prompt=before_prompt,
            lobby=lobby,
        )
    result.unwrap()
    assert "1. host (host)" in drawn[0] and "joiner3\n" in drawn[0]
    assert re.search(r"Partners: host and joiner3 against joiner(1|2) and joiner(2|1);", drawn[0])
    (names,) = {event.names for event in seated.values()}  # every peer: the same seats
    assert len(seated) == 4
    assert (names.index("host") - names.index("joiner3")) % 2 == 0
    assert table is not None
    assert "your partner is joiner3" in table.driver.preface[0]


def test_the_lobby_screen_lists_who_is_in_then_the_seats() -> None:
    from crownp2p.net.events import Waiting
    from crownp2p.shell.lobby_screen import LobbyScreen
    from crownp2p.shell.render import plain

    lobby = LobbyScreen(0, hosting=False)
    told: list[list[str]] = []
    lobby.listen(lambda reply: told.append(reply.lines))
    assert plain(lobby.screen()).endswith("Joining the table...")
    lobby.on_event(Waiting(4))
    lobby.on_event(LobbyChanged(("ann", "bob"), 4, ()))
    screen = plain(lobby.screen())
    assert screen.splitlines()[:5] == [
        "The table: 2 of 4 in",
        "  1. ann (host)",
        "  2. bob",
        "  …",
        "  …",
    ]
    assert "Partners: the seating draw decides" in screen
    assert screen.endswith("Waiting for 2 more to join...")
    assert told[0] == ["in at a table of 4: waiting for the others and the seating draw"]
    assert lobby.handle("partner ann").lines == ["Only the host chooses partners and starts."]
    assert lobby.handle("start").lines == ["Only the host chooses partners and starts."]
    assert lobby.handle("dance").lines == [
        "There is no 'dance' here: `help` lists what you can do."
    ]
    assert lobby.handle("quit").quit

    lobby.on_event(LobbyChanged(("ann", "bob", "cy", "di"), 4, ((0, 2), (1, 3))))
    assert "Partners: ann and cy against bob and di" in plain(lobby.screen())
    lobby.on_event(Seated(1, ("cy", "bob", "ann", "di"), (0, 1, 0, 1), 2))
    screen = plain(lobby.screen()).splitlines()
    assert screen[1:5] == [
        "  seat 0  blue  cy",
        "  seat 1  gold  bob (you)",
        "  seat 2  blue  ann",
        "  seat 3  gold  di",
    ]


async def test_the_hosts_lobby_screen_names_a_partner_by_name_or_number() -> None:
    from crownp2p.shell.lobby_screen import LobbyScreen
    from crownp2p.shell.net_table import in_trio

    calls: list[tuple] = []

    class Held:  # the net lobby's side the screen uses
        def choose_partner(self, place: int, name: str) -> None:
            calls.append(("partner", place, name))

        def start(self) -> None:
            calls.append(("start",))

    lobby = LobbyScreen(4, hosting=True, holds=True)
    lobby.control(Held())
    lobby.call = in_trio()  # as the shell's bridge sets it
    lobby.on_event(LobbyChanged(("ann", "bob", "bob"), 4, ()))
    assert lobby.handle("start").lines == ["Not yet: 3 of 4 are in."]
    assert lobby.handle("partner bob").lines == [
        "More than one player here is called bob: give the number."
    ]
    assert lobby.handle("partner 3").lines == ["Your partner: bob."]
    assert lobby.handle("partner draw").lines == ["The seating draw will choose the partners."]
    lobby.on_event(LobbyChanged(("ann", "bob", "bob", "cy"), 4, ()))
    assert lobby.handle("partner cy").lines == ["Your partner: cy."]
    assert lobby.handle("start").lines == ["The seating draw begins."]
    assert lobby.handle("partner bob").lines == ["The seating draw has begun."]
    await trio.testing.wait_all_tasks_blocked()  # the calls run in the trio run, in order
    assert calls == [("partner", 2, "bob"), ("partner", 0, "ann"), ("partner", 3, "cy"), ("start",)]
