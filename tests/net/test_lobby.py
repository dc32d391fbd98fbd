"""The lobby before the seating draw: every joiner hears who is in as it changes, and a host
who holds chooses its partner there and starts the draw itself (docs/protocol.md, "The
lobby")."""

from __future__ import annotations

from functools import partial

import trio
from tables import Table, wait_until

from crownp2p.net.events import LobbyChanged, Seated
from crownp2p.net.lobby import Lobby


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
